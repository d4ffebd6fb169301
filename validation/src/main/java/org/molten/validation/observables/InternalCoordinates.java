package org.molten.validation.observables;

import org.molten.core.Cell;

/**
 * Distances (Å), bond angles (degrees, [0, 180]) and dihedral angles (degrees, (−180, 180]) of
 * atoms in a flat position array {@code [x0, y0, z0, x1, ...]} in Å. Every bond vector goes
 * through the minimum image of {@code cell} when one is given (null: isolated), so a molecule
 * that straddles a periodic boundary measures as if whole.
 *
 * <p>Dihedral sign convention (IUPAC, Pure Appl. Chem. 68, 2193 (1996)): looking along the
 * central bond from b to c, the dihedral a–b–c–d is positive when the bond b→a must be rotated
 * clockwise (by less than 180°) to eclipse the bond c→d. Computed with {@code atan2} of the
 * Blondel–Karplus form (J. Comput. Chem. 17, 1132 (1996)), stable near 0° and 180°.
 */
public final class InternalCoordinates {
    private InternalCoordinates() {}

    /** Distance between atoms i and j, Å. */
    public static double distance(double[] positionsA, Cell cell, int i, int j) {
        double[] d = vector(positionsA, cell, i, j);
        return Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }

    /** Angle i–j–k at the central atom j, degrees in [0, 180]. */
    public static double angle(double[] positionsA, Cell cell, int i, int j, int k) {
        double[] u = vector(positionsA, cell, j, i);
        double[] v = vector(positionsA, cell, j, k);
        double[] c = cross(u, v);
        // atan2(|u×v|, u·v) keeps full precision near 0° and 180°, where acos does not.
        return Math.toDegrees(Math.atan2(norm(c), dot(u, v)));
    }

    /**
     * Dihedral a–b–c–d, degrees in (−180, 180], IUPAC sign (see the class comment).
     *
     * @throws IllegalArgumentException when three of the atoms are collinear (undefined dihedral)
     */
    public static double dihedral(double[] positionsA, Cell cell, int a, int b, int c, int d) {
        double[] b1 = vector(positionsA, cell, a, b);
        double[] b2 = vector(positionsA, cell, b, c);
        double[] b3 = vector(positionsA, cell, c, d);
        double[] n1 = cross(b1, b2);
        double[] n2 = cross(b2, b3);
        double b2len = norm(b2);
        if (!(norm(n1) > 1e-12 * b2len * norm(b1)) || !(norm(n2) > 1e-12 * b2len * norm(b3))) {
            throw new IllegalArgumentException("dihedral " + a + "-" + b + "-" + c + "-" + d
                    + " is undefined: three of its atoms are collinear");
        }
        // y = |b2| b1·n2 = b̂2·(n1 × n2): positive for a right-handed turn about b→c (IUPAC).
        double y = dot(cross(n1, n2), b2) / b2len;
        double x = dot(n1, n2);
        double phi = Math.toDegrees(Math.atan2(y, x));
        return phi == -180.0 ? 180.0 : phi;
    }

    /** The vector from atom i to atom j (minimum image under {@code cell}), Å. */
    static double[] vector(double[] positionsA, Cell cell, int i, int j) {
        double[] d = {positionsA[3 * j] - positionsA[3 * i], positionsA[3 * j + 1] - positionsA[3 * i + 1],
                positionsA[3 * j + 2] - positionsA[3 * i + 2]};
        if (cell != null && cell.anyPeriodic()) {
            cell.minimumImage(d);
        }
        return d;
    }

    private static double[] cross(double[] u, double[] v) {
        return new double[] {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    }

    private static double dot(double[] u, double[] v) {
        return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    }

    private static double norm(double[] u) {
        return Math.sqrt(dot(u, u));
    }
}
