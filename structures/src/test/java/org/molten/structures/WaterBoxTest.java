package org.molten.structures;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Cell;
import org.molten.core.Units;

class WaterBoxTest {
    private static final double GRAMS_PER_AMU = Units.AMU_IN_KG * 1e3;
    private static final double CM3_PER_A3 = 1e-24;

    @Test
    void densityIsOneGramPerCubicCentimetre() {
        for (int n : new int[] {1, 5, 9, 64, 100, 217}) {
            Atoms box = WaterBox.build(n, 42);
            Cell cell = box.cell().orElseThrow();
            assertTrue(cell.isOrthorhombic() && cell.pbc()[0] && cell.pbc()[1] && cell.pbc()[2]);
            double[][] h = cell.matrix();
            assertEquals(h[0][0], h[1][1], 0);
            assertEquals(h[0][0], h[2][2], 0);
            assertEquals(3 * n, box.size());
            assertEquals("H" + 2 * n + "O" + (n > 1 ? n : ""), box.formula());
            double rho = box.totalMassAmu() * GRAMS_PER_AMU / (cell.volume() * CM3_PER_A3);
            assertEquals(1.0, rho, 1e-9, n + " waters");
            // L = cbrt(N * 18.015 amu / 1 g/cm3): 3.1043 Å for one molecule
            assertEquals(Math.cbrt(n * 18.015 * GRAMS_PER_AMU / CM3_PER_A3), h[0][0], 1e-9);
        }
        assertEquals(3.1043, WaterBox.edgeLengthA(1), 1e-4);
    }

    @Test
    void noOverlapsIntactMoleculesAllWrapped() {
        for (int n : new int[] {2, 5, 9, 27, 28, 100, 300}) {
            Atoms box = WaterBox.build(n, 7 + n);
            double edge = box.cell().orElseThrow().vector(0)[0];
            double[] p = box.positions();
            for (double x : p) {
                assertTrue(x >= 0 && x < edge, n + " waters: coordinate " + x + " outside [0, " + edge + ")");
            }
            box.requireNoOverlap(0.9);
            List<Bonds.Bond> bonds = Bonds.perceive(box);
            assertEquals(2 * n, bonds.size(), n + " waters: " + bonds.size() + " covalent bonds");
            for (Bonds.Bond b : bonds) {
                assertEquals(b.i() / 3, b.j() / 3, "bond " + b + " joins two molecules");
                assertEquals(0, b.i() % 3, "every bond is O-H");
                assertEquals(0.959, b.lengthA(), 2e-3, "O-H length under minimum image");
            }
            for (int i = 0; i < box.size(); i++) {
                for (int j = i + 1; j < box.size(); j++) {
                    if (i / 3 == j / 3) {
                        continue;
                    }
                    double r = box.distance(i, j);
                    assertTrue(r >= WaterBox.MIN_INTERMOLECULAR_A - 1e-9, "intermolecular " + i + "-" + j + " at " + r);
                    if (i % 3 == 0 && j % 3 == 0) {
                        assertTrue(r > 2.5, "O-O " + i + "-" + j + " at " + r + " Å");
                    }
                }
            }
        }
    }

    @Test
    void reproducibleFromTheSeed() {
        Atoms a = WaterBox.build(50, 1234);
        Atoms b = WaterBox.build(50, 1234);
        Atoms c = WaterBox.build(50, 1235);
        assertArrayEquals(a.positions(), b.positions(), 0.0);
        assertFalse(java.util.Arrays.equals(a.positions(), c.positions()), "another seed gives another box");
    }

    @Test
    void orientationsAreRandom() {
        // The mean dipole direction of 500 randomly oriented molecules is near zero (|mean| ~ 1/sqrt(3N)).
        Atoms box = WaterBox.build(500, 3);
        double[] sum = new double[3];
        double[] d1 = new double[3], d2 = new double[3];
        for (int m = 0; m < 500; m++) {
            box.displacement(3 * m, 3 * m + 1, d1);
            box.displacement(3 * m, 3 * m + 2, d2);
            double[] u = {d1[0] + d2[0], d1[1] + d2[1], d1[2] + d2[2]};
            double len = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            for (int k = 0; k < 3; k++) {
                sum[k] += u[k] / len / 500;
            }
        }
        double mean = Math.sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2]);
        assertTrue(mean < 0.15, "mean dipole direction " + mean + " (random: ~0.04)");
    }

    @Test
    void forAtomCountRounds() {
        assertEquals(300, WaterBox.forAtomCount(300, 1).size());
        assertEquals(300, WaterBox.forAtomCount(301, 1).size());
        assertEquals(3, WaterBox.forAtomCount(1, 1).size());
        assertThrows(IllegalArgumentException.class, () -> WaterBox.build(0, 1));
        assertThrows(IllegalArgumentException.class, () -> WaterBox.forAtomCount(-3, 1));
    }
}
