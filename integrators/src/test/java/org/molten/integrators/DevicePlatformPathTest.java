package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.ForceField;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.reporters.CheckpointReporter;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.reporters.TrajectoryReporter;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

/**
 * The simulation's side of a device platform, through {@link FakeDevicePlatform} (host integrators
 * behind the SPI): the state is pulled only at reporter and guard intervals, the device advances
 * in chunks between them, checkpoints and restarts go through the SPI bit for bit, a device
 * blow-up becomes a {@link SimulationBlowUpException}, and a platform that cannot run falls back
 * to the host with one warning.
 */
class DevicePlatformPathTest {
    private static final ForceField FF = ClassicalReferencePotential.inferredFrom(TestSystems.ethanol());

    @AfterEach
    void reset() {
        FakeDevicePlatform.unavailable = null;
    }

    private static Simulation ethanol(String platform, Integrator integrator, long seed, List<String> warnings) {
        return Simulation.builder(TestSystems.ethanol(), FF, integrator).seed(seed).temperature(300).platform(platform)
                .warnings(warnings::add).build();
    }

    @Test
    void reportersPullTheStateOnlyAtTheirIntervalsAndTheDeviceAdvancesInChunks(@TempDir Path dir) {
        List<String> warnings = new ArrayList<>();
        Simulation host = ethanol("cpu", new VelocityVerlet(0.5, new NoseHooverChain(300, 20, 4, 2, 5)), 7, warnings);
        Simulation dev = ethanol("fake", new VelocityVerlet(0.5, new NoseHooverChain(300, 20, 4, 2, 5)), 7, warnings);
        assertEquals("fake", dev.platformName());
        FakeDevicePlatform.Dynamics d = FakeDevicePlatform.last;
        host.addReporter(EnergyLogReporter.create(dir.resolve("host.csv"), 10));
        dev.addReporter(EnergyLogReporter.create(dir.resolve("dev.csv"), 10));
        host.step(100);
        dev.step(100);
        assertEquals(Collections.nCopies(10, 10), d.advances, "one chunk per report interval");
        assertEquals(11, d.replicas.get(0).reads, "one read at the start, one per report");
        // The spec carried every parameter of the chain (length 4, 2 sub-steps, 5 weights): the same numbers.
        assertArrayEquals(host.atoms().positions(), dev.atoms().positions(), 0.0);
        assertEquals(host.conservedEnergyEv(), dev.conservedEnergyEv(), 0.0);
        host.close();
        dev.close();
        assertEquals(read(dir.resolve("host.csv")), read(dir.resolve("dev.csv")));
        assertTrue(d.closed, "a simulation frees the binding it owns");

        // Without reporters only the guard pulls, every guardIntervalSteps.
        Simulation quiet = Simulation.builder(TestSystems.ethanol(), FF, new VelocityVerlet(0.5)).seed(1).temperature(300)
                .platform("fake").guardIntervalSteps(40).build();
        quiet.step(100);
        assertEquals(List.of(40, 40, 20), FakeDevicePlatform.last.advances);
        assertEquals(1 + 2, FakeDevicePlatform.last.replicas.get(0).reads, "start, steps 40 and 80; nothing at 100");
        assertEquals(100, quiet.stepCount());
        quiet.atoms();
        assertEquals(4, FakeDevicePlatform.last.replicas.get(0).reads, "pulled when asked");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    /**
     * Once the device binding is freed (a simulation closed, or its replica set) the final temperature and conserved
     * energy still answer, from what was pulled before: Langevin's reported kinetic energy and the bath live on the
     * device (molten run prints both after closing the set: "CUDA context already closed" before this).
     */
    @Test
    void temperatureAndBathStayReadableAfterTheDeviceIsFreed() {
        Supplier<Integrator> langevin = () -> new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.05));
        List<String> warnings = new ArrayList<>();
        Simulation one = ethanol("fake", langevin.get(), 4, warnings);
        one.step(10);
        double t = one.temperatureK();
        double h = one.conservedEnergyEv();
        one.close();
        assertEquals(t, one.temperatureK(), 0.0);
        assertEquals(h, one.conservedEnergyEv(), 0.0);
        ReplicaSet set = ReplicaSet.of(2, k -> Simulation.builder(TestSystems.ethanol(), FF, langevin.get()).seed(5 + k)
                .temperature(300)).platform("fake").build();
        set.step(10);
        double t1 = set.replica(1).temperatureK();
        set.close();
        assertEquals(t1, set.replica(1).temperatureK(), 0.0);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    /**
     * A device platform that does not declare it runs constraints (the default of
     * DevicePlatform.unsupportedConstraints: the fake) leaves a constrained run on the host with one warning, so no
     * device ever drops a constraint set silently; the cuda platform declares it runs them (platform-cuda's
     * CudaConstraintsTest).
     */
    @Test
    void aPlatformWithoutConstraintsLeavesAConstrainedRunOnTheHost() {
        List<String> warnings = new ArrayList<>();
        try (Simulation sim = Simulation.builder(TestSystems.ethanol(), FF, new VelocityVerlet(1.0))
                .constraints(org.molten.integrators.constraints.Constraints.hBonds()).seed(3).temperature(300)
                .platform("fake").warnings(warnings::add).build()) {
            assertEquals("cpu", sim.platformName());
            assertEquals(List.of("fake does not run constraints (h-bonds); running on the cpu platform instead"), warnings);
        }
    }

    @Test
    void checkpointAndRestartGoThroughTheDeviceBitForBitAndStayOnItsPlatform(@TempDir Path dir) throws Exception {
        Supplier<Integrator> langevin = () -> new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01));
        List<String> w = new ArrayList<>();
        Simulation a = ethanol("fake", langevin.get(), 11, w);
        a.addReporter(EnergyLogReporter.create(dir.resolve("a.csv"), 10))
                .addReporter(TrajectoryReporter.create(dir.resolve("a.xyz"), 25));
        a.step(300);
        a.close();
        Path chk = dir.resolve("b.chk");
        Path logB = dir.resolve("b.csv");
        Path trajB = dir.resolve("b.xyz");
        Simulation b = ethanol("fake", langevin.get(), 11, w);
        b.addReporter(EnergyLogReporter.create(logB, 10)).addReporter(TrajectoryReporter.create(trajB, 25))
                .addReporter(new CheckpointReporter(chk, 100));
        b.step(237);
        b.close();
        Checkpoint c = Checkpoint.read(chk);
        assertEquals(200, c.step());
        assertEquals("fake", c.platform());
        Simulation resumed = ethanol("fake", langevin.get(), 11, w);
        resumed.restore(c);
        assertEquals(200, FakeDevicePlatform.last.stepCount(), "the device was restored to the checkpoint's step");
        c.outputMark(logB).orElseThrow().rewind();
        c.outputMark(trajB).orElseThrow().rewind();
        resumed.addReporter(EnergyLogReporter.appending(logB, 10)).addReporter(TrajectoryReporter.appending(trajB, 25));
        resumed.step(100);
        resumed.close();
        assertEquals(read(dir.resolve("a.csv")), read(logB), "log continues exactly");
        assertEquals(read(dir.resolve("a.xyz")), read(trajB), "trajectory continues exactly");

        Simulation onHost = ethanol("cpu", langevin.get(), 11, w);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> onHost.restore(c));
        assertTrue(e.getMessage().contains("written for another platform: 'fake', this run uses 'host'"), e.getMessage());
        // reference and cpu are one host integration: a cpu checkpoint continues on reference
        Simulation cpu = ethanol("cpu", langevin.get(), 11, w);
        cpu.step(5);
        Simulation ref = ethanol("reference", langevin.get(), 11, w);
        ref.restore(cpu.checkpoint());
        assertEquals(5, ref.stepCount());
        assertTrue(w.isEmpty(), w.toString());
    }

    @Test
    void aDeviceBlowUpIsASimulationBlowUpAndTheLastGoodStateStaysReadable(@TempDir Path dir) {
        // 3.8 fs is beyond Verlet's stability limit for the stiff bonds (see SimulationTest).
        Simulation sim = Simulation.builder(TestSystems.ethanol(), FF, new VelocityVerlet(3.8)).seed(7).temperature(300)
                .platform("fake").guardIntervalSteps(100_000).build();
        Path log = dir.resolve("e.csv");
        sim.addReporter(EnergyLogReporter.create(log, 1000));
        SimulationBlowUpException e = assertThrows(SimulationBlowUpException.class, () -> sim.step(5000));
        assertEquals(SimulationBlowUpException.Cause.NON_FINITE_ON_DEVICE, e.blowUpCause());
        assertTrue(e.getMessage().contains("(on fake: atom"), e.getMessage());
        assertTrue(e.step() > 1, e.getMessage());
        assertEquals(sim.atoms().element(e.atom()), e.element());
        for (double x : sim.atoms().positions()) {
            assertTrue(Double.isFinite(x), "the last good state is read back");
        }
        assertTrue(read(log).contains(EnergyLogReporter.HEADER), "the log was flushed");
    }

    @Test
    void aPlatformThatCannotRunFallsBackToTheHostWithOneWarningNamingTheReason() {
        List<String> w = new ArrayList<>();
        Simulation s = ethanol("cuda", new VelocityVerlet(0.5), 1, w);
        assertEquals("cpu", s.platformName());
        assertEquals(1, w.size());
        // not installed (integrators alone) or installed without a GPU (the CUDA platform of forcefield on the test class path)
        assertTrue(w.get(0).startsWith("cuda is not installed") || w.get(0).startsWith("cuda is not available"), w.get(0));
        assertTrue(w.get(0).endsWith("running on the cpu platform instead"), w.get(0));
        w.clear();
        FakeDevicePlatform.unavailable = "no card in this test";
        s = ethanol("fake", new VelocityVerlet(0.5), 1, w);
        assertEquals("cpu", s.platformName());
        assertEquals(List.of("fake is not available: no card in this test; running on the cpu platform instead"), w);
        FakeDevicePlatform.unavailable = null;
        w.clear();
        s = ethanol("fake", new VelocityVerlet(0.5, new BerendsenThermostat(300, 50)), 1, w);
        assertEquals("cpu", s.platformName());
        assertTrue(w.get(0).contains("berendsen is not implemented on fake"), w.get(0));
        w.clear();
        s = ethanol("auto", new VelocityVerlet(0.5), 1, w);
        assertEquals("cpu", s.platformName(), "auto tries cuda only");
        assertTrue(w.isEmpty(), "auto falls back silently: " + w);
        assertThrows(IllegalArgumentException.class, () -> ethanol("tpu", new VelocityVerlet(0.5), 1, new ArrayList<>()));
    }

    @Test
    void aReplicaSetBindsEveryReplicaOnceAndEachEqualsItsSimulationAlone() {
        List<String> w = new ArrayList<>();
        double[] temps = {300, 350, 400};
        try (ReplicaSet set = ReplicaSet.of(3, k -> Simulation.builder(TestSystems.ethanol(), FF,
                new VelocityVerlet(0.5, new BussiThermostat(temps[k], 20))).seed(50 + k).temperature(temps[k]))
                .platform("fake").warnings(w::add).build()) {
            FakeDevicePlatform.Dynamics d = FakeDevicePlatform.last;
            assertEquals(3, d.replicas.size(), "one binding with all replica starts");
            assertEquals("fake", set.platformName());
            set.replica(1).addReporter(new Reporter() {
                @Override
                public int intervalSteps() {
                    return 30;
                }

                @Override
                public void report(Simulation s) {
                }
            });
            set.step(90);
            assertEquals(List.of(30, 30, 30), d.advances);
            assertEquals(1, d.replicas.get(0).reads, "replica 0 has no reporter: read once at the start");
            assertEquals(4, d.replicas.get(1).reads);
            for (int k = 0; k < 3; k++) {
                Simulation alone = Simulation.builder(TestSystems.ethanol(), FF,
                        new VelocityVerlet(0.5, new BussiThermostat(temps[k], 20))).seed(50 + k).temperature(temps[k])
                        .platform("fake").build();
                alone.step(90);
                assertArrayEquals(alone.atoms().positions(), set.replica(k).atoms().positions(), 0.0, "replica " + k);
            }
            assertThrows(IllegalStateException.class, () -> set.replica(0).step(1), "a bound replica moves with its set");
        }
        assertTrue(w.isEmpty(), w.toString());
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
