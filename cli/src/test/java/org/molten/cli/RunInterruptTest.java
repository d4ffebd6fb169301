package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.integrators.Checkpoint;
import org.molten.integrators.OutputMark;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;
import picocli.CommandLine;

/**
 * Ctrl-C / SIGTERM during {@code molten run}: exit 130, log and trajectory flushed to the same
 * step, a checkpoint of the last completed step whose marks are the files' lengths, and a restart
 * from it that ends bit for bit where an uninterrupted run ends.
 */
class RunInterruptTest {

    private record Outcome(int status, String err) {
    }

    /** {@code molten ARGS} ("run", ...) in-process, with a stop requested once the run reaches {@code stopAt}. */
    private static Outcome runStoppingAt(long stopAt, String... args) {
        assertEquals("run", args[0]);
        RunCommand cmd = new RunCommand();
        StopRequest stop = StopRequest.manual();
        cmd.stopRequest = stop;
        cmd.afterStep = s -> {
            if (s >= stopAt) {
                stop.request("SIGINT");
            }
        };
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
        return new Outcome(status, err.toString());
    }

    private static double lastLogTimePs(Path log) throws IOException {
        List<String> rows = Files.readAllLines(log);
        return Double.parseDouble(rows.get(rows.size() - 1).split(",")[0]);
    }

    private static long lastFrameStep(Path traj) throws IOException {
        List<Frame> frames = StructureFiles.readAll(traj);
        return Long.parseLong(frames.get(frames.size() - 1).info().get("step"));
    }

    @Test
    void stopMidRunFlushesCheckpointsAndRestartsBitForBit(@TempDir Path dir) throws IOException {
        String[] common = {"run", "--system", "ethanol", "--integrator", "langevin", "--seed", "11",
                "--report-interval", "5", "--checkpoint-interval", "20", "--steps", "60"};
        Path logA = dir.resolve("a.csv"), trajA = dir.resolve("a.xyz"), chkA = dir.resolve("a.chk");
        assertEquals(0, CliRun.of(concat(common, "--log", logA.toString(), "--trajectory", trajA.toString(),
                "--checkpoint", chkA.toString())).status());

        // No --checkpoint: the interrupt checkpoint goes next to the trajectory.
        Path logB = dir.resolve("b.csv"), trajB = dir.resolve("b.xyz");
        Outcome o = runStoppingAt(37, concat(common, "--log", logB.toString(), "--trajectory", trajB.toString()));
        assertEquals(130, o.status(), o.err());
        Path chkB = dir.resolve("b-interrupted.chk");
        assertTrue(o.err().startsWith("molten run: stopped by SIGINT at step 37 of 60 (t = 18.5 fs); log " + logB
                + " and trajectory " + trajB + " end at step 35; checkpoint " + chkB + " at step 37; continue with: molten run"),
                o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().strip().endsWith("--restart " + chkB), o.err());
        Checkpoint c = Checkpoint.read(chkB);
        assertEquals(37, c.step());
        assertEquals(0.0175, lastLogTimePs(logB), 0.0, "the log is flushed to the last report step");
        assertEquals(35, lastFrameStep(trajB), "the trajectory ends at the same step as the log");
        for (Path p : List.of(logB, trajB)) {
            OutputMark m = c.outputMark(p).orElseThrow();
            assertEquals(Files.size(p), m.bytes(), p + ": the checkpoint records the flushed length");
        }

        // The command the line prints, run as given, continues to the same final state.
        String printed = o.err().strip().substring(o.err().indexOf("continue with: molten ") + "continue with: molten ".length());
        CliRun r = CliRun.of(concat(printed.split(" "), "--checkpoint", dir.resolve("b-final.chk").toString()));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("molten run: 23 steps (restarted at step 37) to step 60"), r.out());
        assertEquals(Files.readString(logA), Files.readString(logB), "log");
        assertEquals(Files.readString(trajA), Files.readString(trajB), "trajectory");
        Checkpoint a = Checkpoint.read(chkA), b = Checkpoint.read(dir.resolve("b-final.chk"));
        assertArrayEquals(a.positionsA(), b.positionsA(), 0.0);
        assertArrayEquals(a.velocitiesAPerFs(), b.velocitiesAPerFs(), 0.0);
    }

    @Test
    void aGivenCheckpointFileIsTheOneWritten(@TempDir Path dir) throws IOException {
        Path chk = dir.resolve("run.chk");
        Outcome o = runStoppingAt(3, "run", "--system", "water", "--seed", "2", "--steps", "50",
                "--checkpoint", chk.toString(), "--checkpoint-interval", "1000");
        assertEquals(130, o.status(), o.err());
        assertEquals(3, Checkpoint.read(chk).step());
        assertTrue(o.err().contains("checkpoint " + chk + " at step 3; continue with: molten run --system water --seed 2"
                + " --steps 50 --checkpoint " + chk + " --checkpoint-interval 1000 --restart " + chk), o.err());
    }

    @Test
    void quotingKeepsOddFileNamesOneWord() {
        assertEquals("'my run.csv'", InterruptedRun.shellQuoted("my run.csv"));
        assertEquals("'it'\\''s'", InterruptedRun.shellQuoted("it's"));
        assertEquals("/tmp/a.chk", InterruptedRun.shellQuoted("/tmp/a.chk"));
    }

    /** A real SIGTERM to a forked {@code MoltenCli run}: exit 130 and consistent files. */
    @Test
    void sigtermToAForkedRun(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("e.csv"), traj = dir.resolve("t.xyz"), chk = dir.resolve("r.chk");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xss8m", "-Dai.djl.offline=true", "-cp", cp, MoltenCli.class.getName(), "run", "--system", "ethanol",
                "--seed", "5", "--steps", "100000000", "--report-interval", "10", "--log", log.toString(),
                "--trajectory", traj.toString(), "--checkpoint", chk.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        try {
            // Wait (no time limit but the test's own) until the run has flushed a few log rows.
            while (p.isAlive() && (!Files.exists(log) || Files.readAllLines(log).size() < 2)) {
                Thread.sleep(100);
            }
            while (p.isAlive() && Files.readAllLines(traj).size() < 3 * 11) {
                Thread.sleep(100);
            }
            String early = p.isAlive() ? "" : read(dir.resolve("out.txt"));
            assertTrue(p.isAlive(), "the run ended early: " + early);
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the run did not stop after SIGTERM");
        } finally {
            p.destroyForcibly();
        }
        String out = read(dir.resolve("out.txt"));
        assertEquals(130, p.exitValue(), out);
        assertTrue(out.contains("molten run: stopped by SIGTERM at step "), out);
        Checkpoint c = Checkpoint.read(chk);
        long lastReport = c.step() - c.step() % 10;
        assertEquals(lastReport, lastFrameStep(traj), out);
        assertEquals(lastReport * 0.5 / 1000, lastLogTimePs(log), 1e-12, out);
        for (Path f : List.of(log, traj)) {
            assertEquals(Files.size(f), c.outputMark(f).orElseThrow().bytes(), f.toString());
        }
    }

    private static String read(Path p) throws IOException {
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

}
