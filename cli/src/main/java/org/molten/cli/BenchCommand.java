package org.molten.cli;

import org.molten.bench.BenchPath;
import org.molten.bench.BenchSuite;
import org.molten.bench.Comparison;
import org.molten.bench.ConfigResult;
import org.molten.bench.SuiteJson;
import org.molten.bench.SuitePlots;
import org.molten.bench.SuiteReport;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.bench.BenchReport;
import org.molten.bench.BenchSystems;
import org.molten.bench.CpuBenchmark;
import org.molten.bench.MachineInfo;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.Nd4jSupport;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.molten.bench.ReplicaBench;
import org.molten.core.Checks;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code molten bench}: the benchmark suite (speed, memory and accuracy of every path across
 * sizes, {@link BenchSuite}) with regression detection against a stored JSON result
 * ({@code --compare}). With {@code --paths} it runs the older side-by-side CPU latency comparison
 * ({@link CpuBenchmark}) instead. Exit status: 0; 2 when a configuration failed (an exception, a
 * cached result, forces beyond their precision's bound); 3 when {@code --compare} flagged one.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark every force path: latency, throughput, memory and force error per size.",
                "Latency per energy+forces call and per MD step, throughput (ns/day at 0.5 fs), peak memory and the",
                "force error against the float64 reference, for every path and size.",
                "Every timed call computes from new positions (checked). --compare flags regressions."})
public final class BenchCommand implements Callable<Integer> {

    /** Where the configurations run (auto: cuda when a GPU works, else cpu). */
    enum Device { auto, cpu, cuda, all }

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto", description = "Device: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}); "
            + "auto times the CUDA paths when a GPU works, else the CPU paths; cuda without a GPU reports its "
            + "configurations as skipped.")
    Device device;

    @Option(names = "--sizes", paramLabel = "ATOMS", split = ",", defaultValue = "3,9,12,22,50,100,200,1500,3000",
            description = "Atom counts (default ${DEFAULT-VALUE}); 3, 9, 12, 22 are built-in molecules, "
                    + ">= 1000 a periodic water box at 1 g/cm³, others random clusters at 0.1 atoms/Å³; "
                    + "a 'w' suffix (200w) asks for a water box of about that many atoms.")
    List<String> sizes;

    @Option(names = "--paths", paramLabel = "PATH", split = ",",
            description = "Run the older CPU latency comparison of these paths instead of the suite ('default': per size, "
                    + "the comparisons CpuBenchmark.defaultPaths picks). Known: reference, "
                    + "optimised, optimised-f32, optimised-1thread, optimised-loops, optimised-nd4j, optimised-rebuild, "
                    + "optimised-1thread-loops, optimised-1thread-nd4j.")
    List<String> paths;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "20", description = "Timed calls (and MD steps; CUDA device samples of K steps) "
            + "per measurement (default ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--time-budget-s", paramLabel = "<s>", defaultValue = "5",
            description = "Timed seconds per measurement after which it stops early, at least 3 calls (default ${DEFAULT-VALUE} s).")
    double timeBudgetS;

    // HotSpot's C2 needs about 2-3 s of running to compile the optimised student's loops; with 1 s the
    // first timed calls of a size still ran partly interpreted (alanine dipeptide: 6.5 ms instead of 3 ms).
    @Option(names = "--warmup-s", paramLabel = "<s>", defaultValue = "3", description = "Warm-up seconds per measurement, at least one call "
            + "(default ${DEFAULT-VALUE} s: the JIT compiler needs 2-3 s to finish the optimised paths).")
    double warmupS;

    @Option(names = "--perturbation-a", paramLabel = "<Å>", defaultValue = "0.01",
            description = "RMS displacement per coordinate applied before each energy+forces call, Å (default ${DEFAULT-VALUE} Å).")
    double perturbationA;

    @Option(names = "--temperature-k", paramLabel = "<K>", defaultValue = "300", description = "Initial temperature of the timed MD steps, K (default ${DEFAULT-VALUE} K).")
    double temperatureK;

    @Option(names = "--reference-max-atoms", paramLabel = "ATOMS", defaultValue = "1500", description = "Largest size timed with, and checked "
            + "against, the all-pairs float64 reference; larger ones are checked against the optimised float64 path "
            + "(default ${DEFAULT-VALUE}: the 1,500-atom water box is the largest size whose speed-up over the "
            + "reference is reported; the reference takes ~7 s per call there).")
    int referenceMaxAtoms;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261121", description = "Seed of systems, velocities and perturbations (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--model", paramLabel = "FILE", description = "Student weights (safetensors). Default: the bundled model.")
    Path model;

    @Option(names = "--replicas", split = ",", paramLabel = "R",
            description = "Replica throughput instead of the suite: each size's system R times in one simulation"
                    + " (Langevin 300 K, 0.5 fs, seeds S ... S+R-1), printing replica-steps/s; a list (1,2) times each R."
                    + " With --device cuda all R advance on the GPU in one batched evaluation per step (us per step of the"
                    + " batch, replica-steps/s and the fraction of the card's FP32 rate).")
    List<Integer> replicas;

    @Option(names = "--replica-steps", paramLabel = "N", defaultValue = "200",
            description = "Timed MD steps per replica with --replicas, after as many warm-up steps (default ${DEFAULT-VALUE}).")
    int replicaSteps;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the results as JSON to this file.")
    Path json;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Write the results as a Markdown table to this file.")
    Path markdown;

    @Option(names = "--plots", paramLabel = "DIR", description = "Write PNG plots of median latency against size (log-log) into this folder.")
    Path plots;

    @Option(names = "--compare", paramLabel = "FILE", description = "Compare with a stored JSON result; exit status 3 if a configuration is "
            + "slower than the tolerance or numerically different.")
    Path compare;

    @Option(names = "--tolerance", paramLabel = "<%>", defaultValue = "10", description = "Slow-down that --compare flags, percent of the "
            + "stored median (default ${DEFAULT-VALUE}).")
    double tolerancePct;

    @Override
    public Integer call() throws IOException {
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be at least 1: " + repeats);
        }
        if (!(tolerancePct >= 0)) {
            throw new IllegalArgumentException("--tolerance must be a non-negative percentage: " + tolerancePct);
        }
        for (String s : sizes) {
            BenchSystems.forToken(s, seed);   // refuses a bad token before anything is timed
        }
        SuiteJson baseline = compare == null ? null : SuiteJson.read(compare);   // a bad file fails before the run
        String modelNote;
        StudentWeights weights;
        if (model != null) {
            try {
                weights = StudentWeights.load(model);
            } catch (IOException e) {
                throw FileErrors.describe("read student weights", model, e);
            }
            modelNote = model.toString();
        } else {
            try {
                weights = BundledModel.weights();
                modelNote = "bundled " + BundledModel.NAME;
            } catch (IllegalStateException noBundledModel) {
                weights = StudentWeights.random(seed);
                modelNote = "random weights, seed " + seed;
                System.out.println("note: no bundled model in this build; timing random weights with the default "
                        + "hyper-parameters (the cost does not depend on the values)");
            }
        }
        if (paths != null) {
            return legacy(weights, modelNote);
        }
        if (replicas != null) {
            if (device == Device.cuda) {
                // device-resident replicas timed with device events (one batched evaluation per step)
                if (!org.molten.forcefield.cuda.GpuAvailability.available()) {
                    throw new IllegalStateException("--device cuda --replicas needs a GPU: "
                            + org.molten.forcefield.cuda.GpuAvailability.probe().reason());
                }
                System.out.printf("molten bench --device cuda --replicas %s (sizes %s; model %s)%n", replicas, sizes, modelNote);
                org.molten.bench.DeviceReplicaBench.run(weights, sizes, replicas, seed, temperatureK,
                        Math.max(3, Math.min(repeats, 7)), System.out);
                return 0;
            }
            return replicaThroughput(weights, modelNote);
        }
        Map<String, String> context = new LinkedHashMap<>(MachineInfo.describe());
        context.put("command", "molten " + String.join(" ", commandLineArgs()));
        context.put("model", modelNote + ": " + weights.describe());
        context.put("load_average_at_start", MachineInfo.loadAverage());
        context.put("md_dt_fs", Double.toString(BenchSuite.MD_DT_FS));
        if (device == Device.auto) {
            device = org.molten.forcefield.cuda.GpuAvailability.available() ? Device.cuda : Device.cpu;
        }
        System.out.printf("molten bench --device %s (sizes %s, repeats %d)%n", device, sizes, repeats);
        BenchSuite.Settings settings = new BenchSuite.Settings(sizes, device != Device.cuda, device != Device.cpu, repeats,
                timeBudgetS, warmupS, seed, perturbationA, temperatureK, referenceMaxAtoms);
        List<ConfigResult> results = new BenchSuite(weights, settings, System.out).run(partial -> {
            if (json != null) {
                try {
                    new SuiteJson(SuiteJson.FORMAT, Instant.now().toString(), context, partial).write(json);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        context.put("load_average_at_end", MachineInfo.loadAverage());
        context.put("nd4j", Nd4jSupport.status());
        System.out.println();
        String table = SuiteReport.markdown(results);
        System.out.print(table);
        SuiteJson out = new SuiteJson(SuiteJson.FORMAT, Instant.now().toString(), context, results);
        if (json != null) {
            out.write(json);
            System.out.println("wrote " + json);
        }
        if (markdown != null) {
            Path abs = markdown.toAbsolutePath();
            if (abs.getParent() != null) {
                Files.createDirectories(abs.getParent());
            }
            Files.writeString(abs, "Command: `" + context.get("command") + "`, " + out.date() + ", " + context.get("cpu_model")
                    + ", load average " + context.get("load_average_at_start") + " → " + context.get("load_average_at_end")
                    + "\n\n" + table);
            System.out.println("wrote " + markdown);
        }
        if (plots != null) {
            for (Path p : SuitePlots.write(plots, results)) {
                System.out.println("wrote " + p);
            }
        }
        int status = 0;
        long failed = results.stream().filter(r -> r.status() == ConfigResult.Status.failed).count();
        if (failed > 0) {
            System.out.println(failed + " configuration(s) FAILED (see the status column)");
            status = 2;
        }
        if (baseline != null) {
            Comparison c = Comparison.of(baseline.configurations(), results, tolerancePct);
            System.out.println();
            System.out.print(c.table());
            status = Math.max(status, c.exitCode());
        }
        return status;
    }

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private List<String> commandLineArgs() {
        return spec == null || spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
    }

    private Integer replicaThroughput(StudentWeights weights, String modelNote) {
        Checks.requirePositive(replicaSteps, "--replica-steps");
        // cpu: the host platform, one single-threaded optimised student per replica, one thread per core.
        String platform = device == Device.cpu ? "cpu" : device == Device.all ? "auto" : device.name();
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf("molten bench --replicas %s --device %s (%s; %d cores; load average %s)%n", replicas, device,
                modelNote, cores, MachineInfo.loadAverage());
        for (String token : sizes) {
            BenchSystems.Named system = BenchSystems.forToken(token, seed);
            for (int r : replicas) {
                Checks.requirePositive(r, "--replicas");
                ReplicaBench.run(system.description(), system.atoms(),
                        () -> new OptimisedStudent(weights, OptimisedStudent.Options.defaults().withThreads(1)), r, platform,
                        cores, seed, replicaSteps, replicaSteps, System.out);
            }
        }
        return 0;
    }

    private Integer legacy(StudentWeights weights, String modelNote) throws IOException {
        if (device != Device.cpu && device != Device.auto) {
            throw new IllegalArgumentException("--paths times CPU paths only; use --device cpu");
        }
        List<BenchPath> chosen = null;   // "default": the per-size choice of CpuBenchmark.defaultPaths
        if (!(paths.size() == 1 && paths.get(0).equals("default"))) {
            chosen = new ArrayList<>();
            for (String p : paths) {
                chosen.add(BenchPath.of(p));
            }
        }
        Map<String, String> context = new LinkedHashMap<>(MachineInfo.describe());
        context.put("model", modelNote + ": " + weights.describe());
        OptimisedStudent.Options defaults = OptimisedStudent.Options.defaults();
        context.put("threads", Integer.toString(defaults.threads()));
        context.put("nd4j_min_atoms", Integer.toString(defaults.nd4jMinAtoms()));
        context.put("parallel_min_atoms", Integer.toString(defaults.parallelMinAtoms()));
        context.put("verlet_skin_A", Double.toString(defaults.skinA()));
        context.put("load_average_at_start", MachineInfo.loadAverage());
        context.put("repeats", Integer.toString(repeats));
        context.put("time_budget_s", Double.toString(timeBudgetS));
        context.put("warmup_s", Double.toString(warmupS));
        context.put("perturbation_A", Double.toString(perturbationA));
        context.put("seed", Long.toString(seed));
        List<CpuBenchmark.Result> results = CpuBenchmark.run(weights,
                new CpuBenchmark.Settings(sizes, repeats, timeBudgetS, warmupS, seed, perturbationA, chosen), System.out);
        context.put("nd4j", Nd4jSupport.status());
        context.put("load_average_at_end", MachineInfo.loadAverage());
        System.out.println();
        System.out.print(BenchReport.table(results));
        if (json != null) {
            BenchReport.writeJson(json, results, context);
            System.out.println("wrote " + json);
        }
        return 0;
    }
}
