package org.molten.forcefield.classical;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;
import org.molten.core.RandomStream;
import org.molten.forcefield.neighbours.CellList;
import org.molten.forcefield.neighbours.VerletList;

/** The neighbour-list paths of {@link LennardJones} against the all-pairs reference. */
class NeighbourSearchLennardJonesTest {

    /** Liquid-like argon: n³ atoms on a jittered simple cubic lattice 3.7 Å apart, periodic. */
    static Atoms argonBox(int n, Cell cellOverride, long seed) {
        int count = n * n * n;
        int[] z = new int[count];
        double[] r = new double[3 * count];
        RandomStream rng = new RandomStream(seed);
        for (int i = 0; i < count; i++) {
            z[i] = Element.Ar.atomicNumber;
            r[3 * i] = 3.7 * (i % n) + 0.4 * (rng.nextDouble() - 0.5);
            r[3 * i + 1] = 3.7 * ((i / n) % n) + 0.4 * (rng.nextDouble() - 0.5);
            r[3 * i + 2] = 3.7 * (i / (n * n)) + 0.4 * (rng.nextDouble() - 0.5);
        }
        Cell cell = cellOverride != null ? cellOverride : Cell.orthorhombic(3.7 * n, 3.7 * n, 3.7 * n);
        return Atoms.of(z, r, cell);
    }

    @Test
    void cellAndVerletListsGiveTheAllPairsResultToTheLastBit() {
        Atoms box = argonBox(6, null, 1);
        LennardJones ref = LennardJones.of(LennardJonesParameters.uff(), 9.0);
        LennardJones cells = ref.withNeighbourSearch(new CellList());
        LennardJones verlet = ref.withNeighbourSearch(new VerletList(1.0));
        double[] f0 = new double[box.size() * 3], f1 = new double[f0.length], f2 = new double[f0.length];
        RandomStream rng = new RandomStream(2);
        for (int round = 0; round < 5; round++) {
            double e0 = ref.energyAndForces(box, f0);
            assertEquals(e0, cells.energyAndForces(box, f1), 0.0);
            assertEquals(e0, verlet.energyAndForces(box, f2), 0.0);
            assertArrayEquals(f0, f1, 0.0);
            assertArrayEquals(f0, f2, 0.0);
            double[] r = box.positions(); // small moves: the Verlet list is reused, not rebuilt
            for (int k = 0; k < r.length; k++) {
                r[k] += 0.1 * (rng.nextDouble() - 0.5);
            }
        }
    }

    @Test
    void triclinicCellsAndExclusionsAgreeWithAllPairs() {
        Cell tri = Cell.of(new double[][] {{22.2, 0, 0}, {3.0, 21.5, 0}, {-2.0, 1.5, 22.0}}, new boolean[] {true, true, true});
        Atoms box = argonBox(6, tri, 3);
        // Mixed species and a few excluded pairs, as the inferred molecular potential has.
        int[] z = box.atomicNumbers();
        for (int i = 0; i < z.length; i += 3) {
            z[i] = Element.Ne.atomicNumber;
        }
        Atoms mixed = Atoms.of(z, box.positions(), tri);
        ExcludedPairs ex = ExcludedPairs.of(mixed.size(), java.util.List.of(new int[] {0, 1}, new int[] {0, 6}, new int[] {7, 43}));
        LennardJones ref = LennardJones.of(LennardJonesParameters.uff(), 8.5, ex);
        LennardJones fast = ref.withNeighbourSearch(new CellList());
        double[] f0 = new double[mixed.size() * 3], f1 = new double[f0.length];
        double e0 = ref.energyAndForces(mixed, f0);
        assertEquals(e0, fast.energyAndForces(mixed, f1), 1e-12 * Math.abs(e0));
        assertArrayEquals(f0, f1, 1e-12);
        assertTrue(fast.usesNeighbourSearch());
        assertFalse(ref.usesNeighbourSearch());
    }
}
