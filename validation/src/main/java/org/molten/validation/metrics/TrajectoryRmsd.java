package org.molten.validation.metrics;

import org.molten.core.Cell;

/**
 * Root-mean-square deviation between two configurations of the same atoms, without fitting
 * (both trajectories start from one state in one frame, so a rigid-body fit would hide real
 * divergence): RMSD = sqrt( (1/N) Σ_i |r_i^a - r_i^b|² ) in Å. Under a periodic cell each
 * difference is taken as its minimum image.
 */
public final class TrajectoryRmsd {
    private TrajectoryRmsd() {}

    /**
     * RMSD in Å between flat position arrays {@code a} and {@code b} (Å, length 3N).
     *
     * @param cell the periodic cell or null
     * @throws IllegalArgumentException for arrays of different or non-multiple-of-3 length
     */
    public static double rmsdA(double[] a, double[] b, Cell cell) {
        if (a.length != b.length || a.length % 3 != 0 || a.length == 0) {
            throw new IllegalArgumentException("position arrays must have the same length 3N > 0: " + a.length + " vs " + b.length);
        }
        double[] d = new double[3];
        double s = 0;
        for (int i = 0; i < a.length; i += 3) {
            d[0] = a[i] - b[i];
            d[1] = a[i + 1] - b[i + 1];
            d[2] = a[i + 2] - b[i + 2];
            if (cell != null) {
                cell.minimumImage(d);
            }
            s += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        }
        return Math.sqrt(s / (a.length / 3));
    }
}
