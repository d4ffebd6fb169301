package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;

/** Replicas on the host: independent, bit for bit their runs alone, whatever the number of threads. */
class ReplicaSetTest {
    private static final long SEED = 4100;

    private static Atoms water() {
        return Atoms.of(new int[] {8, 1, 1}, new double[] {0, 0, 0, 0.9572, 0, 0, -0.2400, 0.9266, 0}, null);
    }

    /** Replica k: ethanol under Langevin at 300 K, water under Bussi at 350 K, ethanol under Langevin at 400 K. */
    private static Simulation.Builder replica(int k) {
        Atoms a = k == 1 ? water() : TestSystems.ethanol();
        ForceField ff = ClassicalReferencePotential.inferredFrom(a.copy());
        double t = 300 + 50 * k;
        Thermostat th = k == 1 ? new BussiThermostat(t, 20) : LangevinThermostat.of(t, 0.01);
        return Simulation.builder(a, ff, new VelocityVerlet(0.5, th)).seed(SEED + k).temperature(t).platform("cpu");
    }

    private static ReplicaSet run(int threads, Path dir) {
        ReplicaSet set = ReplicaSet.of(3, (IntFunction<Simulation.Builder>) ReplicaSetTest::replica).threads(threads).build();
        for (int k = 0; k < 3; k++) {
            set.replica(k).addReporter(EnergyLogReporter.create(dir.resolve("t" + threads + ".r" + k + ".csv"), 7));
        }
        set.step(150);
        set.step(93);
        return set;
    }

    @Test
    void eachReplicaIsItsRunAloneBitForBitWhateverTheThreadCount(@TempDir Path dir) throws Exception {
        try (ReplicaSet one = run(1, dir); ReplicaSet three = run(3, dir)) {
            assertEquals("cpu", three.platformName());
            for (int k = 0; k < 3; k++) {
                try (Simulation alone = replica(k).build()) {
                    Path log = dir.resolve("alone.r" + k + ".csv");
                    alone.addReporter(EnergyLogReporter.create(log, 7));
                    alone.step(243);
                    alone.flushReporters();
                    for (ReplicaSet set : List.of(one, three)) {
                        Simulation s = set.replica(k);
                        assertEquals(243, s.stepCount());
                        assertArrayEquals(alone.atoms().positions(), s.atoms().positions(), 0.0, "replica " + k);
                        assertArrayEquals(alone.atoms().velocities(), s.atoms().velocities(), 0.0, "replica " + k);
                        assertArrayEquals(alone.forces(), s.forces(), 0.0, "replica " + k);
                        assertEquals(alone.conservedEnergyEv(), s.conservedEnergyEv(), 0.0, "replica " + k);
                    }
                    one.replica(k).flushReporters();
                    three.replica(k).flushReporters();
                    String expected = Files.readString(log);
                    assertEquals(expected, Files.readString(dir.resolve("t1.r" + k + ".csv")));
                    assertEquals(expected, Files.readString(dir.resolve("t3.r" + k + ".csv")));
                }
            }
            assertEquals(24, one.replica(0).degreesOfFreedom());
            assertEquals(3, one.replica(1).degreesOfFreedom(), "water under Bussi: 3N - 6 = 3");
            // replicas differ: other seeds, molecules and temperatures
            assertFalse(java.util.Arrays.equals(one.replica(0).atoms().positions(), one.replica(2).atoms().positions()));
        }
    }

    @Test
    void sharedInstancesAreRefusedOnTheHost() {
        ForceField ff = ClassicalReferencePotential.inferredFrom(TestSystems.ethanol());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReplicaSet.of(2,
                k -> Simulation.builder(TestSystems.ethanol(), ff, new VelocityVerlet(0.5)).seed(k).temperature(300))
                .build());
        assertTrue(e.getMessage().contains("replicas 0 and 1 share one force field instance"), e.getMessage());
        Atoms shared = TestSystems.ethanol();
        e = assertThrows(IllegalArgumentException.class, () -> ReplicaSet.of(2, k -> Simulation.builder(shared,
                ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()), new VelocityVerlet(0.5))).build());
        assertTrue(e.getMessage().contains("share one atoms instance"), e.getMessage());
    }

    @Test
    void aBlowUpInOneReplicaNamesItAfterEveryReplicaWasFlushed(@TempDir Path dir) throws Exception {
        // replica 1 at 3.8 fs is beyond Verlet's stability limit; replica 0 at 0.5 fs is fine
        try (ReplicaSet set = ReplicaSet.of(2, k -> Simulation.builder(TestSystems.ethanol(),
                ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()), new VelocityVerlet(k == 0 ? 0.5 : 3.8))
                .seed(7).temperature(300)).threads(2).build()) {
            set.replica(0).addReporter(EnergyLogReporter.create(dir.resolve("ok.csv"), 1));
            SimulationBlowUpException e = assertThrows(SimulationBlowUpException.class, () -> set.step(5000));
            assertTrue(e.step() > 1);
            List<String> rows = Files.readAllLines(dir.resolve("ok.csv"));
            assertTrue(rows.size() >= 2, "the healthy replica's log was flushed");
        }
    }
}
