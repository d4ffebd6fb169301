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
 */
public record SystemReport(String name, String formula, int atoms, boolean periodic, List<RunReport> runs,
                           BaselineComparison comparison, List<CriterionResult> criteria, List<String> plots,
                           boolean passed) {
}
