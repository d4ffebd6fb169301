package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.cuda.GpuStatus;
import org.junit.jupiter.api.io.TempDir;
import org.molten.integrators.Checkpoint;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.structures.WaterBox;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;

/** {@code molten run} in-process through {@link MoltenCli#execute}. */
class RunCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void shortRunWritesLogTrajectoryAndCheckpoint(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("energy.csv"), traj = dir.resolve("traj.extxyz"), chk = dir.resolve("run.chk");
        CliRun r = run("run", "--system", "ethanol", "--integrator", "bussi", "--tau", "50", "--steps", "40",
                "--report-interval", "10", "--log", log.toString(), "--trajectory", traj.toString(),
                "--checkpoint", chk.toString(), "--checkpoint-interval", "25", "--seed", "7");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("molten run: 40 steps (fresh start) to step 40, t = 20.0 fs | C2H6O, 9 atoms"
                + " | velocity-verlet + bussi | student/optimised | cpu | Etot "), r.out());
        assertTrue(r.out().contains("| seed 7 |"), r.out());
        assertEquals(1, r.out().lines().count(), "one summary line, no progress bar in a pipe: " + r.out());
        List<String> rows = Files.readAllLines(log);
        assertTrue(rows.get(0).startsWith("# T[K] = 2 Ekin / (dof kB) with dof = 3N - 6 = 21 (N = 9 atoms"), rows.get(0));
        assertEquals(EnergyLogReporter.HEADER, rows.get(1));
        assertEquals(7, rows.size(), "comment, header + steps 0, 10, 20, 30, 40");
        List<Frame> frames = StructureFiles.readAll(traj);
        assertEquals(5, frames.size());
        assertEquals("40", frames.get(4).info().get("step"));
        assertEquals("7", frames.get(4).info().get("seed"));
        assertTrue(frames.get(4).hasForces());
        Checkpoint c = Checkpoint.read(chk);
        assertEquals(40, c.step(), "the final state is checkpointed whatever the interval");
        assertEquals(7L, c.seed().orElseThrow());
    }

    @Test
    void restartContinuesTheRunExactly(@TempDir Path dir) throws IOException {
        for (String integrator : List.of("langevin", "nose-hoover", "verlet")) {
            Path logA = dir.resolve(integrator + "-a.csv"), chkA = dir.resolve(integrator + "-a.chk");
            Path logB = dir.resolve(integrator + "-b.csv"), chkB = dir.resolve(integrator + "-b.chk");
            Path trajA = dir.resolve(integrator + "-a.xyz"), trajB = dir.resolve(integrator + "-b.xyz");
            String[] common = {"run", "--system", "ethanol", "--integrator", integrator, "--seed", "11",
                    "--report-interval", "5", "--checkpoint-interval", "20"};
            assertEquals(0, run(concat(common, "--steps", "60", "--log", logA.toString(), "--trajectory",
                    trajA.toString(), "--checkpoint", chkA.toString())).status());
            // First leg stops at 30 (checkpoint at 30), then the run is continued to 60.
            assertEquals(0, run(concat(common, "--steps", "30", "--log", logB.toString(), "--trajectory",
                    trajB.toString(), "--checkpoint", chkB.toString())).status());
            CliRun r = run(concat(common, "--steps", "60", "--log", logB.toString(), "--trajectory", trajB.toString(),
                    "--checkpoint", chkB.toString(), "--restart", chkB.toString()));
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().startsWith("molten run: 30 steps (restarted at step 30) to step 60"), r.out());
            assertEquals(Files.readString(logA), Files.readString(logB), integrator + ": log");
            assertEquals(Files.readString(trajA), Files.readString(trajB), integrator + ": trajectory");
            Checkpoint a = Checkpoint.read(chkA), b = Checkpoint.read(chkB);
            assertEquals(60, b.step());
            assertArrayEquals(a.positionsA(), b.positionsA(), 0.0, integrator);
            assertArrayEquals(a.velocitiesAPerFs(), b.velocitiesAPerFs(), 0.0, integrator);
        }
    }

    @Test
    void replicasWriteOneSetOfFilesEachEqualToTheirRunAloneAndRestartTogether(@TempDir Path dir) throws IOException {
        String[] common = {"run", "--system", "ethanol", "--integrator", "langevin", "--seed", "20",
                "--report-interval", "5", "--checkpoint-interval", "20"};
        Path log = dir.resolve("e.csv"), traj = dir.resolve("t.xyz"), chk = dir.resolve("c.chk");
        CliRun r = run(concat(common, "--replicas", "3", "--steps", "40", "--log", log.toString(), "--trajectory",
                traj.toString(), "--checkpoint", chk.toString()));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("molten run: replica 2: 40 steps (fresh start)"), r.out());
        assertTrue(r.out().contains("| seed 22 |"), r.out());
        assertTrue(r.out().contains("molten run: 3 replicas on cpu, "), r.out());
        for (int k = 0; k < 3; k++) {
            assertTrue(Files.exists(dir.resolve("e.r" + k + ".csv")) && Files.exists(dir.resolve("t.r" + k + ".xyz"))
                    && Files.exists(dir.resolve("c.r" + k + ".chk")), "replica " + k + "'s files");
            assertEquals(20L + k, Checkpoint.read(dir.resolve("c.r" + k + ".chk")).seed().orElseThrow());
        }
        assertFalse(Files.exists(log), "no unnumbered file with replicas");
        // Replica 1 is the same run alone with seed 21, bit for bit (its log and trajectory).
        Path alone = dir.resolve("alone.csv"), aloneTraj = dir.resolve("alone.xyz");
        String[] single = common.clone();
        single[6] = "21";
        assertEquals(0, run(concat(single, "--steps", "40", "--log", alone.toString(), "--trajectory",
                aloneTraj.toString())).status());
        assertEquals(Files.readString(alone), Files.readString(dir.resolve("e.r1.csv")));
        assertEquals(Files.readString(aloneTraj), Files.readString(dir.resolve("t.r1.xyz")));
        // The set stopped at 20 and restarted continues every replica exactly.
        Path logB = dir.resolve("b.csv"), chkB = dir.resolve("b.chk");
        assertEquals(0, run(concat(common, "--replicas", "3", "--steps", "20", "--log", logB.toString(),
                "--checkpoint", chkB.toString())).status());
        r = run(concat(common, "--replicas", "3", "--steps", "40", "--log", logB.toString(), "--checkpoint",
                chkB.toString(), "--restart", chkB.toString()));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("replica 0: 20 steps (restarted at step 20) to step 40"), r.out());
        for (int k = 0; k < 3; k++) {
            assertEquals(Files.readString(dir.resolve("e.r" + k + ".csv")), Files.readString(dir.resolve("b.r" + k + ".csv")),
                    "replica " + k + " log after the restart");
        }
        // A checkpoint of another replica in replica 1's place is refused, naming the replica.
        Files.copy(dir.resolve("b.r0.chk"), dir.resolve("b.r1.chk"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        r = run("run", "--system", "ethanol", "--integrator", "langevin", "--replicas", "3", "--steps", "60",
                "--restart", chkB.toString());
        assertNotEquals(0, r.status());
        assertTrue(r.err().contains("replica 1 of this run needs seed 21"), r.err());
    }

    @Test
    void restartRefusesAnotherIntegratorOrSystem(@TempDir Path dir) {
        Path chk = dir.resolve("run.chk");
        assertEquals(0, run("run", "--system", "water", "--integrator", "bussi", "--steps", "10", "--seed", "1",
                "--checkpoint", chk.toString()).status());
        CliRun r = run("run", "--system", "water", "--integrator", "nose-hoover", "--steps", "20", "--restart", chk.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("was written for another integrator: 'velocity-verlet(dt=0.5 fs) + bussi("), r.err());
        r = run("run", "--system", "ethanol", "--integrator", "bussi", "--steps", "20", "--restart", chk.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("is for another system: 3 atoms H2O, this run has 9 atoms C2H6O"), r.err());
        r = run("run", "--system", "water", "--integrator", "bussi", "--steps", "20", "--seed", "2", "--restart", chk.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("--seed 2 differs from the seed 1"), r.err());
        // A gzip trajectory cannot be cut back to the checkpoint; an unrecorded existing file is not overwritten.
        Path gz = dir.resolve("t.extxyz.gz");
        Path chk2 = dir.resolve("gz.chk");
        assertEquals(0, run("run", "--system", "water", "--integrator", "bussi", "--steps", "10", "--seed", "1",
                "--trajectory", gz.toString(), "--report-interval", "5", "--checkpoint", chk2.toString()).status());
        r = run("run", "--system", "water", "--integrator", "bussi", "--steps", "20", "--trajectory", gz.toString(),
                "--restart", chk2.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("is compressed and cannot be continued after a restart; name a new file"), r.err());
        Path other = dir.resolve("other.csv");
        try {
            java.nio.file.Files.writeString(other, "precious\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        r = run("run", "--system", "water", "--integrator", "bussi", "--steps", "20", "--log", other.toString(),
                "--restart", chk2.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("did not record it; name a new file or remove it (nothing was overwritten)"), r.err());
        try {
            assertEquals("precious\n", java.nio.file.Files.readString(other));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void badOptionsGiveClearErrors(@TempDir Path dir) {
        CliRun r = run("run", "--system", "water", "--integrator", "leapfrog");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("unknown integrator 'leapfrog'; choose one of verlet, langevin, nose-hoover, bussi,"
                + " berendsen"), r.err());
        r = run("run", "--system", "water", "--integrator", "bussi", "--friction", "0.01");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("--friction applies to langevin only, not bussi; use --tau (fs)"), r.err());
        r = run("run", "--system", "water", "--timestep", "-0.5");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("--timestep (fs) must be strictly positive and finite: -0.5"), r.err());
        r = run("run", "--steps", "10");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--structure=FILE | --system=NAME"), r.err());
        r = run("run", "--system", "water", "--structure", "x.xyz");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("mutually exclusive"), r.err());
        r = run("run", "--system", "unobtainium");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("unknown system 'unobtainium'"), r.err());
        Path missing = dir.resolve("nothing-here.xyz");
        r = run("run", "--structure", missing.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains(missing.toString()), r.err());
        r = run("run", "--system", "water", "--device", "tpu");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("unknown device 'tpu'; choose one of auto, cpu, cuda"), r.err());
    }

    @Test
    void periodicWaterBoxFromAStructureFile(@TempDir Path dir) throws IOException {
        Path box = dir.resolve("water.extxyz");
        StructureFiles.write(box, WaterBox.build(32, 5));
        Path log = dir.resolve("e.csv");
        // 32 waters make a 9.9 Å box: too small for the student's 5 Å cutoff, which is refused
        CliRun refused = run("run", "--structure", box.toString(), "--steps", "10", "--seed", "5");
        assertEquals(1, refused.status());
        assertTrue(refused.err().contains("cutoff"), refused.err());
        CliRun r = run("run", "--structure", box.toString(), "--force-field", "classical", "--integrator", "nose-hoover",
                "--steps", "200", "--report-interval", "50", "--seed", "5", "--log", log.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("H64O32, 96 atoms"), r.out());
        assertEquals(7, Files.readAllLines(log).size(), "the T[K] comment, the header and steps 0, 50, ..., 200");
    }

    @Test
    void helpNamesTheUnitOfEveryOption() {
        CliRun r = run("run", "--help");
        assertEquals(0, r.status());
        for (String unit : List.of("Timestep in fs", "Temperature in K", "friction in 1/fs", "coupling time in fs",
                "eV/Å", "Å/fs", "Time[ps]", "this many steps", "Steps between checkpoints")) {
            assertTrue(r.out().contains(unit), "help mentions '" + unit + "':\n" + r.out());
        }
    }

    @Test
    void cudaFallsBackToTheCpuWithOneWarning() {
        Assumptions.assumeFalse(GpuAvailability.available(), "a CUDA device is present: no fallback to test");
        long before = GpuStatus.snapshot().fallbacks();
        CliRun r = run("run", "--system", "water", "--device", "cuda", "--steps", "5", "--seed", "3");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("| student/optimised | cpu |"), r.out());
        assertEquals(before + 1, GpuStatus.snapshot().fallbacks(), "the fallback is counted for molten info");
    }

    @Test
    void blowUpStopsWithStepAtomAndCauseAndKeepsTheCheckpoint(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("e.csv"), chk = dir.resolve("c.chk");
        CliRun r = run("run", "--system", "ethanol", "--integrator", "verlet", "--timestep", "3.8", "--steps", "1000",
                "--seed", "7", "--report-interval", "1", "--log", log.toString(), "--checkpoint", chk.toString(),
                "--checkpoint-interval", "2");
        assertEquals(1, r.status());
        assertTrue(r.err().matches("(?s).*molten run: simulation blew up at step \\d+ \\(t = [0-9.]+ fs\\): atom \\d+"
                + " \\([A-Z][a-z]?\\): .*"), r.err());
        assertTrue(r.err().contains("the last good checkpoint is " + chk), r.err());
        assertTrue(Files.readAllLines(log).size() > 2, "the log keeps the good steps");
        assertTrue(Checkpoint.read(chk).step() > 0);
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
