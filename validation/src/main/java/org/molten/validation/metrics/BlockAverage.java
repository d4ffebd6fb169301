package org.molten.validation.metrics;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;

/**
 * Mean of a correlated series with its standard error from block averaging (Flyvbjerg and
 * Petersen, J. Chem. Phys. 91, 461 (1989)), with the block size chosen automatically by the
 * hypothesis test of Jonsson, Phys. Rev. E 98, 043304 (2018).
 *
 * <p>Level k holds n_k block means (level 0 is the series; each level averages neighbouring
 * pairs of the previous one, dropping an odd last value). With σ²_k the variance and γ_k the
 * lag-1 autocovariance at level k, the statistic M_j = Σ_{k≥j} n_k (γ_k/σ²_k)² is χ²-distributed
 * with (levels - j) degrees of freedom once the blocks at level j are uncorrelated. The first
 * level whose M_j is below the 99 % quantile is used and the standard error of the mean is
 * sqrt(σ²_j / n_j).
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
        double[] l = levels.get(chosen);
        int blocks = (int) l[0];
        double se = Math.sqrt(l[1] / blocks);
        double inefficiency = series.length * se * se / variance0;
        return new BlockAverage(mean, se, 1 << chosen, blocks, inefficiency, blocks >= MIN_RELIABLE_BLOCKS);
    }
}
