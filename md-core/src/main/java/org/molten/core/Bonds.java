package org.molten.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Covalent bonds perceived from geometry: atoms i and j are bonded when their (minimum-image)
 * distance is below {@code factor * (r_cov,i + r_cov,j)} with Cordero covalent radii; the usual
 * factor is {@link #DEFAULT_FACTOR}. Used for harmonic bonds of the classical reference potential
 * and for the structural-integrity checks of validation runs.
 */
public final class Bonds {
    /** Tolerance factor on the sum of covalent radii (1.2, as Open Babel and ASE's natural cutoffs roughly use). */
    public static final double DEFAULT_FACTOR = 1.2;

    private Bonds() {}

    /** A bond between atoms {@code i < j} with its length in Å at perception time. */
    public record Bond(int i, int j, double lengthA) {
    }

    /** Bonds of {@code atoms} with {@link #DEFAULT_FACTOR}. */
    public static List<Bond> perceive(Atoms atoms) {
        return perceive(atoms, DEFAULT_FACTOR);
    }

    /**
     * Bonds of {@code atoms}: pairs closer than {@code factor} times the sum of covalent radii.
     * O(N²) over pairs, with a cheap pre-check; fine for thousands of atoms.
     */
    public static List<Bond> perceive(Atoms atoms, double factor) {
        Checks.requirePositive(factor, "bond factor");
        int n = atoms.size();
        double[] rc = new double[n];
        double maxR = 0;
        for (int i = 0; i < n; i++) {
            rc[i] = atoms.element(i).covalentRadiusA;
            maxR = Math.max(maxR, rc[i]);
        }
        double reach = factor * 2 * maxR;
        List<Bond> bonds = new ArrayList<>();
        double[] d = new double[3];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                atoms.displacement(i, j, d);
                if (Math.abs(d[0]) > reach || Math.abs(d[1]) > reach || Math.abs(d[2]) > reach) {
                    continue;
                }
                double r = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                if (r < factor * (rc[i] + rc[j])) {
                    bonds.add(new Bond(i, j, r));
                }
            }
        }
        return bonds;
    }
}
