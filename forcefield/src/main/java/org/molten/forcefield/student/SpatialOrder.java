package org.molten.forcefield.student;

import org.molten.core.Atoms;
import org.molten.core.Cell;

import java.util.Arrays;

/**
 * A processing order of the atoms along a Morton (Z-order) curve through a grid of cells about
 * half a cutoff wide, so that atoms that interact are also close in memory: the per-atom rows
 * the pair loops read and accumulate into then stay in cache. The order is a permutation of
 * processing only; results are returned in the caller's atom order. Keeps only the order (4 bytes an
 * atom): the sort keys (8 bytes an atom) live for one computation (once per force call, so that the
 * order depends only on the positions: bit-for-bit restarts) and the binning
 * coordinates are computed again for the keys instead of being stored (issue 19: 32 bytes an atom).
 */
final class SpatialOrder {
    private static final int BITS = 10;                 // up to 1024 cells per axis
    private int[] order = new int[0];                   // internal position -> atom index
    private final double[] f = new double[3];
    private final double[] lo = new double[3];
    private final double[] hi = new double[3];
    private final int[] cells = new int[3];
    private final double[] width = new double[3];

    /**
     * Recomputes the order for the current positions.
     *
     * @param cellWidthA the grid spacing, Å
     * @return the order: element k is the atom processed k-th (valid up to atoms.size())
     */
    int[] compute(Atoms atoms, double cellWidthA) {
        int n = atoms.size();
        if (order.length < n) {
            order = new int[n];
        }
        double[] r = atoms.positions();
        Cell cell = atoms.cellOrNull();
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < n; i++) {
            binning(r, cell, i);
            for (int k = 0; k < 3; k++) {
                lo[k] = Math.min(lo[k], f[k]);
                hi[k] = Math.max(hi[k], f[k]);
            }
        }
        for (int k = 0; k < 3; k++) {
            double extentA = cell == null ? hi[k] - lo[k] : (hi[k] - lo[k]) * cell.perpendicularWidth(k);
            cells[k] = (int) Math.min(1 << BITS, Math.max(1, Math.floor(extentA / cellWidthA)));
            width[k] = Math.max(hi[k] - lo[k], 1e-300) / cells[k];
        }
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            binning(r, cell, i);
            long code = 0;
            for (int k = 0; k < 3; k++) {
                int c = (int) Math.min(cells[k] - 1, Math.max(0, (f[k] - lo[k]) / width[k]));
                code |= spread(c) << k;
            }
            keys[i] = (code << 21) | i;
        }
        Arrays.sort(keys, 0, n);
        for (int k = 0; k < n; k++) {
            order[k] = (int) (keys[k] & ((1 << 21) - 1));
        }
        return order;
    }

    /** Atom i's binning coordinates into f: fractional (wrapped on periodic axes) or Cartesian (Å). */
    private void binning(double[] r, Cell cell, int i) {
        if (cell != null) {
            cell.toFractional(r[3 * i], r[3 * i + 1], r[3 * i + 2], f);
            for (int k = 0; k < 3; k++) {
                if (cell.periodic(k)) {
                    f[k] -= Math.floor(f[k]);
                }
            }
        } else {
            f[0] = r[3 * i];
            f[1] = r[3 * i + 1];
            f[2] = r[3 * i + 2];
        }
    }

    /** Bits b of x to positions 3b (Morton interleave of one axis). */
    private static long spread(int x) {
        long v = 0;
        for (int b = 0; b < BITS; b++) {
            v |= (long) ((x >> b) & 1) << (3 * b);
        }
        return v;
    }
}
