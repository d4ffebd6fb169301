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
            // megakernel where it fits), against the R = 1 row under Langevin (stage kernels, per-replica thermostat)
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
                    flop / (med * 1e-6) / md.fp32PeakFlops(), md.mode());
            out.println(row.line());
            return row;
        }
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
     * {@code DeviceReplicaBench 9 1,64,1024}; the bundled model by default.
     */
    public static void main(String[] args) throws java.io.IOException {
        List<String> sizes = List.of(args[0].split(","));
        List<Integer> reps = new ArrayList<>();
        for (String x : args[1].split(",")) {
            reps.add(Integer.parseInt(x.trim()));
        }
        StudentWeights w;
        if (args.length > 2) {
            w = StudentWeights.load(java.nio.file.Path.of(args[2]));
        } else {
            try {
                w = org.molten.forcefield.bundled.BundledModel.weights();
            } catch (IllegalStateException notInThisBuild) {
                w = StudentWeights.random(20261121L);  // the cost does not depend on the values
            }
        }
        run(w, sizes, reps, 20261121L, 300, 5, System.out);
    }
}
