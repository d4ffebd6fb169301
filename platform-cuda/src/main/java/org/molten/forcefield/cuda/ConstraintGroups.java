package org.molten.forcefield.cuda;

import java.util.Arrays;
import java.util.List;
import org.molten.core.dynamics.ConstraintSet;

/**
 * A replica's RATTLE pairs split into constraint groups, the connected components of the graph whose edges are the
 * pairs (with h-bonds a heavy atom and its hydrogens: CH3 is one group of 3 pairs, N-H one of 1; with all-bonds a
 * connected molecule is one group). Groups share no atom, so the device solves them at once, one thread each
 * (molten_constraints.cuh, rattle_view): a group of at most three pairs as one small system in registers (the
 * velocity half exactly, positions by Newton's method), a larger one by Gauss-Seidel over its pairs in their original
 * relative order until all of them are met, which gives the bits of the serial sweep over all pairs (a group's
 * iterates depend only on its own atoms, and a sweep that changes nothing leaves its state unchanged for every later
 * sweep).
 * <p>
 * {@link #pairs()} lists the replica's pair indices group after group (each group in the original order, the groups
 * by their first pair); group g holds {@code pairs()[starts()[g]]} .. {@code pairs()[starts()[g + 1] - 1]}. The pairs
 * themselves are not reordered, so the failure codes (pair k + 1) and the bond vectors and lambdas stay indexed by the
 * original pair.
 */
record ConstraintGroups(int[] pairs, int[] starts) {

    /** The groups of {@code c}'s pairs; {@code oneGroup}: all pairs one group in their order (the serial solve). */
    static ConstraintGroups of(ConstraintSet c, boolean oneGroup) {
        int p = c.pairCount();
        if (oneGroup || p == 0) {
            int[] order = new int[p];
            Arrays.setAll(order, k -> k);
            return new ConstraintGroups(order, p == 0 ? new int[] {0} : new int[] {0, p});
        }
        // union-find over the atoms the pairs name
        int atoms = 0;
        for (int k = 0; k < p; k++) {
            atoms = Math.max(atoms, Math.max(c.first(k), c.second(k)) + 1);
        }
        int[] parent = new int[atoms];
        Arrays.setAll(parent, a -> a);
        for (int k = 0; k < p; k++) {
            int a = root(parent, c.first(k));
            int b = root(parent, c.second(k));
            if (a != b) {
                parent[Math.max(a, b)] = Math.min(a, b);
            }
        }
        // groups numbered by their first pair; pairs within a group in the original order
        int[] groupOfRoot = new int[atoms];
        Arrays.fill(groupOfRoot, -1);
        int[] group = new int[p];
        int groups = 0;
        for (int k = 0; k < p; k++) {
            int r = root(parent, c.first(k));
            if (groupOfRoot[r] < 0) {
                groupOfRoot[r] = groups++;
            }
            group[k] = groupOfRoot[r];
        }
        int[] starts = new int[groups + 1];
        for (int k = 0; k < p; k++) {
            starts[group[k] + 1]++;
        }
        for (int g = 0; g < groups; g++) {
            starts[g + 1] += starts[g];
        }
        int[] fill = Arrays.copyOf(starts, groups);
        int[] order = new int[p];
        for (int k = 0; k < p; k++) {
            order[fill[group[k]]++] = k;
        }
        return new ConstraintGroups(order, starts);
    }

    private static int root(int[] parent, int a) {
        while (parent[a] != a) {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        return a;
    }

    /**
     * The same groups in reverse order (each group's pairs still in their order): another lane solves each group on the
     * device, which must not change a bit when the groups share no atom (the tests' check of the device's group ranges).
     */
    ConstraintGroups reversed() {
        int[] order = new int[pairs.length];
        int[] s = new int[starts.length];
        int at = 0;
        for (int g = count() - 1, k = 0; g >= 0; g--, k++) {
            s[k] = at;
            for (int slot = starts[g]; slot < starts[g + 1]; slot++) {
                order[at++] = pairs[slot];
            }
        }
        s[count()] = at;
        return new ConstraintGroups(order, s);
    }

    /** Number of groups. */
    int count() {
        return starts.length - 1;
    }

    /** The pair indices of group g, in their original order. */
    int[] group(int g) {
        return Arrays.copyOfRange(pairs, starts[g], starts[g + 1]);
    }

    /**
     * The device's arrays for a batch of replicas (replica r's pairs from {@code firstPair[r]}, P_r of them):
     * {@code Net.cons_gpair} [P], at firstPair[r] + s the replica-local pair index of slot s; {@code Net.cons_gstart}
     * [P + R], at firstPair[r] + r + g the replica-local start slot of group g for g = 0 .. P_r (the groups' starts,
     * then P_r up to the end of the replica's P_r + 1 entries, so that a thread reading group g ≤ P_r finds it empty).
     */
    static int[][] deviceArrays(List<ConstraintSet> sets, boolean oneGroup) {
        return deviceArrays(sets, oneGroup, false);
    }

    /** As {@link #deviceArrays(List, boolean)}, the groups in reverse order where {@code reversed}. */
    static int[][] deviceArrays(List<ConstraintSet> sets, boolean oneGroup, boolean reversed) {
        int total = 0;
        for (ConstraintSet c : sets) {
            total += c.pairCount();
        }
        int[] gpair = new int[total];
        int[] gstart = new int[total + sets.size()];
        int p0 = 0;
        for (int r = 0; r < sets.size(); r++) {
            ConstraintSet c = sets.get(r);
            int p = c.pairCount();
            ConstraintGroups g = reversed ? of(c, oneGroup).reversed() : of(c, oneGroup);
            System.arraycopy(g.pairs, 0, gpair, p0, p);
            for (int k = 0; k <= p; k++) {
                gstart[p0 + r + k] = k < g.starts.length ? g.starts[k] : p;
            }
            p0 += p;
        }
        return new int[][] {gpair, gstart};
    }
}
