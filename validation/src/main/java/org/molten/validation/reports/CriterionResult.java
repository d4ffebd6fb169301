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
 * @param passed      the verdict
 * @param detail      a sentence a reviewer reads: what was measured and why it failed
 */
public record CriterionResult(String system, String run, Criterion criterion, Double value, String comparison,
                              double threshold, String unit, boolean passed, String detail) {
}
