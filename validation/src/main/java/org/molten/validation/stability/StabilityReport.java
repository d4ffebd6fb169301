package org.molten.validation.stability;

import java.util.List;
import java.util.Locale;

/**
 * The figures of a stability run, complete or so far: per molecule, the mean score over every replica and the counts.
 *
 * @param model       the model's name (bundled version or weight file)
 * @param settings    the protocol's settings
 * @param platform    where the steps ran (cuda, cpu, reference; the host when the device was not available)
 * @param status      "running" (a progressive write), "complete" or "interrupted"
 * @param framesDone  frames run so far, of {@code settings.frames()}
 * @param wallSeconds wall-clock seconds of the run so far
 * @param molecules   in input order
 * @param minScore    the mean score a run must reach ({@code --min-score})
 */
public record StabilityReport(String model, StabilitySettings settings, String platform, String status, int framesDone,
                              double wallSeconds, List<MoleculeStability> molecules, double minScore) {
    public StabilityReport {
        molecules = List.copyOf(molecules);
    }

    /** Mean of every scored replica's score (every molecule has the same number of replicas); NaN if none is scored. */
    public double meanScore() {
        return molecules.stream().flatMap(m -> m.replicas().stream()).mapToDouble(ReplicaStability::score)
                .filter(Double::isFinite).average().orElse(Double.NaN);
    }

    /** Replicas with a final score (all of them once the run is complete). */
    public long scoredReplicas() {
        return molecules.stream().flatMap(m -> m.replicas().stream()).filter(ReplicaStability::complete).count();
    }

    /** Replicas in all. */
    public long replicas() {
        return molecules.stream().mapToLong(m -> m.replicas().size()).sum();
    }

    /** Replicas that ended with {@code event}. */
    public long replicas(StabilityEvent event) {
        return molecules.stream().mapToLong(m -> m.count(event)).sum();
    }

    /** Molecules whose worst replica ended with {@code event}. */
    public long molecules(StabilityEvent event) {
        return molecules.stream().filter(m -> m.worst().event() == event).count();
    }

    /** A complete run whose mean score reaches {@link #minScore()}. */
    public boolean passed() {
        return "complete".equals(status) && meanScore() >= minScore;
    }

    /** "PASS", "FAIL" or "INCOMPLETE". */
    public String verdict() {
        return !"complete".equals(status) ? "INCOMPLETE" : passed() ? "PASS" : "FAIL";
    }

    /** ps at frame {@code frame}. */
    public double timePs(int frame) {
        return frame * settings.frameFs() / 1000;
    }

    /** One line: "mean score 0.9987 over 144 molecules x 1 replicas (stable 143, hydrogen-detached 1, explosion 0): PASS". */
    public String summary() {
        return String.format(Locale.ROOT, "mean score %.4f over %d molecules x %d replicas, %d of %d frames (%.2f ps);"
                        + " replicas stable %d, hydrogen-detached %d, exploded %d; min-score %.2f: %s",
                meanScore(), molecules.size(), settings.replicas(), framesDone, settings.frames(), timePs(framesDone),
                replicas(StabilityEvent.STABLE), replicas(StabilityEvent.HYDROGEN_DETACHED),
                replicas(StabilityEvent.EXPLOSION), minScore, verdict());
    }
}
