package org.molten.validation.runs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.molten.validation.BaselineKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.CriterionResult;
import org.molten.validation.reports.Environment;
import org.molten.validation.reports.JsonReportWriter;
import org.molten.validation.reports.MarkdownReportWriter;
import org.molten.validation.reports.ModelInfo;
import org.molten.validation.reports.Summary;
import org.molten.validation.reports.SystemReport;
import org.molten.validation.reports.Thresholds;
import org.molten.validation.reports.ValidationReport;

/**
 * Runs a whole validation and writes report.json, report.md, the plots and the energy logs into
 * the output directory. The replicas of every system are independent tasks spread over the cores
 * (each worker thread with its own model instances); their results do not depend on the number of
 * threads. Then each system's replicas are aggregated ({@link SystemValidation}) and, when asked,
 * the frames with the largest teacher force error are exported ({@link HardFrames}).
 */
public final class ValidationRunner {
    /** Name of the JSON report in the output directory. */
    public static final String JSON_REPORT = "report.json";
    /** Name of the Markdown report in the output directory. */
    public static final String MARKDOWN_REPORT = "report.md";

    private final ValidationSettings settings;
    private final Thresholds thresholds;
    private final ModelProvider models;
    private final Path outDir;
    private final String moltenVersion;
    private final String commandLine;
    private int threads = Runtime.getRuntime().availableProcessors();
    /** Threads in all (replica workers times each model's threads); null: the available processors. */
    private Integer cores;
    private Path hardFramesFile;
    private int hardFramesPerSystem = HardFrames.DEFAULT_PER_SYSTEM;

    /**
     * @param settings       the protocol
     * @param thresholds     the pass/fail limits
     * @param models         supplies the optimised model, the baseline and the teacher
     * @param outDir         where the report goes (created if needed)
     * @param moltenVersion  recorded in the report
     * @param commandLine    the arguments as typed, recorded in the report
     */
    public ValidationRunner(ValidationSettings settings, Thresholds thresholds, ModelProvider models, Path outDir,
                            String moltenVersion, String commandLine) {
        this.settings = settings;
        this.thresholds = thresholds;
        this.models = models;
        this.outDir = outDir;
        this.moltenVersion = moltenVersion;
        this.commandLine = commandLine;
    }

    /** Worker threads (default: the available cores); the results do not depend on it. */
    public ValidationRunner threads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + n);
        }
        this.threads = n;
        return this;
    }

    /**
     * The cores this validation may use in all: at most {@code n} replica workers, and each worker's
     * models get {@code n / workers} threads, so a sweep slot of a member with S slots stays within
     * its share (cores / S) instead of oversubscribing the machine. Default: the available
     * processors (and as many workers as {@link #threads} allows).
     */
    public ValidationRunner cores(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("cores must be at least 1: " + n);
        }
        this.cores = n;
        return this;
    }

    /** The protocol. */
    public ValidationSettings settings() {
        return settings;
    }

    /** Where the report goes. */
    public Path outDir() {
        return outDir;
    }

    ModelProvider models() {
        return models;
    }

    Thresholds thresholds() {
        return thresholds;
    }

    /** The cores this validation may use in all (see {@link #cores(int)}). */
    public int cores() {
        return cores != null ? cores : Runtime.getRuntime().availableProcessors();
    }

    /** Replica workers for {@code tasks} tasks: the threads, at most one per task and, with {@link #cores(int)}, per core. */
    int workers(int tasks) {
        int n = Math.min(threads, tasks);
        if (cores != null) {
            n = Math.min(n, cores);
        }
        return Math.max(1, n);
    }

    /** Threads of each worker's models: the cores shared among the workers. */
    int threadsPerModel(int workers) {
        return Math.max(1, cores() / workers);
    }

    /** Also writes the {@code perSystem} frames of every system with the largest teacher force error to {@code file}. */
    public ValidationRunner exportHardFrames(Path file, int perSystem) {
        if (perSystem < 1) {
            throw new IllegalArgumentException("hard frames per system must be at least 1: " + perSystem);
        }
        this.hardFramesFile = file;
        this.hardFramesPerSystem = perSystem;
        return this;
    }

    /** The systems in report order: built-in ones, then structure files. */
    public List<SystemSource> systems() {
        List<SystemSource> out = new ArrayList<>();
        settings.systems().forEach(n -> out.add(SystemSource.builtIn(n)));
        settings.structures().forEach(p -> out.add(SystemSource.file(p)));
        java.util.Set<String> names = new java.util.HashSet<>();
        for (SystemSource s : out) {
            if (!names.add(s.name())) {
                throw new IllegalArgumentException("two systems are named '" + s.name() + "' (a structure file's name without "
                        + "its extension names its system): rename one");
            }
        }
        return out;
    }

    /** MD steps a full run takes (for a progress bar). */
    public long totalSteps() {
        long perSystem = 0;
        for (int k = 0; k < settings.replicas(); k++) {
            perSystem += ReplicaRun.totalSteps(settings, k);
        }
        return settings.systemCount() * perSystem;
    }

    /** One replica on the host, or (replica -1) every replica of a system as one device batch. */
    private record Task(int system, SystemSource source, int replica, long cost) {
    }

    /**
     * Runs every replica of every system and writes the reports.
     *
     * @return the report (also on disk)
     * @throws IOException when the output directory or a report cannot be written
     * @throws IllegalStateException when a model cannot be provided
     */
    public ValidationReport run(Progress progress) throws IOException {
        long t0 = System.nanoTime();
        Files.createDirectories(outDir);
        List<SystemSource> systems = systems();
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        List<Task> tasks = new ArrayList<>();
        // With a usable device, a system's replicas are one batch on it (one task per system), else one host task each.
        java.util.Optional<String> batchPlatform = DeviceReplicas.platformFor(settings);
        for (int i = 0; i < systems.size(); i++) {
            long atoms = requireSupported(systems.get(i));
            if (batchPlatform.isPresent()) {
                tasks.add(new Task(i, systems.get(i), -1, atoms * atoms * totalSteps() / settings.systemCount()));
            } else {
                for (int k = 0; k < settings.replicas(); k++) {
                    tasks.add(new Task(i, systems.get(i), k, atoms * atoms * ReplicaRun.totalSteps(settings, k)));
                }
            }
        }
        // Longest first, so that the last task to finish is a short one.
        List<Task> order = new ArrayList<>(tasks);
        order.sort(Comparator.comparingLong(Task::cost).reversed());
        int workers = workers(tasks.size());
        int threadsPerModel = threadsPerModel(workers);
        ReplicaOutcome[][] outcomes = new ReplicaOutcome[systems.size()][settings.replicas()];
        ModelInfo optimisedInfo;
        ModelInfo baselineInfo;
        ValidationStop stop = null;
        try (WorkerModels perThread = new WorkerModels(models, settings, threadsPerModel, warnings)) {
            ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
                Thread th = new Thread(r, "molten-validate");
                th.setDaemon(true);
                return th;
            });
            // When one task fails, the others stop at their next progress update (every 100 steps) and the pool is
            // waited for, so that nothing writes into the output directory after run() has returned.
            java.util.concurrent.atomic.AtomicBoolean cancelled = new java.util.concurrent.atomic.AtomicBoolean();
            Progress stoppable = new Progress() {
                @Override
                public void phase(String text) {
                    progress.phase(text);
                }

                @Override
                public void advance(long steps) {
                    if (cancelled.get()) {
                        throw new java.util.concurrent.CancellationException("another replica of the validation failed");
                    }
                    progress.advance(steps);
                }
            };
            try {
                List<Future<List<ReplicaOutcome>>> futures = new ArrayList<>();
                for (Task task : order) {
                    futures.add(pool.submit(() -> task.replica() < 0
                            ? DeviceReplicas.run(task.source(), batchPlatform.orElseThrow(), settings, thresholds, perThread,
                            outDir, stoppable, warnings::add)
                            : List.of(ReplicaRun.run(task.source(), task.replica(), settings, thresholds, perThread, outDir,
                            stoppable))));
                }
                for (int i = 0; i < order.size(); i++) {
                    Task task = order.get(i);
                    List<ReplicaOutcome> done;
                    try {
                        done = await(futures.get(i), pool, cancelled);
                    } catch (ValidationStop s) {
                        // Ctrl-C: the replicas running stop at their next progress update, those not started never
                        // start; what finished is kept for the partial report.
                        if (stop == null) {
                            stop = s;
                            cancelled.set(true);
                            futures.forEach(f -> f.cancel(false));
                        }
                        continue;
                    } catch (java.util.concurrent.CancellationException e) {
                        if (stop == null) {
                            throw e;
                        }
                        continue;
                    }
                    for (ReplicaOutcome o : done) {
                        outcomes[task.system()][o.replica()] = o;
                    }
                }
            } finally {
                cancelled.set(true);
                if (stop != null) {
                    // a stop: the replicas still running end at their next progress update; not interrupted, so
                    // that their energy logs (interruptible channels) are flushed to the step they reached
                    pool.shutdown();
                } else {
                    pool.shutdownNow();
                }
                try {
                    pool.awaitTermination(5, java.util.concurrent.TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            optimisedInfo = perThread.firstOptimisedInfo();
            baselineInfo = settings.baseline() == BaselineKind.TEACHER ? perThread.firstTeacherInfo()
                    : perThread.firstBaselineInfo();
            models.finish(warnings);
        }
        return report(systems, outcomes, stop, warnings, t0, optimisedInfo, baselineInfo);
    }

    /**
     * Refuses a system the model cannot run, naming it: an element the model lacks ("atom 3:
     * element S ...") is named with its system; other refusals (unreadable weights) are about the
     * model and stand as they are.
     *
     * @return the system's atom count
     */
    int requireSupported(SystemSource src) {
        org.molten.core.Atoms first = src.load(settings.replicaSeed(0));
        try {
            models.requireSupported(first);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("atom ")) {
                throw e;
            }
            throw new IllegalArgumentException((src.file() == null ? "system " + src.name() : "structure " + src.file())
                    + ": " + e.getMessage(), e);
        }
        return first.size();
    }

    /**
     * Aggregates the replicas' outcomes ({@code outcomes[system][replica]}, null for one that did
     * not finish) and writes report.json and report.md into the output directory.
     *
     * @param t0 {@link System#nanoTime()} at the start, for the report's wall time
     * @return the report; after a stop, the partial report is written and the stop thrown
     */
    ValidationReport report(List<SystemSource> systems, ReplicaOutcome[][] outcomes, ValidationStop stop, List<String> warnings,
                            long t0, ModelInfo optimisedInfo, ModelInfo baselineInfo) throws IOException {
        List<SystemReport> reports = new ArrayList<>();
        List<String> plotWarnings = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        for (int i = 0; i < systems.size(); i++) {
            // After a stop a system is reported over the replicas that finished, or listed as not run.
            List<ReplicaOutcome> finished = java.util.Arrays.stream(outcomes[i]).filter(java.util.Objects::nonNull).toList();
            if (finished.size() < settings.replicas()) {
                unfinished.add(unfinishedLine(systems.get(i).name(), outcomes[i]));
            }
            if (!finished.isEmpty()) {
                reports.add(SystemValidation.aggregate(systems.get(i), finished, settings, thresholds, outDir, plotWarnings));
            }
        }
        warnings.addAll(PlotWarnings.condense(plotWarnings));
        if (hardFramesFile != null && stop != null) {
            warnings.add("--export-hard-frames: not written, the validation was " + stop.getMessage());
        } else if (hardFramesFile != null) {
            int written = HardFrames.write(hardFramesFile, systems, outcomes, hardFramesPerSystem);
            if (written == 0) {
                warnings.add("--export-hard-frames: no frame was evaluated by the teacher, " + hardFramesFile + " is empty");
            }
        }
        double wall = (System.nanoTime() - t0) * 1e-9;
        List<String> failures = new ArrayList<>();
        List<String> skips = new ArrayList<>();
        int count = 0;
        for (SystemReport s : reports) {
            for (CriterionResult c : s.criteria()) {
                count++;
                String line = c.system() + " / " + c.run() + " / " + c.criterion().id() + ": " + c.detail();
                if (c.skipped()) {
                    skips.add(line);
                } else if (!c.passed()) {
                    failures.add(line);
                }
            }
        }
        Summary summary = new Summary(failures.isEmpty() && skips.isEmpty() && stop == null, count, failures.size(), failures,
                wall, skips.size(), skips, stop == null ? null : stop.reason(), List.copyOf(unfinished));
        ValidationReport report = new ValidationReport("molten validate",
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), commandLine, Environment.current(moltenVersion),
                settings, thresholds, optimisedInfo, baselineInfo, reports, summary, List.copyOf(new LinkedHashSet<>(warnings)),
                DomainNotes.of(systems, models, settings.replicaSeed(0)));
        JsonReportWriter.write(report, outDir.resolve(JSON_REPORT));
        MarkdownReportWriter.write(report, outDir.resolve(MARKDOWN_REPORT));
        if (stop != null) {
            stop.partialReport(report);
            throw stop;
        }
        return report;
    }

    /** "ethanol: replicas 1, 3 of 4 did not finish" or "ethanol: no replica finished". */
    private static String unfinishedLine(String system, ReplicaOutcome[] outcomes) {
        List<Integer> missing = new ArrayList<>();
        for (int k = 0; k < outcomes.length; k++) {
            if (outcomes[k] == null) {
                missing.add(k);
            }
        }
        if (missing.size() == outcomes.length) {
            return system + ": no replica finished";
        }
        return system + ": " + (missing.size() == 1 ? "replica " : "replicas ")
                + String.join(", ", missing.stream().map(String::valueOf).toList()) + " of " + outcomes.length + " did not finish";
    }

    private static <T> T await(Future<T> f, ExecutorService pool,
                                        java.util.concurrent.atomic.AtomicBoolean cancelled) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            cancelled.set(true);
            pool.shutdownNow();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("validation interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof ValidationStop || c instanceof java.util.concurrent.CancellationException) {
                // a stop: the other tasks end at their next progress update, uninterrupted (their logs are flushed)
                cancelled.set(true);
                throw (RuntimeException) c;
            }
            cancelled.set(true);
            pool.shutdownNow();
            if (c instanceof IOException io) {
                throw io;
            }
            if (c instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
    }
}
