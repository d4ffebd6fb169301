package org.molten.sweep;

import java.io.Serializable;
import java.util.List;
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
 * @param statisticalChecks        the validation's evaluated k-SE criteria, possibly empty ({@link ChanceFailures})
 * @param failedCriteria           how many criteria of every kind failed, or null when not reported
 */
public record TaskMetrics(Double stableFraction, Double driftMeVPerAtomPerPs, Double teacherForceMaeEvPerA,
                          Double forceRmseVsBaselineEvPerA, Boolean passed, Map<String, Double> divergences,
                          List<StatisticalCheck> statisticalChecks, Integer failedCriteria)
        implements Serializable {
    private static final long serialVersionUID = 2L;

    /** Copies the divergences into a sorted map and the checks into a list (absent in older result.json: none). */
    public TaskMetrics {
        divergences = divergences == null ? Map.of() : new TreeMap<>(divergences);
        statisticalChecks = statisticalChecks == null ? List.of() : List.copyOf(statisticalChecks);
    }

    /** Figures without criteria. */
    public TaskMetrics(Double stableFraction, Double driftMeVPerAtomPerPs, Double teacherForceMaeEvPerA,
                       Double forceRmseVsBaselineEvPerA, Boolean passed, Map<String, Double> divergences) {
        this(stableFraction, driftMeVPerAtomPerPs, teacherForceMaeEvPerA, forceRmseVsBaselineEvPerA, passed, divergences,
                List.of(), null);
    }

    /** Nothing known. */
    public static TaskMetrics unknown() {
        return new TaskMetrics(null, null, null, null, null, Map.of());
    }
}
