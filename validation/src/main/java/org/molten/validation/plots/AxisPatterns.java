package org.molten.validation.plots;

/**
 * Decimal patterns for tick labels so that every label of an axis has the same number of
 * decimals ("0.00 0.05 0.10", never "0 .05 .1"): enough decimals for a step of about a fifth of
 * the axis range, scientific notation for ranges far from 1.
 */
final class AxisPatterns {
    private AxisPatterns() {}

    /** The pattern for an axis spanning {@code min} to {@code max}. */
    static String forRange(double min, double max) {
        double span = Math.abs(max - min);
        double magnitude = Math.max(Math.abs(min), Math.abs(max));
        if (!Double.isFinite(span) || span == 0) {
            return magnitude == 0 || !Double.isFinite(magnitude) ? "0.0" : forRange(min - 0.1 * magnitude, max + 0.1 * magnitude);
        }
        double step = span / 5;
        if (step < 1e-4 || magnitude >= 1e6) {
            return "0.0##E0";
        }
        int decimals = (int) Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
        return decimals == 0 ? "0" : "0." + "0".repeat(decimals);
    }

    /** The pattern for all finite values of {@code series} together. */
    static String forValues(double[]... series) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double[] s : series) {
            for (double v : s) {
                if (Double.isFinite(v)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        return min > max ? "0.0" : forRange(min, max);
    }
}
