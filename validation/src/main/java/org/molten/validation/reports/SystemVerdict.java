package org.molten.validation.reports;

/**
 * The one-line answer per system that report.md opens with: each entry is "pass", "FAIL",
 * "skipped" (could not be evaluated here, with the reason in the details) or "n/a" (not part of
 * this protocol, e.g. observables without {@code --baseline teacher}).
 *
 * @param stable       every replica completed with the structure intact
 * @param faithful     the student's forces stay close to the teacher's on its own trajectories
 * @param observables  the student's structural distributions match the teacher's MD
 * @param drift        NVE energy drift within the limit
 * @param temperature  NVT temperature and its fluctuation canonical
 * @param baseline     the optimised path equals the implementation baseline
 * @param teacherMd    with {@code --baseline teacher}: the teacher's own MD completed every run with
 *                     the structure intact (its own row in the verdict table, so that a teacher that
 *                     blows up, breaks a bond or stops early is not blamed on the student); "n/a" otherwise
 * @param teacherMdDetail how many of the teacher's runs were intact, or its first failure ("" when n/a)
 */
public record SystemVerdict(String stable, String faithful, String observables, String drift, String temperature,
                            String baseline, String teacherMd, String teacherMdDetail) {

    /** A verdict without the teacher's own MD (no {@code --baseline teacher}). */
    public SystemVerdict(String stable, String faithful, String observables, String drift, String temperature,
                         String baseline) {
        this(stable, faithful, observables, drift, temperature, baseline, "n/a", "");
    }
}
