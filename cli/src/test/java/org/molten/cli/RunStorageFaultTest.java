package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.integrators.Checkpoint;
import picocli.CommandLine;

/**
 * {@code molten run} whose outputs cannot be written any more: a log on a full disk
 * ({@code /dev/full}) and a folder removed mid-run. The run stops with one message naming the
 * file and the problem (no stack trace), exit status 1, the state of its last step in a rescue
 * checkpoint outside the broken folder, the previous checkpoint intact; a restart from the rescue
 * checkpoint ends bit for bit where the run would have ended.
 */
class RunStorageFaultTest {
    private static final String[] WATER = {"--system", "water", "--force-field", "classical", "--integrator", "langevin",
            "--seed", "5", "--report-interval", "5", "--checkpoint-interval", "20", "--steps", "60"};

    private record Outcome(int status, String err) {
    }

    /** {@code molten run ARGS} in-process; {@code afterStep} sees each step count. */
    private static Outcome run(java.util.function.LongConsumer afterStep, String... args) {
        RunCommand cmd = new RunCommand();
        cmd.stopRequest = StopRequest.manual();
        cmd.afterStep = afterStep;
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, c, p) -> {   // as MoltenCli does: one line for I/O and bad input
            c.getErr().println("molten run: " + ex.getMessage());
            return 1;
        });
        return new Outcome(cl.execute(args), err.toString());
    }

    private static String[] with(String... more) {
        String[] all = java.util.Arrays.copyOf(WATER, WATER.length + more.length);
        System.arraycopy(more, 0, all, WATER.length, more.length);
        return all;
    }

    private static void noStackTraceOneLine(String err) {
        assertEquals(1, err.lines().count(), err);
        assertFalse(err.contains("\tat ") || err.contains("Exception"), err);
    }

    private static void noTemporaryFilesIn(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList(), "half-written files");
        }
    }

    @Test
    void aLogOnAFullDiskStopsWithTheFileNamedAndTheStateSaved(@TempDir Path dir) throws IOException {
        Path chk = dir.resolve("run.chk");
        Outcome o = run(s -> { }, with("--log", "/dev/full", "--checkpoint", chk.toString()));
        assertEquals(StorageFault.EXIT_STATUS, o.status(), o.err());
        noStackTraceOneLine(o.err());
        Path rescue = dir.resolve("run-rescue.chk");
        assertTrue(o.err().startsWith("molten run: cannot write /dev/full at step 0: no space left on device; stopped at step 0 "
                + "of 60 (t = 0.0 fs); the state of step 0 is saved in " + rescue), o.err());
        assertTrue(o.err().strip().endsWith("--restart " + rescue), o.err());
        Checkpoint c = Checkpoint.read(rescue);
        assertEquals(0, c.step());
        assertTrue(c.outputMark(Path.of("/dev/full")).isEmpty(), "the broken log is not vouched for");
        noTemporaryFilesIn(dir);
        assertFalse(Files.isRegularFile(Path.of("/dev/full")), "the device was not replaced");
    }

    @Test
    void aFolderRemovedMidRunStopsAtTheNextReportAndARestartLosesNothing(@TempDir Path dir) throws IOException {
        Path full = dir.resolve("full");
        Files.createDirectories(full);
        assertEquals(0, run(s -> { }, with("--log", full.resolve("e.csv").toString(), "--checkpoint",
                full.resolve("end.chk").toString())).status());

        Path out = dir.resolve("out");
        Path chkDir = dir.resolve("chk");
        Files.createDirectories(out);
        Files.createDirectories(chkDir);
        Path log = out.resolve("e.csv");
        Path traj = out.resolve("t.extxyz");
        Path chk = chkDir.resolve("c.chk");
        Outcome o = run(step -> {
            if (step == 37) {
                deleteTree(out);   // the run's output folder vanishes under it
            }
        }, with("--log", log.toString(), "--trajectory", traj.toString(), "--checkpoint", chk.toString()));
        assertEquals(StorageFault.EXIT_STATUS, o.status(), o.err());
        noStackTraceOneLine(o.err());
        Path rescue = chkDir.resolve("c-rescue.chk");
        assertTrue(o.err().startsWith("molten run: cannot write " + log + " at step 40: the file (or its folder) was removed "
                + "while the run wrote it; stopped at step 40 of 60 (t = 20.0 fs); the state of step 40 is saved in " + rescue
                + "; the checkpoint " + chk + " is intact at step 20; give " + log + " a new name"), o.err());
        assertEquals(20, Checkpoint.read(chk).step(), "the previous checkpoint is whole");
        assertEquals(40, Checkpoint.read(rescue).step());
        noTemporaryFilesIn(chkDir);

        // continue (the folder made again, new files): the run ends where the uninterrupted one ended, bit for bit
        Files.createDirectories(out);
        Path end = dir.resolve("end.chk");
        assertEquals(0, run(s -> { }, with("--log", log.toString(), "--trajectory", traj.toString(), "--checkpoint",
                end.toString(), "--restart", rescue.toString())).status());
        Checkpoint once = Checkpoint.read(full.resolve("end.chk"));
        Checkpoint resumed = Checkpoint.read(end);
        assertEquals(60, resumed.step());
        assertArrayEquals(once.positionsA(), resumed.positionsA());
        assertArrayEquals(once.velocitiesAPerFs(), resumed.velocitiesAPerFs());
        List<String> rows = Files.readAllLines(log);
        assertTrue(rows.get(rows.size() - 1).startsWith("0.030000,"), "the continued log reaches 30 fs: " + rows);
    }

    @Test
    void aDamagedCheckpointIsRefusedOnRestartWithWhatIsWrong(@TempDir Path dir) throws IOException {
        Path chk = dir.resolve("c.chk");
        assertEquals(0, run(s -> { }, with("--checkpoint", chk.toString())).status());
        byte[] good = Files.readAllBytes(chk);
        Path cut = dir.resolve("cut.chk");
        Files.write(cut, java.util.Arrays.copyOf(good, good.length / 2));
        Outcome o = run(s -> { }, with("--restart", cut.toString()));
        assertEquals(1, o.status());
        assertTrue(o.err().contains("checkpoint " + cut + " is truncated: it has " + good.length / 2 + " bytes"), o.err());
        byte[] flipped = good.clone();
        flipped[good.length / 3] ^= 0x04;
        Path bad = dir.resolve("bad.chk");
        Files.write(bad, flipped);
        o = run(s -> { }, with("--restart", bad.toString()));
        assertEquals(1, o.status());
        assertTrue(o.err().contains("checkpoint " + bad + " is corrupted or truncated: its CRC-32 check fails"), o.err());
        noStackTraceOneLine(o.err());
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
