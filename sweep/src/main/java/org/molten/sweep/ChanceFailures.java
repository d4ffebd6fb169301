package org.molten.sweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many failures of the statistical criteria chance alone predicts over a whole sweep, and which
 * failures exceed it. Each k-SE check of a correct integrator fails with probability
 * p = erfc(k/√2) (0.27 % at k = 3), so N checks fail about λ = Σ p times by chance (128 tasks × 2
 * temperature checks at 3 SE: λ ≈ 0.7); a campaign's verdict must not hinge on those. Failures are
 * counted per model, system, temperature and criterion, and a row is flagged when its count is
 * improbable by chance: P(Poisson(λ) ≥ failed) below {@value #ALPHA} divided by the number of rows
 * (Bonferroni, so that flags themselves are not noise); the sweep as a whole likewise against
 * {@value #ALPHA}. A bias (a thermostat 0.6 % cold on every seed) fails most checks of its row and
 * is flagged; one or two scattered failures among hundreds of checks are not.
 *
 * @param checks             statistical checks evaluated over the sweep's tasks that ran
 * @param failed             those that failed
 * @param expectedByChance   λ: failures a correct integrator gives on average
 * @param pChance            P(at least {@code failed} failures | chance)
 * @param exceedsChance      {@code pChance} below {@link #ALPHA}
 * @param tasksFailingOnlyStatistical tasks whose only failed criteria are statistical ones
 * @param rows               per model, system, temperature and criterion
 */
public record ChanceFailures(int checks, int failed, double expectedByChance, double pChance, boolean exceedsChance,
                             int tasksFailingOnlyStatistical, List<Row> rows) {
    /** Family-wise significance level of the flags. */
    public static final double ALPHA = 0.05;

    /**
     * One model, system, temperature and criterion.
     *
     * @param model            model label
     * @param system           system label
     * @param temperatureK     target temperature, K
     * @param criterion        criterion id
     * @param checks           checks evaluated
     * @param failed           checks failed
     * @param expectedByChance λ of these checks
     * @param pChance          P(Poisson(λ) ≥ failed)
     * @param exceedsChance    {@code pChance} below {@link #ALPHA} / rows
     */
    public record Row(String model, String system, double temperatureK, String criterion, int checks, int failed,
                      double expectedByChance, double pChance, boolean exceedsChance) {
    }

    /** The statistical checks of {@code results} (done tasks only) against chance. */
    public static ChanceFailures of(List<TaskResult> results) {
        Map<String, List<Object>> keys = new LinkedHashMap<>();
        Map<String, List<StatisticalCheck>> byRow = new LinkedHashMap<>();
        int onlyStatistical = 0;
        for (TaskResult r : results) {
            if (!r.done()) {
                continue;
            }
            SweepTask t = r.task();
            int statFailed = 0;
            for (StatisticalCheck c : r.metrics().statisticalChecks()) {
                String k = t.modelLabel() + "\u0000" + t.systemLabel() + "\u0000" + t.temperatureK() + "\u0000" + c.criterion();
                keys.putIfAbsent(k, List.of(t.modelLabel(), t.systemLabel(), t.temperatureK(), c.criterion()));
                byRow.computeIfAbsent(k, x -> new ArrayList<>()).add(c);
                statFailed += c.passed() ? 0 : 1;
            }
            Integer all = r.metrics().failedCriteria();
            if (statFailed > 0 && all != null && all == statFailed) {
                onlyStatistical++;
            }
        }
        List<Row> rows = new ArrayList<>();
        int checks = 0;
        int failed = 0;
        double lambda = 0;
        for (Map.Entry<String, List<StatisticalCheck>> e : byRow.entrySet()) {
            List<Object> k = keys.get(e.getKey());
            int n = e.getValue().size();
            int f = (int) e.getValue().stream().filter(c -> !c.passed()).count();
            double l = e.getValue().stream().mapToDouble(StatisticalCheck::falsePositiveRate).sum();
            checks += n;
            failed += f;
            lambda += l;
            rows.add(new Row((String) k.get(0), (String) k.get(1), (Double) k.get(2), (String) k.get(3), n, f, l,
                    poissonTailAtLeast(f, l), false));
        }
        double perRow = ALPHA / Math.max(1, rows.size());
        List<Row> flagged = rows.stream().map(r -> new Row(r.model(), r.system(), r.temperatureK(), r.criterion(), r.checks(),
                r.failed(), r.expectedByChance(), r.pChance(), r.failed() > 0 && r.pChance() < perRow)).toList();
        double p = poissonTailAtLeast(failed, lambda);
        return new ChanceFailures(checks, failed, lambda, p, failed > 0 && p < ALPHA, onlyStatistical, flagged);
    }

    /** P(X ≥ k) for X ~ Poisson(λ). */
    static double poissonTailAtLeast(int k, double lambda) {
        if (k <= 0) {
            return 1.0;
        }
        double term = Math.exp(-lambda);
        double below = term;
        for (int i = 1; i < k; i++) {
            term *= lambda / i;
            below += term;
        }
        return Math.max(0.0, 1.0 - below);
    }

    /**
     * P(|Z| > k) for a standard normal Z: erfc(k/√2), by the Chebyshev fit of Numerical Recipes' erfcc
     * (relative error below 1.2e-7 everywhere).
     */
    static double twoSidedNormalTail(double k) {
        double x = Math.abs(k) / Math.sqrt(2);
        double t = 1.0 / (1.0 + 0.5 * x);
        double y = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return Math.min(1.0, y);
    }
}
