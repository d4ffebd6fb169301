package org.molten.validation.reports;

import java.util.List;

/**
 * Everything measured on one system.
 *
 * @param name        the built-in system name ("water")
 * @param formula     chemical formula in Hill order
 * @param atoms       number of atoms
 * @param periodic    true for a periodic cell
 * @param runs        the production runs (optimised and baseline, NVE and NVT)
 * @param comparison  optimised against baseline (null when a run needed for it is missing)
 * @param criteria    every pass/fail verdict for this system
 * @param plots       PNG files for this system, relative to the report directory
 * @param passed      true when every criterion passed
 * @param verdict     the answers at a glance
 * @param replicas    one line per replica (stability, drift, temperature, teacher error)
 * @param stableFraction fraction of replicas stable for the whole run
 * @param nveDrift    the student's NVE drift over replicas, meV/atom/ps
 * @param nvtTemperature the student's NVT mean temperature over replicas, K
 * @param teacher     the student against the teacher on frames of the student's own runs, pooled
 *                    over replicas (null when the teacher did not run)
 * @param teacherSkipped why the teacher did not run (null when it did)
 * @param observables structural distributions of the student's MD against the teacher's (empty
 *                    without {@code --baseline teacher})
 * @param source      the structure file, or null for a built-in system
 */
public record SystemReport(String name, String formula, int atoms, boolean periodic, List<RunReport> runs,
                           BaselineComparison comparison, List<CriterionResult> criteria, List<String> plots,
                           boolean passed, SystemVerdict verdict, List<ReplicaReport> replicas, double stableFraction,
                           Spread nveDrift, Spread nvtTemperature,
                           org.molten.validation.metrics.TeacherErrors.Result teacher, String teacherSkipped,
                           List<org.molten.validation.observables.ObservableComparison> observables, String source) {

    /** A single-start report without teacher or observables (as written before replicas existed). */
    public SystemReport(String name, String formula, int atoms, boolean periodic, List<RunReport> runs,
                        BaselineComparison comparison, List<CriterionResult> criteria, List<String> plots, boolean passed) {
        this(name, formula, atoms, periodic, runs, comparison, criteria, plots, passed, null, List.of(), Double.NaN, null, null,
                null, null, List.of(), null);
    }
}
