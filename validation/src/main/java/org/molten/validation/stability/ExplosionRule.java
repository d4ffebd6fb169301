package org.molten.validation.stability;

import java.util.Locale;
import java.util.Optional;

/**
 * MLIPAudit's explosion rule, applied to one replica's kinetic temperature at each frame: the run has exploded at the
 * first frame whose temperature exceeds the target by more than {@value #MAX_EXCESS_K} K, or is more than
 * {@value #MAX_JUMP} times the previous frame's (frame 0: the start), or is not finite (MLIPAudit also counts
 * non-finite positions, which {@link ReplicaWatch} checks). Not thread-safe: it keeps the previous frame's value.
 */
public final class ExplosionRule {
    /** K above the target temperature at which a frame counts as exploded (MLIPAudit: 10,000 K). */
    public static final double MAX_EXCESS_K = 10_000.0;
    /** Ratio of one frame's temperature to the previous frame's at which it counts as exploded (MLIPAudit: 100). */
    public static final double MAX_JUMP = 100.0;

    private final double targetK;
    private double previousK;

    /**
     * @param targetK  the thermostat's temperature, K
     * @param initialK the start's kinetic temperature (frame 0), K
     */
    public ExplosionRule(double targetK, double initialK) {
        this.targetK = targetK;
        this.previousK = initialK;
    }

    /** Checks the next frame's kinetic temperature (K); the reason when it exploded, else empty. */
    public Optional<String> check(double temperatureK) {
        double before = previousK;
        previousK = temperatureK;
        if (!Double.isFinite(temperatureK)) {
            return Optional.of("kinetic temperature " + temperatureK + " K");
        }
        if (temperatureK > targetK + MAX_EXCESS_K) {
            return Optional.of(String.format(Locale.ROOT, "kinetic temperature %.0f K, more than %.0f K above the target %.0f K",
                    temperatureK, MAX_EXCESS_K, targetK));
        }
        if (temperatureK > MAX_JUMP * before) {
            return Optional.of(String.format(Locale.ROOT, "kinetic temperature jumped from %.1f K to %.1f K (more than %.0fx)",
                    before, temperatureK, MAX_JUMP));
        }
        return Optional.empty();
    }
}
