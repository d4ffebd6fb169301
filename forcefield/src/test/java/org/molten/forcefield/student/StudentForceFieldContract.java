package org.molten.forcefield.student;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One test body per physical contract of the student model, run against every implementation
 * (OpenMM style: subclass and say how to build the force field). Forces against central finite
 * differences, rotation/translation/permutation invariance, smoothness at the cutoff, per-atom
 * energies and refused inputs.
 */
abstract class StudentForceFieldContract {

    /** The implementation under test for these weights. */
    abstract ForceField create(StudentWeights weights);

    /** Relative tolerance of forces against finite differences (float64: 1e-6). */
    double finiteDifferenceTolerance() {
        return 1e-6;
    }

    /** Relative tolerance of invariance checks (float64 rounding: 1e-10). */
    double invarianceTolerance() {
        return 1e-10;
    }

    /** Finite-difference step, Å. */
    double finiteDifferenceStep() {
        return 1e-5;
    }

    private void checkForcesByFiniteDifferences(StudentWeights w, Atoms atoms) {
        try (ForceField ff = create(w)) {
            double[] f = new double[3 * atoms.size()];
            ff.energyAndForces(atoms, f);
            double[] num = new double[f.length];
            for (int k = 0; k < f.length; k++) {
                num[k] = StudentFixtures.numericalForce(ff, atoms, k, finiteDifferenceStep());
            }
            assertTrue(StudentFixtures.maxAbs(num) > 0.05, "forces too weak to test: " + StudentFixtures.maxAbs(num));
            double err = StudentFixtures.relativeMaxError(f, num);
            assertTrue(err < finiteDifferenceTolerance(), "relative force error " + err);
        }
    }

    @Test
    void forcesAreMinusGradientForAMolecule() {
        RandomStream rng = new RandomStream(101);
        checkForcesByFiniteDifferences(StudentFixtures.smallWeights(1, 4.0), StudentFixtures.cluster(rng, 12, 0.95));
    }

    @Test
    void forcesAreMinusGradientAtTheDefaultSize() {
        RandomStream rng = new RandomStream(102);
        checkForcesByFiniteDifferences(StudentWeights.random(2), StudentFixtures.cluster(rng, 9, 1.0));
    }

    @Test
    void forcesAreMinusGradientInAPeriodicBox() {
        RandomStream rng = new RandomStream(103);
        Atoms atoms = StudentFixtures.periodic(rng, 24, Cell.orthorhombic(6.3, 6.6, 7.0), 0.95);
        checkForcesByFiniteDifferences(StudentFixtures.smallWeights(3, 3.1), atoms);
    }

    @Test
    void forcesAreMinusGradientInALiquidBoxAtTheDefaultSize() {
        // F = 128, r_c = 5 Å in a 10.2 Å box of liquid density; a random sample of coordinates.
        RandomStream rng = new RandomStream(109);
        Atoms atoms = StudentFixtures.periodic(rng, 100, Cell.orthorhombic(10.2, 10.2, 10.2), 1.0);
        try (ForceField ff = create(StudentWeights.random(12))) {
            double[] f = new double[300];
            ff.energyAndForces(atoms, f);
            double[] analytic = new double[10];
            double[] numeric = new double[10];
            for (int s = 0; s < 10; s++) {
                int k = (int) (rng.nextDouble() * 300);
                analytic[s] = f[k];
                numeric[s] = StudentFixtures.numericalForce(ff, atoms, k, finiteDifferenceStep());
            }
            double err = StudentFixtures.relativeMaxError(analytic, numeric);
            assertTrue(err < finiteDifferenceTolerance(), "relative force error " + err);
        }
    }

    @Test
    void forcesAreMinusGradientInATriclinicBox() {
        RandomStream rng = new RandomStream(104);
        Cell cell = StudentFixtures.triclinic(7.0);
        assertTrue(cell.minPeriodicWidth() > 6.0);
        Atoms atoms = StudentFixtures.periodic(rng, 24, cell, 0.95);
        checkForcesByFiniteDifferences(StudentFixtures.smallWeights(4, 3.0), atoms);
    }

    // ------------------------------------------------------------------ symmetries

    /** A random proper rotation matrix (from a random unit quaternion). */
    static double[][] randomRotation(RandomStream rng) {
        double q0 = rng.nextGaussian(), q1 = rng.nextGaussian(), q2 = rng.nextGaussian(), q3 = rng.nextGaussian();
        double n = Math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
        q0 /= n;
        q1 /= n;
        q2 /= n;
        q3 /= n;
        return new double[][]{
                {1 - 2 * (q2 * q2 + q3 * q3), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)},
                {2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1 * q1 + q3 * q3), 2 * (q2 * q3 - q0 * q1)},
                {2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1 * q1 + q2 * q2)}};
    }

    static double[] rotate(double[][] rot, double[] flat) {
        double[] out = new double[flat.length];
        for (int i = 0; i < flat.length / 3; i++) {
            for (int a = 0; a < 3; a++) {
                out[3 * i + a] = rot[a][0] * flat[3 * i] + rot[a][1] * flat[3 * i + 1] + rot[a][2] * flat[3 * i + 2];
            }
        }
        return out;
    }

    private void checkRotationAndTranslation(StudentWeights w, Atoms atoms, long seed) {
        RandomStream rng = new RandomStream(seed);
        try (ForceField ff = create(w)) {
            int n = atoms.size();
            double[] f0 = new double[3 * n];
            double e0 = ff.energyAndForces(atoms, f0);
            double tol = invarianceTolerance();

            double[][] rot = randomRotation(rng);
            Cell cell = atoms.cellOrNull();
            Cell rotatedCell = null;
            if (cell != null) {
                double[][] h = cell.matrix();
                double[][] hr = new double[3][];
                for (int k = 0; k < 3; k++) {
                    hr[k] = rotate(rot, h[k]);
                }
                rotatedCell = Cell.of(hr, cell.pbc());
            }
            Atoms rotated = Atoms.of(atoms.atomicNumbers(), rotate(rot, atoms.positions()), rotatedCell);
            double[] f1 = new double[3 * n];
            double e1 = ff.energyAndForces(rotated, f1);
            assertEquals(e0, e1, tol * Math.abs(e0), "energy changes under rotation");
            double err = StudentFixtures.relativeMaxError(f1, rotate(rot, f0));
            assertTrue(err < tol * 100, "forces do not rotate with the molecule: " + err);

            double[] shift = {rng.nextGaussian() * 7, rng.nextGaussian() * 7, rng.nextGaussian() * 7};
            double[] moved = atoms.positions().clone();
            for (int i = 0; i < n; i++) {
                for (int a = 0; a < 3; a++) {
                    moved[3 * i + a] += shift[a];
                }
            }
            double[] f2 = new double[3 * n];
            double e2 = ff.energyAndForces(Atoms.of(atoms.atomicNumbers(), moved, cell), f2);
            assertEquals(e0, e2, tol * Math.abs(e0), "energy changes under translation");
            assertTrue(StudentFixtures.relativeMaxError(f2, f0) < tol * 100, "forces change under translation");
        }
    }

    @Test
    void energyInvariantAndForcesCovariantUnderRotationAndTranslation() {
        RandomStream rng = new RandomStream(105);
        checkRotationAndTranslation(StudentWeights.random(5), StudentFixtures.cluster(rng, 12, 1.0), 1);
        checkRotationAndTranslation(StudentFixtures.smallWeights(6, 3.0),
                StudentFixtures.periodic(rng, 30, Cell.orthorhombic(6.5, 6.5, 7.5), 0.95), 2);
        checkRotationAndTranslation(StudentFixtures.smallWeights(7, 3.0),
                StudentFixtures.periodic(rng, 30, StudentFixtures.triclinic(7.0), 0.95), 3);
    }

    @Test
    void energyInvariantAndForcesPermutedUnderPermutation() {
        RandomStream rng = new RandomStream(106);
        for (Atoms atoms : new Atoms[]{StudentFixtures.cluster(rng, 15, 1.0),
                StudentFixtures.periodic(rng, 30, Cell.orthorhombic(6.5, 6.5, 7.5), 0.95)}) {
            StudentWeights w = StudentFixtures.smallWeights(8, 3.0);
            try (ForceField ff = create(w)) {
                int n = atoms.size();
                double[] f0 = new double[3 * n];
                double e0 = ff.energyAndForces(atoms, f0);
                int[] perm = new int[n];
                for (int i = 0; i < n; i++) {
                    perm[i] = i;
                }
                for (int i = n - 1; i > 0; i--) {
                    int k = (int) (rng.nextDouble() * (i + 1));
                    int tmp = perm[i];
                    perm[i] = perm[k];
                    perm[k] = tmp;
                }
                int[] z = new int[n];
                double[] r = new double[3 * n];
                for (int i = 0; i < n; i++) {
                    z[i] = atoms.atomicNumber(perm[i]);
                    System.arraycopy(atoms.positions(), 3 * perm[i], r, 3 * i, 3);
                }
                double[] f1 = new double[3 * n];
                double e1 = ff.energyAndForces(Atoms.of(z, r, atoms.cellOrNull()), f1);
                assertEquals(e0, e1, invarianceTolerance() * Math.abs(e0));
                double[] back = new double[3 * n];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(f1, 3 * i, back, 3 * perm[i], 3);
                }
                assertTrue(StudentFixtures.relativeMaxError(back, f0) < invarianceTolerance() * 100);
            }
        }
    }

    // ------------------------------------------------------------------ cutoff

    @Test
    void energyAndForcesAreContinuousAcrossTheCutoff() {
        StudentWeights w = StudentWeights.random(9);
        double rc = w.cutoffA();
        RandomStream rng = new RandomStream(107);
        Atoms base = StudentFixtures.cluster(rng, 6, 1.2);
        int n = base.size();
        // Atom n: far along +x from the cluster; place it so that its distance to atom 0 crosses r_c
        // while every other distance to it stays clear of r_c.
        double[] r0 = base.positions();
        double maxX = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            maxX = Math.max(maxX, r0[3 * i]);
        }
        int anchor = 0;
        for (int i = 0; i < n; i++) {
            if (r0[3 * i] == maxX) {
                anchor = i;
            }
        }
        int[] z = new int[n + 1];
        double[] r = new double[3 * (n + 1)];
        for (int i = 0; i < n; i++) {
            z[i] = base.atomicNumber(i);
            System.arraycopy(r0, 3 * i, r, 3 * i, 3);
        }
        z[n] = 8;
        try (ForceField ff = create(w)) {
            double[] eAt = new double[3];
            double[][] fAt = new double[3][3 * (n + 1)];
            double delta = 1e-7;
            double[] ds = {rc - delta, rc, rc + delta};
            for (int s = 0; s < 3; s++) {
                r[3 * n] = r0[3 * anchor] + ds[s];
                r[3 * n + 1] = r0[3 * anchor + 1];
                r[3 * n + 2] = r0[3 * anchor + 2];
                Atoms atoms = Atoms.of(z, r, null);
                for (int i = 0; i < n; i++) {
                    if (i != anchor) {
                        assertTrue(Math.abs(atoms.distance(i, n) - rc) > 1e-3, "geometry: another pair near r_c");
                    }
                }
                assertEquals(ds[s], atoms.distance(anchor, n), 1e-12);
                eAt[s] = ff.energyAndForces(atoms, fAt[s]);
            }
            // Just inside vs just outside: fcut ~ (r_c - d)^2 near r_c, so the energy differs by
            // O(delta^2) and the forces by O(delta); a filter bias left uncut would jump by O(0.1).
            assertEquals(eAt[0], eAt[2], 1e-9, "energy jumps at the cutoff");
            assertEquals(eAt[1], eAt[2], 1e-12, "energy at exactly r_c must equal the energy beyond it");
            for (int k = 0; k < fAt[0].length; k++) {
                assertEquals(fAt[0][k], fAt[2][k], 1e-5, "force component " + k + " jumps at the cutoff");
            }
            // Beyond the cutoff the added atom does not interact: the energy is the sum of the parts.
            double eCluster = ff.energyAndForces(base, new double[3 * n]);
            double eAlone = ff.energyAndForces(Atoms.of(new int[]{8}, new double[]{0, 0, 0}, null), new double[3]);
            assertEquals(eCluster + eAlone, eAt[2], 1e-9 * Math.abs(eAt[2]));
            // ... and inside it does: the interaction vanishes like (r_c - d)^2, so 10x closer to
            // r_c gives ~100x less (the test geometry is live, and the approach is smooth).
            double[] gap = new double[2];
            double[] deltas = {5e-2, 5e-3};
            for (int s = 0; s < 2; s++) {
                r[3 * n] = r0[3 * anchor] + rc - deltas[s];
                gap[s] = Math.abs(ff.energyAndForces(Atoms.of(z, r, null), new double[3 * (n + 1)]) - eAt[2]);
            }
            assertTrue(gap[0] > 1e-9, "no interaction just inside the cutoff: " + gap[0]);
            double ratio = gap[0] / gap[1];
            assertTrue(ratio > 40 && ratio < 250, "interaction does not vanish quadratically at r_c: ratio " + ratio);
        }
    }

    // ------------------------------------------------------------------ contract details

    @Test
    void perAtomEnergiesSumToTheTotal() {
        RandomStream rng = new RandomStream(108);
        Atoms atoms = StudentFixtures.cluster(rng, 10, 1.0);
        try (ForceField ff = create(StudentFixtures.smallWeights(10, 4.0))) {
            assertTrue(ff.providesPerAtomEnergies());
            double[] pe = new double[10];
            double[] f = new double[30];
            double e = ff.energyAndForces(atoms, f, pe);
            double sum = 0;
            for (double x : pe) {
                sum += x;
            }
            assertEquals(e, sum, 1e-12 * Math.abs(e));
            double[] f2 = new double[30];
            assertEquals(e, ff.energyAndForces(atoms, f2), 0.0);
            assertArrayEquals(f, f2, 0.0);
        }
    }

    @Test
    void refusesUnsupportedElementsAndSmallCells() {
        try (ForceField ff = create(StudentFixtures.smallWeights(11, 4.0))) {
            Atoms cl = Atoms.of(new int[]{6, 17}, new double[]{0, 0, 0, 1.8, 0, 0}, null);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ff.energyAndForces(cl, new double[6]));
            assertTrue(e.getMessage().contains("atom 1: element Cl (Z=17) is not supported by this model"), e.getMessage());
            Atoms small = Atoms.of(new int[]{6, 8}, new double[]{0, 0, 0, 1.2, 0, 0}, Cell.orthorhombic(10, 7.5, 10));
            e = assertThrows(IllegalArgumentException.class, () -> ff.energyAndForces(small, new double[6]));
            assertTrue(e.getMessage().contains("cutoff 4.000 Å") && e.getMessage().contains("7.500 Å"), e.getMessage());
            Atoms same = Atoms.of(new int[]{6, 8}, new double[]{0, 0, 0, 0, 0, 0}, null);
            e = assertThrows(IllegalArgumentException.class, () -> ff.energyAndForces(same, new double[6]));
            assertTrue(e.getMessage().contains("coincide"), e.getMessage());
            Atoms ok = Atoms.of(new int[]{6, 8}, new double[]{0, 0, 0, 1.2, 0, 0}, null);
            e = assertThrows(IllegalArgumentException.class, () -> ff.energyAndForces(ok, new double[5]));
            assertEquals("forces array has length 5, need 3N = 6", e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> ff.energyAndForces(ok, new double[6], new double[3]));
            assertEquals("per-atom energy array has length 3, need N = 2", e.getMessage());
            ok.positions()[4] = Double.NaN;
            e = assertThrows(IllegalArgumentException.class, () -> ff.energyAndForces(ok, new double[6]));
            assertTrue(e.getMessage().contains("atom 1") && e.getMessage().contains("NaN"), e.getMessage());
        }
    }
}
