package org.molten.validation.observables;

import java.util.Arrays;

/**
 * A fixed-range histogram of one observable: {@code bins} equal bins of width
 * {@link #binWidth()} from {@link #lower()} to {@link #upper()} in the observable's unit.
 * A linear histogram counts values below and above its range in an underflow and an overflow
 * bin, so no sample is silently lost (a broken bond lands in the overflow and is seen by the
 * divergence); a periodic one (dihedrals) wraps every value into its range. Two histograms with
 * the same range and bin width are comparable bin by bin ({@link #sameBinning}).
 */
public final class Histogram {
    private final double lower;
    private final double binWidth;
    private final int bins;
    private final boolean periodic;
    private final long[] counts;
    private long underflow;
    private long overflow;

    private Histogram(double lower, double binWidth, int bins, boolean periodic) {
        this.lower = lower;
        this.binWidth = binWidth;
        this.bins = bins;
        this.periodic = periodic;
        this.counts = new long[bins];
    }

    /**
     * An empty histogram of {@code bins} bins of width {@code binWidth} from {@code lower}.
     *
     * @param periodic wrap values modulo the range (dihedrals) instead of counting them outside
     * @throws IllegalArgumentException for a non-positive or non-finite width or bin count
     */
    public static Histogram of(double lower, double binWidth, int bins, boolean periodic) {
        if (!Double.isFinite(lower)) {
            throw new IllegalArgumentException("histogram lower edge is not finite: " + lower);
        }
        if (!(binWidth > 0) || !Double.isFinite(binWidth)) {
            throw new IllegalArgumentException("histogram bin width is not strictly positive: " + binWidth);
        }
        if (bins < 1) {
            throw new IllegalArgumentException("histogram needs at least one bin: " + bins);
        }
        return new Histogram(lower, binWidth, bins, periodic);
    }

    /**
     * Counts {@code value}.
     *
     * @throws IllegalArgumentException for NaN (no bin holds it; the caller names the frame)
     */
    public void add(double value) {
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException("NaN cannot be counted in " + this);
        }
        double u = (value - lower) / binWidth;
        if (periodic) {
            u = u - bins * Math.floor(u / bins);
            int k = (int) u;
            counts[k >= bins ? bins - 1 : k]++;
            return;
        }
        if (u < 0) {
            underflow++;
        } else if (!(u < bins)) {
            overflow++;
        } else {
            counts[(int) u]++;
        }
    }

    /** Adds the counts of {@code other}, which must have the same binning. */
    public void addAll(Histogram other) {
        if (!sameBinning(other)) {
            throw new IllegalArgumentException("histograms with different binning cannot be merged: " + this + " vs " + other);
        }
        for (int k = 0; k < bins; k++) {
            counts[k] += other.counts[k];
        }
        underflow += other.underflow;
        overflow += other.overflow;
    }

    /** True when both have the same range, bin width and periodicity. */
    public boolean sameBinning(Histogram o) {
        return lower == o.lower && binWidth == o.binWidth && bins == o.bins && periodic == o.periodic;
    }

    /** A copy with the same counts. */
    public Histogram copy() {
        Histogram h = new Histogram(lower, binWidth, bins, periodic);
        System.arraycopy(counts, 0, h.counts, 0, bins);
        h.underflow = underflow;
        h.overflow = overflow;
        return h;
    }

    /** Lower edge of the first bin, in the observable's unit. */
    public double lower() {
        return lower;
    }

    /** Upper edge of the last bin. */
    public double upper() {
        return lower + bins * binWidth;
    }

    /** Bin width. */
    public double binWidth() {
        return binWidth;
    }

    /** Number of bins in range. */
    public int bins() {
        return bins;
    }

    /** Whether values wrap modulo the range. */
    public boolean periodic() {
        return periodic;
    }

    /** Centre of bin {@code k}. */
    public double centre(int k) {
        return lower + (k + 0.5) * binWidth;
    }

    /** The in-range counts, a copy. */
    public long[] counts() {
        return counts.clone();
    }

    /** Values below the range (always 0 when periodic). */
    public long underflow() {
        return underflow;
    }

    /** Values at or above the upper edge (always 0 when periodic). */
    public long overflow() {
        return overflow;
    }

    /** Every value counted, in range or not. */
    public long total() {
        return Arrays.stream(counts).sum() + underflow + overflow;
    }

    /**
     * The probability density per bin (1/unit): count / (total × bin width), where the total
     * includes the values outside the range (so the densities integrate to the in-range
     * fraction). All zero when empty.
     */
    public double[] density() {
        long n = total();
        double[] d = new double[bins];
        if (n == 0) {
            return d;
        }
        for (int k = 0; k < bins; k++) {
            d[k] = counts[k] / (n * binWidth);
        }
        return d;
    }

    /**
     * The probabilities of the bins the divergence compares: the in-range bins, then (linear
     * histograms only) underflow and overflow. Sums to 1; all zero when empty.
     */
    public double[] probabilitiesWithOutliers() {
        int extra = periodic ? 0 : 2;
        double[] p = new double[bins + extra];
        long n = total();
        if (n == 0) {
            return p;
        }
        for (int k = 0; k < bins; k++) {
            p[k] = counts[k] / (double) n;
        }
        if (!periodic) {
            p[bins] = underflow / (double) n;
            p[bins + 1] = overflow / (double) n;
        }
        return p;
    }

    @Override
    public String toString() {
        return "Histogram[" + lower + ", " + upper() + ") width " + binWidth + (periodic ? " periodic" : "") + ", n=" + total();
    }
}
