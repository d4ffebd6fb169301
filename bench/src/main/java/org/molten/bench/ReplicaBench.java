package org.molten.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.integrators.ReplicaSet;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.LangevinThermostat;

/**
 * Replica throughput ({@code molten bench --replicas R}): R copies of one system, seeds S … S+R−1,
 * Langevin at 300 K with 0.5 fs, advanced together in one {@link ReplicaSet} on a platform, timed
 * after a warm-up. The figure is replica-steps per second (R × steps / wall time); on the CPU each
 * replica has its own single-threaded force field and the set runs one thread per core.
 */
public final class ReplicaBench {
    /** Timestep of the timed dynamics, fs. */
    public static final double DT_FS = 0.5;

    private ReplicaBench() {}

    /** One measurement. */
    public record Result(String system, int atoms, int replicas, String platform, int threads, long steps,
                         double seconds, double replicaStepsPerSecond) {
    }

    /**
     * Times {@code replicas} copies of {@code system} for {@code steps} steps after {@code warmupSteps}.
     *
     * @param forceField a new force field for one replica (each replica gets its own)
     */
    public static Result run(String description, Atoms system, Supplier<ForceField> forceField, int replicas,
                             String platform, int threads, long seed, int warmupSteps, int steps, PrintStream log) {
        List<ForceField> opened = new ArrayList<>();
        try {
            List<Simulation.Builder> builders = new ArrayList<>();
            for (int k = 0; k < replicas; k++) {
                ForceField ff = forceField.get();
                opened.add(ff);
                builders.add(Simulation.builder(system.copy(), ff, new VelocityVerlet(DT_FS, LangevinThermostat.of(300, 0.01)))
                        .seed(seed + k).temperature(300).warnings(w -> log.println("warning: " + w)));
            }
            try (ReplicaSet set = ReplicaSet.of(builders).platform(platform).threads(threads).build()) {
                set.step(warmupSteps);
                long t0 = System.nanoTime();
                set.step(steps);
                double s = (System.nanoTime() - t0) * 1e-9;
                Result r = new Result(description, system.size(), replicas, set.platformName(),
                        Math.min(threads, replicas), steps, s, replicas * steps / s);
                log.println(String.format(Locale.ROOT, "%s (%d atoms): %d replicas on %s, %d threads: %d steps in %.3f s,"
                                + " %.0f replica-steps/s", r.system(), r.atoms(), r.replicas(), r.platform(), r.threads(),
                        r.steps(), r.seconds(), r.replicaStepsPerSecond()));
                return r;
            }
        } finally {
            for (ForceField ff : opened) {
                ff.close();
            }
        }
    }
}
