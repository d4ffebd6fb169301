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
 */
public record SystemVerdict(String stable, String faithful, String observables, String drift, String temperature,
                            String baseline) {
}
