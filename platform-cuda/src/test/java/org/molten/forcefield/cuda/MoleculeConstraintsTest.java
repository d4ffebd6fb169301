package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.molten.core.dynamics.ConstraintSet;
import org.molten.core.dynamics.DeviceConstraintFailureException;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.constraints.ConstraintSolver;
import org.molten.integrators.constraints.Constraints;
import org.molten.structures.BuiltInMolecules;

/**
 * Bond constraints inside the small-molecule cluster kernel (molten_small_constraints.cuh: RATTLE and SETTLE of
 * molten_constraints.cuh on the kernel's shared-memory state) through the emulator: a constrained molecule takes the
 * cluster kernel, follows the stage path (k_constrain) and the cpu platform (ConstraintSolver), holds its lengths and
 * keeps its bond velocities at zero at every K-step boundary, rigid waters included, each replica seed its own
 * stream, restart bit for bit, and an unmet constraint stops the run as on the stage path.
 */
class MoleculeConstraintsTest {
    private static final double T = 300;

    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /** The smallest random student the cluster kernel holds (F = 64). */
    private static StudentWeights weights() {
        return MoleculeThermostatTest.weights(41);
    }

    /** A host simulation (cpu platform, h-bonds, velocity Verlet at {@code dtFs}) whose start the device runs take. */
    private static Simulation cpu(Atoms molecule, double dtFs, long seed) {
        List<String> warnings = new ArrayList<>();
        return Simulation.builder(molecule, new ReferenceStudent(weights()), new VelocityVerlet(dtFs))
                .constraints(Constraints.hBonds()).seed(seed).temperature(T).platform("cpu").warnings(warnings::add)
                .build();
    }

    /** The host simulation's current state as a device start with dynamics {@code d}. */
    private static ReplicaStart startOf(Simulation sim, DynamicsSpec d, long seed) {
        return new ReplicaStart(sim.atoms().copy(), d, seed, sim.degreesOfFreedom(), sim.constraintSet());
    }

    /** One device run: the atoms after every launch of k steps (launches of 'launches'), and the mode it ran in. */
    private record Run(List<Atoms> boundaries, double bathEv, String mode, long handovers) {
        Atoms last() {
            return boundaries.get(boundaries.size() - 1);
        }
    }

    private static Run run(ReplicaStart s, CudaOptions o, int launches, int k) {
        try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s), o)) {
            List<Atoms> out = new ArrayList<>();
            for (int l = 0; l < launches; l++) {
                md.advance(k);
                Atoms a = s.atoms().copy();
                md.read(0, a, null);
                out.add(a);
            }
            return new Run(out, md.bathEnergyEv(0), md.mode(), md.constraintHandovers());
        }
    }

    /** Lengths within 1e-9 (relative) and bond velocities below 1e-8 Å/fs at every K-step boundary of the run. */
    private static void assertHeld(Run r, ConstraintSet set, String what) {
        for (int b = 0; b < r.boundaries.size(); b++) {
            Atoms a = r.boundaries.get(b);
            ConstraintSolver c = ConstraintSolver.of(set, a);
            double len = c.maxRelativeLengthError(a);
            double rate = c.maxBondVelocity(a);
            assertTrue(len <= 1e-9, what + " boundary " + b + ": relative length error " + len);
            assertTrue(rate <= 1e-8, what + " boundary " + b + ": bond velocity " + rate + " A/fs");
        }
    }

    private static double maxDev(double[] a, double[] b) {
        return MoleculeThermostatTest.maxDev(a, b);
    }

    /**
     * A constrained single molecule takes the cluster kernel under the default options (ethanol with h-bonds, the
     * rigid 3-water cluster), in its constrained build (k_small_c16_cons; an unconstrained molecule k_small_c16), a
     * batch of constrained replicas the stage path.
     */
    @Test
    void constrainedMoleculeTakesTheClusterKernel() {
        CudaOptions auto = CudaOptions.defaults();
        try (Simulation host = cpu(CudaDynamicsTest.ethanol(), 1.0, 3);
             CudaMdEngine md = new CudaMdEngine(weights(), List.of(new ReplicaStart(host.atoms().copy(),
                     new DynamicsSpec.VelocityVerlet(1.0), 3, 21)), auto)) {
            assertEquals("k_small_c16", md.kernel(), "an unconstrained molecule");
        }
        for (Atoms m : new Atoms[] {CudaDynamicsTest.ethanol(), CudaConstraintsTest.waterCluster()}) {
            try (Simulation host = cpu(m, 1.0, 3)) {
                ReplicaStart s = startOf(host, new DynamicsSpec.Langevin(1.0, T, 0.05, true), 3);
                assertTrue(!s.constraints().isEmpty());
                try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s), auto)) {
                    assertEquals("molecule", md.mode(), "a constrained molecule of " + m.size() + " atoms");
                    assertEquals("k_small_c16_cons", md.kernel(), "a constrained molecule of " + m.size() + " atoms");
                    assertTrue(md.description().contains("molecule"), md.description());
                }
                try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s, s), auto)) {
                    assertTrue(md.mode().startsWith("stages"), "two constrained replicas: " + md.mode());
                    assertEquals("stages", md.kernel());
                }
            }
        }
    }

    /**
     * Ethanol with h-bonds (6 pairs), NVE at 1 fs, 30 steps in launches of 3: the cluster kernel follows the stage
     * path and the cpu platform to the float32 forces of the device (the tolerances of CudaConstraintsTest), with the
     * lengths held and the bond velocities zero after every launch.
     */
    @Test
    void ethanolNveEqualsTheStagePathAndTheHost() {
        try (Simulation host = cpu(CudaDynamicsTest.ethanol(), 1.0, 5)) {
            ReplicaStart s = startOf(host, new DynamicsSpec.VelocityVerlet(1.0), 5);
            assertEquals(6, s.constraints().pairCount());
            Run mol = run(s, MoleculeThermostatTest.molecule(3), 10, 3);
            Run stg = run(s, MoleculeThermostatTest.stages(3), 10, 3);
            host.step(30);
            Atoms cpu = host.atoms();
            String ctx = String.format(Locale.ROOT, "ethanol h-bonds NVE, 30 x 1 fs: molecule - stages %.2e A, %.2e A/fs;"
                    + " molecule - cpu %.2e A, %.2e A/fs", maxDev(mol.last().positions(), stg.last().positions()),
                    maxDev(mol.last().velocities(), stg.last().velocities()), maxDev(mol.last().positions(), cpu.positions()),
                    maxDev(mol.last().velocities(), cpu.velocities()));
            System.out.println(ctx);
            assertEquals("molecule", mol.mode, ctx);
            assertEquals("stages", stg.mode, ctx);
            assertHeld(mol, s.constraints(), "ethanol NVE, cluster kernel");
            assertTrue(maxDev(mol.last().positions(), stg.last().positions()) < 1e-5, ctx);
            assertTrue(maxDev(mol.last().velocities(), stg.last().velocities()) < 1e-6, ctx);
            assertTrue(maxDev(mol.last().positions(), cpu.positions()) < 1e-5, ctx);
            assertTrue(maxDev(mol.last().velocities(), cpu.velocities()) < 1e-6, ctx);
        }
    }

    /**
     * Ethanol with h-bonds under Langevin BAOAB at 1 fs (projections after both half drifts, after O and after the
     * closing kick), 30 steps: the cluster kernel equals the stage path (the same random streams; the bath energy
     * too), constraints held after every launch.
     */
    @Test
    void ethanolLangevinEqualsTheStagePath() {
        try (Simulation host = cpu(CudaDynamicsTest.ethanol(), 1.0, 6)) {
            ReplicaStart s = startOf(host, new DynamicsSpec.Langevin(1.0, T, 0.05, true), 6);
            Run mol = run(s, MoleculeThermostatTest.molecule(3), 10, 3);
            Run stg = run(s, MoleculeThermostatTest.stages(3), 10, 3);
            String ctx = String.format(Locale.ROOT, "ethanol h-bonds Langevin, 30 x 1 fs: molecule - stages %.2e A,"
                    + " %.2e A/fs; bath %.8f vs %.8f eV", maxDev(mol.last().positions(), stg.last().positions()),
                    maxDev(mol.last().velocities(), stg.last().velocities()), mol.bathEv, stg.bathEv);
            System.out.println(ctx);
            assertEquals("molecule", mol.mode, ctx);
            assertHeld(mol, s.constraints(), "ethanol Langevin, cluster kernel");
            assertTrue(Math.abs(stg.bathEv) > 1e-3, ctx + ": the thermostat exchanged no energy");
            assertTrue(maxDev(mol.last().positions(), stg.last().positions()) < 1e-5, ctx);
            assertTrue(maxDev(mol.last().velocities(), stg.last().velocities()) < 1e-5, ctx);
            assertEquals(stg.bathEv, mol.bathEv, 1e-5, ctx);
        }
    }

    /**
     * Three rigid waters (SETTLE for the positions, the 3 x 3 solve for the velocities) in the cluster kernel at 2 fs:
     * NVE equal to the stage path and the cpu platform, Langevin equal to the stage path, O-H and H-H held and
     * velocities tangent after every launch.
     */
    @Test
    void rigidWatersInTheClusterKernel() {
        try (Simulation host = cpu(CudaConstraintsTest.waterCluster(), 2.0, 8)) {
            ReplicaStart nve = startOf(host, new DynamicsSpec.VelocityVerlet(2.0), 8);
            ReplicaStart lgv = startOf(host, new DynamicsSpec.Langevin(2.0, T, 0.05, true), 9);
            assertEquals(3, nve.constraints().waterCount());
            assertEquals(0, nve.constraints().pairCount());
            Run mol = run(nve, MoleculeThermostatTest.molecule(3), 5, 3);
            Run stg = run(nve, MoleculeThermostatTest.stages(3), 5, 3);
            Run molL = run(lgv, MoleculeThermostatTest.molecule(3), 5, 3);
            Run stgL = run(lgv, MoleculeThermostatTest.stages(3), 5, 3);
            host.step(15);
            String ctx = String.format(Locale.ROOT, "3 rigid waters, 15 x 2 fs: NVE molecule - stages %.2e A, molecule -"
                    + " cpu %.2e A; Langevin molecule - stages %.2e A", maxDev(mol.last().positions(), stg.last().positions()),
                    maxDev(mol.last().positions(), host.atoms().positions()),
                    maxDev(molL.last().positions(), stgL.last().positions()));
            System.out.println(ctx);
            assertEquals("molecule", mol.mode, ctx);
            assertEquals("molecule", molL.mode, ctx);
            assertHeld(mol, nve.constraints(), "water NVE, cluster kernel");
            assertHeld(molL, lgv.constraints(), "water Langevin, cluster kernel");
            assertTrue(maxDev(mol.last().positions(), stg.last().positions()) < 1e-5, ctx);
            assertTrue(maxDev(mol.last().positions(), host.atoms().positions()) < 1e-5, ctx);
            assertTrue(maxDev(molL.last().positions(), stgL.last().positions()) < 1e-5, ctx);
            assertTrue(maxDev(molL.last().velocities(), stgL.last().velocities()) < 1e-5, ctx);
        }
    }

    /**
     * Three ethanols of different seeds under Langevin with h-bonds: each alone in the cluster kernel (what a single
     * molecule gets) equals the same replica of the three bound together on the stage path (12 steps), constraints
     * held: the kernel's O projection and its streams are the replica's own.
     */
    @Test
    void replicasAloneInTheClusterKernelEqualTheBatch() {
        List<ReplicaStart> starts = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            try (Simulation host = cpu(CudaDynamicsTest.ethanol(), 1.0, 20 + r)) {
                starts.add(startOf(host, new DynamicsSpec.Langevin(1.0, T, 0.05, true), 20 + r));
            }
        }
        List<Atoms> batched = new ArrayList<>();
        try (CudaMdEngine md = new CudaMdEngine(weights(), starts, MoleculeThermostatTest.stages(4))) {
            assertTrue(md.mode().startsWith("stages"), md.mode());
            md.advance(12);
            for (int r = 0; r < 3; r++) {
                Atoms a = starts.get(r).atoms().copy();
                md.read(r, a, null);
                batched.add(a);
            }
        }
        for (int r = 0; r < 3; r++) {
            Run alone = run(starts.get(r), MoleculeThermostatTest.molecule(4), 3, 4);
            String ctx = String.format(Locale.ROOT, "replica %d (seed %d): alone in the cluster kernel - batched %.2e A,"
                    + " %.2e A/fs", r, starts.get(r).seed(), maxDev(alone.last().positions(), batched.get(r).positions()),
                    maxDev(alone.last().velocities(), batched.get(r).velocities()));
            assertEquals("molecule", alone.mode, ctx);
            assertHeld(alone, starts.get(r).constraints(), "replica " + r);
            assertTrue(maxDev(alone.last().positions(), batched.get(r).positions()) < 1e-5, ctx);
            assertTrue(maxDev(alone.last().velocities(), batched.get(r).velocities()) < 1e-5, ctx);
        }
        double spread = maxDev(batched.get(0).positions(), batched.get(1).positions());
        assertTrue(spread > 1e-3, "the replicas' seeds made no difference: " + spread);
    }

    /** n steps, checkpoint, a fresh binding restored, n steps: bit for bit, Langevin and NVE, in the cluster kernel. */
    @Test
    void restartBitForBitInTheClusterKernel() {
        for (DynamicsSpec d : new DynamicsSpec[] {new DynamicsSpec.Langevin(1.0, T, 0.05, true),
            new DynamicsSpec.VelocityVerlet(1.0)}) {
            ReplicaStart s;
            try (Simulation host = cpu(CudaDynamicsTest.ethanol(), 1.0, 44)) {
                s = startOf(host, d, 44);
            }
            MoleculeThermostatTest.assertRestartsBitForBit(weights(), s, 4, 3, "ethanol h-bonds " + d.name()
                    + ", cluster kernel");
        }
    }

    /**
     * The cluster kernel's grouped pair solve (the constraint groups one per lane of warp 0, each of them solved
     * directly: the velocity half exactly, positions by Newton's method) meets the constraints where its serial
     * Gauss-Seidel solve (DeviceConstraints.oneGroup) does, to within the tolerance: alanine dipeptide with h-bonds (12
     * pairs in 6 groups), Langevin BAOAB at 2 fs, 6 steps in two launches, positions and velocities; lengths held, and
     * no group handed over to the sweeps (a wrong coupling in the direct solves hands every group over).
     */
    @Test
    void groupedSolveMeetsTheSerialOneInTheClusterKernel() {
        try (Simulation host = cpu(BuiltInMolecules.load("alanine-dipeptide"), 2.0, 12)) {
            ReplicaStart s = startOf(host, new DynamicsSpec.Langevin(2.0, T, 0.05, true), 12);
            assertEquals(12, s.constraints().pairCount());
            Run[] out = new Run[2];
            try {
                for (int serial = 0; serial < 2; serial++) {
                    DeviceConstraints.oneGroup = serial == 1;
                    out[serial] = run(s, MoleculeThermostatTest.molecule(3), 2, 3);
                }
            } finally {
                DeviceConstraints.oneGroup = false;
            }
            assertEquals("molecule", out[0].mode);
            assertHeld(out[0], s.constraints(), "alanine dipeptide Langevin 2 fs, cluster kernel");
            assertEquals(0, out[0].handovers, "direct solves handed over to the sweeps");
            double dr = maxDev(out[1].last().positions(), out[0].last().positions());
            double dv = maxDev(out[1].last().velocities(), out[0].last().velocities());
            System.out.printf("cluster kernel, grouped against serial: %.2e A, %.2e A/fs%n", dr, dv);
            // the solves differ by ~1e-10 (both within the tolerance); the cluster kernel's float32 forces, rounded
            // differently from there on, take that to ~1e-8 in 6 steps (the stage path's test: ~1e-10)
            assertTrue(dr <= 1e-7, "grouped against serial positions: " + dr + " A");
            assertTrue(dv <= 1e-7, "grouped against serial velocities: " + dv + " A/fs");
        }
    }

    /**
     * In the cluster kernel too, which lane solves which constraint group does not change a bit: alanine dipeptide with
     * h-bonds, Langevin at 2 fs, 6 steps in two launches, the groups in their order and reversed
     * (DeviceConstraints.reversedGroups).
     */
    @Test
    void groupedSolveDoesNotDependOnTheLanesInTheClusterKernel() {
        try (Simulation host = cpu(BuiltInMolecules.load("alanine-dipeptide"), 2.0, 13)) {
            ReplicaStart s = startOf(host, new DynamicsSpec.Langevin(2.0, T, 0.05, true), 13);
            Run[] out = new Run[2];
            try {
                for (int reversed = 0; reversed < 2; reversed++) {
                    DeviceConstraints.reversedGroups = reversed == 1;
                    out[reversed] = run(s, MoleculeThermostatTest.molecule(3), 2, 3);
                }
            } finally {
                DeviceConstraints.reversedGroups = false;
            }
            assertEquals("molecule", out[0].mode);
            assertHeld(out[0], s.constraints(), "alanine dipeptide Langevin 2 fs, cluster kernel");
            assertArrayEquals(out[0].last().positions(), out[1].last().positions(), "groups reversed, positions");
            assertArrayEquals(out[0].last().velocities(), out[1].last().velocities(), "groups reversed, velocities");
        }
    }

    /**
     * A constraint that cannot be met in the cluster kernel (ethanol at 2,000 K, 12 fs steps) stops the run with the
     * stage path's failure: the flag, its atoms, the step, the state of the launch's start kept.
     */
    @Test
    void unmetConstraintStopsTheClusterKernelRun() {
        List<String> warnings = new ArrayList<>();
        try (Simulation host = Simulation.builder(CudaDynamicsTest.ethanol(), new ReferenceStudent(weights()),
                new VelocityVerlet(12.0)).constraints(Constraints.hBonds()).seed(3).temperature(2000).platform("cpu")
                .warnings(warnings::add).build()) {
            ReplicaStart s = startOf(host, new DynamicsSpec.VelocityVerlet(12.0), 3);
            try (CudaMdEngine md = new CudaMdEngine(weights(), List.of(s), MoleculeThermostatTest.molecule(10))) {
                assertEquals("molecule", md.mode());
                DeviceConstraintFailureException e = assertThrows(DeviceConstraintFailureException.class,
                        () -> {
                            for (int l = 0; l < 20; l++) {
                                md.advance(10);
                            }
                        });
                System.out.println(e.getMessage());
                assertTrue(e.getMessage().contains("constraint between atoms"), e.getMessage());
                assertEquals(0, md.stepCount() % 10, "the run stops at a launch boundary");
                Atoms a = s.atoms().copy();
                md.read(0, a, null);
                ConstraintSolver c = ConstraintSolver.of(s.constraints(), a);
                assertTrue(c.maxRelativeLengthError(a) <= 1e-9, "the kept state holds the constraints: "
                        + c.maxRelativeLengthError(a));
            }
        }
    }
}
