package org.molten.validation.reports;

import java.util.List;
import java.util.Objects;

/**
 * Mean and spread of one figure over the replicas of a system, in the figure's unit.
 *
 * @param mean   the mean over the replicas that measured it
 * @param std    the sample standard deviation (n − 1), NaN for one replica
 * @param min    the smallest value
 * @param max    the largest value
 * @param n      how many replicas measured it
 */
public record Spread(double mean, double std, double min, double max, int n) {

    /** The spread of the non-null values (null when there are none). */
    public static Spread of(List<Double> values) {
        double[] v = values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).filter(Double::isFinite).toArray();
        if (v.length == 0) {
            return null;
        }
        double mean = java.util.Arrays.stream(v).average().orElse(Double.NaN);
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        return new Spread(mean, v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : Double.NaN,
                java.util.Arrays.stream(v).min().getAsDouble(), java.util.Arrays.stream(v).max().getAsDouble(), v.length);
    }
}
