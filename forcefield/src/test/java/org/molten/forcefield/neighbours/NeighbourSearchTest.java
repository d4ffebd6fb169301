package org.molten.forcefield.neighbours;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.RandomStream;

import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

/** Cell list and Verlet list against the all-pairs oracle. */
class NeighbourSearchTest {

    /** Random positions anywhere in [-1, 2) fractional (not wrapped), random species H/O. */
    static Atoms randomAtoms(RandomStream rng, int n, Cell cell, double extentA) {
        double[] r = new double[3 * n];
        double[] p = new double[3];
        for (int i = 0; i < n; i++) {
            if (cell != null) {
                cell.toCartesian(3 * rng.nextDouble() - 1, 3 * rng.nextDouble() - 1, 3 * rng.nextDouble() - 1, p);
            } else {
                for (int k = 0; k < 3; k++) {
                    p[k] = (rng.nextDouble() - 0.5) * extentA;
                }
            }
            System.arraycopy(p, 0, r, 3 * i, 3);
        }
        int[] z = new int[n];
        for (int i = 0; i < n; i++) {
            z[i] = rng.nextDouble() < 0.5 ? 1 : 8;
        }
        return Atoms.of(z, r, cell);
    }

    /** Edge (i, j) -> displacement, for set comparison. */
    static TreeMap<Long, double[]> edges(EdgeList list) {
        TreeMap<Long, double[]> m = new TreeMap<>();
        for (int i = 0; i < list.atomCount(); i++) {
            int prev = -1;
            for (int e = list.rowStart(i); e < list.rowStart(i + 1); e++) {
                int j = list.neighbour(e);
                assertTrue(j > prev, "row " + i + " not in increasing j order");
                prev = j;
                double[] v = {list.vector(e, 0), list.vector(e, 1), list.vector(e, 2), list.distance(e)};
                assertNull(m.put(((long) i << 32) | j, v), "duplicate edge " + i + " <- " + j);
            }
        }
        return m;
    }

    static void assertSameEdges(EdgeList expected, EdgeList actual, String what) {
        TreeMap<Long, double[]> a = edges(expected);
        TreeMap<Long, double[]> b = edges(actual);
        assertEquals(a.keySet(), b.keySet(), what + ": edge sets differ");
        for (Long key : a.keySet()) {
            double[] x = a.get(key);
            double[] y = b.get(key);
            for (int k = 0; k < 4; k++) {
                assertEquals(x[k], y[k], 1e-12, what + ": displacement of edge " + (key >> 32) + " <- " + (key & 0xffffffffL));
            }
        }
    }

    /**
     * A Verlet list's edges come in the same order whether the list was built now or some steps ago (the
     * cell list sorts each row by j, and the Verlet list keeps that order): a run restarted from a checkpoint builds afresh, the run that went on keeps
     * its list, and the student sums pair terms in edge order. Atoms move up to 0.25 Å (below half the
     * 1 Å skin, so no rebuild), enough to change cells and with them the cell list's order.
     */
    @Test
    void aVerletListsEdgeOrderDoesNotDependOnWhenItWasBuilt() {
        RandomStream rng = new RandomStream(4711);
        Atoms a = randomAtoms(rng, 300, null, 16.0);
        double[] r = a.positions();
        double[] moved = r.clone();
        for (int k = 0; k < moved.length; k++) {
            moved[k] += 0.25 / Math.sqrt(3) * (2 * rng.nextDouble() - 1);
        }
        VerletList kept = new VerletList(1.0);
        EdgeList out = EdgeList.indicesOnly();
        kept.search(a, 3.0, out);
        System.arraycopy(moved, 0, r, 0, r.length);
        kept.search(a, 3.0, out);
        assertEquals(1, kept.rebuildCount(), "moved less than half the skin: no rebuild");
        EdgeList fresh = EdgeList.indicesOnly();
        new VerletList(1.0).search(a, 3.0, fresh);
        assertEquals(fresh.size(), out.size());
        for (int i = 0; i <= a.size(); i++) {
            assertEquals(fresh.rowStart(i), out.rowStart(i), "row start " + i);
        }
        for (int e = 0; e < out.size(); e++) {
            assertEquals(fresh.neighbourArray()[e], out.neighbourArray()[e], "edge " + e);
        }
    }

    @Test
    void cellListEqualsAllPairsOnRandomSystems() {
        RandomStream rng = new RandomStream(21);
        AllPairsSearch all = new AllPairsSearch();
        CellList cl = new CellList();
        EdgeList a = new EdgeList();
        EdgeList b = new EdgeList();
        Cell[] cells = {
                Cell.orthorhombic(14, 15, 16.5),
                Cell.orthorhombic(10.2, 31, 10.0),      // 2 bins along two axes
                Cell.of(new double[][]{{13, 0, 0}, {4, 12, 0}, {-3, 2.5, 12.5}}, new boolean[]{true, true, true}),
                Cell.of(new double[][]{{15, 0, 0}, {7.4, 13, 0}, {6, 6, 13}}, new boolean[]{true, true, true}),
                Cell.of(new double[][]{{14, 0, 0}, {0, 12, 0}, {0, 0, 13}}, new boolean[]{true, false, true}),
                Cell.of(new double[][]{{13, 0, 0}, {3, 12, 0}, {1, -2, 12}}, new boolean[]{false, true, false}),
                null,
        };
        for (Cell cell : cells) {
            double rc = cell == null ? 4.0 : Math.min(5.0, 0.5 * cell.minPeriodicWidth());
            for (int n : new int[]{1, 2, 40, 400}) {
                Atoms atoms = randomAtoms(rng, n, cell, 20.0);
                all.search(atoms, rc, a);
                cl.search(atoms, rc, b);
                assertSameEdges(a, b, cell + " n=" + n);
                if (n == 400) {
                    assertTrue(a.size() > 400, "test system too sparse: " + a.size());
                }
            }
        }
        // A sparse molecule spread over 2 km: the bin count is capped, the answer unchanged.
        Atoms sparse = randomAtoms(rng, 60, null, 2.0e4);
        all.search(sparse, 5.0, a);
        cl.search(sparse, 5.0, b);
        assertSameEdges(a, b, "sparse");
        // Two atoms only just inside / outside the cutoff.
        Atoms pair = Atoms.of(new int[]{1, 1, 1}, new double[]{0, 0, 0, 4.999999, 0, 0, 0, 5.000001, 0}, null);
        cl.search(pair, 5.0, b);
        assertEquals(2, b.size());   // 0 <- 1 and 1 <- 0 only
    }

    /**
     * An indices-only list (the optimised student's) filled by a Verlet or cell list search measures
     * each edge again from the positions with the very bits a list with geometry stores (random
     * systems in orthorhombic, triclinic and partly periodic cells and in none, atoms moved between
     * searches), and keeps at most 1/8 spare capacity; a list the all-pairs search filled cannot be
     * measured.
     */
    @Test
    void anIndicesOnlyListMeasuresTheBitsAListWithGeometryStores() {
        RandomStream rng = new RandomStream(23);
        Cell[] cells = {
                Cell.orthorhombic(14, 15, 16.5),
                Cell.of(new double[][]{{13, 0, 0}, {4, 12, 0}, {-3, 2.5, 12.5}}, new boolean[]{true, true, true}),
                Cell.of(new double[][]{{14, 0, 0}, {0, 12, 0}, {0, 0, 13}}, new boolean[]{true, false, true}),
                null,
        };
        double[] d = new double[3];
        for (Cell cell : cells) {
            double rc = cell == null ? 4.0 : Math.min(5.0, 0.5 * cell.minPeriodicWidth());
            Atoms atoms = randomAtoms(rng, 300, cell, 20.0);
            VerletList withGeometry = new VerletList(0.5);
            VerletList verlet = new VerletList(0.5);
            CellList cellList = new CellList();
            EdgeList full = new EdgeList();
            EdgeList[] lean = {EdgeList.indicesOnly(), EdgeList.indicesOnly()};
            double[] r = atoms.positions();
            for (int step = 0; step < 4; step++) {
                for (int k = 0; step > 0 && k < r.length; k++) {
                    r[k] += 0.1 * rng.nextGaussian();
                }
                withGeometry.search(atoms, rc, full);
                verlet.search(atoms, rc, lean[0]);
                cellList.search(atoms, rc, lean[1]);
                for (EdgeList list : lean) {
                    String what = cell + ", step " + step + (list == lean[0] ? ", Verlet list" : ", cell list");
                    assertEquals(full.size(), list.size(), what);
                    assertTrue(list.capacity() <= list.size() + list.size() / 8 + 64,
                            what + ": capacity " + list.capacity() + " for " + list.size() + " edges");
                    for (int i = 0; i < atoms.size(); i++) {
                        assertEquals(full.rowStart(i + 1), list.rowStart(i + 1), what);
                        for (int e = full.rowStart(i); e < full.rowStart(i + 1); e++) {
                            assertEquals(full.neighbour(e), list.neighbour(e), what);
                            double dist = list.measure(i, e, d);
                            String edge = what + ": edge " + i + " <- " + full.neighbour(e);
                            assertEquals(Double.doubleToLongBits(full.distance(e)), Double.doubleToLongBits(dist), edge);
                            for (int k = 0; k < 3; k++) {
                                assertEquals(Double.doubleToLongBits(full.vector(e, k)), Double.doubleToLongBits(d[k]), edge);
                            }
                        }
                    }
                }
            }
            assertTrue(full.size() > 1000, "test system too sparse: " + full.size());
        }
        EdgeList allPairs = EdgeList.indicesOnly();
        new AllPairsSearch().search(randomAtoms(rng, 20, null, 6.0), 4.0, allPairs);
        assertThrows(IllegalStateException.class, () -> allPairs.measure(0, 0, d));
    }

    @Test
    void refusesCutoffBeyondHalfTheCell() {
        Atoms atoms = randomAtoms(new RandomStream(1), 10, Cell.orthorhombic(9, 12, 12), 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CellList().search(atoms, 5.0, new EdgeList()));
        assertTrue(e.getMessage().contains("5.000 Å") && e.getMessage().contains("9.000 Å"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new VerletList().search(atoms, 5.0, new EdgeList()));
    }

    @Test
    void verletListRebuildsOnlyWhenNeededAndNeverMissesANeighbour() {
        RandomStream rng = new RandomStream(22);
        Cell cell = Cell.of(new double[][]{{13, 0, 0}, {2.5, 12.5, 0}, {-1.5, 1, 13}}, new boolean[]{true, true, true});
        Atoms atoms = randomAtoms(rng, 150, cell, 0);
        double rc = 4.5;
        double skin = 0.8;
        VerletList vl = new VerletList(skin);
        AllPairsSearch all = new AllPairsSearch();
        EdgeList expected = new EdgeList();
        EdgeList actual = new EdgeList();
        double[] r = atoms.positions();
        double[] atBuild = r.clone();
        long expectedRebuilds = 0;
        double[] d = new double[3];
        for (int step = 0; step < 60; step++) {
            if (step > 0) {
                // Random walk, 0.05 Å rms per component per step; now and then wrap an atom by a
                // lattice vector (an integrator putting it back into the cell is not a move).
                for (int k = 0; k < r.length; k++) {
                    r[k] += 0.05 * rng.nextGaussian();
                }
                if (step % 7 == 0) {
                    int i = (int) (rng.nextDouble() * atoms.size());
                    double[] a = cell.vector(1);
                    for (int k = 0; k < 3; k++) {
                        r[3 * i + k] -= a[k];
                    }
                }
            }
            double maxMove = 0;
            for (int i = 0; i < atoms.size(); i++) {
                for (int k = 0; k < 3; k++) {
                    d[k] = r[3 * i + k] - atBuild[3 * i + k];
                }
                cell.minimumImage(d);
                maxMove = Math.max(maxMove, Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
            }
            if (step == 0 || maxMove > skin / 2) {
                expectedRebuilds++;
                System.arraycopy(r, 0, atBuild, 0, r.length);
            }
            vl.search(atoms, rc, actual);
            assertEquals(expectedRebuilds, vl.rebuildCount(), "rebuilds after step " + step);
            all.search(atoms, rc, expected);
            assertSameEdges(expected, actual, "step " + step);
        }
        assertTrue(expectedRebuilds > 3 && expectedRebuilds < 40, "test should exercise both paths: " + expectedRebuilds);
        assertEquals(60, vl.searchCount());
    }

    @Test
    void verletListThresholdIsHalfTheSkin() {
        Atoms atoms = Atoms.of(new int[]{8, 1, 1}, new double[]{0, 0, 0, 3, 0, 0, 0, 4.2, 0}, null);
        VerletList vl = new VerletList(1.0);
        EdgeList out = new EdgeList();
        vl.search(atoms, 4.0, out);
        assertEquals(1, vl.rebuildCount());
        atoms.positions()[0] = 0.4999;     // moved just under skin/2: reuse
        vl.search(atoms, 4.0, out);
        assertEquals(1, vl.rebuildCount());
        atoms.positions()[0] = 0.5001;     // just over: rebuild
        vl.search(atoms, 4.0, out);
        assertEquals(2, vl.rebuildCount());
        vl.search(atoms, 3.0, out);        // another cutoff: rebuild
        assertEquals(3, vl.rebuildCount());
        VerletList none = new VerletList(0.0);
        none.search(atoms, 4.0, out);
        none.search(atoms, 4.0, out);
        assertEquals(2, none.rebuildCount());
    }
}
