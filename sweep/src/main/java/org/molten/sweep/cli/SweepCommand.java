package org.molten.sweep.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.molten.sweep.SweepMember;
import org.molten.sweep.SweepProgress;
import org.molten.sweep.SweepReport;
import org.molten.sweep.SweepReportWriter;
import org.molten.sweep.SweepRun;
import org.molten.sweep.SweepSpec;
import org.molten.sweep.SweepSummary;
import org.molten.sweep.SweepTask;
import org.molten.sweep.TaskExecutor;
import org.molten.sweep.TaskTimeout;
import org.molten.sweep.TaskWorkers;
import org.molten.sweep.ValidationTaskExecutor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten sweep}: a grid of validations (models × systems × temperatures × replicas) run as
 * tasks on Hazelcast, embedded with every core by default or on a cluster of {@code molten worker}s.
 * Exit status 0 when every task ran (a blown-up simulation is a result), 3 when a task failed on
 * every attempt, 1 bad input, 2 usage error.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a validation campaign: every combination of --weights, --systems/--structure, --temperatures and "
                + "--replicas (seeds seed, seed+1, ...) is one 'molten validate' task; or give the grid as a JSON/YAML --spec file.",
                "Embedded in this JVM with every core by default; with --cluster HOST:PORT on the members started by "
                + "'molten worker'. Finished tasks are kept in --out/tasks/<id>/; the same command with the same --out resumes.",
                "Writes sweep-report.json, sweep-report.md and plots/ to --out. Exit status: 0 every task ran, 3 a task failed "
                + "on every attempt, 1 bad input, 2 usage error. Design and guarantees: docs/sweep.md."})
public final class SweepCommand implements Callable<Integer> {
    /** Exit status when a task failed on every attempt. */
    public static final int EXIT_TASK_FAILED = 3;
    private static final List<String> GRID_OPTIONS = List.of("--weights", "--systems", "--structure", "--temperatures",
            "--replicas", "--seed", "--baseline", "--device", "--precision", "--steps", "--equilibration-steps", "--timestep",
            "--sample-interval", "--thermostat", "--thermostat-time", "--full", "--max-attempts", "--task-timeout-s");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--spec", paramLabel = "FILE", order = 1,
            description = "The grid as a JSON or YAML (.yaml/.yml) file with the options' names in snake_case (temperatures_K, "
                    + "equilibration_steps, timestep_fs, sample_interval_steps, thermostat_time_fs, max_attempts, structures); "
                    + "instead of the grid options.")
    Path specFile;

    @Option(names = "--weights", paramLabel = "LIST", split = ",", order = 2,
            description = "Student weight files (safetensors), comma-separated; 'bundled' for the bundled model (default).")
    List<String> weights;

    @Option(names = "--systems", paramLabel = "LIST", split = ",", order = 3,
            description = "Built-in systems, comma-separated (water, ethanol, benzene, alanine-dipeptide, ace-ala5-nme, water-box; "
                    + "default: those of molten validate).")
    List<String> systems;

    @Option(names = "--structure", paramLabel = "FILE", arity = "1..*", order = 4, description = "Structure files to validate.")
    List<String> structures;

    @Option(names = "--temperatures", paramLabel = "LIST", split = ",", order = 5,
            description = "Target temperatures in K, comma-separated (default 300).")
    List<Double> temperatures;

    @Option(names = "--replicas", paramLabel = "N", order = 6, description = "Seeds per model, system and temperature (default 1).")
    Integer replicas;

    @Option(names = "--seed", paramLabel = "N", order = 7, description = "First seed; replica k runs with seed+k.")
    Long seed;

    @Option(names = "--baseline", paramLabel = "NAME", order = 8, description = "Baseline model of every validation "
            + "(torchscript, reference; as molten validate).")
    String baseline;

    @Option(names = "--device", paramLabel = "DEV", order = 9, description = "cpu, cuda or auto (as molten validate); cuda tasks "
            + "run only on members started with --gpu.")
    String device;

    @Option(names = "--precision", paramLabel = "P", order = 10, description = "float64 or float32.")
    String precision;

    @Option(names = "--steps", paramLabel = "N", order = 11, description = "Production steps of every NVE and NVT run.")
    Long steps;

    @Option(names = "--equilibration-steps", paramLabel = "N", order = 12, description = "Langevin equilibration steps.")
    Long equilibrationSteps;

    @Option(names = "--timestep", paramLabel = "FS", order = 13, description = "MD timestep in fs.")
    Double timestepFs;

    @Option(names = "--sample-interval", paramLabel = "STEPS", order = 14, description = "Steps between recorded samples.")
    Integer sampleInterval;

    @Option(names = "--thermostat", paramLabel = "NAME", order = 15, description = "NVT thermostat.")
    String thermostat;

    @Option(names = "--thermostat-time", paramLabel = "FS", order = 16, description = "Thermostat coupling time in fs.")
    Double thermostatTimeFs;

    @Option(names = "--full", order = 17, description = "The long validation protocol.")
    boolean full;

    @Option(names = "--max-attempts", paramLabel = "N", order = 18,
            description = "Attempts a task that throws gets before it is reported with its error (default 3).")
    Integer maxAttempts;

    @Option(names = "--task-timeout-s", paramLabel = "S", order = 19,
            description = "Longest time in s a member may hold a task without progress (a hung GPU or libxtb call, a "
                    + "frozen JVM) before the task runs elsewhere as a failed attempt; the validation reports progress every "
                    + "100 MD steps. Default: " + TaskTimeout.EXPECTED_TIME_MULTIPLE + "x the protocol's expected task time, "
                    + "at least " + TaskTimeout.FLOOR_MS / 60000 + " min.")
    Double taskTimeoutS;

    @Option(names = "--out", paramLabel = "DIR", order = 30, description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("sweep-report");

    @Option(names = "--cluster", paramLabel = "HOST:PORT", split = ",", order = 31,
            description = "Run on the cluster of molten workers at this address instead of embedded.")
    List<String> cluster = new ArrayList<>();

    @Option(names = "--cluster-name", paramLabel = "NAME", order = 32, description = "Cluster name (default: ${DEFAULT-VALUE}).")
    String clusterName = SweepMember.DEFAULT_CLUSTER;

    @Option(names = "--bind", paramLabel = "ADDR", order = 33, description = "Address this JVM's member listens on "
            + "(default: ${DEFAULT-VALUE}; give this machine's network address to reach workers on other machines).")
    String bind = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", order = 34, description = "First port to listen on (default: ${DEFAULT-VALUE}).")
    int port = SweepMember.DEFAULT_PORT;

    @Option(names = "--slots", paramLabel = "N", order = 35, description = "Tasks this JVM runs at once (default: every core "
            + "embedded, 0 with --cluster: coordinate only).")
    Integer slots;

    @Option(names = "--gpu", order = 36, description = "This JVM's member takes the tasks that want a GPU.")
    boolean gpu;

    @Option(names = "--gpu-batch", paramLabel = "N", order = 37, description = "With --gpu: most GPU tasks a slot of this JVM "
            + "takes at once, those of one model, system, temperature and protocol, run as one batch of replicas on the device "
            + "(default: ${DEFAULT-VALUE}; 1: one task at a time).")
    int gpuBatch = TaskWorkers.DEFAULT_GPU_BATCH;

    @Option(names = "--no-plots", order = 38, description = "Write no PNG plots.")
    boolean noPlots;

    /** Runs the tasks; tests substitute a fake. */
    TaskExecutor executor = new ValidationTaskExecutor();

    /** The grid the options or the spec file describe. */
    SweepSpec gridSpec() throws java.io.IOException {
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        if (specFile != null) {
            for (String o : GRID_OPTIONS) {
                if (pr.hasMatchedOption(o)) {
                    throw new IllegalArgumentException("give the grid either with --spec or with options, not both (" + o
                            + " given with --spec " + specFile + ")");
                }
            }
            return SweepSpec.read(specFile);
        }
        SweepSpec s = new SweepSpec();
        if (weights != null) {
            s.weights = weights;
        }
        if (systems != null) {
            s.systems = systems;
        }
        if (structures != null) {
            s.structures = structures;
        }
        if (systems == null && structures == null) {
            s.systems = ValidationTaskExecutor.DEFAULT_SYSTEMS;
        }
        if (temperatures != null) {
            s.temperaturesK = temperatures;
        }
        if (replicas != null) {
            s.replicas = replicas;
        }
        if (seed != null) {
            s.seed = seed;
        }
        if (maxAttempts != null) {
            s.maxAttempts = maxAttempts;
        }
        s.taskTimeoutS = taskTimeoutS;
        s.baseline = baseline;
        s.device = device;
        s.precision = precision;
        s.steps = steps;
        s.equilibrationSteps = equilibrationSteps;
        s.timestepFs = timestepFs;
        s.sampleIntervalSteps = sampleInterval;
        s.thermostat = thermostat;
        s.thermostatTimeFs = thermostatTimeFs;
        s.full = full;
        return s;
    }

    @Override
    public Integer call() throws Exception {
        SweepSpec grid = gridSpec();
        List<SweepTask> tasks = grid.expand();
        int n = slots != null ? slots : cluster.isEmpty() ? Runtime.getRuntime().availableProcessors() : 0;
        String command = String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
        SweepRun.Options o = new SweepRun.Options(out, command, cluster, clusterName, bind, port, n, gpu, grid.maxAttempts,
                !noPlots, gpuBatch, grid.taskTimeoutS);
        SweepReport r;
        try (SweepProgress progress = SweepProgress.auto()) {
            r = SweepRun.run(tasks, o, executor, progress);
        }
        var w = spec.commandLine().getOut();
        for (SweepSummary.ModelRank m : r.summary().ranking()) {
            w.printf(Locale.ROOT, "%2d. %-30s stable %s, median |drift| %s meV/atom/ps, %d of %d tasks failed%n", m.rank(), m.model(),
                    m.stableFraction() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", m.stableFraction()),
                    m.medianAbsDriftMeVPerAtomPerPs() == null ? "n/a"
                            : String.format(Locale.ROOT, "%.4g", m.medianAbsDriftMeVPerAtomPerPs()), m.failed(), m.tasks());
        }
        r.warnings().forEach(x -> w.println("warning: " + x));
        w.printf(Locale.ROOT, "%d tasks (%d resumed, %d failed) in %.1f s; report in %s%n", r.tasksTotal(), r.tasksResumed(),
                r.tasksFailed(), r.wallSeconds(), out.resolve(SweepReportWriter.MARKDOWN));
        return r.tasksFailed() > 0 ? EXIT_TASK_FAILED : 0;
    }
}
