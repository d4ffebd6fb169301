package org.molten.sweep;

import java.io.Serializable;

/**
 * One evaluated statistical criterion of a task's validation: a z-test that passes when the
 * measured deviation is at most {@code limitSe} standard errors ({@code mean-temperature},
 * {@code temperature-fluctuation}). A correct integrator still fails such a test with probability
 * {@link #falsePositiveRate()}, so a sweep of many tasks expects some failures by chance alone
 * ({@link ChanceFailures}).
 *
 * @param criterion the criterion's id ("mean-temperature")
 * @param run       the run it judged ("student, 4 replicas NVT")
 * @param valueSe   the measured |deviation| in standard errors, or null when not measured
 * @param limitSe   the rule's nominal limit k in standard errors of a normal (3 for a 3-SE rule; the validation widens
 *                  it as a Student t for few blocks to keep the same false-positive rate)
 * @param passed    the verdict
 */
public record StatisticalCheck(String criterion, String run, Double valueSe, double limitSe, boolean passed)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Probability that a correct run fails this check: the two-sided normal tail beyond k, erfc(k / sqrt 2). */
    public double falsePositiveRate() {
        return ChanceFailures.twoSidedNormalTail(limitSe);
    }
}
