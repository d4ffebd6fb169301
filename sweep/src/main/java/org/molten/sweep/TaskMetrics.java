package org.molten.sweep;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one finished task that the sweep aggregates; every field may be null ("n/a")
 * because a task's report may not carry it (older or newer report formats, a run that stopped).
 *
 * @param stableFraction           fraction of the task's simulations that completed without blowing
 *                                 up (1 or 0 for a single run; replicas give fractions)
 * @param driftMeVPerAtomPerPs     NVE total-energy drift of the model under test, meV/atom/ps (signed)
 * @param teacherForceMaeEvPerA    mean absolute force error against the teacher on the trajectory, eV/Å
 * @param forceRmseVsBaselineEvPerA force RMSE against the baseline model on the same frames, eV/Å
 * @param passed                   the validation's overall verdict
 * @param divergences              named divergences (observable → value, units in the name), possibly empty
 */
public record TaskMetrics(Double stableFraction, Double driftMeVPerAtomPerPs, Double teacherForceMaeEvPerA,
                          Double forceRmseVsBaselineEvPerA, Boolean passed, Map<String, Double> divergences)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Copies the divergences into a sorted map. */
    public TaskMetrics {
        divergences = divergences == null ? Map.of() : new TreeMap<>(divergences);
    }

    /** Nothing known. */
    public static TaskMetrics unknown() {
        return new TaskMetrics(null, null, null, null, null, Map.of());
    }
}
