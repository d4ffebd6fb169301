package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.dynamics.ConstraintSet;
import org.molten.integrators.constraints.Constraints;
import org.molten.structures.BuiltInMolecules;

/**
 * The constraint groups the device solves one per thread (ConstraintGroups, host side, no GPU): the connected
 * components of the pairs, each pair in exactly one group, no atom in two groups, each group in the original order;
 * alanine dipeptide with h-bonds splits into its CH3s, N-Hs and C-H, with all-bonds it is one group; the device arrays
 * of a mixed batch keep every replica's groups within the replica's own pairs.
 */
class ConstraintGroupsTest {

    private static ConstraintSet hBonds(Atoms a) {
        return Constraints.hBonds().resolve(a);
    }

    /** Each pair once, the groups in ascending pair order inside, no atom shared between groups, pairs of a group connected. */
    private static void assertPartition(ConstraintSet c, ConstraintGroups g) {
        int[] seen = new int[c.pairCount()];
        Set<Integer> atomsSeen = new HashSet<>();
        for (int k = 0; k < g.count(); k++) {
            int[] pairs = g.group(k);
            assertTrue(pairs.length > 0, "group " + k + " is empty");
            Set<Integer> atoms = new HashSet<>();
            for (int s = 0; s < pairs.length; s++) {
                seen[pairs[s]]++;
                if (s > 0) {
                    assertTrue(pairs[s] > pairs[s - 1], "group " + k + " out of the original order: " + Arrays.toString(pairs));
                }
                atoms.add(c.first(pairs[s]));
                atoms.add(c.second(pairs[s]));
            }
            for (int a : atoms) {
                assertTrue(atomsSeen.add(a), "atom " + a + " in two groups");
            }
            // connected: every pair but the first touches an atom of the pairs before it, in some order
            Set<Integer> reached = new HashSet<>(List.of(c.first(pairs[0]), c.second(pairs[0])));
            boolean grew = true;
            while (grew) {
                grew = false;
                for (int p : pairs) {
                    if ((reached.contains(c.first(p)) || reached.contains(c.second(p)))
                            && (reached.add(c.first(p)) | reached.add(c.second(p)))) {
                        grew = true;
                    }
                }
            }
            assertEquals(atoms, reached, "group " + k + " is not connected");
        }
        for (int p = 0; p < seen.length; p++) {
            assertEquals(1, seen[p], "pair " + p + " in " + seen[p] + " groups");
        }
    }

    /**
     * Alanine dipeptide (Ace-Ala-NMe) with h-bonds: 12 pairs in 6 groups, three CH3 of 3 pairs (the acetyl's, the
     * alanine's side chain, the N-methyl's) and three single pairs (two N-H, the alpha C-H), each group one heavy
     * atom and its hydrogens.
     */
    @Test
    void alanineDipeptideHBondsSplitIntoItsHeavyAtoms() {
        Atoms a = BuiltInMolecules.load("alanine-dipeptide");
        ConstraintSet c = hBonds(a);
        assertEquals(12, c.pairCount());
        ConstraintGroups g = ConstraintGroups.of(c, false);
        assertPartition(c, g);
        int[] sizes = new int[g.count()];
        for (int k = 0; k < g.count(); k++) {
            int[] pairs = g.group(k);
            sizes[k] = pairs.length;
            Set<Integer> heavy = new HashSet<>();
            for (int p : pairs) {
                heavy.add(a.atomicNumber(c.first(p)) == 1 ? c.second(p) : c.first(p));
            }
            assertEquals(1, heavy.size(), "group " + k + " holds more than one heavy atom: " + heavy);
            int z = a.atomicNumber(heavy.iterator().next());
            assertTrue(pairs.length == 3 ? z == 6 : z == 6 || z == 7, "group " + k + ": " + pairs.length + " H on Z = " + z);
        }
        Arrays.sort(sizes);
        assertArrayEquals(new int[] {1, 1, 1, 3, 3, 3}, sizes);
        // the groups numbered by their first pair
        for (int k = 1; k < g.count(); k++) {
            assertTrue(g.group(k)[0] > g.group(k - 1)[0], "groups out of order");
        }
    }

    /** Reversed: the same groups, last first, each group's pairs in their order (the tests' lane permutation). */
    @Test
    void reversedKeepsEachGroupAndReversesTheirOrder() {
        ConstraintSet c = hBonds(BuiltInMolecules.load("alanine-dipeptide"));
        ConstraintGroups g = ConstraintGroups.of(c, false);
        ConstraintGroups r = g.reversed();
        assertPartition(c, r);
        assertEquals(g.count(), r.count());
        for (int k = 0; k < g.count(); k++) {
            assertArrayEquals(g.group(g.count() - 1 - k), r.group(k), "group " + k);
        }
    }

    /** All-bonds on a molecule (connected): one group, the pairs in their order; oneGroup likewise with h-bonds. */
    @Test
    void allBondsIsOneGroup() {
        Atoms a = BuiltInMolecules.load("alanine-dipeptide");
        ConstraintSet all = Constraints.allBonds().resolve(a);
        assertEquals(21, all.pairCount());
        ConstraintGroups g = ConstraintGroups.of(all, false);
        assertEquals(1, g.count());
        int[] order = new int[21];
        Arrays.setAll(order, k -> k);
        assertArrayEquals(order, g.pairs());
        ConstraintGroups serial = ConstraintGroups.of(hBonds(a), true);
        assertEquals(1, serial.count());
        assertArrayEquals(Arrays.copyOf(order, 12), serial.pairs());
    }

    /**
     * A mixed batch (ethanol h-bonds: 6 pairs in 3 groups; three rigid waters: no pairs; alanine dipeptide h-bonds):
     * Net.cons_gpair holds each replica's local pair indices within its own range, Net.cons_gstart each replica's
     * P_r + 1 boundaries from firstPair[r] + r, 0 first, P_r after the last group.
     */
    @Test
    void batchArraysKeepGroupsWithinReplicas() {
        List<ConstraintSet> sets = List.of(hBonds(CudaDynamicsTest.ethanol()), hBonds(CudaConstraintsTest.waterCluster()),
                hBonds(BuiltInMolecules.load("alanine-dipeptide")));
        assertEquals(0, sets.get(1).pairCount());
        int[][] dev = ConstraintGroups.deviceArrays(sets, false);
        int[] gpair = dev[0];
        int[] gstart = dev[1];
        assertEquals(6 + 0 + 12, gpair.length);
        assertEquals(18 + 3, gstart.length);
        int p0 = 0;
        for (int r = 0; r < sets.size(); r++) {
            ConstraintSet c = sets.get(r);
            int p = c.pairCount();
            ConstraintGroups g = ConstraintGroups.of(c, false);
            assertArrayEquals(g.pairs(), Arrays.copyOfRange(gpair, p0, p0 + p), "replica " + r + " pairs");
            int[] bounds = Arrays.copyOfRange(gstart, p0 + r, p0 + r + p + 1);
            assertEquals(0, bounds[0], "replica " + r);
            for (int k = 0; k <= p; k++) {
                assertEquals(k < g.starts().length ? g.starts()[k] : p, bounds[k], "replica " + r + " boundary " + k);
            }
            p0 += p;
        }
        assertEquals(3, ConstraintGroups.of(sets.get(0), false).count(), "ethanol: CH3, CH2, O-H");
    }
}
