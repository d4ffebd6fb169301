package org.molten.forcefield.classical;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.molten.core.Bonds;

/**
 * Atom pairs left out of the non-bonded (Lennard-Jones) sum, as bonded force fields do for 1-2
 * (bonded) and 1-3 (sharing a bonded neighbour) pairs. Immutable; stored per atom as sorted
 * partner lists so the pair loop skips excluded pairs without hashing.
 */
public final class ExcludedPairs {
    private static final int[] NONE = new int[0];
    private final int atomCount;
    private final int[][] partners; // partners[i] sorted ascending, both directions
    private final int pairCount;

    private ExcludedPairs(int atomCount, int[][] partners, int pairCount) {
        this.atomCount = atomCount;
        this.partners = partners;
        this.pairCount = pairCount;
    }

    /** No exclusions, for any number of atoms. */
    public static ExcludedPairs none() {
        return new ExcludedPairs(-1, new int[0][], 0);
    }

    /**
     * Exclusions from explicit pairs {@code {i, j}} among {@code atomCount} atoms.
     *
     * @throws IllegalArgumentException for an index out of range or a pair of an atom with itself
     */
    public static ExcludedPairs of(int atomCount, List<int[]> pairs) {
        List<TreeSet<Integer>> sets = new ArrayList<>(atomCount);
        for (int i = 0; i < atomCount; i++) {
            sets.add(new TreeSet<>());
        }
        for (int[] p : pairs) {
            if (p.length != 2 || p[0] < 0 || p[1] < 0 || p[0] >= atomCount || p[1] >= atomCount || p[0] == p[1]) {
                throw new IllegalArgumentException("excluded pair " + Arrays.toString(p)
                        + " is not a pair of two different atoms among " + atomCount);
            }
            sets.get(p[0]).add(p[1]);
            sets.get(p[1]).add(p[0]);
        }
        int[][] partners = new int[atomCount][];
        int count = 0;
        for (int i = 0; i < atomCount; i++) {
            partners[i] = sets.get(i).isEmpty() ? NONE : sets.get(i).stream().mapToInt(Integer::intValue).toArray();
            count += partners[i].length;
        }
        return new ExcludedPairs(atomCount, partners, count / 2);
    }

    /**
     * The 1-2 pairs (the bonds themselves) and 1-3 pairs (two atoms bonded to a common atom) of
     * a bond list.
     */
    public static ExcludedPairs oneTwoAndOneThree(int atomCount, List<Bonds.Bond> bonds) {
        List<List<Integer>> neighbours = new ArrayList<>(atomCount);
        for (int i = 0; i < atomCount; i++) {
            neighbours.add(new ArrayList<>());
        }
        List<int[]> pairs = new ArrayList<>();
        for (Bonds.Bond b : bonds) {
            neighbours.get(b.i()).add(b.j());
            neighbours.get(b.j()).add(b.i());
            pairs.add(new int[] {b.i(), b.j()});
        }
        for (List<Integer> nb : neighbours) {
            for (int a = 0; a < nb.size(); a++) {
                for (int c = a + 1; c < nb.size(); c++) {
                    pairs.add(new int[] {nb.get(a), nb.get(c)});
                }
            }
        }
        return of(atomCount, pairs);
    }

    /** Number of distinct excluded pairs. */
    public int pairCount() {
        return pairCount;
    }

    /** True when this set has no pairs and fits any atom count. */
    public boolean isEmpty() {
        return pairCount == 0;
    }

    /** The atom count these exclusions were built for, or -1 for {@link #none()}. */
    public int atomCount() {
        return atomCount;
    }

    /** Sorted excluded partners of atom {@code i} (do not modify). */
    int[] partnersOf(int i) {
        return partners.length == 0 ? NONE : partners[i];
    }

    /** True when the pair (i, j) is excluded. */
    public boolean excludes(int i, int j) {
        return partners.length != 0 && Arrays.binarySearch(partners[i], j) >= 0;
    }
}
