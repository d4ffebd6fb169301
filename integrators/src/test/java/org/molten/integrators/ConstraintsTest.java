package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.core.dynamics.ConstraintSet;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.constraints.ConstraintSolver;
import org.molten.integrators.constraints.Constraints;
import org.molten.integrators.constraints.HydrogenMassRepartitioning;
import org.molten.integrators.reporters.CheckpointReporter;
import org.molten.integrators.thermostats.LangevinThermostat;

/**
 * Bond constraints in velocity Verlet (RATTLE, SETTLE) as contracts and physics: lengths held to the
 * tolerance and velocities tangent at every step, energy conserved with its error O(dt²), SETTLE
 * equal to converged RATTLE and its water geometry exact, the mass repartitioning, the refusals,
 * a failing constraint stopping the run as a blow-up, and a restart bit for bit.
 */
class ConstraintsTest {
    private static final long SEED = 2811;

    private static Simulation.Builder ethanol(Integrator integrator, Constraints constraints) {
        Atoms eth = TestSystems.ethanol();
        return Simulation.builder(eth, ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()), integrator)
                .seed(SEED).temperature(300).platform("cpu").constraints(constraints);
    }

    /** Three waters (the built-in geometry, O-H 0.9592 A, H-O-H 107.2 deg) placed and turned by a seed, in a 9 A box. */
    static Atoms threeWaters() {
        double oh = 0.9592, half = Math.toRadians(107.2) / 2;
        double[] local = {0, 0, 0, oh * Math.sin(half), oh * Math.cos(half), 0, -oh * Math.sin(half), oh * Math.cos(half), 0};
        double[][] centres = {{1.0, 1.0, 1.0}, {4.0, 1.5, 1.2}, {2.2, 4.1, 3.9}};
        RandomStream rng = new RandomStream(77);
        int[] z = new int[9];
        double[] r = new double[27];
        for (int w = 0; w < 3; w++) {
            double a = 2 * Math.PI * rng.nextDouble(), b = 2 * Math.PI * rng.nextDouble();
            for (int k = 0; k < 3; k++) {
                z[3 * w + k] = k == 0 ? 8 : 1;
                double x = local[3 * k], y = local[3 * k + 1] * Math.cos(a), zz = local[3 * k + 1] * Math.sin(a);
                double x2 = x * Math.cos(b) - zz * Math.sin(b), z2 = x * Math.sin(b) + zz * Math.cos(b);
                r[9 * w + 3 * k] = centres[w][0] + x2;
                r[9 * w + 3 * k + 1] = centres[w][1] + y;
                r[9 * w + 3 * k + 2] = centres[w][2] + z2;
            }
        }
        return Atoms.of(z, r, Cell.orthorhombic(9, 9, 9));
    }

    /** Checks after every step: every constraint at its length and every bond velocity zero, to the tolerance. */
    private static final class ConstraintWatch implements Reporter {
        double worstLength;
        double worstVelocity;
        int reports;

        @Override
        public int intervalSteps() {
            return 1;
        }

        @Override
        public void report(Simulation sim) {
            worstLength = Math.max(worstLength, sim.constraints().maxRelativeLengthError(sim.atoms()));
            worstVelocity = Math.max(worstVelocity, sim.constraints().maxBondVelocity(sim.atoms()));
            reports++;
        }
    }

    @Test
    void hBondLengthsAreHeldAndVelocitiesStayTangentAtEveryStep() {
        ConstraintWatch watch = new ConstraintWatch();
        try (Simulation sim = ethanol(new VelocityVerlet(2.0), Constraints.hBonds()).build()) {
            assertEquals(6, sim.constraintSet().pairCount(), "ethanol has 6 bonds to hydrogen");
            assertEquals(27 - 6 - 6, sim.degreesOfFreedom(), "3N - 6 (isolated, NVE) - 6 constraints");
            sim.addReporter(watch);
            sim.step(2_000);
        }
        System.out.printf(Locale.ROOT, "ethanol h-bonds 2 fs: worst relative length error %.2e, worst bond velocity %.2e A/fs%n",
                watch.worstLength, watch.worstVelocity);
        assertEquals(2_001, watch.reports);
        assertTrue(watch.worstLength < 1e-9, "relative length error " + watch.worstLength);
        // the velocity half of RATTLE: r_ij . v_ij = 0 (without it: ~1e-3 A/fs after a step)
        assertTrue(watch.worstVelocity < 1e-9, "bond velocity " + watch.worstVelocity + " A/fs");
    }

    @Test
    void rigidWaterGeometryIsExactUnderLangevin() {
        Atoms w = threeWaters();
        ConstraintWatch watch = new ConstraintWatch();
        try (Simulation sim = Simulation.builder(w, ClassicalReferencePotential.inferredFrom(threeWaters()),
                        new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)))
                .seed(SEED).temperature(300).platform("cpu").constraints(Constraints.hBonds()).build()) {
            assertEquals(3, sim.constraintSet().waterCount());
            assertEquals(0, sim.constraintSet().pairCount());
            assertEquals(27 - 3 - 9, sim.degreesOfFreedom());
            sim.addReporter(watch);
            sim.step(1_000);
        }
        assertTrue(watch.worstLength < 1e-13, "SETTLE is analytic: relative error " + watch.worstLength);
        assertTrue(watch.worstVelocity < 1e-13, "bond velocity " + watch.worstVelocity + " A/fs");
    }

    @Test
    void settleMovesAWaterWhereConvergedRattleDoes() {
        Atoms w = threeWaters();
        Atoms one = Atoms.of(new int[] {8, 1, 1}, java.util.Arrays.copyOf(w.positions(), 9), null);
        double oh = one.distance(0, 1), hh = one.distance(1, 2);
        ConstraintSet settle = new ConstraintSet("h-bonds", new int[0], new int[0], new double[0], new int[] {0, 1, 2},
                new double[] {oh}, new double[] {hh}, 1e-10);
        ConstraintSet rattle = new ConstraintSet("pairs", new int[] {0, 0, 1}, new int[] {1, 2, 2},
                new double[] {oh, oh, hh}, new int[0], new double[0], new double[0], 1e-15);
        RandomStream rng = new RandomStream(5);
        double[] move = new double[9];
        double[] vel = new double[9];
        for (int k = 0; k < 9; k++) {
            move[k] = 0.08 * rng.nextGaussian();   // a large step's worth of unconstrained displacement, A
            vel[k] = 0.02 * rng.nextGaussian();
        }
        double[][] results = new double[2][];
        double[][] velocities = new double[2][];
        int c = 0;
        for (ConstraintSet set : List.of(settle, rattle)) {
            Atoms a = one.copy();
            ConstraintSolver solver = ConstraintSolver.of(set, a);
            solver.beginDrift(a);
            for (int k = 0; k < 9; k++) {
                a.positions()[k] += move[k];
            }
            solver.constrainPositions(a, 1.0);
            System.arraycopy(vel, 0, a.velocities(), 0, 9);
            solver.constrainVelocities(a);
            assertTrue(solver.maxRelativeLengthError(a) < 1e-13, set.rule() + ": " + solver.maxRelativeLengthError(a));
            results[c] = a.positions().clone();
            velocities[c++] = a.velocities().clone();
        }
        for (int k = 0; k < 9; k++) {
            assertEquals(results[1][k], results[0][k], 1e-12, "position " + k + ": SETTLE vs RATTLE");
            assertEquals(velocities[1][k], velocities[0][k], 1e-12, "velocity " + k + ": SETTLE vs RATTLE");
        }
    }

    /** RMS fluctuation of the total energy over {@code timeFs} of NVE from the same start, eV. */
    private static double energyFluctuation(double dtFs, double timeFs) {
        double[] e = new double[(int) Math.round(timeFs / dtFs)];
        try (Simulation sim = ethanol(new VelocityVerlet(dtFs), Constraints.hBonds()).build()) {
            for (int k = 0; k < e.length; k++) {
                sim.step(1);
                e[k] = sim.totalEnergyEv();
            }
        }
        double mean = 0;
        for (double x : e) {
            mean += x / e.length;
        }
        double s = 0;
        for (double x : e) {
            s += (x - mean) * (x - mean) / e.length;
        }
        return Math.sqrt(s);
    }

    @Test
    void energyIsConservedWithConstraintsAndItsErrorScalesAsDtSquared() {
        double coarse = energyFluctuation(2.0, 1_000);
        double fine = energyFluctuation(1.0, 1_000);
        System.out.printf(Locale.ROOT, "ethanol h-bonds NVE: RMS(Etot) %.3e eV at 2 fs, %.3e eV at 1 fs, ratio %.2f%n",
                coarse, fine, coarse / fine);
        assertTrue(coarse < 2e-3, "energy fluctuation at 2 fs " + coarse + " eV");
        assertEquals(4.0, coarse / fine, 0.8, "a second-order integrator: halving dt quarters the energy error");
    }

    @Test
    void hydrogenMassRepartitioningKeepsTheTotalMass() {
        Atoms eth = TestSystems.ethanol();
        Atoms heavy = HydrogenMassRepartitioning.apply(eth, 3.0);
        assertEquals(eth.totalMassAmu(), heavy.totalMassAmu(), 1e-12);
        for (int i = 0; i < eth.size(); i++) {
            if (eth.atomicNumber(i) == 1) {
                assertEquals(3.0, heavy.massAmu(i), 0.0, "H " + i);
            }
        }
        // C1 (atom 0) carries H 6, 7, 8; C2 (atom 1) H 4, 5; O (atom 2) H 3.
        double dh = 3.0 - eth.massAmu(3);
        assertEquals(eth.massAmu(0) - 3 * dh, heavy.massAmu(0), 1e-12);
        assertEquals(eth.massAmu(1) - 2 * dh, heavy.massAmu(1), 1e-12);
        assertEquals(eth.massAmu(2) - dh, heavy.massAmu(2), 1e-12);
        // waters are left alone, as OpenMM does
        Atoms w = threeWaters();
        assertArrayEquals(w.massesAmu(), HydrogenMassRepartitioning.apply(w, 3.0).massesAmu());
    }

    @Test
    void badConstraintsAreRefusedNamingTheAtoms() {
        Integrator vv = new VelocityVerlet(1.0);
        IllegalArgumentException notBonded = assertThrows(IllegalArgumentException.class,
                () -> ethanol(vv, Constraints.pairs(List.of(new Constraints.Pair(0, 3)))).build());
        assertTrue(notBonded.getMessage().contains("atoms 0 (C) and 3 (H)") && notBonded.getMessage().contains("not bonded"),
                notBonded.getMessage());
        // H 6 bonded to C 0 at 1.09 A cannot be held at 1.6 A
        IllegalArgumentException unsatisfiable = assertThrows(IllegalArgumentException.class,
                () -> ethanol(vv, Constraints.pairs(List.of(new Constraints.Pair(0, 6, 1.6)))).build());
        assertTrue(unsatisfiable.getMessage().contains("cannot satisfy") && unsatisfiable.getMessage().contains("atoms 0 (C) and 6 (H)"),
                unsatisfiable.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ethanol(vv, Constraints.pairs(List.of(new Constraints.Pair(0, 9)))).build());
        assertThrows(IllegalArgumentException.class, () -> Constraints.named("angles"));
    }

    @Test
    void aConstraintThatCannotBeMetStopsTheRunAsABlowUp() {
        // 6 fs steps at 3000 K tear the C-H bonds' RATTLE apart within a few steps
        try (Simulation sim = Simulation.builder(TestSystems.ethanol(),
                        ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()), new VelocityVerlet(8.0))
                .seed(SEED).temperature(3000).platform("cpu").constraints(Constraints.allBonds())
                .guard(BlowUpGuard.of(1e9, 1e9)).build()) {
            SimulationBlowUpException e = assertThrows(SimulationBlowUpException.class, () -> sim.step(2_000));
            assertEquals(SimulationBlowUpException.Cause.CONSTRAINT_FAILED, e.blowUpCause(), e.getMessage());
            assertTrue(e.getMessage().matches("(?s).*constraint between atoms \\d+ \\(\\w+\\) and \\d+ \\(\\w+\\).*"),
                    e.getMessage());
        }
    }

    @Test
    void replicasWithConstraintsAreTheirRunsAlone() {
        try (ReplicaSet set = ReplicaSet.of(2, k -> ethanol(new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)),
                Constraints.hBonds()).seed(SEED + k).hydrogenMassAmu(3.0)).platform("cpu").threads(2).build()) {
            set.step(200);
            for (int k = 0; k < 2; k++) {
                try (Simulation alone = ethanol(new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)), Constraints.hBonds())
                        .seed(SEED + k).hydrogenMassAmu(3.0).build()) {
                    alone.step(200);
                    assertArrayEquals(alone.atoms().positions(), set.replica(k).atoms().positions(), "replica " + k);
                    assertEquals(alone.degreesOfFreedom(), set.replica(k).degreesOfFreedom());
                }
            }
        }
    }

    @Test
    void aRestartWithConstraintsAndHeavyHydrogensContinuesBitForBit(@TempDir Path dir) throws IOException {
        Integrator make = new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01));
        Simulation a = ethanol(make, Constraints.hBonds()).hydrogenMassAmu(3.0).build();
        a.addReporter(new CheckpointReporter(dir.resolve("a.chk"), 100));
        a.step(300);
        a.close();
        Simulation b = ethanol(new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)), Constraints.hBonds())
                .hydrogenMassAmu(3.0).build();
        b.restore(Checkpoint.read(dir.resolve("a.chk")));
        assertEquals(300, b.stepCount());
        Checkpoint mid = Checkpoint.read(dir.resolve("a.chk"));
        // the uninterrupted run, again, to step 500; the restarted one from 300 to 500
        Simulation ref = ethanol(new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)), Constraints.hBonds())
                .hydrogenMassAmu(3.0).build();
        ref.step(500);
        b.step(200);
        assertArrayEquals(ref.atoms().positions(), b.atoms().positions(), "positions after a restart");
        assertArrayEquals(ref.atoms().velocities(), b.atoms().velocities(), "velocities after a restart");
        // another constraint rule, or other masses, is refused
        Simulation other = ethanol(new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)), Constraints.allBonds())
                .hydrogenMassAmu(3.0).build();
        IllegalArgumentException rule = assertThrows(IllegalArgumentException.class, () -> other.restore(mid));
        assertTrue(rule.getMessage().contains("constraints"), rule.getMessage());
        Simulation light = ethanol(new VelocityVerlet(2.0, LangevinThermostat.of(300, 0.01)), Constraints.hBonds()).build();
        IllegalArgumentException m = assertThrows(IllegalArgumentException.class, () -> light.restore(mid));
        assertTrue(m.getMessage().contains("masses"), m.getMessage());
        assertEquals(Observables.kineticEnergyEv(ref.atoms()), Observables.kineticEnergyEv(b.atoms()), 0.0);
    }
}
