package org.molten.bench;

import java.util.Arrays;

/**
 * Mean, median, standard deviation (n − 1), minimum and maximum of timed samples, in µs per call
 * or per MD step, after warm-up.
 *
 * @param samples  number of samples
 * @param meanUs   mean, µs
 * @param medianUs median, µs
 * @param sdUs     sample standard deviation, µs (0 for one sample)
 * @param minUs    fastest, µs
 * @param maxUs    slowest, µs
 */
public record SampleStats(int samples, double meanUs, double medianUs, double sdUs, double minUs, double maxUs) {

    /** Statistics of the first {@code count} values of {@code us} (at least one). */
    public static SampleStats of(double[] us, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("no timed samples");
        }
        double[] s = Arrays.copyOf(us, count);
        Arrays.sort(s);
        double mean = 0;
        for (double v : s) {
            mean += v;
        }
        mean /= count;
        double ss = 0;
        for (double v : s) {
            ss += (v - mean) * (v - mean);
        }
        double sd = count > 1 ? Math.sqrt(ss / (count - 1)) : 0.0;
        return new SampleStats(count, mean, LatencyStats.quantile(s, 0.5), sd, s[0], s[count - 1]);
    }
}
