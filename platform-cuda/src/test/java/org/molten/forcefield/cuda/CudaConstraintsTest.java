package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.ConstraintSet;
import org.molten.core.dynamics.DeviceConstraintFailureException;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.integrators.Integrator;
import org.molten.integrators.ReplicaSet;
import org.molten.integrators.Simulation;
import org.molten.integrators.SimulationBlowUpException;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.constraints.ConstraintSolver;
import org.molten.integrators.constraints.Constraints;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.structures.BuiltInMolecules;

/**
 * Bond constraints on the cuda platform (RATTLE and SETTLE in the stage path's K-step graph,
 * molten_constraints.cuh) through the emulator, against the host's ConstraintSolver: the same NVE
 * trajectory as the cpu platform (to the float32 forces of the device), lengths held to the host's
 * tolerance and velocities tangent at every K-step boundary under NVE and Langevin, replicas, rigid
 * waters by SETTLE, restart bit for bit, the canonical kinetic energy of the reduced degrees of
 * freedom, and a constraint that cannot be met stopping the run as the host's does.
 */
class CudaConstraintsTest {
    private static final double T = 300;

    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    private static StudentWeights weights() {
        return CudaDynamicsTest.weights(7);
    }

    /** Three waters about 2.9 Å apart, Å. */
    static Atoms waterCluster() {
        int[] z = {8, 1, 1, 8, 1, 1, 8, 1, 1};
        double[] r = {
            0.000, 0.000, 0.000, 0.957, 0.000, 0.000, -0.240, 0.927, 0.000,
            2.900, 0.300, 0.200, 3.350, 1.120, 0.330, 3.300, -0.250, 0.880,
            1.300, 2.600, -0.400, 0.700, 2.000, -0.050, 1.250, 3.380, 0.150};
        return Atoms.of(z, r, null);
    }

    private static Simulation.Builder builder(Atoms atoms, Integrator integrator, long seed, String platform,
                                              List<String> warnings) {
        return Simulation.builder(atoms, new ReferenceStudent(weights()), integrator).constraints(Constraints.hBonds())
                .seed(seed).temperature(T).platform(platform).warnings(warnings::add);
    }

    /** Steps one at a time (each a launch on the device), checking the constraints at every boundary. */
    private static void stepChecking(Simulation sim, int steps, String what) {
        ConstraintSolver c = sim.constraints();
        for (int s = 0; s < steps; s++) {
            sim.step(1);
            Atoms a = sim.atoms();
            double len = c.maxRelativeLengthError(a);
            double rate = c.maxBondVelocity(a);
            assertTrue(len <= 1e-9, what + " step " + sim.stepCount() + ": relative length error " + len);
            assertTrue(rate <= 1e-8, what + " step " + sim.stepCount() + ": bond velocity " + rate + " A/fs");
        }
    }

    private static double maxDifference(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    /**
     * Ethanol with h-bonds (6 pairs) under NVE at 1 fs: the cuda platform runs it (no fallback warning, the stage
     * path) with every length within 1e-9 (relative) and every bond velocity below 1e-8 Å/fs after each of 30 steps,
     * and follows the cpu platform's trajectory to the device's float32 forces.
     */
    @Test
    void ethanolNveFollowsTheHostWithLengthsHeld() {
        List<String> warnings = new ArrayList<>();
        try (Simulation gpu = builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0), 5, "cuda", warnings).build();
             Simulation cpu = builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0), 5, "cpu", warnings).build()) {
            assertEquals("cuda", gpu.platformName(), String.join("; ", warnings));
            assertTrue(warnings.isEmpty(), String.join("; ", warnings));
            assertEquals(6, gpu.constraintSet().pairCount());
            stepChecking(gpu, 30, "ethanol NVE on cuda");
            cpu.step(30);
            double dr = maxDifference(cpu.atoms().positions(), gpu.atoms().positions());
            double dv = maxDifference(cpu.atoms().velocities(), gpu.atoms().velocities());
            System.out.printf(Locale.ROOT, "ethanol h-bonds NVE, 30 steps of 1 fs: cuda - cpu positions %.2e A, velocities"
                    + " %.2e A/fs%n", dr, dv);
            assertTrue(dr < 1e-5, "positions differ by " + dr + " A from the cpu platform's");
            assertTrue(dv < 1e-6, "velocities differ by " + dv + " A/fs from the cpu platform's");
            assertEquals(cpu.totalEnergyEv(), gpu.totalEnergyEv(), 1e-4, "total energy");
        }
    }

    /**
     * The pair solve in global memory (what a replica too large for the staged shared memory runs): the same
     * trajectory as the staged one, to the last bit (the same float64 operations in the same order).
     */
    @Test
    void globalMemorySolveEqualsTheStagedOne() {
        List<String> warnings = new ArrayList<>();
        double[][] out = new double[2][];
        int saved = DeviceConstraints.sharedLimitBytes;
        try {
            for (int staged = 0; staged < 2; staged++) {
                DeviceConstraints.sharedLimitBytes = staged == 1 ? saved : 0;
                try (Simulation gpu = builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0,
                        LangevinThermostat.of(T, 0.05)), 5, "cuda", warnings).build()) {
                    assertEquals("cuda", gpu.platformName(), String.join("; ", warnings));
                    gpu.step(6);
                    out[staged] = gpu.atoms().positions().clone();
                }
            }
        } finally {
            DeviceConstraints.sharedLimitBytes = saved;
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(out[1], out[0], "global-memory against staged solve");
    }

    /**
     * Ethanol with h-bonds under Langevin BAOAB (O projected), Bussi and the Nosé–Hoover chain (uniform scalings
     * around the step): lengths held and velocities tangent at every step.
     */
    @Test
    void ethanolThermostatsHoldTheConstraints() {
        List<String> warnings = new ArrayList<>();
        try (Simulation langevin = builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0,
                LangevinThermostat.of(T, 0.05)), 6, "cuda", warnings).build();
             Simulation bussi = builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0,
                     new org.molten.integrators.thermostats.BussiThermostat(T, 20)), 6, "cuda", warnings).build();
             Simulation nhc = builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0,
                     new org.molten.integrators.thermostats.NoseHooverChain(T, 20)), 6, "cuda", warnings).build()) {
            assertEquals("cuda", langevin.platformName(), String.join("; ", warnings));
            assertEquals("cuda", bussi.platformName(), String.join("; ", warnings));
            assertEquals(3 * 9 - 6 - 6, bussi.degreesOfFreedom());
            stepChecking(langevin, 20, "ethanol Langevin on cuda");
            stepChecking(bussi, 8, "ethanol Bussi on cuda");
            stepChecking(nhc, 8, "ethanol Nose-Hoover chain on cuda");
        }
    }

    /**
     * Three replicas of ethanol of different seeds bound together (one K-step graph), NVE: each follows the same
     * replica on the cpu platform, its constraints held.
     */
    @Test
    void replicasFollowTheHost() {
        int reps = 3;
        List<String> warnings = new ArrayList<>();
        try (ReplicaSet gpu = ReplicaSet.of(reps, k -> builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0), 20 + k,
                "cuda", warnings)).platform("cuda").build();
             ReplicaSet cpu = ReplicaSet.of(reps, k -> builder(CudaDynamicsTest.ethanol(), new VelocityVerlet(1.0), 20 + k,
                     "cpu", warnings)).platform("cpu").threads(1).build()) {
            assertEquals("cuda", gpu.platformName(), String.join("; ", warnings));
            gpu.step(20);
            cpu.step(20);
            for (int k = 0; k < reps; k++) {
                Simulation g = gpu.replica(k);
                Atoms a = g.atoms();
                assertTrue(g.constraints().maxRelativeLengthError(a) <= 1e-9, "replica " + k + " lengths");
                assertTrue(g.constraints().maxBondVelocity(a) <= 1e-8, "replica " + k + " bond velocities");
                double dr = maxDifference(cpu.replica(k).atoms().positions(), a.positions());
                assertTrue(dr < 1e-4, "replica " + k + ": positions differ by " + dr + " A from the cpu platform's");
            }
        }
    }

    /**
     * Three rigid waters (h-bonds makes them rigid: SETTLE, positions analytic, velocities by the 3 x 3 solve) under
     * NVE and Langevin: O-H and H-H held to 1e-9 at every step, the NVE trajectory the cpu platform's.
     */
    @Test
    void rigidWatersBySettle() {
        List<String> warnings = new ArrayList<>();
        try (Simulation nve = builder(waterCluster(), new VelocityVerlet(2.0), 8, "cuda", warnings).build();
             Simulation cpu = builder(waterCluster(), new VelocityVerlet(2.0), 8, "cpu", warnings).build();
             Simulation langevin = builder(waterCluster(), new VelocityVerlet(2.0, LangevinThermostat.of(T, 0.05)), 9,
                     "cuda", warnings).build()) {
            assertEquals("cuda", nve.platformName(), String.join("; ", warnings));
            assertEquals(3, nve.constraintSet().waterCount());
            assertEquals(0, nve.constraintSet().pairCount());
            stepChecking(nve, 15, "water cluster NVE on cuda");
            stepChecking(langevin, 15, "water cluster Langevin on cuda");
            cpu.step(15);
            double dr = maxDifference(cpu.atoms().positions(), nve.atoms().positions());
            assertTrue(dr < 1e-5, "positions differ by " + dr + " A from the cpu platform's");
        }
    }

    /**
     * A periodic box of 27 rigid waters (SETTLE, minimum-image bond vectors), Langevin: with the device's cell list
     * (whose cell counting moves after the constraints) the same trajectory as with the all-pairs search, to the
     * float32 rounding of the force sums in another neighbour order, and the rigid geometry held.
     */
    @Test
    void periodicRigidWaterWithTheCellList() {
        double side = 12.6;
        int[] z = new int[81];
        double[] pos = new double[243];
        double[] w = CudaDynamicsTest.water().positions();
        for (int m = 0; m < 27; m++) {
            double x0 = 4.2 * (m % 3) - 0.5, y0 = 4.2 * ((m / 3) % 3) + 0.3, z0 = 4.2 * (m / 9) + 0.1 * (m % 2);
            for (int k = 0; k < 3; k++) {
                z[3 * m + k] = k == 0 ? 8 : 1;
                pos[9 * m + 3 * k] = x0 + w[3 * k];
                pos[9 * m + 3 * k + 1] = y0 + w[3 * k + 1];
                pos[9 * m + 3 * k + 2] = z0 + w[3 * k + 2];
            }
        }
        Atoms box = CudaDynamicsTest.thermalised(Atoms.of(z, pos, org.molten.core.Cell.orthorhombic(side, side, side)), T, 77);
        ConstraintSet set = hBonds(box);
        assertEquals(27, set.waterCount());
        DynamicsSpec d = new DynamicsSpec.Langevin(1.0, T, 0.05, true);
        List<ReplicaStart> starts = List.of(new ReplicaStart(box, d, 77, 3 * 81 - 3 - 81, set));
        double[][] out = new double[2][];
        for (int cells = 0; cells < 2; cells++) {
            CudaOptions o = CudaDynamicsTest.stages(4).withCellListAtoms(cells == 1 ? 1 : 1_000_000);
            try (CudaMdEngine md = new CudaMdEngine(weights(), starts, o)) {
                md.advance(8);
                Atoms a = box.copy();
                md.read(0, a, null);
                ConstraintSolver c = ConstraintSolver.of(set, a);
                assertTrue(c.maxRelativeLengthError(a) <= 1e-9, "cell list " + cells + ": " + c.maxRelativeLengthError(a));
                assertTrue(c.maxBondVelocity(a) <= 1e-8, "cell list " + cells + ": " + c.maxBondVelocity(a));
                out[cells] = a.positions();
            }
        }
        double dr = maxDifference(out[0], out[1]);
        assertTrue(dr < 1e-6, "cell list against all pairs: positions differ by " + dr + " A");
    }

    /**
     * A mixed batch (validation's device batches): ethanol (6 RATTLE pairs), three rigid waters (SETTLE) and an
     * unconstrained ethanol bound together, NVE, each replica's constraint ranges its own: every replica follows the
     * same system bound alone to the float32 rounding of the batched force evaluation, constraints held.
     */
    @Test
    void mixedBatchEqualsEachReplicaAlone() {
        DynamicsSpec d = new DynamicsSpec.VelocityVerlet(1.0);
        Atoms eth = CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), T, 90);
        Atoms wat = CudaDynamicsTest.thermalised(waterCluster(), T, 91);
        Atoms free = CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), T, 92);
        List<ReplicaStart> starts = List.of(new ReplicaStart(eth, d, 1, 27 - 6, hBonds(eth)),
                new ReplicaStart(wat, d, 2, 27 - 9, hBonds(wat)), new ReplicaStart(free, d, 3, 27));
        List<Atoms> batched = new ArrayList<>();
        try (CudaMdEngine md = new CudaMdEngine(weights(), starts, CudaDynamicsTest.stages(5))) {
            md.advance(10);
            for (int r = 0; r < 3; r++) {
                Atoms a = starts.get(r).atoms().copy();
                md.read(r, a, null);
                batched.add(a);
            }
        }
        for (int r = 0; r < 3; r++) {
            try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(starts.get(r)), CudaDynamicsTest.stages(5))) {
                md.advance(10);
                Atoms a = starts.get(r).atoms().copy();
                md.read(0, a, null);
                double dr = maxDifference(a.positions(), batched.get(r).positions());
                assertTrue(dr < 1e-6, "replica " + r + ": batched and alone differ by " + dr + " A");
                if (!starts.get(r).constraints().isEmpty()) {
                    ConstraintSolver c = ConstraintSolver.of(starts.get(r).constraints(), a);
                    assertTrue(c.maxRelativeLengthError(batched.get(r)) <= 1e-9, "replica " + r + " lengths");
                    assertTrue(c.maxBondVelocity(batched.get(r)) <= 1e-8, "replica " + r + " bond velocities");
                }
            }
        }
    }

    /**
     * With the state rounded to float32 after every update ({@code molten.cuda.fp32State}, a measuring option) the
     * solve still converges in float64 and the rounding that follows holds the lengths to float32 precision: within
     * 1e-6 relative after 20 Langevin steps (float32's unit roundoff is 6e-8; a bond of 1.1 Å at coordinates of
     * ~3 Å rounds by ~2e-7 Å per coordinate).
     */
    @Test
    void float32StateHoldsTheLengthsToItsPrecision() {
        Atoms a = CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), T, 95);
        ConstraintSet set = hBonds(a);
        DynamicsSpec d = new DynamicsSpec.Langevin(1.0, T, 0.05, true);
        try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(new ReplicaStart(a, d, 95, 18, set)),
                CudaDynamicsTest.stages(5).withFp32State(true))) {
            md.advance(20);
            Atoms out = a.copy();
            md.read(0, out, null);
            double len = ConstraintSolver.of(set, out).maxRelativeLengthError(out);
            System.out.printf(Locale.ROOT, "fp32 state: relative length error %.2e%n", len);
            assertTrue(len <= 1e-6, "relative length error " + len);
        }
    }

    /** Ethanol's constraints as the host resolves them, for the engine-level tests. */
    private static ConstraintSet hBonds(Atoms a) {
        return Constraints.hBonds().resolve(a);
    }

    /** Restart bit for bit with constraints, Langevin and NVE, two replicas (the device checkpoint test's body). */
    @Test
    void restartBitForBit() {
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.Langevin(1.0, T, 0.05, true),
            new DynamicsSpec.VelocityVerlet(1.0)}) {
            List<ReplicaStart> starts = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                Atoms a = CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), T, 40 + r);
                starts.add(new ReplicaStart(a, d, 40 + r, 3 * a.size() - 3 - 6, hBonds(a)));
            }
            CudaDynamicsTest.assertRestartBitForBit(weights(), starts, 4, "ethanol h-bonds " + d.name());
        }
    }

    /**
     * Langevin with h-bonds on 12 ethanol replicas: the kinetic energy just after the O step (the one reported) is
     * that of 3N − 3 − 6 = 18 degrees of freedom (without the projection after O it is that of 27 − 3 = 24, a third
     * more). A strong friction (2/fs at 1 fs: O keeps 14 % of the old velocities) makes the post-O velocities almost
     * fresh draws projected onto the constraint surface, so the mean does not carry the time-step bias of the small
     * random student (at 0.1/fs both the cpu and the cuda platform give 0.31 eV on it). 12 replicas x 20 samples
     * after 10 steps, within 10 % (relative spread sqrt(2/18) = 0.33 per sample, nearly independent).
     */
    @Test
    void langevinKineticEnergyHasTheReducedDegreesOfFreedom() {
        int reps = 12;
        int dof = 3 * 9 - 3 - 6;
        DynamicsSpec d = new DynamicsSpec.Langevin(1.0, T, 2.0, true);
        List<ReplicaStart> starts = new ArrayList<>();
        for (int r = 0; r < reps; r++) {
            Atoms a = CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), T, 60 + r);
            starts.add(new ReplicaStart(a, d, 60 + r, dof, hBonds(a)));
        }
        double sum = 0;
        int samples = 20;
        try (CudaMdEngine md = new CudaMdEngine(weights(), starts, CudaDynamicsTest.stages(10))) {
            md.advance(10);
            Atoms a = CudaDynamicsTest.ethanol();
            for (int s = 0; s < samples; s++) {
                md.advance(1);
                for (int r = 0; r < reps; r++) {
                    sum += md.reportedKineticEnergyEv(r).orElseThrow();
                }
            }
            md.read(0, a, null);
            assertTrue(ConstraintSolver.of(starts.get(0).constraints(), a).maxBondVelocity(a) <= 1e-8);
        }
        double mean = sum / (reps * samples);
        double expect = 0.5 * dof * Units.BOLTZMANN_EV_PER_K * T;
        String msg = String.format(Locale.ROOT, "<K> %.5f eV against %d dof: %.5f eV (24 dof: %.5f eV)", mean, dof, expect,
                0.5 * 24 * Units.BOLTZMANN_EV_PER_K * T);
        System.out.println("ethanol h-bonds Langevin on cuda: " + msg);
        assertEquals(expect, mean, 0.10 * expect, msg);
    }

    /**
     * A constraint that cannot be met (ethanol at 2,000 K with 12 fs steps) stops the run as on the host: a
     * SimulationBlowUpException of cause CONSTRAINT_FAILED naming the atoms, at the end of the launch.
     */
    @Test
    void unmetConstraintStopsTheRun() {
        List<String> warnings = new ArrayList<>();
        try (Simulation gpu = Simulation.builder(CudaDynamicsTest.ethanol(), new ReferenceStudent(weights()),
                new VelocityVerlet(12.0)).constraints(Constraints.hBonds()).seed(3).temperature(2000).platform("cuda")
                .warnings(warnings::add).build()) {
            assertEquals("cuda", gpu.platformName(), String.join("; ", warnings));
            SimulationBlowUpException e = assertThrows(SimulationBlowUpException.class, () -> gpu.step(200));
            System.out.println(e.getMessage());
            assertEquals(SimulationBlowUpException.Cause.CONSTRAINT_FAILED, e.blowUpCause(), e.getMessage());
            assertTrue(e.getMessage().contains("constraint between atoms"), e.getMessage());
        }
    }

    /**
     * The grouped pair solve (one constraint group per lane of warp 0, molten_constraints.cuh rattle_view; each group of
     * at most three pairs solved directly: the velocity half exactly, positions by Newton's method) meets the
     * constraints where the serial Gauss-Seidel over all of a replica's pairs (DeviceConstraints.oneGroup: one group,
     * solved by one lane, the host's sweeps) does, to within the tolerance: alanine dipeptide with h-bonds (12 pairs in
     * 6 groups: three CH3, three N-H or C-H), Langevin BAOAB at 2 fs (positions after both half drifts, velocities after
     * O and the closing kick), 6 steps in two launches, the replica staged in shared memory and in global memory;
     * lengths held; no direct solve handed over to the sweeps.
     */
    @Test
    void groupedSolveMeetsTheSerialOne() {
        Atoms ala = CudaDynamicsTest.thermalised(BuiltInMolecules.load("alanine-dipeptide"), T, 31);
        ConstraintSet set = hBonds(ala);
        assertEquals(6, ConstraintGroups.of(set, false).count());
        DynamicsSpec d = new DynamicsSpec.Langevin(2.0, T, 0.05, true);
        ReplicaStart s = new ReplicaStart(ala, d, 31, 3 * ala.size() - 3 - set.pairCount(), set);
        int savedLimit = DeviceConstraints.sharedLimitBytes;
        try {
            for (int staged = 0; staged < 2; staged++) {
                DeviceConstraints.sharedLimitBytes = staged == 1 ? savedLimit : 0;
                Atoms[] out = new Atoms[2];
                long[] handovers = new long[2];
                for (int serial = 0; serial < 2; serial++) {
                    DeviceConstraints.oneGroup = serial == 1;
                    try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s), CudaDynamicsTest.stages(3))) {
                        md.advance(3);
                        md.advance(3);
                        out[serial] = ala.copy();
                        md.read(0, out[serial], null);
                        handovers[serial] = md.constraintHandovers();
                    }
                }
                String what = staged == 1 ? "staged" : "global memory";
                ConstraintSolver c = ConstraintSolver.of(set, out[0]);
                assertTrue(c.maxRelativeLengthError(out[0]) <= 1e-9, what + ": " + c.maxRelativeLengthError(out[0]));
                assertTrue(maxDifference(ala.positions(), out[0].positions()) > 1e-3, what + ": the atoms did not move");
                assertEquals(0, handovers[0], what + ": direct solves handed over to the sweeps");
                double dr = maxDifference(out[1].positions(), out[0].positions());
                double dv = maxDifference(out[1].velocities(), out[0].velocities());
                System.out.printf("%s, grouped against serial: %.2e A, %.2e A/fs%n", what, dr, dv);
                assertTrue(dr <= 1e-9, what + ": grouped against serial positions " + dr + " A");
                assertTrue(dv <= 1e-9, what + ": grouped against serial velocities " + dv + " A/fs");
            }
        } finally {
            DeviceConstraints.sharedLimitBytes = savedLimit;
            DeviceConstraints.oneGroup = false;
        }
    }

    /**
     * Which lane solves which constraint group does not change a bit (the groups share no atom and each lane touches
     * only its group's pairs and atoms): alanine dipeptide with h-bonds, Langevin at 2 fs, 6 steps in two launches, the
     * groups in their order and reversed (DeviceConstraints.reversedGroups), staged in shared memory and in global
     * memory. A group range one pair too long (a pair solved by two lanes) changes the bits and fails it.
     */
    @Test
    void groupedSolveDoesNotDependOnTheLanes() {
        Atoms ala = CudaDynamicsTest.thermalised(BuiltInMolecules.load("alanine-dipeptide"), T, 32);
        ConstraintSet set = hBonds(ala);
        DynamicsSpec d = new DynamicsSpec.Langevin(2.0, T, 0.05, true);
        ReplicaStart s = new ReplicaStart(ala, d, 32, 3 * ala.size() - 3 - set.pairCount(), set);
        int savedLimit = DeviceConstraints.sharedLimitBytes;
        try {
            for (int staged = 0; staged < 2; staged++) {
                DeviceConstraints.sharedLimitBytes = staged == 1 ? savedLimit : 0;
                Atoms[] out = new Atoms[2];
                for (int reversed = 0; reversed < 2; reversed++) {
                    DeviceConstraints.reversedGroups = reversed == 1;
                    try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s), CudaDynamicsTest.stages(3))) {
                        md.advance(3);
                        md.advance(3);
                        out[reversed] = ala.copy();
                        md.read(0, out[reversed], null);
                    }
                }
                String what = staged == 1 ? "staged" : "global memory";
                assertTrue(maxDifference(ala.positions(), out[0].positions()) > 1e-3, what + ": the atoms did not move");
                org.junit.jupiter.api.Assertions.assertArrayEquals(out[0].positions(), out[1].positions(),
                        what + ": groups reversed, positions");
                org.junit.jupiter.api.Assertions.assertArrayEquals(out[0].velocities(), out[1].velocities(),
                        what + ": groups reversed, velocities");
            }
        } finally {
            DeviceConstraints.sharedLimitBytes = savedLimit;
            DeviceConstraints.reversedGroups = false;
        }
    }

    /**
     * A constraint that cannot be met (ethanol at 2,000 K, 12 fs) fails at the same step naming the same atoms with
     * the groups solved in parallel (each directly, then by the sweeps where that did not meet them) as with the serial
     * sweeps (the pair the sweeps name: the first non-finite x in (sweep, pair) order, else after the cap the worst
     * pair), for three starts whose failing pair lies in each of ethanol's three groups (C0-H3 at step 2, C1-H7 at
     * step 2, O2-H8 at step 1), so in each of three lanes. The worst pair is measured from the drift's start positions,
     * not from the bond vectors a swept group leaves behind (a group solved directly leaves none: with those, seeds 3
     * and 4 named C1-H6 and C0-H3).
     */
    @Test
    void unmetConstraintNamesTheSerialSolvesPair() {
        for (long seed : new long[] {3, 4, 7}) {  // the failing pair in ethanol's CH3, CH2 and O-H group (lanes 0, 1, 2)
            Atoms hot = CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), 2000, seed);
            ConstraintSet set = hBonds(hot);
            ReplicaStart s = new ReplicaStart(hot, new DynamicsSpec.VelocityVerlet(12.0), seed, 27 - 3 - 6, set);
            String[] message = new String[2];
            try {
                for (int serial = 0; serial < 2; serial++) {
                    DeviceConstraints.oneGroup = serial == 1;
                    try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s), CudaDynamicsTest.stages(2))) {
                        message[serial] = assertThrows(DeviceConstraintFailureException.class, () -> {
                            for (int l = 0; l < 50; l++) {
                                md.advance(2);
                            }
                        }).getMessage();
                    }
                }
            } finally {
                DeviceConstraints.oneGroup = false;
            }
            System.out.println("seed " + seed + " grouped: " + message[0]);
            assertTrue(message[0].contains("constraint between atoms"), message[0]);
            assertEquals(message[1], message[0], "grouped against serial failure");
        }
    }

    static double kineticEnergy(Atoms a) {
        return Observables.kineticEnergyEv(a);
    }
}
