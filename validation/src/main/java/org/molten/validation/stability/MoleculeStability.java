package org.molten.validation.stability;

import java.util.Comparator;
import java.util.List;

/**
 * One molecule's replicas and their mean score; its row shows the worst replica's event (the lowest score; the
 * earliest frame among equal ones).
 *
 * @param name     the molecule's name
 * @param source   file and frame it came from
 * @param atoms    its atom count
 * @param replicas replica j's outcome at index j
 */
public record MoleculeStability(String name, String source, int atoms, List<ReplicaStability> replicas) {
    public MoleculeStability {
        replicas = List.copyOf(replicas);
    }

    /** The mean of the replicas' scores; NaN while one of them has none yet. */
    public double score() {
        return replicas.stream().mapToDouble(ReplicaStability::score).average().orElse(Double.NaN);
    }

    /** The replica whose event is worst: an explosion before a detachment before stable, the earlier frame first. */
    public ReplicaStability worst() {
        return replicas.stream().max(Comparator.comparing(ReplicaStability::event)
                .thenComparing(r -> -r.eventFrame())).orElseThrow();
    }

    /** How many of its replicas ended with {@code event}. */
    public long count(StabilityEvent event) {
        return replicas.stream().filter(r -> r.event() == event).count();
    }
}
