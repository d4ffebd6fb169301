package org.molten.core;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CoreTest {

    @Test
    void accelerationConversionMatchesAse() {
        // ASE 3.22 units.fs (CODATA 2014) = 0.0982269479; CODATA 2018 differs by ~1e-8 relative.
        double aseFs = 0.09822694788464063;
        assertEquals(aseFs * aseFs, Units.ACCEL_A_PER_FS2, 1e-10);
    }

    @Test
    void elementLookupAndErrors() {
        assertEquals(Element.O, Element.ofSymbol("o"));
        assertEquals(Element.Cl, Element.ofAtomicNumber(17));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Element.ofSymbol("Xx"));
        assertTrue(e.getMessage().contains("Xx"));
        assertThrows(IllegalArgumentException.class, () -> Element.ofAtomicNumber(92));
    }

    @Test
    void triclinicMinimumImageIsTheShortestImage() {
        Cell cell = Cell.of(new double[][] {{10, 0, 0}, {3, 9, 0}, {-2, 1.5, 11}}, new boolean[] {true, true, true});
        RandomStream rng = new RandomStream(7);
        for (int t = 0; t < 2000; t++) {
            double[] d = {40 * rng.nextDouble() - 20, 40 * rng.nextDouble() - 20, 40 * rng.nextDouble() - 20};
            double[] mi = d.clone();
            cell.minimumImage(mi);
            double best = Double.POSITIVE_INFINITY;
            double[][] h = cell.matrix();
            for (int i = -5; i <= 5; i++) {
                for (int j = -5; j <= 5; j++) {
                    for (int k = -5; k <= 5; k++) {
                        double x = d[0] + i * h[0][0] + j * h[1][0] + k * h[2][0];
                        double y = d[1] + i * h[0][1] + j * h[1][1] + k * h[2][1];
                        double z = d[2] + i * h[0][2] + j * h[1][2] + k * h[2][2];
                        best = Math.min(best, x * x + y * y + z * z);
                    }
                }
            }
            assertEquals(Math.sqrt(best), Math.sqrt(mi[0] * mi[0] + mi[1] * mi[1] + mi[2] * mi[2]), 1e-9);
        }
    }

    @Test
    void orthorhombicMinimumImageRespectsNonPeriodicAxes() {
        Cell cell = Cell.of(new double[][] {{10, 0, 0}, {0, 10, 0}, {0, 0, 10}}, new boolean[] {true, false, true});
        double[] d = {7, 7, -7};
        cell.minimumImage(d);
        assertArrayEquals(new double[] {-3, 7, 3}, d, 1e-12);
    }

    @Test
    void randomStreamRestoresExactly() {
        RandomStream a = new RandomStream(42);
        for (int i = 0; i < 11; i++) {
            a.nextGaussian();
        }
        RandomStream b = RandomStream.fromState(a.state());
        for (int i = 0; i < 100; i++) {
            assertEquals(Double.doubleToLongBits(a.nextGaussian()), Double.doubleToLongBits(b.nextGaussian()));
        }
        assertNotEquals(new RandomStream(1).nextLong(), new RandomStream(2).nextLong());
    }

    @Test
    void observablesOfARigidRotor() {
        Atoms atoms = Atoms.of(new int[] {8, 8}, new double[] {-0.6, 0, 0, 0.6, 0, 0}, null);
        double[] v = atoms.velocities();
        v[1] = 0.01;   // atom 0 moves +y, atom 1 -y: pure rotation about z
        v[4] = -0.01;
        assertArrayEquals(new double[] {0, 0, 0}, Observables.linearMomentum(atoms), 1e-15);
        double[] l = Observables.angularMomentum(atoms);
        assertEquals(-2 * 15.999 * 0.6 * 0.01, l[2], 1e-12);
        double ke = 2 * 0.5 * 15.999 * 1e-4 * Units.MV2_TO_EV;
        assertEquals(ke, Observables.kineticEnergyEv(atoms), 1e-15);
        assertEquals(2 * ke / (3 * Units.BOLTZMANN_EV_PER_K), Observables.temperatureK(atoms, 3), 1e-9);
    }

    @Test
    void atomsRefuseBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Atoms.of(new int[] {1}, new double[] {0, Double.NaN, 0}, null));
        assertTrue(e.getMessage().contains("atom 0"), e.getMessage());
        Atoms close = Atoms.of(new int[] {1, 1}, new double[] {0, 0, 0, 0.1, 0, 0}, null);
        e = assertThrows(IllegalArgumentException.class, () -> close.requireNoOverlap(0.5));
        assertTrue(e.getMessage().contains("overlap"), e.getMessage());
        assertEquals("C2H6O", Atoms.of(new int[] {6, 6, 8, 1, 1, 1, 1, 1, 1}, new double[27], null).formula());
    }

    @Test
    void waterHasTwoBondsAcrossThePeriodicBoundary() {
        // O at the cell edge, its hydrogens across the boundary: bonds must use the minimum image.
        Atoms w = Atoms.of(new int[] {8, 1, 1},
                new double[] {0.1, 5, 5, 9.14, 5, 5, 0.34, 5.93, 5}, Cell.orthorhombic(10, 10, 10));
        var bonds = Bonds.perceive(w);
        assertEquals(2, bonds.size());
        assertEquals(0.96, bonds.get(0).lengthA(), 0.01);
    }

    @Test
    void wrapNeverReturnsTheUpperEdge() {
        Cell cell = Cell.orthorhombic(10, 10, 10);
        double[] r = {-1e-17, 5, 10.0};
        cell.wrap(r);
        assertTrue(r[0] >= 0 && r[0] < 10, "x wrapped to " + r[0]);
        assertTrue(r[2] >= 0 && r[2] < 10, "z wrapped to " + r[2]);
    }

    @Test
    void inverseMatrixInvertsTheLattice() {
        Cell cell = Cell.of(new double[][] {{10, 0, 0}, {3, 9, 0}, {-2, 1.5, 11}}, new boolean[] {true, true, true});
        double[][] h = cell.matrix(), inv = cell.inverseMatrix();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += h[i][k] * inv[k][j];
                }
                assertEquals(i == j ? 1.0 : 0.0, s, 1e-14);
            }
        }
    }
}
