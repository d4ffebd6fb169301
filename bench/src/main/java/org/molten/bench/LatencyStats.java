package org.molten.bench;

import java.util.Arrays;

/**
 * Median and spread of a set of latencies, in µs. Quantiles by linear interpolation between
 * order statistics (type 7, as NumPy's default).
 *
 * @param calls    number of timed calls
 * @param medianUs median, µs
 * @param p25Us    first quartile, µs
 * @param p75Us    third quartile, µs
 * @param minUs    fastest call, µs
 * @param maxUs    slowest call, µs
 */
public record LatencyStats(int calls, double medianUs, double p25Us, double p75Us, double minUs, double maxUs) {

    /** Statistics of {@code nanos} (at least one value). */
    public static LatencyStats ofNanos(long[] nanos, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("no timed calls");
        }
        double[] us = new double[count];
        for (int i = 0; i < count; i++) {
            us[i] = nanos[i] / 1e3;
        }
        Arrays.sort(us);
        return new LatencyStats(count, quantile(us, 0.5), quantile(us, 0.25), quantile(us, 0.75), us[0], us[count - 1]);
    }

    /** Quantile q of sorted values. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }
}
