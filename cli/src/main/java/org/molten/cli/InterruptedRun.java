package org.molten.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.molten.integrators.Simulation;
import picocli.CommandLine;

/**
 * What {@code molten run} does when a stop was requested (Ctrl-C, SIGTERM) before the last step:
 * the log and the trajectory are flushed (both end at the last report step, a multiple of
 * --report-interval), a checkpoint of the last completed step is written (it records the files'
 * lengths, so that {@code --restart} continues them without gaps or repeats), and one line says
 * where the run stands and the exact command that continues it.
 */
final class InterruptedRun {
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./:=,+@%-]+");

    private final Simulation sim;
    private final Path checkpoint;
    private final Path log;
    private final Path trajectory;
    private final int reportInterval;

    /**
     * @param checkpoint     the run's --checkpoint, or null (a file next to the outputs is chosen)
     * @param log            the run's --log, or null
     * @param trajectory     the run's --trajectory, or null
     * @param reportInterval the run's --report-interval, steps
     */
    InterruptedRun(Simulation sim, Path checkpoint, Path log, Path trajectory, int reportInterval) {
        this.sim = sim;
        this.checkpoint = checkpoint;
        this.log = log;
        this.trajectory = trajectory;
        this.reportInterval = reportInterval;
    }

    /**
     * Flushes, checkpoints, closes the simulation's reporters and prints the one line.
     *
     * @param cause what stopped the run ("SIGINT")
     * @param total the run's --steps
     * @return {@link StopRequest#EXIT_STATUS}
     */
    int finish(String cause, long total, CommandLine.Model.CommandSpec spec, PrintWriter err) throws IOException {
        sim.flushReporters();
        Path file = checkpoint != null ? checkpoint : defaultCheckpoint(trajectory != null ? trajectory : log);
        sim.checkpoint().writeAtomically(file);
        sim.close();
        long step = sim.stepCount();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "molten run: stopped by %s at step %d of %d (t = %.1f fs)", cause, step, total, sim.timeFs()));
        if (log != null || trajectory != null) {
            line.append("; ").append(log != null && trajectory != null ? "log " + log + " and trajectory " + trajectory
                    : log != null ? "log " + log : "trajectory " + trajectory)
                    .append(" end at step ").append(step - step % reportInterval);
        }
        line.append("; checkpoint ").append(file).append(" at step ").append(step)
                .append("; continue with: ").append(restartCommand(spec, file));
        err.println(line);
        err.flush();
        return StopRequest.EXIT_STATUS;
    }

    /**
     * Where a run without --checkpoint leaves its interrupt checkpoint: beside its trajectory
     * (else its log, else in the working directory), named after it, never over an existing file.
     */
    static Path defaultCheckpoint(Path output) {
        Path dir = output == null ? Path.of("") : output.toAbsolutePath().normalize().getParent();
        String stem = "molten-run";
        if (output != null) {
            String name = output.getFileName().toString();
            int dot = name.indexOf('.');
            stem = dot > 0 ? name.substring(0, dot) : name;
        }
        Path p = dir.resolve(stem + "-interrupted.chk");
        for (int k = 2; Files.exists(p); k++) {
            p = dir.resolve(stem + "-interrupted-" + k + ".chk");
        }
        return p;
    }

    /** The command line as typed, with any --restart replaced by {@code --restart FILE}, shell-quoted. */
    static String restartCommand(CommandLine.Model.CommandSpec spec, Path file) {
        CommandLine.Model.CommandSpec root = spec.root();
        List<String> typed = root.commandLine().getParseResult().originalArgs();
        List<String> args = new ArrayList<>();
        args.add("molten");
        if (root == spec) {
            args.add(spec.name()); // the run command was parsed on its own (tests)
        }
        for (int i = 0; i < typed.size(); i++) {
            String a = typed.get(i);
            if (a.equals("--restart")) {
                i++;
            } else if (!a.startsWith("--restart=")) {
                args.add(a);
            }
        }
        args.add("--restart");
        args.add(file.toString());
        StringBuilder b = new StringBuilder();
        for (String a : args) {
            b.append(b.length() == 0 ? "" : " ").append(shellQuoted(a));
        }
        return b.toString();
    }

    static String shellQuoted(String s) {
        return SHELL_SAFE.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
