package org.molten.cli;

import org.molten.bench.BenchPath;
import org.molten.bench.BenchReport;
import org.molten.bench.BenchSystems;
import org.molten.bench.CpuBenchmark;
import org.molten.bench.MachineInfo;
import org.molten.forcefield.student.Nd4jSupport;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code molten bench}: energy + forces latency of the force-field paths, side by side, for a list
 * of system sizes. Not a test: it prints a table (and optionally JSON) for docs/benchmarks.md.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Time energy+forces calls of the student force field paths, side by side.",
                "Each call sees freshly perturbed positions; reports median and interquartile range."})
public final class BenchCommand implements Callable<Integer> {

    /** Where the paths run. */
    enum Device { cpu }

    @Option(names = "--device", defaultValue = "cpu", description = "Device: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Device device;

    @Option(names = "--sizes", split = ",", defaultValue = "3,9,12,22,50,100,200,1500",
            description = "Atom counts (default ${DEFAULT-VALUE}); 3, 9, 12, 22 are built-in molecules, "
                    + ">= 1000 a periodic water box at 1 g/cm³, others random clusters at 0.1 atoms/Å³; "
                    + "a 'w' suffix (200w) asks for a water box of about that many atoms.")
    List<String> sizes;

    @Option(names = "--paths", split = ",",
            description = "Paths to time (default: per size, reference, optimised, optimised-f32, and the threading/ND4J "
                    + "comparisons). Known: reference, optimised, optimised-f32, optimised-1thread, optimised-loops, "
                    + "optimised-nd4j, optimised-rebuild, optimised-1thread-loops, optimised-1thread-nd4j.")
    List<String> paths;

    @Option(names = "--repeats", defaultValue = "30", description = "Timed calls per configuration (default ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--time-budget-s", defaultValue = "20",
            description = "Timed seconds per configuration after which it stops early, at least 2 calls (default ${DEFAULT-VALUE} s).")
    double timeBudgetS;

    @Option(names = "--warmup-s", defaultValue = "3", description = "Warm-up seconds per configuration (default ${DEFAULT-VALUE} s).")
    double warmupS;

    @Option(names = "--perturbation-a", defaultValue = "0.01",
            description = "RMS displacement per coordinate applied before each call, Å (default ${DEFAULT-VALUE} Å).")
    double perturbationA;

    @Option(names = "--seed", defaultValue = "20261121", description = "Seed of systems, random weights and perturbations (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--model", description = "Student weights (safetensors). Default: the bundled model, else random "
            + "weights with the default hyper-parameters.")
    Path model;

    @Option(names = "--json", description = "Also write the results as JSON to this file.")
    Path json;

    @Override
    public Integer call() throws IOException {
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be at least 1: " + repeats);
        }
        for (String s : sizes) {
            BenchSystems.forToken(s, seed);   // refuses a bad token before anything is timed
        }
        List<BenchPath> chosen = null;
        if (paths != null) {
            chosen = new ArrayList<>();
            for (String p : paths) {
                chosen.add(BenchPath.of(p));
            }
        }
        String modelNote;
        StudentWeights weights;
        if (model != null) {
            weights = StudentWeights.load(model);
            modelNote = model.toString();
        } else {
            Optional<StudentWeights> bundled = StudentWeights.bundled();
            if (bundled.isPresent()) {
                weights = bundled.get();
                modelNote = "bundled " + StudentWeights.BUNDLED_RESOURCE;
            } else {
                weights = StudentWeights.random(seed);
                modelNote = "random weights, seed " + seed;
                System.out.println("note: no bundled model in this build; timing random weights with the default "
                        + "hyper-parameters (the cost does not depend on the values)");
            }
        }
        Map<String, String> context = new LinkedHashMap<>(MachineInfo.describe());
        context.put("model", modelNote + ": " + weights.describe());
        // Read from the defaults at run time (compile-time constants would be inlined here).
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
        System.out.printf("molten bench --device %s: %s%n", device, context);
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
