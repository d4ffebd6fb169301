package org.molten.validation.reports;

/**
 * One pass/fail verdict.
 *
 * @param system      the system ("water")
 * @param run         the run label ("optimised NVE"), or "comparison" for baseline checks
 * @param criterion   which criterion
 * @param value       the measured value (null when it could not be measured)
 * @param comparison  how value is compared with threshold ({@code "<="}, {@code "<"})
 * @param threshold   the limit
 * @param unit        unit of value and threshold
 * @param passed      the verdict (false when skipped: a skip is never a pass)
 * @param detail      a sentence a reviewer reads: what was measured and why it failed
 * @param skipped     true when the criterion could not be evaluated here (the teacher library is
 *                    missing, say); {@code detail} says why
 */
public record CriterionResult(String system, String run, Criterion criterion, Double value, String comparison,
                              double threshold, String unit, boolean passed, String detail, boolean skipped) {

    /** An evaluated criterion. */
    public CriterionResult(String system, String run, Criterion criterion, Double value, String comparison,
                           double threshold, String unit, boolean passed, String detail) {
        this(system, run, criterion, value, comparison, threshold, unit, passed, detail, false);
    }

    /** A criterion that could not be evaluated, with the reason. */
    public static CriterionResult skipped(String system, String run, Criterion criterion, String comparison, double threshold,
                                          String unit, String reason) {
        return new CriterionResult(system, run, criterion, null, comparison, threshold, unit, false, "skipped: " + reason, true);
    }

    /** "pass", "FAIL" or "skipped". */
    public String verdict() {
        return skipped ? "skipped" : passed ? "pass" : "FAIL";
    }
}
