package org.molten.forcefield.cuda;

import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.Checks;
import org.molten.forcefield.student.StudentWeights;

/**
 * GPU timing for {@code molten bench --device cuda}: median microseconds per device-resident MD
 * step (velocity Verlet, the force evaluation included), measured with CUDA events around graph
 * launches of K steps each, after a warm-up that captures the graph.
 */
public final class CudaBenchmark {
    /** Time step of the timed trajectory, fs (short enough for any equilibrated structure). */
    public static final double DT_FS = 0.5;
    /** Samples the median is taken over. */
    public static final int SAMPLES = 11;

    private CudaBenchmark() {
    }

    /**
     * One timing.
     *
     * @param device         the GPU
     * @param mode           execution mode used ("cluster", "stages", "stages (tiled)", "grid")
     * @param atoms          system size
     * @param stepsPerLaunch K
     * @param graphs         whether graphs were replayed (else eager launches)
     * @param medianUs       median microseconds per MD step
     * @param minUs          fastest sample, µs per step
     * @param maxUs          slowest sample, µs per step
     */
    public record Result(String device, String mode, int atoms, int stepsPerLaunch, boolean graphs, double medianUs,
                         double minUs, double maxUs) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s, %d atoms, %s, K=%d, graphs %s: median %.2f us/step (min %.2f, max %.2f)",
                    device, atoms, mode, stepsPerLaunch, graphs ? "on" : "off", medianUs, minUs, maxUs);
        }
    }

    /** Median µs per MD step of {@code atoms} (positions Å, velocities Å/fs) with the default options. */
    public static double medianMicrosPerStep(StudentWeights weights, Atoms atoms, int steps) {
        return time(weights, atoms, steps, CudaOptions.fromSystemProperties()).medianUs();
    }

    /**
     * Times about {@code steps} MD steps (at least one K-step launch per sample, {@value #SAMPLES}
     * samples) after a warm-up; the simulation is a copy, {@code atoms} is not changed.
     *
     * @throws IllegalStateException if the trajectory blows up (use an equilibrated structure)
     */
    public static Result time(StudentWeights weights, Atoms atoms, int steps, CudaOptions options) {
        Checks.requirePositive(steps, "steps");
        try (CudaMdEngine md = CudaMdEngine.single(weights, atoms.copy(), new DynamicsSpec.VelocityVerlet(DT_FS), 0, options)) {
            int k = options.stepsPerLaunch();
            int launches = Math.max(1, steps / (SAMPLES * k));
            double[] us = md.timeSteps(SAMPLES, launches);
            return new Result(md.deviceName(), md.mode(), atoms.size(), k, options.graphs(), us[us.length / 2], us[0],
                    us[us.length - 1]);
        }
    }
}
