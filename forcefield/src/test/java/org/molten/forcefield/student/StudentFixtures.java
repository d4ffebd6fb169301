package org.molten.forcefield.student;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;

/** Random geometries and numerical derivatives shared by the student tests. */
final class StudentFixtures {
    private StudentFixtures() {}

    /** Atoms per Å³ of liquid water (3 atoms per 29.9 Å³). */
    static final double LIQUID_DENSITY = 0.1;

    /** Small random weights (F=8, T=2, n_rbf=8, r_c as given, gamma = 4 Å⁻²) over H, C, N, O. */
    static StudentWeights smallWeights(long seed, double cutoffA) {
        return StudentWeights.random(seed, new int[]{1, 6, 7, 8}, 8, 2, 8, cutoffA, 4.0);
    }

    /**
     * A random cluster of {@code n} atoms at liquid-like density: random sequential insertion in a
     * sphere, no two atoms closer than {@code minDistA}.
     */
    static Atoms cluster(RandomStream rng, int n, double minDistA) {
        double radius = Math.cbrt(3.0 * n / (4.0 * Math.PI * LIQUID_DENSITY));
        double[] r = new double[3 * n];
        int placed = 0;
        int tries = 0;
        while (placed < n) {
            if (++tries > 1_000_000) {
                throw new IllegalStateException("could not place " + n + " atoms");
            }
            double x = (2 * rng.nextDouble() - 1) * radius;
            double y = (2 * rng.nextDouble() - 1) * radius;
            double z = (2 * rng.nextDouble() - 1) * radius;
            if (x * x + y * y + z * z > radius * radius) {
                continue;
            }
            boolean ok = true;
            for (int k = 0; k < placed && ok; k++) {
                double dx = x - r[3 * k], dy = y - r[3 * k + 1], dz = z - r[3 * k + 2];
                ok = dx * dx + dy * dy + dz * dz >= minDistA * minDistA;
            }
            if (ok) {
                r[3 * placed] = x;
                r[3 * placed + 1] = y;
                r[3 * placed + 2] = z;
                placed++;
            }
        }
        return Atoms.of(randomSpecies(rng, n), r, null);
    }

    /** Random atomic numbers among H, C, N, O. */
    static int[] randomSpecies(RandomStream rng, int n) {
        int[] pool = {1, 6, 7, 8};
        int[] z = new int[n];
        for (int i = 0; i < n; i++) {
            z[i] = pool[(int) (rng.nextDouble() * pool.length)];
        }
        return z;
    }

    /**
     * {@code n} random atoms in a periodic cell (positions anywhere in space, not wrapped, to test
     * the minimum image), no two closer than {@code minDistA} under the minimum image.
     */
    static Atoms periodic(RandomStream rng, int n, Cell cell, double minDistA) {
        double[] r = new double[3 * n];
        double[] p = new double[3];
        double[] d = new double[3];
        int placed = 0;
        int tries = 0;
        while (placed < n) {
            if (++tries > 1_000_000) {
                throw new IllegalStateException("could not place " + n + " atoms in " + cell);
            }
            // Fractional coordinates in [-1, 2): positions outside the home cell too.
            cell.toCartesian(3 * rng.nextDouble() - 1, 3 * rng.nextDouble() - 1, 3 * rng.nextDouble() - 1, p);
            boolean ok = true;
            for (int k = 0; k < placed && ok; k++) {
                d[0] = p[0] - r[3 * k];
                d[1] = p[1] - r[3 * k + 1];
                d[2] = p[2] - r[3 * k + 2];
                cell.minimumImage(d);
                ok = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= minDistA * minDistA;
            }
            if (ok) {
                System.arraycopy(p, 0, r, 3 * placed, 3);
                placed++;
            }
        }
        return Atoms.of(randomSpecies(rng, n), r, cell);
    }

    /** A triclinic cell with the given perpendicular-ish size (Å), periodic on all axes. */
    static Cell triclinic(double a) {
        return Cell.of(new double[][]{{a, 0, 0}, {0.3 * a, 0.95 * a, 0}, {-0.2 * a, 0.25 * a, 0.9 * a}},
                new boolean[]{true, true, true});
    }

    /** Central finite difference -dE/dx_k (eV/Å) with step h (Å). */
    static double numericalForce(ForceField ff, Atoms atoms, int k, double h) {
        double[] r = atoms.positions();
        double[] scratch = new double[r.length];
        double x0 = r[k];
        r[k] = x0 + h;
        double ep = ff.energyAndForces(atoms, scratch);
        r[k] = x0 - h;
        double em = ff.energyAndForces(atoms, scratch);
        r[k] = x0;
        return -(ep - em) / (2 * h);
    }

    /** max |a - b| / max |b|. */
    static double relativeMaxError(double[] a, double[] b) {
        double num = 0;
        double den = 0;
        for (int k = 0; k < a.length; k++) {
            num = Math.max(num, Math.abs(a[k] - b[k]));
            den = Math.max(den, Math.abs(b[k]));
        }
        return num / den;
    }

    static double maxAbs(double[] a) {
        double m = 0;
        for (double x : a) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }
}
