package org.molten.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.molten.integrators.Checkpoint;
import org.molten.integrators.OutputWriteException;
import org.molten.integrators.ReplicaSet;
import org.molten.integrators.Simulation;
import picocli.CommandLine;

/**
 * What {@code molten run} does when an output cannot be written any more (a full disk, a folder
 * removed mid-run, an I/O error): it stops at once, saves the state of the last completed step in
 * a <em>rescue checkpoint</em> outside the broken file's folder — beside the --checkpoint, the
 * trajectory or the log, else in the temporary folder — leaves the previous --checkpoint as it was
 * (checkpoints are replaced atomically, so a failed write never half-writes one), and says in one
 * message which file failed and why, where the state is and the command that continues it. The
 * rescue checkpoint records only the outputs that could still be written; the broken one needs a
 * new file (or freed space) on restart. Exit status {@value #EXIT_STATUS}.
 */
final class StorageFault {
    /** Exit status of a run stopped by an output it could not write. */
    static final int EXIT_STATUS = 1;

    private final ReplicaSet set;
    private final OutputWriteException fault;
    private final Path checkpoint;
    private final Path log;
    private final Path trajectory;

    /**
     * @param checkpoint the run's --checkpoint, or null
     * @param log        the run's --log, or null
     * @param trajectory the run's --trajectory, or null
     */
    StorageFault(ReplicaSet set, OutputWriteException fault, Path checkpoint, Path log, Path trajectory) {
        this.set = set;
        this.fault = fault;
        this.checkpoint = checkpoint;
        this.log = log;
        this.trajectory = trajectory;
    }

    /** Saves every replica's state, closes the run and prints the message; returns {@link #EXIT_STATUS}. */
    int stop(long total, CommandLine.Model.CommandSpec spec, PrintWriter err) {
        int n = set.size();
        List<Checkpoint> states = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            states.add(set.replica(k).rescueCheckpoint());
        }
        try {
            set.close();
        } catch (RuntimeException e) {
            // the broken output fails again on close: already reported
        }
        List<String> problems = new ArrayList<>();
        Path saved = null;
        for (Path dir : candidateFolders()) {
            Path file = rescueFile(dir);
            try {
                for (int k = 0; k < n; k++) {
                    states.get(k).writeAtomically(ReplicaFiles.of(file, k, n));
                }
                saved = file;
                break;
            } catch (IOException | RuntimeException e) {
                problems.add(dir + ": " + (e instanceof IOException io ? FileErrors.problem(io) : e.getMessage()));
            }
        }
        Simulation first = set.replica(0);
        StringBuilder m = new StringBuilder(String.format(Locale.ROOT, "molten run: %s; stopped at step %d of %d (t = %.1f fs)",
                fault.getMessage(), first.stepCount(), total, first.timeFs()));
        if (saved != null) {
            m.append("; the state of step ").append(first.stepCount()).append(" is saved in ")
                    .append(n == 1 ? saved : ReplicaFiles.of(saved, 0, n) + " ... " + ReplicaFiles.of(saved, n - 1, n));
            if (!problems.isEmpty()) {
                m.append(" (not beside the outputs: ").append(String.join("; ", problems)).append(')');
            }
        } else {
            m.append("; no rescue checkpoint could be written (").append(String.join("; ", problems)).append(')');
        }
        m.append(previousCheckpoint(n));
        if (saved != null) {
            m.append("; give ").append(fault.file() != null ? fault.file() : "the output that failed")
                    .append(" a new name (or free space and remove it) and continue with: ")
                    .append(InterruptedRun.restartCommand(spec, saved));
        }
        err.println(m);
        err.flush();
        return EXIT_STATUS;
    }

    /** Where the previous --checkpoint stands (checkpoints are replaced atomically: a failed write leaves it whole). */
    private String previousCheckpoint(int n) {
        Path c = ReplicaFiles.of(checkpoint, 0, n);
        if (c == null || !Files.exists(c)) {
            return "";
        }
        try {
            return "; the checkpoint " + c + (n > 1 ? " (and its replicas')" : "") + " is intact at step " + Checkpoint.read(c).step();
        } catch (IOException e) {
            return "; the checkpoint " + c + " cannot be read back: " + e.getMessage();
        }
    }

    /** The rescue checkpoint's name in {@code dir}: after the --checkpoint, else the trajectory or log, never over a file. */
    private Path rescueFile(Path dir) {
        Path named = checkpoint != null ? checkpoint : trajectory != null ? trajectory : log;
        String stem = "molten-run";
        if (named != null) {
            String name = named.getFileName().toString();
            int dot = name.indexOf('.');
            stem = dot > 0 ? name.substring(0, dot) : name;
        }
        Path p = dir.resolve(stem + "-rescue.chk");
        for (int k = 2; Files.exists(p); k++) {
            p = dir.resolve(stem + "-rescue-" + k + ".chk");
        }
        return p;
    }

    /** Folders to try, in order: beside the checkpoint, the trajectory, the log, then the temporary folder; never the broken file's. */
    private List<Path> candidateFolders() {
        Path broken = fault.file() == null ? null : fault.file().toAbsolutePath().normalize().getParent();
        Set<Path> out = new LinkedHashSet<>();
        for (Path f : new Path[] {checkpoint, trajectory, log}) {
            if (f != null) {
                out.add(f.toAbsolutePath().normalize().getParent());
            }
        }
        out.add(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize());
        out.remove(broken);
        out.remove(null);
        return new ArrayList<>(out);
    }
}
