package org.molten.forcefield.neighbours;

import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * A Verlet neighbour list (Verlet, Phys. Rev. 159, 98 (1967)): candidate pairs closer than
 * cutoff + skin are found with a {@link CellList} and kept; each search only measures the
 * candidates again. The list is rebuilt when some atom has moved more than half the skin
 * (minimum image) since the last build, so no pair can have come from beyond cutoff + skin:
 * the edge set is always exactly that of {@link AllPairsSearch}. It is also rebuilt when the
 * number of atoms, the cell or the cutoff changes.
 *
 * <p>The candidates are kept once per pair (j &gt; i, 4 bytes each, no spare capacity); a search
 * measures each once and writes both directions, each measured from its receiving atom. An
 * {@link EdgeList#indicesOnly()} output can measure its edges again ({@link EdgeList#measure}).
 *
 * <p>Under periodic boundaries the skin is reduced, if needed, so that cutoff + skin stays within
 * half the shortest perpendicular cell width (one image per pair); with no room left it rebuilds
 * on every call. Reuses its buffers; not thread-safe.
 */
public final class VerletList implements NeighbourSearch {
    /** Default skin, Å: rebuilds every few tens of MD steps for liquids at room temperature. */
    public static final double DEFAULT_SKIN_A = 1.0;

    private final double skinA;
    private final CellList cellList = new CellList();
    private final EdgeList candidates = EdgeList.indicesOnly();   // measured again at every search
    private double[] reference = new double[0];   // positions at the last build, Å
    private int builtAtoms = -1;
    private Cell builtCell;
    private double builtCutoff = Double.NaN;
    private double effectiveSkin;
    private long rebuilds;
    private long searches;
    private final double[] d = new double[3];
    private long[] within = new long[0];   // per candidate pair of a search: closer than the cutoff
    private int[] rowCount = new int[0];   // per atom of a search: its edges, then its next free slot

    /** A list with the given skin (Å, zero or positive; zero rebuilds on every call). */
    public VerletList(double skinA) {
        if (!(skinA >= 0) || Double.isInfinite(skinA)) {
            throw new IllegalArgumentException("Verlet skin must be zero or positive and finite: " + skinA + " Å");
        }
        this.skinA = skinA;
    }

    /** A list with {@link #DEFAULT_SKIN_A}. */
    public VerletList() {
        this(DEFAULT_SKIN_A);
    }

    /** The requested skin, Å. */
    public double skinA() {
        return skinA;
    }

    /** How many times the candidate list has been built (the first search included). */
    public long rebuildCount() {
        return rebuilds;
    }

    /** How many searches have been answered. */
    public long searchCount() {
        return searches;
    }

    /** Forces a rebuild on the next search. */
    public void invalidate() {
        builtAtoms = -1;
    }

    @Override
    public void search(Atoms atoms, double cutoffA, EdgeList out) {
        Cell cell = atoms.cellOrNull();
        NeighbourSearch.requireCutoffFits(cell, cutoffA);
        NeighbourSearch.requireFinitePositions(atoms);
        MinimumImage mi = cellList.imageFor(cell);
        int n = atoms.size();
        double[] r = atoms.positions();
        searches++;
        if (needsRebuild(atoms, cell, cutoffA, mi)) {
            effectiveSkin = skinA;
            if (mi.periodic()) {
                effectiveSkin = Math.max(0.0, Math.min(skinA, 0.5 * cell.minPeriodicWidth() - cutoffA));
            }
            cellList.search(atoms, cutoffA + effectiveSkin, candidates);
            // each candidate pair once (j > i), kept until the next rebuild with no spare capacity:
            // 4 bytes a pair instead of 8 plus up to half again
            candidates.keepUpper();
            candidates.trimToSize();
            cellList.releaseBuffers();   // not needed again before the next rebuild
            if (reference.length < 3 * n) {
                reference = new double[3 * n];
            }
            System.arraycopy(r, 0, reference, 0, 3 * n);
            builtAtoms = n;
            builtCell = cell;
            builtCutoff = cutoffA;
            rebuilds++;
        }
        // Two passes over the candidate pairs: measure each once and count the edges of both
        // atoms, then write both directions into their rows (row i: the j < i in increasing j as
        // the rows j come, then its own j > i); a pair is measured once in each pass.
        int[] nbr = candidates.neighbourArray();
        int pairs = candidates.size();
        if (within.length < (pairs + 63) >>> 6) {
            within = new long[(pairs + 63) >>> 6];
        }
        if (rowCount.length < n + 1) {
            rowCount = new int[n + 1];
        }
        java.util.Arrays.fill(rowCount, 0, n + 1, 0);
        for (int i = 0; i < n; i++) {
            for (int e = candidates.rowStart(i); e < candidates.rowStart(i + 1); e++) {
                int j = nbr[e];
                double dist = mi.measure(r, i, j, d);
                if (dist < cutoffA) {
                    if (dist < COINCIDENT_A) {
                        throw NeighbourSearch.coincident(atoms, i, j, dist);
                    }
                    within[e >>> 6] |= 1L << e;
                    rowCount[i]++;
                    rowCount[j]++;
                } else {
                    within[e >>> 6] &= ~(1L << e);
                }
            }
        }
        out.fill(n, rowCount);
        boolean geometry = out.keepsGeometry();
        for (int i = 0; i < n; i++) {
            for (int e = candidates.rowStart(i); e < candidates.rowStart(i + 1); e++) {
                if ((within[e >>> 6] & (1L << e)) == 0) {
                    continue;
                }
                int j = nbr[e];
                if (geometry) {
                    // r_ji is exactly -r_ij (IEEE negation; the minimum image's rint is symmetric), and so
                    // is its length: measured once, written both ways
                    double dij = mi.measure(r, i, j, d);
                    out.set(rowCount[i]++, j, d[0], d[1], d[2], dij);
                    out.set(rowCount[j]++, i, -d[0], -d[1], -d[2], dij);
                } else {
                    out.set(rowCount[i]++, j, 0, 0, 0, 0);
                    out.set(rowCount[j]++, i, 0, 0, 0, 0);
                }
            }
        }
        out.finish();
        out.measuredFrom(r, mi);
    }

    private boolean needsRebuild(Atoms atoms, Cell cell, double cutoffA, MinimumImage mi) {
        int n = atoms.size();
        if (n != builtAtoms || cutoffA != builtCutoff || !sameCell(cell, builtCell)) {
            return true;
        }
        if (effectiveSkin == 0.0) {
            return true;
        }
        // Largest displacement since the build (minimum image, so wrapping an atom back into
        // the cell does not count as a move).
        double limit2 = 0.25 * effectiveSkin * effectiveSkin;
        double[] r = atoms.positions();
        for (int i = 0; i < n; i++) {
            d[0] = r[3 * i] - reference[3 * i];
            d[1] = r[3 * i + 1] - reference[3 * i + 1];
            d[2] = r[3 * i + 2] - reference[3 * i + 2];
            mi.apply(d, 0);
            if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > limit2) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameCell(Cell a, Cell b) {
        return a == b || (a != null && a.equals(b));
    }
}
