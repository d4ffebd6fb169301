package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.reporters.CheckpointReporter;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.reporters.TrajectoryReporter;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

class CheckpointRestartTest {
    private static final long SEED = 31337;

    static Stream<Arguments> integrators() {
        return Stream.of(
                Arguments.of("verlet", (Supplier<Integrator>) () -> new VelocityVerlet(0.5)),
                Arguments.of("langevin", (Supplier<Integrator>) () -> new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01))),
                Arguments.of("nose-hoover", (Supplier<Integrator>) () -> new VelocityVerlet(0.5, new NoseHooverChain(300, 20))),
                Arguments.of("bussi", (Supplier<Integrator>) () -> new VelocityVerlet(0.5, new BussiThermostat(300, 20))),
                Arguments.of("berendsen", (Supplier<Integrator>) () -> new VelocityVerlet(0.5, new BerendsenThermostat(300, 20))));
    }

    /** A fresh ethanol run as the CLI would start it: velocities drawn from the seeded stream. */
    private static Simulation start(Integrator integrator) {
        Atoms eth = TestSystems.ethanol();
        ForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        return Simulation.builder(eth, ff, integrator).seed(SEED).temperature(300).platform("cpu").build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("integrators")
    void restartContinuesBitForBit(String name, Supplier<Integrator> make, @TempDir Path dir) throws IOException {
        // Uninterrupted: 300 steps, log every 10, checkpoint every 100.
        Path logA = dir.resolve("a.csv");
        Path trajA = dir.resolve("a.extxyz");
        Simulation a = start(make.get());
        a.addReporter(EnergyLogReporter.create(logA, 10)).addReporter(TrajectoryReporter.create(trajA, 25))
                .addReporter(new CheckpointReporter(dir.resolve("a.chk"), 100));
        a.step(300);
        a.close();

        // Interrupted: the run dies at step 237; the last checkpoint is from step 200, the log has rows to 230.
        Path logB = dir.resolve("b.csv");
        Path trajB = dir.resolve("b.extxyz");
        Path chk = dir.resolve("b.chk");
        Simulation b = start(make.get());
        b.addReporter(EnergyLogReporter.create(logB, 10)).addReporter(TrajectoryReporter.create(trajB, 25))
                .addReporter(new CheckpointReporter(chk, 100));
        b.step(237);
        b.close();

        Checkpoint c = Checkpoint.read(chk);
        assertEquals(200, c.step());
        assertEquals(100.0, c.timeFs());
        assertEquals(SEED, c.seed().orElseThrow());
        Simulation resumed = start(make.get());
        resumed.restore(c);
        c.outputMark(logB).orElseThrow().rewind();
        c.outputMark(trajB).orElseThrow().rewind();
        resumed.addReporter(EnergyLogReporter.appending(logB, 10)).addReporter(TrajectoryReporter.appending(trajB, 25))
                .addReporter(new CheckpointReporter(chk, 100));
        resumed.step(100);
        resumed.close();

        assertEquals(300, resumed.stepCount());
        assertArrayEquals(a.atoms().positions(), resumed.atoms().positions(), 0.0, name + ": positions");
        assertArrayEquals(a.atoms().velocities(), resumed.atoms().velocities(), 0.0, name + ": velocities");
        assertArrayEquals(a.forces(), resumed.forces(), 0.0, name + ": forces");
        assertEquals(a.conservedEnergyEv(), resumed.conservedEnergyEv(), 0.0, name + ": bath energy");
        assertEquals(Files.readString(logA), Files.readString(logB), name + ": energy log continues exactly");
        assertEquals(33, Files.readAllLines(logB).size(), "temperature-convention comment, header + steps 0, 10, ..., 300");
        assertEquals(Files.readString(trajA), Files.readString(trajB), name + ": trajectory continues exactly");
        List<Frame> frames = StructureFiles.readAll(trajB);
        assertEquals(13, frames.size(), "steps 0, 25, ..., 300");
        assertEquals("300", frames.get(12).info().get("step"));
        assertEquals(Long.toString(SEED), frames.get(12).info().get("seed"));
        assertArrayEquals(a.atoms().positions(), frames.get(12).atoms().positions(), 1e-6, "positions written");
        assertArrayEquals(a.forces(), frames.get(12).forcesEvPerA().orElseThrow(), 1e-6, "forces written");
        // The final checkpoints of both runs hold the same state (they differ only in the log path they record).
        Checkpoint ca = Checkpoint.read(dir.resolve("a.chk"));
        Checkpoint cb = Checkpoint.read(chk);
        assertEquals(300, cb.step());
        assertArrayEquals(ca.positionsA, cb.positionsA, 0.0);
        assertArrayEquals(ca.velocitiesAPerFs, cb.velocitiesAPerFs, 0.0);
        assertArrayEquals(ca.randomState, cb.randomState, name + ": random stream state");
        assertArrayEquals(ca.integratorState, cb.integratorState, name + ": thermostat state");
    }

    @Test
    void sameSeedGivesTheSameTrajectoryAndAnotherSeedDoesNot() throws IOException {
        Simulation a = start(new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01)));
        Simulation b = start(new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01)));
        a.step(200);
        b.step(200);
        assertArrayEquals(a.atoms().positions(), b.atoms().positions(), 0.0);
        assertArrayEquals(a.atoms().velocities(), b.atoms().velocities(), 0.0);

        Atoms eth = TestSystems.ethanol();
        Simulation c = Simulation.builder(eth, ClassicalReferencePotential.inferredFrom(eth),
                new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01))).seed(SEED + 1).temperature(300).build();
        c.step(200);
        assertFalse(java.util.Arrays.equals(a.atoms().positions(), c.atoms().positions()));
    }
}
