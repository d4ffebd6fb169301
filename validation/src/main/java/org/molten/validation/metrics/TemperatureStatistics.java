package org.molten.validation.metrics;

import org.molten.core.Checks;

/**
 * Mean and fluctuation of the instantaneous temperature of a run against a target, with
 * block-averaged standard errors ({@link BlockAverage}) so that correlated samples are not
 * counted as independent.
 *
 * @param meanK                  mean instantaneous temperature (K)
 * @param meanStandardErrorK     block-averaged standard error of that mean (K)
 * @param targetK                target (thermostat) temperature (K)
 * @param meanDeviationSigmas    (meanK - targetK) / meanStandardErrorK: how many standard errors
 *                               the mean lies from the target
 * @param sigmaK                 observed standard deviation of T_inst (K), corrected for the
 *                               variance of the sample mean (SE²) that deviations from it lose
 * @param sigmaStandardErrorK    standard error of sigmaK (block averaging of (T - mean)², delta method)
 * @param canonicalSigmaK        canonical expectation T sqrt(2/dof) (K)
 * @param sigmaRatio             sigmaK / canonicalSigmaK (1 in the canonical ensemble)
 * @param sigmaDeviationSigmas   (sigmaK - canonicalSigmaK) / sigmaStandardErrorK
 * @param degreesOfFreedom       dof used for T_inst and for the canonical expectation
 * @param meanBlocks             blocks behind meanStandardErrorK
 * @param sigmaBlocks            blocks behind sigmaStandardErrorK
 * @param errorReliable          false when the series was too short for a reliable error estimate
 */
public record TemperatureStatistics(
        double meanK, double meanStandardErrorK, double targetK, double meanDeviationSigmas,
        double sigmaK, double sigmaStandardErrorK, double canonicalSigmaK, double sigmaRatio,
        double sigmaDeviationSigmas, int degreesOfFreedom, int meanBlocks, int sigmaBlocks, boolean errorReliable) {

    /**
     * Statistics of {@code temperatureK} (instantaneous temperatures computed with
     * {@code degreesOfFreedom}) against {@code targetK}.
     */
    public static TemperatureStatistics of(double[] temperatureK, double targetK, int degreesOfFreedom) {
        Checks.requirePositive(targetK, "targetK");
        Checks.requirePositive(degreesOfFreedom, "degreesOfFreedom");
        BlockAverage mean = BlockAverage.of(temperatureK);
        double[] sq = new double[temperatureK.length];
        for (int i = 0; i < sq.length; i++) {
            double d = temperatureK[i] - mean.mean();
            sq[i] = d * d;
        }
        BlockAverage var = BlockAverage.of(sq);
        // Deviations from the sample mean understate the variance by exactly Var(mean):
        // E[(1/n) Σ (T - mean)²] = σ² - Var(mean). For a correlated series Var(mean) is not σ²/n
        // but the block-averaged SE², which is added back.
        double sigma = Math.sqrt(var.mean() + mean.standardError() * mean.standardError());
        double sigmaSe = sigma > 0 ? var.standardError() / (2 * sigma) : 0;
        double expected = CanonicalExpectation.temperatureSigmaK(targetK, degreesOfFreedom);
        return new TemperatureStatistics(mean.mean(), mean.standardError(), targetK,
                ratio(mean.mean() - targetK, mean.standardError()), sigma, sigmaSe, expected, sigma / expected,
                ratio(sigma - expected, sigmaSe), degreesOfFreedom, mean.blocks(), var.blocks(),
                mean.reliable() && var.reliable());
    }

    private static double ratio(double deviation, double error) {
        if (error > 0) {
            return deviation / error;
        }
        return deviation == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, deviation);
    }
}
