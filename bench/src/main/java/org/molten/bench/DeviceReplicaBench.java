package org.molten.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.cuda.CudaMdEngine;
import org.molten.forcefield.cuda.CudaOptions;
import org.molten.forcefield.student.StudentWeights;

/**
 * Replica throughput on the CUDA platform ({@code molten bench --device cuda --replicas R,...}): R
 * copies of a system (Maxwell–Boltzmann velocities, seeds seed … seed+R−1) advanced together by
 * one {@link CudaMdEngine} under Langevin BAOAB with the centre-of-mass drift removed (1/ps,
 * 0.5 fs), timed with device events over K-step graph launches. Reports µs per step of the whole
 * batch, replica-steps per second, and the fraction of the card's FP32 rate that the counted FLOP
 * ({@code ModelFlops}) reach.
 */
public final class DeviceReplicaBench {
    /** One measurement. */
    public record Row(String system, int atoms, int replicas, double usPerStep, double replicaStepsPerS,
                      double flopPerStep, double fp32Fraction, String mode) {
        String line() {
            return String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.0f | %.3g | %.4f | %s |", system, atoms, replicas,
                    usPerStep, replicaStepsPerS, flopPerStep, fp32Fraction, mode);
        }
    }

    /** Time step of the timed steps, fs. */
    public static final double DT_FS = 0.5;

    private DeviceReplicaBench() {
    }

    /**
     * Times every (system, R) pair.
     *
     * @param systems  size tokens as {@code --sizes} takes them (9 = ethanol, 22 = alanine dipeptide)
     * @param replicas the R to time
     */
    public static List<Row> run(StudentWeights weights, List<String> systems, List<Integer> replicas, long seed,
                                double temperatureK, int samples, PrintStream out) {
        List<Row> rows = new ArrayList<>();
        out.println("| system | atoms | R | us per step (all replicas) | replica-steps/s | FLOP per step | FP32 fraction"
                + " | mode |");
        out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
        DynamicsSpec d = new DynamicsSpec.Langevin(DT_FS, temperatureK, 0.001, true);
        for (String token : systems) {
            BenchSystems.Named sys = BenchSystems.forToken(token, seed);
            // one system under NVE velocity Verlet: the kernels the engine picks for it (the small-molecule
            // kernel where it fits), against the R = 1 row under Langevin (the same kernel, with its thermostat)
            Atoms one = sys.atoms().copy();
            thermalise(one, temperatureK, new RandomStream(seed));
            rows.add(time(weights, sys.description() + " (NVE)", List.of(new ReplicaStart(one,
                    new DynamicsSpec.VelocityVerlet(DT_FS), seed, 3 * one.size())), samples, out));
            for (int r : replicas) {
                if (r < 1) {
                    throw new IllegalArgumentException("--replicas must be at least 1: " + r);
                }
                List<ReplicaStart> starts = new ArrayList<>();
                for (int k = 0; k < r; k++) {
                    Atoms a = sys.atoms().copy();
                    thermalise(a, temperatureK, new RandomStream(seed + k));
                    starts.add(new ReplicaStart(a, d, seed + k, 3 * a.size() - 3));
                }
                rows.add(time(weights, sys.description(), starts, samples, out));
            }
        }
        return rows;
    }

    private static Row time(StudentWeights weights, String name, List<ReplicaStart> starts, int samples, PrintStream out) {
        CudaOptions options = CudaOptions.fromSystemProperties();
        try (CudaMdEngine md = new CudaMdEngine(weights, starts, options)) {
            double[] probe = md.timeSteps(1, 1);
            int k = options.stepsPerLaunch();
            int launches = (int) Math.max(1, Math.ceil(20000.0 / (probe[0] * k)));  // ~20 ms per sample
            double[] us = md.timeSteps(samples, launches);
            double med = us[us.length / 2];
            double flop = md.flopsPerStep();
            int r = starts.size();
            Row row = new Row(name, starts.get(0).atoms().size(), r, med, r * 1e6 / med, flop,
                    flop / (med * 1e-6) / md.fp32PeakFlops(), md.mode() + ", forces " + md.replicaForces());
            out.println(row.line());
            return row;
        }
    }

    /**
     * A mixed batch against a uniform one of the same atom count (issue 29): {@code molecules} different molecules
     * of {@code minAtoms}..{@code maxAtoms} atoms (sizes evenly spread; ethanol, benzene and alanine dipeptide at 9,
     * 12 and 22 atoms, random H/C/N/O clusters at liquid density otherwise) x {@code replicasEach} replicas, each
     * molecule with its own temperature (280-320 K), friction and seeds, in one binding; then one molecule of the
     * mean size in as many replicas as give the same atom count. Langevin BAOAB, 0.5 fs, drift removed. Prints and
     * returns both rows; atom-steps/s: the batch's atoms (all replicas) times its steps per second.
     */
    public static List<Row> mixed(StudentWeights weights, int molecules, int replicasEach, int minAtoms, int maxAtoms,
                                  long seed, int samples, PrintStream out) {
        if (molecules < 1 || replicasEach < 1 || minAtoms < 1 || maxAtoms < minAtoms) {
            throw new IllegalArgumentException("mixed batch: molecules, replicas and atom range must be positive and"
                    + " ordered: " + molecules + " x " + replicasEach + ", " + minAtoms + ".." + maxAtoms);
        }
        List<ReplicaStart> mix = new ArrayList<>();
        long atoms = 0;
        for (int m = 0; m < molecules; m++) {
            int size = molecules == 1 ? minAtoms : minAtoms + (int) Math.round((maxAtoms - minAtoms) * (double) m / (molecules - 1));
            BenchSystems.Named sys = BenchSystems.forToken(Integer.toString(size), seed + 1000L * m);
            double t = 280 + 40.0 * m / Math.max(1, molecules - 1);
            DynamicsSpec d = new DynamicsSpec.Langevin(DT_FS, t, 0.001 * (1 + m % 4), true);
            for (int k = 0; k < replicasEach; k++) {
                Atoms a = sys.atoms().copy();
                long s = seed + 1000L * m + k;
                thermalise(a, t, new RandomStream(s));
                mix.add(new ReplicaStart(a, d, s, 3 * a.size() - 3));
                atoms += a.size();
            }
        }
        int mean = (int) Math.round((double) atoms / mix.size());
        int uniformReplicas = (int) Math.round((double) atoms / mean);
        BenchSystems.Named one = BenchSystems.forToken(Integer.toString(mean), seed);
        DynamicsSpec d = new DynamicsSpec.Langevin(DT_FS, 300, 0.001, true);
        List<ReplicaStart> uniform = new ArrayList<>();
        for (int k = 0; k < uniformReplicas; k++) {
            Atoms a = one.atoms().copy();
            thermalise(a, 300, new RandomStream(seed + k));
            uniform.add(new ReplicaStart(a, d, seed + k, 3 * a.size() - 3));
        }
        out.println("| batch | atoms (all replicas) | replicas | us per step | replica-steps/s | atom-steps/s | mode |");
        out.println("| --- | --- | --- | --- | --- | --- | --- |");
        Row mixedRow = timeQuiet(weights, String.format(Locale.ROOT, "mixed: %d molecules of %d-%d atoms x %d", molecules,
                minAtoms, maxAtoms, replicasEach), mix, samples);
        Row uniformRow = timeQuiet(weights, String.format(Locale.ROOT, "uniform: %s x %d", one.description(),
                uniformReplicas), uniform, samples);
        long uniformAtoms = (long) mean * uniformReplicas;
        for (Row r : List.of(mixedRow, uniformRow)) {
            long n = r == mixedRow ? atoms : uniformAtoms;
            out.printf(Locale.ROOT, "| %s | %d | %d | %.1f | %.0f | %.4g | %s |%n", r.system(), n, r.replicas(), r.usPerStep(),
                    r.replicaStepsPerS(), n * 1e6 / r.usPerStep(), r.mode());
        }
        out.printf(Locale.ROOT, "mixed / uniform atom-steps/s: %.3f (target >= 0.80)%n",
                (atoms * 1e6 / mixedRow.usPerStep()) / (uniformAtoms * 1e6 / uniformRow.usPerStep()));
        return List.of(mixedRow, uniformRow);
    }

    private static Row timeQuiet(StudentWeights weights, String name, List<ReplicaStart> starts, int samples) {
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        return time(weights, name, starts, samples, new PrintStream(sink));
    }

    /** Maxwell–Boltzmann velocities at {@code temperatureK}, zero total momentum. */
    static void thermalise(Atoms a, double temperatureK, RandomStream rng) {
        double[] v = a.velocities();
        double[] p = new double[3];
        for (int i = 0; i < a.size(); i++) {
            double sig = Math.sqrt(Units.BOLTZMANN_EV_PER_K * temperatureK * Units.ACCEL_A_PER_FS2 / a.massAmu(i));
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] = sig * rng.nextGaussian();
                p[k] += a.massAmu(i) * v[3 * i + k];
            }
        }
        double m = a.totalMassAmu();
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] -= p[k] / m;
            }
        }
    }

    /**
     * Without the CLI (the GPU bundle): {@code DeviceReplicaBench SIZES REPLICAS [MODEL.safetensors]}, e.g.
     * {@code DeviceReplicaBench 9 1,64,1024}, or {@code DeviceReplicaBench mixed 64x8 9-40 [MODEL.safetensors]}
     * ({@link #mixed}); the bundled model by default.
     */
    public static void main(String[] args) throws java.io.IOException {
        if (args.length > 0 && args[0].equals("mixed")) {  // DeviceReplicaBench mixed 64x8 9-40 [MODEL.safetensors]
            String[] mr = args[1].split("x");
            String[] range = args[2].split("-");
            mixed(weights(args.length > 3 ? args[3] : null), Integer.parseInt(mr[0]), Integer.parseInt(mr[1]),
                    Integer.parseInt(range[0]), Integer.parseInt(range[1]), 20261121L, 5, System.out);
            return;
        }
        List<String> sizes = List.of(args[0].split(","));
        List<Integer> reps = new ArrayList<>();
        for (String x : args[1].split(",")) {
            reps.add(Integer.parseInt(x.trim()));
        }
        run(weights(args.length > 2 ? args[2] : null), sizes, reps, 20261121L, 300, 5, System.out);
    }

    /** The weights of {@code file}, or the bundled model (random weights in a build without it: the cost is the same). */
    private static StudentWeights weights(String file) throws java.io.IOException {
        if (file != null) {
            return StudentWeights.load(java.nio.file.Path.of(file));
        }
        try {
            return org.molten.forcefield.bundled.BundledModel.weights();
        } catch (IllegalStateException notInThisBuild) {
            return StudentWeights.random(20261121L);
        }
    }
}
