package org.molten.validation.metrics;

/** Plain moments of a series (two-pass, so large offsets such as total energies lose no digits). */
public final class SeriesStatistics {
    private SeriesStatistics() {}

    /** Arithmetic mean; NaN for an empty series. */
    public static double mean(double[] x) {
        if (x.length == 0) {
            return Double.NaN;
        }
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    /** Population variance (divides by n, the maximum-likelihood estimate); NaN for an empty series. */
    public static double variance(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            double d = v - m;
            s += d * d;
        }
        return s / x.length;
    }

    /** Sample standard deviation (divides by n - 1); 0 for a single value, NaN for none. */
    public static double standardDeviation(double[] x) {
        if (x.length < 2) {
            return x.length == 1 ? 0 : Double.NaN;
        }
        return Math.sqrt(variance(x) * x.length / (x.length - 1));
    }

    /** Largest |x_i - reference|. */
    public static double maxAbsDeviation(double[] x, double reference) {
        double m = 0;
        for (double v : x) {
            m = Math.max(m, Math.abs(v - reference));
        }
        return m;
    }
}
