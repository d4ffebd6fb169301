package org.molten.validation.stability;

import java.util.Locale;

/**
 * The protocol's settings. MLIPAudit: 100 ps of NVT at 300 K (100,000 steps of 1 fs in JAX-MD's Langevin), a frame
 * every 100 steps, N = 1,000 frames. Here Langevin (BAOAB) at {@code timestepFs} (default 0.5 fs, Molten's), with
 * friction {@code frictionPerFs} (default 0.01 fs⁻¹, Molten's and organic_eval.py's), N frames over the run (default
 * 1,000: one every 100 fs, MLIPAudit's spacing). Each bad value is refused naming its command-line option.
 *
 * @param temperatureK  thermostat and starting temperature, K ({@code --temperature})
 * @param ps            run length, ps ({@code --ps})
 * @param timestepFs    fs ({@code --timestep})
 * @param frictionPerFs Langevin friction, 1/fs ({@code --friction})
 * @param replicas      replicas per molecule ({@code --replicas})
 * @param seed          replica j of molecule i has seed + i·replicas + j ({@code --seed})
 * @param frames        N ({@code --frames})
 * @param platform      auto (cuda when a GPU can run it, else cpu), reference, cpu or cuda ({@code --device})
 * @param hydrogenRule  which hydrogen event scores ({@code --hydrogen-rule}, default {@link HydrogenRule#BONDED})
 */
public record StabilitySettings(double temperatureK, double ps, double timestepFs, double frictionPerFs, int replicas,
                                long seed, int frames, String platform, HydrogenRule hydrogenRule) {
    /** MLIPAudit's frame count. */
    public static final int DEFAULT_FRAMES = 1000;

    /** The settings with the bonded hydrogen rule (MLIPAudit's documentation, issue 27). */
    public StabilitySettings(double temperatureK, double ps, double timestepFs, double frictionPerFs, int replicas,
                             long seed, int frames, String platform) {
        this(temperatureK, ps, timestepFs, frictionPerFs, replicas, seed, frames, platform, HydrogenRule.BONDED);
    }

    public StabilitySettings {
        java.util.Objects.requireNonNull(hydrogenRule, "hydrogenRule");
        positive(temperatureK, "--temperature", "K");
        positive(ps, "--ps", "ps");
        positive(timestepFs, "--timestep", "fs");
        positive(frictionPerFs, "--friction", "1/fs");
        if (replicas < 1) {
            throw new IllegalArgumentException("--replicas must be at least 1: " + replicas);
        }
        if (frames < 1) {
            throw new IllegalArgumentException("--frames must be at least 1: " + frames);
        }
        double steps = ps * 1000 / timestepFs;
        if (Math.abs(steps - Math.rint(steps)) > 1e-6 * Math.max(1, steps) || Math.rint(steps) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "--ps %s is not a whole number of --timestep %s fs steps (%s)", ps, timestepFs, steps));
        }
        long total = Math.round(steps);
        if (total % frames != 0) {
            throw new IllegalArgumentException("--frames " + frames + " does not divide the run's " + total
                    + " steps (--ps " + ps + " at --timestep " + timestepFs + " fs); choose a divisor, e.g. "
                    + nearestDivisor(total, frames));
        }
        if (!java.util.List.of("auto", "reference", "cpu", "cuda").contains(platform)) {
            throw new IllegalArgumentException("--device must be auto, reference, cpu or cuda: " + platform);
        }
    }

    /** Steps of the whole run. */
    public long totalSteps() {
        return Math.round(ps * 1000 / timestepFs);
    }

    /** Steps between two frames. */
    public int stepsPerFrame() {
        return (int) (totalSteps() / frames);
    }

    /** fs between two frames. */
    public double frameFs() {
        return stepsPerFrame() * timestepFs;
    }

    private static void positive(double v, String option, String unit) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(option + " must be a positive number of " + unit + ": " + v);
        }
    }

    private static long nearestDivisor(long total, int frames) {
        for (int d = 0; d < frames; d++) {
            if (frames - d >= 1 && total % (frames - d) == 0) {
                return frames - d;
            }
            if (total % (frames + d) == 0) {
                return frames + d;
            }
        }
        return 1;
    }
}
