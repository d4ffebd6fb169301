package org.molten.validation.observables;

import java.util.Arrays;

/**
 * Distances between two distributions of one observable.
 *
 * <ul>
 *   <li><b>Jensen–Shannon divergence</b> of two histograms on the same bins, base-2 logarithm, so
 *       it lies in [0, 1]: 0 for identical histograms, 1 for histograms with no occupied bin in
 *       common. JS(P, Q) = ½ KL(P‖M) + ½ KL(Q‖M) with M = ½(P + Q) (Lin, IEEE Trans. Inf. Theory
 *       37, 145 (1991)). <em>Empty bins</em>: a bin empty on one side contributes only through the
 *       other side's term (0·log 0 = 0); M is positive wherever either side is, so no smoothing or
 *       pseudo-count is needed and the value is never infinite. It depends on the binning and is
 *       biased upwards by finite samples (about (K − 1)/(4 N ln 2) for K occupied bins and N
 *       independent samples per side), which the thresholds account for.</li>
 *   <li><b>1-Wasserstein distance</b> (earth mover's distance) of two samples, exact:
 *       W1 = ∫ |F(x) − G(x)| dx over the two empirical distribution functions, in the unit of the
 *       observable. A shift of every value by d gives W1 = d. Independent of binning.</li>
 *   <li><b>Circular 1-Wasserstein distance</b> for angles on a circle of period L (dihedrals):
 *       the cost of moving mass along the shorter arc. W1 = min over α of ∫ |F − G − α| dθ,
 *       reached at α = a weighted median of F − G (Rabin, Delon, Gousseau, J. Math. Imaging Vis.
 *       41, 147 (2011)). A φ distribution around ±180° that the linear distance would see as
 *       split between the two ends of the axis is treated as the one basin it is.</li>
 * </ul>
 */
public final class Divergences {
    private Divergences() {}

    /**
     * Jensen–Shannon divergence, base 2, of two non-negative weight vectors on the same bins
     * (normalised here; counts or probabilities both work). Rounding is clamped into [0, 1].
     *
     * @throws IllegalArgumentException for different lengths, a negative or non-finite weight, or
     *                                  a side whose weights sum to zero
     */
    public static double jensenShannon(double[] p, double[] q) {
        if (p.length != q.length) {
            throw new IllegalArgumentException("Jensen-Shannon needs the same bins: " + p.length + " vs " + q.length);
        }
        double sp = sum(p, "first");
        double sq = sum(q, "second");
        double js = 0;
        for (int k = 0; k < p.length; k++) {
            double a = p[k] / sp;
            double b = q[k] / sq;
            double m = 0.5 * (a + b);
            if (a > 0) {
                js += 0.5 * a * Math.log(a / m);
            }
            if (b > 0) {
                js += 0.5 * b * Math.log(b / m);
            }
        }
        js /= Math.log(2);
        return Math.min(1.0, Math.max(0.0, js));
    }

    /** {@link #jensenShannon(double[], double[])} of two histograms with the same binning, outliers as extra bins. */
    public static double jensenShannon(Histogram p, Histogram q) {
        if (!p.sameBinning(q)) {
            throw new IllegalArgumentException("Jensen-Shannon needs the same binning: " + p + " vs " + q);
        }
        return jensenShannon(p.probabilitiesWithOutliers(), q.probabilitiesWithOutliers());
    }

    /**
     * Exact 1-Wasserstein distance between the empirical distributions of two samples (any
     * sizes), in their unit.
     *
     * @throws IllegalArgumentException for an empty sample or a non-finite value
     */
    public static double wasserstein1(double[] a, double[] b) {
        double[] x = sortedFinite(a, "first");
        double[] y = sortedFinite(b, "second");
        long n = x.length;
        long m = y.length;
        int i = 0;
        int j = 0;
        double prev = Math.min(x[0], y[0]);
        double w = 0;
        while (i < n || j < m) {
            double next = j >= m || (i < n && x[i] <= y[j]) ? x[i] : y[j];
            // |F - G| on [prev, next) with F = i/n, G = j/m, in integers to keep it exact.
            w += Math.abs(i * m - j * n) * (next - prev);
            prev = next;
            while (i < n && x[i] == next) {
                i++;
            }
            while (j < m && y[j] == next) {
                j++;
            }
        }
        return w / ((double) n * m);
    }

    /**
     * Exact 1-Wasserstein distance between two samples of an angle on a circle of period
     * {@code period} starting at {@code lower} (e.g. −180, 360 for dihedrals in degrees), the
     * cost being the shorter arc. Values outside [lower, lower + period) are wrapped in.
     *
     * @throws IllegalArgumentException for an empty sample, a non-finite value or a non-positive period
     */
    public static double circularWasserstein1(double[] a, double[] b, double lower, double period) {
        if (!(period > 0) || !Double.isFinite(period)) {
            throw new IllegalArgumentException("circle period is not strictly positive: " + period);
        }
        double[] x = wrapSorted(sortedFinite(a, "first"), lower, period);
        double[] y = wrapSorted(sortedFinite(b, "second"), lower, period);
        long n = x.length;
        long m = y.length;
        // Intervals between consecutive breakpoints with D = F - G on each (scaled by n·m).
        int cap = x.length + y.length + 2;
        double[] d = new double[cap];
        double[] len = new double[cap];
        int count = 0;
        int i = 0;
        int j = 0;
        double prev = lower;
        while (i < n || j < m) {
            double next = j >= m || (i < n && x[i] <= y[j]) ? x[i] : y[j];
            d[count] = i * m - j * n;
            len[count] = next - prev;
            count++;
            prev = next;
            while (i < n && x[i] == next) {
                i++;
            }
            while (j < m && y[j] == next) {
                j++;
            }
        }
        d[count] = 0;                        // F = G = 1 from the last value to the end of the circle
        len[count] = lower + period - prev;
        count++;
        double alpha = weightedMedian(Arrays.copyOf(d, count), Arrays.copyOf(len, count));
        double w = 0;
        for (int k = 0; k < count; k++) {
            w += Math.abs(d[k] - alpha) * len[k];
        }
        return w / ((double) n * m);
    }

    private static double weightedMedian(double[] values, double[] weights) {
        Integer[] order = new Integer[values.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (p, q) -> Double.compare(values[p], values[q]));
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double acc = 0;
        for (int k : order) {
            acc += weights[k];
            if (acc >= 0.5 * total) {
                return values[k];
            }
        }
        return values[order[order.length - 1]];
    }

    private static double[] wrapSorted(double[] v, double lower, double period) {
        double[] w = new double[v.length];
        for (int k = 0; k < v.length; k++) {
            double u = v[k] - lower;
            u -= period * Math.floor(u / period);
            w[k] = lower + (u >= period ? 0 : u);
        }
        Arrays.sort(w);
        return w;
    }

    private static double[] sortedFinite(double[] v, String which) {
        if (v.length == 0) {
            throw new IllegalArgumentException("Wasserstein distance needs samples: the " + which + " sample is empty");
        }
        double[] s = v.clone();
        for (double x : s) {
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException("the " + which + " sample holds a non-finite value: " + x);
            }
        }
        Arrays.sort(s);
        return s;
    }

    private static double sum(double[] p, String which) {
        double s = 0;
        for (double x : p) {
            if (!(x >= 0) || !Double.isFinite(x)) {
                throw new IllegalArgumentException("the " + which + " distribution has a negative or non-finite weight: " + x);
            }
            s += x;
        }
        if (!(s > 0)) {
            throw new IllegalArgumentException("the " + which + " distribution is empty (weights sum to 0)");
        }
        return s;
    }
}
