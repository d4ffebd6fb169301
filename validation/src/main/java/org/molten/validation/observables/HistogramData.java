package org.molten.validation.observables;

/**
 * A histogram as reports and plots use it: the binning, the raw counts, and the values to draw
 * per bin — the probability density in 1/unit, or g(r) (dimensionless) for a periodic O–O
 * radial distribution.
 *
 * @param lower      lower edge of the first bin, in {@code unit}
 * @param binWidth   bin width, in {@code unit}
 * @param counts     values counted per bin
 * @param underflow  values below the range
 * @param overflow   values at or above the range
 * @param values     what to draw per bin, see {@code valueLabel}
 * @param unit       unit of the axis ("Å", "deg")
 * @param valueLabel what {@code values} is, with its unit ("probability density [1/Å]", "g(r)")
 */
public record HistogramData(double lower, double binWidth, long[] counts, long underflow, long overflow, double[] values,
                            String unit, String valueLabel) {
    /** The histogram of {@code o} in {@code acc}: density, or g(r) for a periodic O–O g(r). */
    public static HistogramData of(ObservableAccumulator acc, Observable o) {
        Histogram h = acc.histogram(o);
        boolean rdf = o.kind() == ObservableKind.OO_RADIAL_DISTRIBUTION;
        double[] v = rdf ? acc.radialDistribution(o) : h.density();
        String label = rdf ? "g(r)" : "probability density [1/" + o.unit() + "]";
        return new HistogramData(h.lower(), h.binWidth(), h.counts(), h.underflow(), h.overflow(), v, o.unit(), label);
    }

    /** Centre of every bin, in {@link #unit()}. */
    public double[] centres() {
        double[] c = new double[counts.length];
        for (int k = 0; k < c.length; k++) {
            c[k] = lower + (k + 0.5) * binWidth;
        }
        return c;
    }
}
