package org.molten.forcefield.neighbours;

import org.molten.core.Cell;

/**
 * Allocation-free minimum-image displacements for the radius searches. Orthorhombic cells use
 * d_k -= L_k rint(d_k / L_k) (the same arithmetic as {@link Cell#minimumImage}); triclinic cells
 * subtract the lattice translation that brings every periodic fractional component into
 * [-1/2, 1/2]. When the cutoff is at most half the shortest perpendicular width, an image closer
 * than the cutoff has all periodic fractional components inside (-1/2, 1/2), so this reduced
 * vector is the only candidate and the edge sets equal those of {@link Cell#minimumImage}.
 */
final class MinimumImage {
    private final boolean periodic;
    private final boolean orthorhombic;
    private final boolean[] pbc;
    private final double[][] h;      // lattice vectors as rows, Å
    private final double[][] hInv;   // fractional = r · hInv
    private final double lx;
    private final double ly;
    private final double lz;

    MinimumImage(Cell cell) {
        this.periodic = cell != null && cell.anyPeriodic();
        this.pbc = cell == null ? new boolean[3] : cell.pbc();
        this.orthorhombic = cell == null || cell.isOrthorhombic();
        this.h = cell == null ? identity() : cell.matrix();
        this.hInv = cell == null ? identity() : cell.inverseMatrix();
        this.lx = h[0][0];
        this.ly = h[1][1];
        this.lz = h[2][2];
    }

    /** Whether any axis is periodic. */
    boolean periodic() {
        return periodic;
    }

    /** Lattice vectors (rows, Å); the identity when there is no cell. */
    double[][] lattice() {
        return h;
    }

    /** Inverse lattice: fractional coordinate k of r is sum_a r_a hInv[a][k]. */
    double[][] inverseLattice() {
        return hInv;
    }

    /** Periodic flag of axis k (false everywhere without a cell). */
    boolean periodic(int k) {
        return pbc[k];
    }

    /** Reduces {@code d} (length 3, offset {@code o}) to its minimum image in place. */
    void apply(double[] d, int o) {
        if (!periodic) {
            return;
        }
        if (orthorhombic) {
            if (pbc[0]) {
                d[o] -= lx * Math.rint(d[o] / lx);
            }
            if (pbc[1]) {
                d[o + 1] -= ly * Math.rint(d[o + 1] / ly);
            }
            if (pbc[2]) {
                d[o + 2] -= lz * Math.rint(d[o + 2] / lz);
            }
            return;
        }
        double x = d[o];
        double y = d[o + 1];
        double z = d[o + 2];
        for (int k = 0; k < 3; k++) {
            if (pbc[k]) {
                double n = Math.rint(x * hInv[0][k] + y * hInv[1][k] + z * hInv[2][k]);
                if (n != 0.0) {
                    d[o] -= n * h[k][0];
                    d[o + 1] -= n * h[k][1];
                    d[o + 2] -= n * h[k][2];
                }
            }
        }
    }

    /**
     * r_ij = r_j - r_i (positions {@code r}, flat [3N], Å) reduced to its minimum image, into
     * {@code d[0..2]}; returns |r_ij| (Å). The one arithmetic of the searches' edges, so that an
     * {@link EdgeList} that keeps no geometry recomputes the same bits.
     */
    double measure(double[] r, int i, int j, double[] d) {
        d[0] = r[3 * j] - r[3 * i];
        d[1] = r[3 * j + 1] - r[3 * i + 1];
        d[2] = r[3 * j + 2] - r[3 * i + 2];
        apply(d, 0);
        return Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }

    private static double[][] identity() {
        return new double[][]{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    }

}
