package org.molten.bench;

import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Energy + forces latency of the CPU force-field paths for a list of system sizes. For each size,
 * the paths run round-robin on the same freshly perturbed positions (every call sees new
 * coordinates, so nothing can be cached but what an MD step may reuse, such as a Verlet list),
 * after a warm-up that lets the JIT compile the hot code. A path leaves the rounds once it has
 * used its time budget and made at least {@value #MIN_CALLS} timed calls (the reference at large
 * sizes).
 */
public final class CpuBenchmark {
    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /** Fewest timed calls per configuration. */
    public static final int MIN_CALLS = 2;

    /**
     * What to run.
     *
     * @param sizes         size tokens ("22", or "200w" for a water box; see {@link BenchSystems#forToken})
     * @param repeats       timed calls per configuration (fewer when the time budget runs out)
     * @param timeBudgetS   timed seconds per configuration before it may stop early
     * @param warmupS       warm-up seconds per configuration (at least one call)
     * @param seed          seed of the systems and perturbations
     * @param perturbationA rms displacement per coordinate of each call's perturbation, Å
     * @param paths         the paths to time, or null for {@link #defaultPaths(int)} per size
     */
    public record Settings(List<String> sizes, int repeats, double timeBudgetS, double warmupS, long seed,
                           double perturbationA, List<BenchPath> paths) {
    }

    /**
     * One timed configuration.
     *
     * @param atoms             number of atoms
     * @param system            what the system is
     * @param path              the path's id
     * @param stats             wall-clock latencies
     * @param cpu               CPU time of the calling thread per call (equals the wall time of a
     *                          single-threaded path on an idle machine; robust to other load)
     * @param usedNd4j          whether the dense layers went through ND4J
     * @param neighbourRebuilds Verlet-list builds during the run (-1 for the reference)
     */
    public record Result(int atoms, String system, String path, LatencyStats stats, LatencyStats cpu,
                         boolean usedNd4j, long neighbourRebuilds) {
    }

    private CpuBenchmark() {}

    /** The paths timed at a size when none are given: the comparisons docs/benchmarks.md reports. */
    public static List<BenchPath> defaultPaths(int atoms) {
        List<BenchPath> p = new ArrayList<>(List.of(BenchPath.REFERENCE, BenchPath.OPTIMISED, BenchPath.OPTIMISED_F32));
        if (atoms < 100) {
            p.add(BenchPath.OPTIMISED_SERIAL);
        }
        if (atoms >= 50) {
            p.add(BenchPath.OPTIMISED_LOOPS);
            p.add(BenchPath.OPTIMISED_ND4J);
        }
        if (atoms >= BenchSystems.WATER_BOX_MIN_ATOMS) {
            p.add(BenchPath.OPTIMISED_REBUILD);
        }
        return p;
    }

    /** Runs the benchmark; progress lines go to {@code log}. */
    public static List<Result> run(StudentWeights weights, Settings s, PrintStream log) {
        List<Result> results = new ArrayList<>();
        for (String token : s.sizes()) {
            BenchSystems.Named sys = BenchSystems.forToken(token, s.seed());
            Atoms atoms = sys.atoms().copy();
            int n = atoms.size();
            int size = n;
            double[] base = atoms.positions().clone();
            List<BenchPath> paths = s.paths() != null ? s.paths() : defaultPaths(n);
            log.printf("%d atoms (%s): %s, load average %s%n", n, sys.description(),
                    paths.stream().map(p -> p.id).toList(), MachineInfo.loadAverage());
            ForceField[] ff = new ForceField[paths.size()];
            long[][] nanos = new long[paths.size()][s.repeats()];
            long[][] cpuNanos = new long[paths.size()][s.repeats()];
            int[] calls = new int[paths.size()];
            long[] spent = new long[paths.size()];
            double[] forces = new double[3 * n];
            RandomStream rng = new RandomStream(s.seed() ^ (0x9E3779B97F4A7C15L * size));
            try {
                for (int k = 0; k < paths.size(); k++) {
                    ff[k] = paths.get(k).create(weights);
                    long end = System.nanoTime() + (long) (s.warmupS() * 1e9);
                    int w = 0;
                    do {
                        perturb(atoms, base, rng, s.perturbationA());
                        ff[k].energyAndForces(atoms, forces);
                        w++;
                    } while (System.nanoTime() < end && w < 10_000);
                }
                long budget = (long) (s.timeBudgetS() * 1e9);
                for (int round = 0; round < s.repeats(); round++) {
                    perturb(atoms, base, rng, s.perturbationA());
                    boolean any = false;
                    for (int k = 0; k < paths.size(); k++) {
                        if (calls[k] >= MIN_CALLS && spent[k] > budget) {
                            continue;
                        }
                        long c0 = THREADS.getCurrentThreadCpuTime();
                        long t0 = System.nanoTime();
                        ff[k].energyAndForces(atoms, forces);
                        long dt = System.nanoTime() - t0;
                        cpuNanos[k][calls[k]] = THREADS.getCurrentThreadCpuTime() - c0;
                        nanos[k][calls[k]++] = dt;
                        spent[k] += dt;
                        any = true;
                    }
                    if (!any) {
                        break;
                    }
                }
                for (int k = 0; k < paths.size(); k++) {
                    boolean nd4j = ff[k] instanceof OptimisedStudent o && o.lastCallUsedNd4j();
                    long rebuilds = ff[k] instanceof OptimisedStudent o ? o.neighbourListRebuilds() : -1;
                    Result r = new Result(n, sys.description(), paths.get(k).id, LatencyStats.ofNanos(nanos[k], calls[k]),
                            LatencyStats.ofNanos(cpuNanos[k], calls[k]), nd4j, rebuilds);
                    results.add(r);
                    log.printf("  %-18s median %10.1f µs  (calling-thread CPU %10.1f µs, %d calls)%n", r.path(),
                            r.stats().medianUs(), r.cpu().medianUs(), r.stats().calls());
                }
            } finally {
                for (ForceField f : ff) {
                    if (f != null) {
                        f.close();
                    }
                }
            }
        }
        return results;
    }

    /** positions = base + N(0, amplitude²) per coordinate (fresh noise each call). */
    static void perturb(Atoms atoms, double[] base, RandomStream rng, double amplitudeA) {
        double[] r = atoms.positions();
        for (int k = 0; k < r.length; k++) {
            r[k] = base[k] + amplitudeA * rng.nextGaussian();
        }
    }
}
