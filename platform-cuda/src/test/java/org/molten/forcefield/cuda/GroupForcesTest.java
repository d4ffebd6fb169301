package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.BuiltInMolecules;

/**
 * The group kernel (molten_group.cuh: a block per replica, GroupPath) as the force path of uniform replica batches,
 * through the emulator: each replica's energy and forces against the float64 reference student with GpuCheck's
 * bounds (relative force error <= 1e-5, energy error <= 1e-6 of the summed per-atom magnitudes), for ethanol (9 atoms,
 * k_group_n12) and alanine dipeptide (22, k_group_n24) with different perturbed positions per replica; and a short
 * Langevin and a Bussi run on the group path against the same runs on the stage kernels (float32 rounding apart).
 * The student's shape (F 128, T 3, n_rbf 20): the bundled model, random weights of that shape in a build without it.
 */
class GroupForcesTest {
    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        // the group path is the default; the SIMT entries are asked for (auto runs the tc entries for 13-24 atoms)
        System.setProperty(KernelChoices.GROUP_DENSE_PROPERTY, "simt");
    }

    @AfterEach
    void clear() {
        System.clearProperty(KernelChoices.REPLICA_FORCES_PROPERTY);
        System.clearProperty(KernelChoices.GROUP_DENSE_PROPERTY);
    }

    /**
     * With no property set, a uniform batch takes the group kernel with auto's dense products (the emulator plays an
     * sm_90): k_group_n12 for ethanols, the pair-loop entry k_group_n22_tc for alanine dipeptides.
     */
    @Test
    void theDefaultsTakeTheGroupKernelWithTheMeasuredDenseProducts() {
        System.clearProperty(KernelChoices.GROUP_DENSE_PROPERTY);
        for (String[] m : new String[][] {{"ethanol", "k_group_n12"}, {"alanine-dipeptide", "k_group_n22_tc"}}) {
            List<ReplicaStart> starts = replicas(m[0], 2, new DynamicsSpec.VelocityVerlet(0.5), 5);
            try (CudaMdEngine md = new CudaMdEngine(weights(), starts, CudaOptions.defaults())) {
                assertEquals("group (" + m[1] + ")", md.replicaForces(), md.description());
            }
        }
    }

    static StudentWeights weights() {
        try {
            return BundledModel.weights();
        } catch (IllegalStateException | java.io.IOException notInThisBuild) {
            return StudentWeights.random(20261129L);
        }
    }

    /** {@code a} with Gaussian displacements of sigma 0.05 Å (seeded), velocities thermalised at 300 K. */
    /**
     * Two replicas of a random H/C/N/O cluster of {@code atoms} atoms (CudaTestSupport.randomAtoms: seed
     * {@code atomSeed}, a box of {@code side} Å, atoms at least 1.1 Å apart), replica r perturbed with seed
     * {@code seed + r}, which also seeds its velocity-Verlet dynamics (0.5 fs; 3N - 3 degrees of freedom, 3 for one atom).
     */
    static List<ReplicaStart> twoReplicas(int atoms, long atomSeed, double side, long seed) {
        List<ReplicaStart> starts = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Atoms a = perturbed(CudaTestSupport.randomAtoms(atomSeed, atoms, side, 1.1, null), seed + r);
            starts.add(new ReplicaStart(a, new DynamicsSpec.VelocityVerlet(0.5), seed + r, Math.max(3, 3 * atoms - 3)));
        }
        return starts;
    }

    static Atoms perturbed(Atoms a, long seed) {
        Atoms b = GpuCheck.thermalise(a.copy(), seed);
        RandomStream rng = new RandomStream(seed * 31 + 7);
        double[] r = b.positions();
        for (int i = 0; i < r.length; i++) {
            r[i] += 0.05 * rng.nextGaussian();
        }
        return b;
    }

    static List<ReplicaStart> replicas(String molecule, int count, DynamicsSpec d, long seed) {
        List<ReplicaStart> out = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            Atoms a = perturbed(BuiltInMolecules.load(molecule), seed + r);
            out.add(new ReplicaStart(a, d, seed + r, 3 * a.size() - 3));
        }
        return out;
    }

    static CudaOptions stages(int k) {
        return CudaOptions.defaults().withMode(CudaOptions.Mode.STAGES).withStepsPerLaunch(k);
    }

    @Test
    void ethanolReplicasEqualTheReferenceStudent() {
        against("ethanol", 3, "k_group_n12");
    }

    @Test
    void alanineDipeptideReplicasEqualTheReferenceStudent() {
        against("alanine-dipeptide", 2, "k_group_n24");
    }

    /**
     * Atom counts that are no multiple of the row tile (9, 11): the last dense tile computes rows past the molecule
     * and drops them (random H/C/N/O clusters of 5 and 16 atoms, two replicas each).
     */
    @Test
    void partialRowTilesEqualTheReferenceStudent() {
        for (int atoms : new int[] {5, 16}) {
            against("cluster of " + atoms, twoReplicas(atoms, 60 + atoms, atoms == 5 ? 3.0 : 5.0, 70),
                    GroupPath.kernel(atoms));
        }
    }

    /**
     * Every size k_group_n12 serves, 1..12 atoms (a random cluster each, two replicas): the kernel traps where
     * GroupPath.sharedBytes falls short of grp::GroupLayout (its U|V tiles of 14 read past the dense tiles' rows at
     * 5..7 atoms), and the partial tiles of 9, 14 and 27 rows drop their junk rows. One atom has no pairs: zero force.
     */
    @Test
    void everySizeOfTheTwelveSlotEntryEqualsTheReferenceStudent() {
        for (int atoms = 1; atoms <= GroupPath.N12_ATOMS; atoms++) {
            List<ReplicaStart> starts = twoReplicas(atoms, 80 + atoms, atoms <= 7 ? 3.0 : 4.0, 90);
            if (atoms > 1) {
                against("cluster of " + atoms, starts, "k_group_n12");
                continue;
            }
            StudentWeights w = weights();
            try (CudaMdEngine md = new CudaMdEngine(w, starts, stages(1))) {
                assertEquals("group (k_group_n12)", md.replicaForces(), md.description());
                for (int r = 0; r < starts.size(); r++) {
                    GroupCheck.ReplicaError e = GroupCheck.ReplicaError.of(md, r, starts.get(r), new ReferenceStudent(w));
                    String what = String.format(Locale.ROOT, "one atom, replica %d: max |F| %.2e eV/A, E rel err %.2e", r,
                            e.maxAbs(), e.energy());
                    System.out.println("GroupForcesTest " + what);
                    assertTrue(e.maxAbs() == 0 && e.energy() <= 1e-6, what);
                }
            }
        }
    }

    /** A batch of replicas of different sizes keeps the stage kernels, and says why. */
    @Test
    void aMixedBatchKeepsTheStages() {
        List<ReplicaStart> starts = new ArrayList<>(replicas("ethanol", 1, new DynamicsSpec.VelocityVerlet(0.5), 3));
        Atoms c = perturbed(CudaTestSupport.randomAtoms(65, 5, 3.0, 1.1, null), 4);
        starts.add(new ReplicaStart(c, new DynamicsSpec.VelocityVerlet(0.5), 4, 12));
        try (CudaMdEngine md = new CudaMdEngine(weights(), starts, stages(1))) {
            assertEquals("stages (replicas of different sizes)", md.replicaForces());
        }
    }

    /**
     * On the group path the force stages' own buffers are not allocated (their addresses are 0 in the parameter block):
     * the activations (~37 KB an atom: 347 MB for 1,024 ethanols), the neighbour slots and the K-split scratch; the
     * stage path of the same batch has them. mdOnTheGroupPathEqualsTheStageKernels runs steps on both.
     */
    @Test
    void theGroupPathHoldsNoStageBuffers() {
        // 3 ethanols, 27 atoms: the large-system layout (from 25 atoms), whose K-split scratch the stages need
        List<ReplicaStart> starts = replicas("ethanol", 3, new DynamicsSpec.VelocityVerlet(0.5), 7);
        for (String path : new String[] {"group", "stages"}) {
            System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, path);
            try (CudaMdEngine md = new CudaMdEngine(weights(), starts, stages(1))) {
                assertTrue(md.replicaForces().startsWith(path), md.replicaForces());
                byte[] net = md.forceParameters();
                for (String buffer : new String[] {"act", "nbr_idx", "geo", "fc", "kidx", "rbf", "gacc", "kpart"}) {
                    assertEquals(path.equals("group"), NetLayout.get(net, buffer) == 0, path + ": " + buffer);
                }
                assertTrue(NetLayout.get(net, "force") != 0 && NetLayout.get(net, "e_atom") != 0, path);
            }
        }
    }

    static void against(String molecule, int count, String kernel) {
        against(molecule, replicas(molecule, count, new DynamicsSpec.VelocityVerlet(0.5), 29), kernel);
    }

    static void against(String molecule, List<ReplicaStart> starts, String kernel) {
        StudentWeights w = weights();
        int count = starts.size();
        ReferenceStudent ref = new ReferenceStudent(w);
        try (CudaMdEngine md = new CudaMdEngine(w, starts, stages(1))) {
            assertEquals("group (" + kernel + ")", md.replicaForces(), md.description());
            for (int r = 0; r < count; r++) {
                GroupCheck.ReplicaError e = GroupCheck.ReplicaError.of(md, r, starts.get(r), ref);
                String what = String.format(Locale.ROOT, "%s replica %d (%s): F rel err %.2e (max |dF| %.2e eV/A),"
                        + " E rel err %.2e (E %.6f vs %.6f eV)", molecule, r, kernel, e.force(), e.maxAbs(), e.energy(),
                        e.device(), e.reference());
                System.out.println("GroupForcesTest " + what);
                assertTrue(e.ok(), what);
            }
        }
    }

    /**
     * 20 Langevin steps of two ethanols (the O step in its own stage) and 10 Bussi steps of two dipeptides (the
     * thermostat around the step), in captured graphs of 5 steps: the group path equals the stage kernels to float32
     * rounding.
     */
    @Test
    void mdOnTheGroupPathEqualsTheStageKernels() {
        StudentWeights w = weights();
        compareMd(w, replicas("ethanol", 2, new DynamicsSpec.Langevin(0.5, 300, 0.02, true), 41), 20, "k_group_n12");
        compareMd(w, replicas("alanine-dipeptide", 2, new DynamicsSpec.Bussi(0.5, 300, 20), 43), 10, "k_group_n24");
    }

    static void compareMd(StudentWeights w, List<ReplicaStart> starts, int steps, String kernel) {
        System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "group");
        long captures = GpuStatus.snapshot().captures();
        List<Atoms> group = run(w, starts, steps, "group (" + kernel + ")");
        assertTrue(GpuStatus.snapshot().captures() > captures, "the group path's steps were captured into a graph");
        List<Atoms> stage = stageRun(w, starts, steps);
        for (int r = 0; r < starts.size(); r++) {
            double dx = MoleculeThermostatTest.maxDev(group.get(r).positions(), stage.get(r).positions());
            double dv = MoleculeThermostatTest.maxDev(group.get(r).velocities(), stage.get(r).velocities());
            String what = String.format(Locale.ROOT, "%s replica %d after %d %s steps: group vs stages max |dx| %.2e A,"
                    + " max |dv| %.2e A/fs", kernel, r, steps, starts.get(r).dynamics().name(), dx, dv);
            System.out.println("GroupForcesTest " + what);
            assertTrue(dx < 1e-5 && dv < 1e-5, what);
        }
    }

    /**
     * The stage kernels' run of {@code starts}, once per JVM for the same weights, starts and steps: GroupForcesTest's
     * simt run and GroupForcesTcTest's tc run of two ethanols compare against the same stage run (20 Langevin steps),
     * the emulator's slowest part of both (~3 s a step). Copies are handed out; the stage path takes neither
     * group-dense property into account (its kernels are the stage entries; run() checks that the stages ran).
     */
    static synchronized List<Atoms> stageRun(StudentWeights w, List<ReplicaStart> starts, int steps) {
        StringBuilder key = new StringBuilder().append(System.identityHashCode(w)).append('/').append(steps);
        for (ReplicaStart s : starts) {
            Atoms a = s.atoms();
            key.append('|').append(Arrays.toString(a.atomicNumbers())).append(Arrays.toString(a.positions()))
                    .append(Arrays.toString(a.velocities())).append(Arrays.toString(a.massesAmu())).append(s.dynamics())
                    .append(s.seed()).append(',').append(s.degreesOfFreedom()).append(s.constraints());
        }
        List<Atoms> done = STAGE_RUNS.get(key.toString());
        if (done == null) {
            String before = System.getProperty(KernelChoices.REPLICA_FORCES_PROPERTY);
            System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "stages");
            try {
                done = run(w, starts, steps, "stages (" + KernelChoices.REPLICA_FORCES_PROPERTY + "=stages)");
            } finally {
                if (before == null) {
                    System.clearProperty(KernelChoices.REPLICA_FORCES_PROPERTY);
                } else {
                    System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, before);
                }
            }
            STAGE_RUNS.put(key.toString(), done);
        }
        List<Atoms> out = new ArrayList<>();
        for (Atoms a : done) {
            out.add(a.copy());
        }
        return out;
    }

    private static final Map<String, List<Atoms>> STAGE_RUNS = new HashMap<>();

    private static List<Atoms> run(StudentWeights w, List<ReplicaStart> starts, int steps, String path) {
        List<Atoms> out = new ArrayList<>();
        try (CudaMdEngine md = new CudaMdEngine(w, starts, stages(5))) {
            assertEquals(path, md.replicaForces());
            md.advance(steps);
            for (int r = 0; r < starts.size(); r++) {
                Atoms a = starts.get(r).atoms().copy();
                md.read(r, a, null);
                out.add(a);
            }
        }
        return out;
    }
}
