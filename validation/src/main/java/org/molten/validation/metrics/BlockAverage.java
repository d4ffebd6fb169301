package org.molten.validation.metrics;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Mean of a correlated series with its standard error from block averaging (Flyvbjerg and
 * Petersen, J. Chem. Phys. 91, 461 (1989)), with the block size chosen automatically by the
 * hypothesis test of Jonsson, Phys. Rev. E 98, 043304 (2018).
 *
 * <p>Level k holds n_k block means (level 0 is the series; each level averages neighbouring
 * pairs of the previous one, dropping an odd last value). With σ²_k the variance and γ_k the
 * lag-1 autocovariance at level k, the statistic M_j = Σ_{k≥j} n_k (γ_k/σ²_k)² is χ²-distributed
 * with (levels - j) degrees of freedom once the blocks at level j are uncorrelated; the first
 * level j* whose M_j is below the 99 % quantile is where the test stops seeing correlation.
 *
 * <p>The test only sees correlation that is statistically significant, and at j* the blocks
 * still carry some: for an AR(1) series with an integrated correlation time of 39 samples,
 * n = 4000, the errors at j* are too small (⟨z²⟩ = 1.7 instead of 1). This class therefore uses
 * the level {@value #EXTRA_LEVELS} beyond j* (blocks 4× longer; ⟨z²⟩ = 1.27 in the same test),
 * as long as that level keeps at least {@value #MIN_BLOCKS} blocks, and gives the standard error
 * sqrt(s²_j / n_j) with the unbiased block variance s²_j (divisor n_j − 1). With few blocks the
 * error is itself uncertain: a z-score built on it follows Student's t with n_j − 1 degrees of
 * freedom, which {@link #equivalentThreshold} accounts for.
 *
 * @param mean                    the plain mean of the series
 * @param standardError           standard error of the mean, in units of the series
 * @param blockSize               samples per block at the chosen level
 * @param blocks                  number of blocks at the chosen level
 * @param statisticalInefficiency n·SE²/σ², about 1 + 2 × (integrated autocorrelation time in samples)
 * @param reliable                false when the chosen level has fewer than {@link #MIN_RELIABLE_BLOCKS}
 *                                blocks: the series is too short for its correlation time
 */
public record BlockAverage(double mean, double standardError, int blockSize, int blocks,
                           double statisticalInefficiency, boolean reliable) {

    /** Fewer blocks than this at the chosen level make the error estimate itself uncertain by >25 %. */
    public static final int MIN_RELIABLE_BLOCKS = 16;

    /** Quantile of the χ² test that picks the blocking level (Jonsson's choice). */
    private static final double QUANTILE = 0.99;
    /** Levels beyond the one the test picks (see the class comment). */
    public static final int EXTRA_LEVELS = 2;
    /** Fewest blocks an extra level may leave. */
    public static final int MIN_BLOCKS = 8;

    /**
     * The threshold on |z| = |deviation| / standardError that has the same two-sided false-alarm
     * probability under Student's t with {@code blocks} − 1 degrees of freedom as
     * {@code normalSigmas} has under the normal distribution: 3 σ (p = 0.27 %) becomes 3.54 for
     * 16 blocks, 3.28 for 32, and tends to 3 as the blocks grow in number.
     */
    public static double equivalentThreshold(double normalSigmas, int blocks) {
        if (blocks < 2) {
            return Double.POSITIVE_INFINITY;
        }
        double p = 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-Math.abs(normalSigmas));
        return new TDistribution(null, blocks - 1).inverseCumulativeProbability(1 - p / 2);
    }

    /**
     * Block-averaged mean and standard error of {@code series}.
     *
     * @throws IllegalArgumentException for fewer than 4 values or a non-finite value
     */
    public static BlockAverage of(double[] series) {
        if (series.length < 4) {
            throw new IllegalArgumentException("block averaging needs at least 4 values, got " + series.length);
        }
        for (int i = 0; i < series.length; i++) {
            if (!Double.isFinite(series[i])) {
                throw new IllegalArgumentException("non-finite value at index " + i + ": " + series[i]);
            }
        }
        double mean = SeriesStatistics.mean(series);
        double variance0 = SeriesStatistics.variance(series);
        if (variance0 == 0) {
            return new BlockAverage(mean, 0, 1, series.length, 1, true);
        }
        List<double[]> levels = new ArrayList<>(); // {n_k, sigma2_k, gamma_k}
        double[] x = series.clone();
        int len = x.length;
        while (len >= 2) {
            double m = 0;
            for (int i = 0; i < len; i++) {
                m += x[i];
            }
            m /= len;
            double s2 = 0;
            double g = 0;
            for (int i = 0; i < len; i++) {
                double d = x[i] - m;
                s2 += d * d;
                if (i + 1 < len) {
                    g += d * (x[i + 1] - m);
                }
            }
            levels.add(new double[] {len, s2 / len, g / len});
            int half = len / 2;
            for (int i = 0; i < half; i++) {
                x[i] = 0.5 * (x[2 * i] + x[2 * i + 1]);
            }
            len = half;
        }
        int d = levels.size();
        double[] terms = new double[d];
        for (int k = 0; k < d; k++) {
            double[] l = levels.get(k);
            terms[k] = l[1] > 0 ? l[0] * (l[2] / l[1]) * (l[2] / l[1]) : 0;
        }
        int chosen = d - 1;
        double tail = 0;
        double[] m = new double[d];
        for (int k = d - 1; k >= 0; k--) {
            tail += terms[k];
            m[k] = tail;
        }
        for (int j = 0; j < d; j++) {
            double q = new ChiSquaredDistribution(null, d - j).inverseCumulativeProbability(QUANTILE);
            if (m[j] < q) {
                chosen = j;
                break;
            }
        }
        int target = chosen + EXTRA_LEVELS;
        while (chosen < target && chosen + 1 < d && levels.get(chosen + 1)[0] >= MIN_BLOCKS) {
            chosen++;
        }
        double[] l = levels.get(chosen);
        int blocks = (int) l[0];
        // l[1] is the population variance of the block means; n/(n-1) makes it unbiased.
        double se = Math.sqrt(l[1] / (blocks - 1));
        double inefficiency = series.length * se * se / variance0;
        return new BlockAverage(mean, se, 1 << chosen, blocks, inefficiency, blocks >= MIN_RELIABLE_BLOCKS);
    }
}
