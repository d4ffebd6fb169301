package org.molten.validation.observables;

/**
 * g(r) from a histogram of pair distances: count in the shell [r, r + Δr) divided by the count
 * an ideal gas of the same pair density would put there, Σ_frames N_pairs/V × 4π/3((r + Δr)³ − r³).
 */
final class RadialNormalisation {
    private RadialNormalisation() {}

    /**
     * @param pairDistances   histogram of pair distances from 0, Å
     * @param pairDensitySum  Σ over frames of pairs per volume, 1/Å³
     */
    static double[] gOfR(Histogram pairDistances, double pairDensitySum) {
        long[] counts = pairDistances.counts();
        double[] g = new double[counts.length];
        if (!(pairDensitySum > 0)) {
            return g;
        }
        for (int k = 0; k < counts.length; k++) {
            double r0 = pairDistances.lower() + k * pairDistances.binWidth();
            double r1 = r0 + pairDistances.binWidth();
            double shell = 4.0 * Math.PI / 3.0 * (r1 * r1 * r1 - r0 * r0 * r0);
            g[k] = counts[k] / (pairDensitySum * shell);
        }
        return g;
    }
}
