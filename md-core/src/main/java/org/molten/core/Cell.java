package org.molten.core;

import java.util.Arrays;

/**
 * A simulation cell: three lattice vectors (rows a, b, c, in Å) and a periodic flag per axis.
 * Immutable. Orthorhombic cells take a fast path; general triclinic cells wrap through
 * fractional coordinates and then search the 27 neighbouring images, which gives the true
 * minimum image for any cell whose cutoff is below half its shortest perpendicular width.
 */
public final class Cell {
    private final double[][] h;      // rows are lattice vectors, Å
    private final double[][] hInv;   // inverse of h (fractional = r · hInv), 1/Å
    private final boolean[] pbc;
    private final boolean orthorhombic;

    private Cell(double[][] h, boolean[] pbc) {
        this.h = new double[3][3];
        for (int i = 0; i < 3; i++) {
            this.h[i] = h[i].clone();
        }
        this.pbc = pbc.clone();
        boolean ortho = true;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                Checks.requireFinite(h[i][j], "lattice vector component [" + i + "][" + j + "]");
                if (i != j && h[i][j] != 0.0) {
                    ortho = false;
                }
            }
        }
        this.orthorhombic = ortho;
        double det = det(this.h);
        if (!(Math.abs(det) > 1e-9)) {
            throw new IllegalArgumentException("cell lattice vectors are degenerate (volume "
                    + det + " Å^3): " + Arrays.deepToString(h));
        }
        this.hInv = invert(this.h, det);
    }

    /** An orthorhombic cell with edge lengths in Å, periodic along every axis. */
    public static Cell orthorhombic(double aA, double bA, double cA) {
        Checks.requirePositive(aA, "cell length a_A");
        Checks.requirePositive(bA, "cell length b_A");
        Checks.requirePositive(cA, "cell length c_A");
        return new Cell(new double[][] {{aA, 0, 0}, {0, bA, 0}, {0, 0, cA}}, new boolean[] {true, true, true});
    }

    /** A cell from lattice vectors (rows, Å) and periodic flags per axis. */
    public static Cell of(double[][] latticeVectorsA, boolean[] pbc) {
        if (latticeVectorsA.length != 3 || pbc.length != 3) {
            throw new IllegalArgumentException("a cell needs 3 lattice vectors and 3 pbc flags");
        }
        for (double[] row : latticeVectorsA) {
            if (row.length != 3) {
                throw new IllegalArgumentException("each lattice vector needs 3 components");
            }
        }
        return new Cell(latticeVectorsA, pbc);
    }

    /** Lattice vector {@code i} (0 = a, 1 = b, 2 = c), a copy, Å. */
    public double[] vector(int i) {
        return h[i].clone();
    }

    /** All three lattice vectors as rows, a copy, Å. */
    public double[][] matrix() {
        double[][] m = new double[3][];
        for (int i = 0; i < 3; i++) {
            m[i] = h[i].clone();
        }
        return m;
    }

    /** Inverse of the lattice matrix (fractional = r · inverse), a copy, 1/Å. */
    public double[][] inverseMatrix() {
        double[][] m = new double[3][];
        for (int i = 0; i < 3; i++) {
            m[i] = hInv[i].clone();
        }
        return m;
    }

    /** Whether axis {@code i} is periodic. */
    public boolean periodic(int i) {
        return pbc[i];
    }

    /** The three periodic flags, a copy. */
    public boolean[] pbc() {
        return pbc.clone();
    }

    /** True when any axis is periodic. */
    public boolean anyPeriodic() {
        return pbc[0] || pbc[1] || pbc[2];
    }

    /** True when the lattice vectors are along x, y, z. */
    public boolean isOrthorhombic() {
        return orthorhombic;
    }

    /** Volume in Å³. */
    public double volume() {
        return Math.abs(det(h));
    }

    /**
     * Perpendicular width along lattice direction {@code i} in Å: the distance between the two
     * faces of the cell spanned by the other two vectors. A cutoff must stay below half the
     * smallest periodic width for a single minimum image to be exact.
     */
    public double perpendicularWidth(int i) {
        double[] a = h[(i + 1) % 3];
        double[] b = h[(i + 2) % 3];
        double[] n = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
        double nn = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        return volume() / nn;
    }

    /** Smallest perpendicular width over the periodic axes, Å (infinity if none is periodic). */
    public double minPeriodicWidth() {
        double w = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            if (pbc[i]) {
                w = Math.min(w, perpendicularWidth(i));
            }
        }
        return w;
    }

    /** Fractional coordinates of a Cartesian point (Å) into {@code out}. */
    public void toFractional(double x, double y, double z, double[] out) {
        for (int j = 0; j < 3; j++) {
            out[j] = x * hInv[0][j] + y * hInv[1][j] + z * hInv[2][j];
        }
    }

    /** Cartesian point (Å) of fractional coordinates into {@code out}. */
    public void toCartesian(double fa, double fb, double fc, double[] out) {
        for (int j = 0; j < 3; j++) {
            out[j] = fa * h[0][j] + fb * h[1][j] + fc * h[2][j];
        }
    }

    /**
     * Replaces the displacement {@code d} (Å, length 3, in place) by its minimum image under
     * the periodic axes. Non-periodic axes are left alone.
     */
    public void minimumImage(double[] d) {
        if (orthorhombic) {
            for (int k = 0; k < 3; k++) {
                if (pbc[k]) {
                    double l = h[k][k];
                    d[k] -= l * Math.rint(d[k] / l);
                }
            }
            return;
        }
        double[] f = new double[3];
        toFractional(d[0], d[1], d[2], f);
        for (int k = 0; k < 3; k++) {
            if (pbc[k]) {
                f[k] -= Math.rint(f[k]);
            }
        }
        double[] base = new double[3];
        toCartesian(f[0], f[1], f[2], base);
        double best = Double.POSITIVE_INFINITY;
        double bx = base[0], by = base[1], bz = base[2];
        int ra = pbc[0] ? 1 : 0, rb = pbc[1] ? 1 : 0, rc = pbc[2] ? 1 : 0;
        for (int i = -ra; i <= ra; i++) {
            for (int j = -rb; j <= rb; j++) {
                for (int k = -rc; k <= rc; k++) {
                    double x = base[0] + i * h[0][0] + j * h[1][0] + k * h[2][0];
                    double y = base[1] + i * h[0][1] + j * h[1][1] + k * h[2][1];
                    double z = base[2] + i * h[0][2] + j * h[1][2] + k * h[2][2];
                    double r2 = x * x + y * y + z * z;
                    if (r2 < best) {
                        best = r2;
                        bx = x;
                        by = y;
                        bz = z;
                    }
                }
            }
        }
        d[0] = bx;
        d[1] = by;
        d[2] = bz;
    }

    /** Wraps a Cartesian position (Å, in place) into the cell along the periodic axes. */
    public void wrap(double[] r) {
        double[] f = new double[3];
        toFractional(r[0], r[1], r[2], f);
        for (int k = 0; k < 3; k++) {
            if (pbc[k]) {
                f[k] -= Math.floor(f[k]);
                if (f[k] >= 1.0) {
                    f[k] = 0.0; // -1e-17 - floor(-1e-17) rounds to exactly 1: keep [0, 1)
                }
            }
        }
        toCartesian(f[0], f[1], f[2], r);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cell c && Arrays.deepEquals(h, c.h) && Arrays.equals(pbc, c.pbc);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(h) * 31 + Arrays.hashCode(pbc);
    }

    @Override
    public String toString() {
        return "Cell" + Arrays.deepToString(h) + " pbc=" + Arrays.toString(pbc);
    }

    private static double det(double[][] m) {
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    }

    private static double[][] invert(double[][] m, double det) {
        double[][] r = new double[3][3];
        r[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) / det;
        r[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
        r[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
        r[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) / det;
        r[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
        r[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
        r[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) / det;
        r[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
        r[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
        return r;
    }
}
