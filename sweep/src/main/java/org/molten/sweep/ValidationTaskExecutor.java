package org.molten.sweep;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.molten.cli.MoltenCli;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.ThermostatKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.Thresholds;
import org.molten.validation.runs.BundledModels;
import org.molten.validation.runs.ModelProvider;
import org.molten.validation.runs.Progress;
import org.molten.validation.runs.SeedBatch;
import org.molten.validation.runs.SystemCatalog;
import org.molten.validation.runs.ValidationRunner;
import picocli.CommandLine.Command;

/**
 * The sweep's one adapter to the validation module: turns a {@link SweepTask} into the
 * {@code molten validate} run of exactly one (model, system, temperature, seed) with the sweep's
 * protocol, writes that run's report (report.json, report.md, plots, energy logs) into the task's
 * directory and returns its figures read back from report.json by {@link TaskReportReader}.
 * Nothing else in the sweep module uses validation classes, so a change of the protocol is wired
 * here.
 */
public final class ValidationTaskExecutor implements TaskExecutor {
    /** The validation's default seed, the first seed of a sweep's replicas unless one is given. */
    public static final long DEFAULT_SEED = ValidationSettings.DEFAULT_SEED;
    /** The systems of a default validation, and of a sweep that names none. */
    public static final List<String> DEFAULT_SYSTEMS = ValidationSettings.DEFAULT_SYSTEMS;
    /** The validation's default temperature, K. */
    public static final double DEFAULT_TEMPERATURE_K = ValidationSettings.DEFAULT_TEMPERATURE_K;

    /** Threads a task may use in all; null: the validation's default (the available processors). */
    private final Integer cores;

    /** Tasks use the validation's default: every core. */
    public ValidationTaskExecutor() {
        this(null);
    }

    private ValidationTaskExecutor(Integer cores) {
        this.cores = cores;
    }

    @Override
    public ValidationTaskExecutor sharing(int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores per task must be at least 1: " + cores);
        }
        return new ValidationTaskExecutor(cores);
    }

    /**
     * Refuses, before anything runs, a task the validation cannot run (unknown system or
     * thermostat, too few samples, unreadable weights, a structure file while the validation
     * has no {@code --structure}), naming the problem.
     *
     * @throws IllegalArgumentException with the reason
     */
    public static void check(SweepTask task) {
        settings(task);
        precision(task.protocol());
        if (!SweepTask.BUNDLED.equals(task.model()) && !Files.isReadable(Path.of(task.model()))) {
            throw new IllegalArgumentException("weights file " + task.model() + " cannot be read");
        }
    }

    @Override
    public TaskMetrics execute(SweepTask task, Path reportDir) throws Exception {
        return execute(task, reportDir, TaskHeartbeat.NONE);
    }

    /** As {@link #execute(SweepTask, Path)}; every phase and MD chunk (100 steps) of the validation beats {@code heartbeat}. */
    @Override
    public TaskMetrics execute(SweepTask task, Path reportDir, TaskHeartbeat heartbeat) throws Exception {
        runner(task, reportDir, models(task)).run(beating(heartbeat));
        return read(task, reportDir);
    }

    @Override
    public List<TaskMetrics> executeBatch(List<SweepTask> tasks, List<Path> reportDirs) throws Exception {
        return executeBatch(tasks, reportDirs, TaskHeartbeat.NONE);
    }

    /** The validation's progress as heartbeats. */
    private static Progress beating(TaskHeartbeat heartbeat) {
        return new Progress() {
            @Override
            public void phase(String text) {
                heartbeat.progressed();
            }

            @Override
            public void advance(long steps) {
                heartbeat.progressed();
            }
        };
    }

    /**
     * The tasks (one {@link SweepTask#batchKey()}, any seeds and systems) as one {@link SeedBatch}: on a usable
     * GPU the student's MD of all of them is one batch of replicas on the device per phase, and
     * each task's report is the one its validation gives alone (every task is replica 0 of its
     * own seed); without one they run one after the other.
     */
    @Override
    public List<TaskMetrics> executeBatch(List<SweepTask> tasks, List<Path> reportDirs, TaskHeartbeat heartbeat)
            throws Exception {
        if (tasks.size() != reportDirs.size()) {
            throw new IllegalArgumentException(tasks.size() + " tasks but " + reportDirs.size() + " report directories");
        }
        SweepTask.BatchKey key = tasks.get(0).batchKey();
        for (SweepTask t : tasks) {
            if (!t.batchKey().equals(key)) {
                throw new IllegalArgumentException("task " + t.id() + " differs from " + tasks.get(0).id()
                        + " in more than its seed and system: it cannot join its batch");
            }
        }
        ModelProvider models = models(tasks.get(0));
        List<ValidationRunner> runners = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            runners.add(runner(tasks.get(i), reportDirs.get(i), models));
        }
        SeedBatch.run(runners, beating(heartbeat));
        List<TaskMetrics> out = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            out.add(read(tasks.get(i), reportDirs.get(i)));
        }
        return out;
    }

    /** The task's figures from the report.json its validation wrote into {@code reportDir}. */
    private static TaskMetrics read(SweepTask task, Path reportDir) throws java.io.IOException {
        ValidationSettings settings = settings(task);
        String system = settings.systems().isEmpty()
                ? org.molten.validation.runs.SystemSource.file(settings.structures().get(0)).name() : settings.systems().get(0);
        return TaskReportReader.read(reportDir.resolve(ValidationRunner.JSON_REPORT), system);
    }

    /** The task's model: the bundled weights or its file, at its protocol's precision. */
    private static ModelProvider models(SweepTask task) {
        OptimisedStudent.Precision precision = precision(task.protocol());
        return SweepTask.BUNDLED.equals(task.model()) ? BundledModels.bundled(precision)
                : BundledModels.fromFile(Path.of(task.model()), precision);
    }

    /** The validation of one task, writing into {@code reportDir}, within this executor's cores. */
    ValidationRunner runner(SweepTask task, Path reportDir) {
        return runner(task, reportDir, models(task));
    }

    private ValidationRunner runner(SweepTask task, Path reportDir, ModelProvider models) {
        ValidationSettings settings = settings(task);
        String version = MoltenCli.class.getAnnotation(Command.class).version()[0];
        ValidationRunner runner = new ValidationRunner(settings, Thresholds.defaults(), models, reportDir, version,
                "sweep task " + task.id());
        return cores == null ? runner : runner.cores(cores);
    }

    /**
     * The validation settings of one task: the quick (or full) protocol with the sweep's overrides,
     * for one replica (the sweep's replicas are tasks with seeds S ... S+N-1, and replica k of a
     * validation equals a single run with seed S+k).
     */
    static ValidationSettings settings(SweepTask task) {
        SweepProtocol p = task.protocol();
        ValidationSettings base = p.full() ? ValidationSettings.fullProtocol() : ValidationSettings.quickProtocol();
        long nve = p.steps() != null ? p.steps() : base.nveSteps();
        long nvt = p.steps() != null ? p.steps() : base.nvtSteps();
        List<String> systems = task.structure() != null ? List.of() : List.of(SystemCatalog.canonicalName(task.system()));
        List<Path> structures = task.structure() != null ? List.of(Path.of(task.structure())) : List.of();
        return new ValidationSettings(systems, task.temperatureK(),
                p.timestepFs() != null ? p.timestepFs() : base.timestepFs(),
                p.equilibrationSteps() != null ? p.equilibrationSteps() : base.equilibrationSteps(), nve, nvt,
                p.sampleIntervalSteps() != null ? p.sampleIntervalSteps() : base.sampleIntervalSteps(),
                p.thermostat() != null ? ThermostatKind.parse(p.thermostat()) : base.thermostat(),
                p.thermostatTimeFs() != null ? p.thermostatTimeFs() : base.thermostatTimeConstantFs(),
                p.device() != null ? DeviceChoice.parse(p.device()) : base.device(),
                p.baseline() != null ? BaselineKind.parse(p.baseline()) : base.baseline(), task.seed(), p.full(), 1,
                base.teacherFramesPerRun(), structures)
                .withConstraints(p.constraints() == null ? "none" : p.constraints(),
                        p.hydrogenMassAmu() == null ? Double.NaN : p.hydrogenMassAmu());
    }

    private static OptimisedStudent.Precision precision(SweepProtocol p) {
        String name = p.precision() == null ? "float64" : p.precision().trim().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "float64" -> OptimisedStudent.Precision.FLOAT64;
            case "float32" -> OptimisedStudent.Precision.FLOAT32;
            default -> throw new IllegalArgumentException("unknown precision '" + p.precision() + "'; choose float64 or float32");
        };
    }
}
