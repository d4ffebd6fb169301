package org.molten.validation.metrics;

import java.util.List;
import org.molten.core.Checks;

/**
 * Mean and fluctuation of the instantaneous temperature of one or more runs against a target, with
 * standard errors that do not count correlated samples as independent: the larger of block
 * averaging ({@link BlockAverage}) and the runs' pooled autocorrelation (see {@link #ofRuns}).
 *
 * @param meanK                  mean instantaneous temperature (K)
 * @param meanStandardErrorK     standard error of that mean (K): the larger of the block error and
 *                               sqrt(var · 2τ / N) with τ from the pooled autocorrelation
 * @param targetK                target (thermostat) temperature (K)
 * @param meanDeviationSigmas    (meanK - targetK) / meanStandardErrorK: how many standard errors
 *                               the mean lies from the target
 * @param sigmaK                 observed standard deviation of T_inst (K), corrected for the
 *                               variance of the sample mean (SE²) that deviations from it lose
 * @param sigmaStandardErrorK    standard error of sigmaK: the larger of block averaging of (T - mean)² with the
 *                               delta method and the error of a canonical series with the runs' autocorrelation
 * @param canonicalSigmaK        canonical expectation T sqrt(2/dof) (K)
 * @param sigmaRatio             sigmaK / canonicalSigmaK (1 in the canonical ensemble)
 * @param sigmaDeviationSigmas   (sigmaK - canonicalSigmaK) / sigmaStandardErrorK
 * @param degreesOfFreedom       dof used for T_inst and for the canonical expectation
 * @param meanBlocks             blocks of the block error of the mean (the Student-t widening of its limit)
 * @param sigmaBlocks            blocks of the block error of (T - mean)² (likewise for σ_T)
 * @param errorReliable          false when the series was too short for a reliable error estimate
 */
public record TemperatureStatistics(
        double meanK, double meanStandardErrorK, double targetK, double meanDeviationSigmas,
        double sigmaK, double sigmaStandardErrorK, double canonicalSigmaK, double sigmaRatio,
        double sigmaDeviationSigmas, int degreesOfFreedom, int meanBlocks, int sigmaBlocks, boolean errorReliable) {

    /**
     * Statistics of {@code temperatureK} (instantaneous temperatures computed with
     * {@code degreesOfFreedom}) against {@code targetK}: {@link #ofRuns} of one run.
     */
    public static TemperatureStatistics of(double[] temperatureK, double targetK, int degreesOfFreedom) {
        return ofRuns(List.of(temperatureK), targetK, degreesOfFreedom);
    }

    /**
     * Pooled statistics of independent runs (replicas) of one thermostat, each series in sample order.
     *
     * <p>The errors are the larger of two estimates. (1) Block averaging ({@link BlockAverage}) of the
     * runs' concatenation. (2) The runs' autocorrelation function, computed within each run and never
     * across two of them, pooled over the runs: the mean's error from its integrated correlation time
     * (Geyer's initial positive sequence), σ_T's from the error a canonical series with that correlation
     * would have, SE(σ) = σ_can sqrt((2 + 12/dof) · 2τ₂ / N) / 2 with τ₂ = 1/2 + Σ_k ρ_k² over lags up to a
     * quarter of the shortest run ((T − ⟨T⟩)² of a Gaussian series is correlated as ρ²; 2 + 12/dof is the
     * variance of (T − ⟨T⟩)² in units of σ⁴ for a χ² with dof degrees of freedom). Why both: four 0.75 ps
     * NVT runs of ethanol give σ_T estimates that scatter by ~9 % around the canonical value (20 ps of one
     * Langevin run cut into such sets), while the block error of their concatenation claimed ~4 %, and the
     * criterion failed good models at other seeds; the second estimate does not shrink with the sample's
     * own variance, which made the block error smallest exactly where σ_T came out low.
     */
    public static TemperatureStatistics ofRuns(List<double[]> runs, double targetK, int degreesOfFreedom) {
        Checks.requirePositive(targetK, "targetK");
        Checks.requirePositive(degreesOfFreedom, "degreesOfFreedom");
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no temperature series");
        }
        double[] all = concat(runs);
        BlockAverage mean = BlockAverage.of(all);
        double[] sq = new double[all.length];
        double var0 = 0;
        for (int i = 0; i < sq.length; i++) {
            double d = all[i] - mean.mean();
            sq[i] = d * d;
            var0 += sq[i];
        }
        var0 /= all.length;
        BlockAverage var = BlockAverage.of(sq);
        double[] rho = pooledAutocorrelation(runs, mean.mean(), var0);
        double n = all.length;
        double meanSe = Math.max(mean.standardError(), Math.sqrt(var0 * 2 * initialPositiveSequenceTau(rho) / n));
        // Deviations from the sample mean understate the variance by exactly Var(mean):
        // E[(1/n) Σ (T - mean)²] = σ² - Var(mean). For a correlated series Var(mean) is not σ²/n
        // but SE², which is added back.
        double sigma = Math.sqrt(var.mean() + meanSe * meanSe);
        double expected = CanonicalExpectation.temperatureSigmaK(targetK, degreesOfFreedom);
        // Summed over the whole window, not cut at the initial positive sequence: the noise of the estimated ρ_k
        // adds a little (about +6 % to the error in the ethanol-like case, conservative), a cut-off adds scatter
        // and can stop early on a quickly falling, long-tailed autocorrelation — the underestimate fixed here.
        double tau2 = 0.5;
        for (int k = 1; k < rho.length; k++) {
            tau2 += rho[k] * rho[k];
        }
        double canonicalSigmaSe = expected * Math.sqrt((2 + 12.0 / degreesOfFreedom) * 2 * tau2 / n) / 2;
        double sigmaSe = Math.max(sigma > 0 ? var.standardError() / (2 * sigma) : 0, canonicalSigmaSe);
        return new TemperatureStatistics(mean.mean(), meanSe, targetK,
                ratio(mean.mean() - targetK, meanSe), sigma, sigmaSe, expected, sigma / expected,
                ratio(sigma - expected, sigmaSe), degreesOfFreedom, mean.blocks(), var.blocks(),
                mean.reliable() && var.reliable());
    }

    /**
     * ρ_k for k = 0 … (longest run)/4 − 1: lag-k products within each run (a run shorter than k adds none),
     * about the pooled mean, over the pooled variance. The longest run sets the window, so that one replica
     * stopped early does not shorten it for all.
     */
    static double[] pooledAutocorrelation(List<double[]> runs, double mean, double variance) {
        int longest = 0;
        for (double[] r : runs) {
            longest = Math.max(longest, r.length);
        }
        int lags = Math.max(1, longest / 4);
        double[] rho = new double[lags];
        rho[0] = 1;
        if (variance <= 0) {
            return rho;
        }
        for (int k = 1; k < lags; k++) {
            double sum = 0;
            long count = 0;
            for (double[] r : runs) {
                for (int i = 0; i + k < r.length; i++) {
                    sum += (r[i] - mean) * (r[i + k] - mean);
                }
                count += Math.max(0, r.length - k);
            }
            rho[k] = count > 0 ? sum / count / variance : 0;
        }
        return rho;
    }

    /**
     * Integrated correlation time in samples, τ = −1/2 + Σ_m (ρ_2m + ρ_2m+1) over the initial run of positive
     * pair sums (Geyer 1992); at least 1/2 (uncorrelated samples).
     */
    static double initialPositiveSequenceTau(double[] rho) {
        double tau = -0.5;
        for (int m = 0; 2 * m + 1 < rho.length; m++) {
            double g = rho[2 * m] + rho[2 * m + 1];
            if (g <= 0) {
                break;
            }
            tau += g;
        }
        return Math.max(0.5, tau);
    }

    private static double[] concat(List<double[]> runs) {
        int n = 0;
        for (double[] r : runs) {
            n += r.length;
        }
        double[] all = new double[n];
        int at = 0;
        for (double[] r : runs) {
            System.arraycopy(r, 0, all, at, r.length);
            at += r.length;
        }
        return all;
    }

    private static double ratio(double deviation, double error) {
        if (error > 0) {
            return deviation / error;
        }
        return deviation == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, deviation);
    }
}
