package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.reporters.TrajectoryReporter;
import org.molten.integrators.thermostats.LangevinThermostat;

/**
 * Storage faults at the simulation's level: an output that cannot be written is named with its
 * problem ({@link OutputWriteException}), a rescue checkpoint leaves that output out and keeps the
 * healthy ones; a damaged checkpoint — cut at any length or with any sampled bit flipped — is
 * refused with an {@link IOException} that names the file and says truncated or corrupted, never
 * another exception; a checkpoint never replaces a device.
 */
class StorageFaultTest {

    private static Simulation ethanol() {
        Atoms eth = TestSystems.ethanol();
        return Simulation.builder(eth, ClassicalReferencePotential.inferredFrom(eth),
                new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01))).seed(3).temperature(300).build();
    }

    @Test
    void aFullDiskIsNamedAndTheRescueCheckpointLeavesTheBrokenOutputOut(@TempDir Path dir) throws IOException {
        Path traj = dir.resolve("t.extxyz");
        try (Simulation sim = ethanol()) {
            sim.addReporter(TrajectoryReporter.create(traj, 5));
            sim.addReporter(EnergyLogReporter.create(Path.of("/dev/full"), 5));
            sim.step(12);   // the log's rows are buffered: nothing fails yet
            OutputWriteException e = assertThrows(OutputWriteException.class, sim::checkpoint);
            assertEquals(Path.of("/dev/full"), e.file());
            assertEquals("cannot write /dev/full at step 12: no space left on device", e.getMessage());
            Checkpoint rescue = sim.rescueCheckpoint();
            assertEquals(12, rescue.step());
            assertTrue(rescue.outputMark(Path.of("/dev/full")).isEmpty(), "the broken log is left out");
            assertEquals(Files.size(traj), rescue.outputMark(traj).orElseThrow().bytes(), "the healthy trajectory is kept");
        } catch (OutputWriteException onClose) {   // the JDK's writer may or may not fail again on close: if it does, named
            assertEquals(Path.of("/dev/full"), onClose.file());
        }
    }

    @Test
    void everyCutAndSampledBitFlipOfACheckpointIsRefusedNamingTheFile(@TempDir Path dir) throws IOException {
        Simulation sim = ethanol();
        sim.step(4);
        Path good = dir.resolve("good.chk");
        sim.checkpoint().writeAtomically(good);
        byte[] all = Files.readAllBytes(good);
        Path bad = dir.resolve("bad.chk");
        int truncated = 0;
        for (int n = 0; n < all.length; n++) {
            Files.write(bad, Arrays.copyOf(all, n));
            String m = assertThrows(IOException.class, () -> Checkpoint.read(bad), "cut at " + n).getMessage();
            assertTrue(m.contains(bad.toString()) && (m.contains("truncated") || m.contains("not a Molten checkpoint")),
                    "cut at " + n + ": " + m);
            truncated += m.contains("is truncated: it has " + n + " bytes") ? 1 : 0;
        }
        assertTrue(truncated > all.length / 2, "most cuts are recognised as cuts by the declared size: " + truncated);
        for (int i = 0; i < all.length; i += 7) {
            byte[] flipped = all.clone();
            flipped[i] ^= (byte) (1 << (i % 8));
            Files.write(bad, flipped);
            String m = assertThrows(IOException.class, () -> Checkpoint.read(bad), "bit flip at byte " + i).getMessage();
            assertTrue(m.contains(bad.toString()), m);
        }
    }

    @Test
    void aCheckpointNeverReplacesADeviceOrAFolder(@TempDir Path dir) throws IOException {
        Simulation sim = ethanol();
        IOException e = assertThrows(IOException.class, () -> sim.checkpoint().writeAtomically(Path.of("/dev/full")));
        assertTrue(e.getMessage().contains("/dev/full") && e.getMessage().contains("not a regular file"), e.getMessage());
        assertFalse(Files.isRegularFile(Path.of("/dev/full")));
        Files.createDirectories(dir.resolve("folder.chk"));
        assertThrows(IOException.class, () -> sim.checkpoint().writeAtomically(dir.resolve("folder.chk")));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
    }
}
