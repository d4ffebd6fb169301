package org.molten.forcefield.neighbours;

import org.molten.core.Atoms;
import org.molten.core.Cell;

import java.util.Arrays;

/**
 * O(N) radius search by binning (Allen and Tildesley, Computer Simulation of Liquids, 2nd ed.,
 * sec. 5.3.2). Atoms are binned in fractional coordinates along the three lattice vectors (Cartesian
 * axes when there is no cell), with bins at least one cutoff wide measured perpendicular to their
 * faces, so every pair closer than the cutoff lies in the same or adjacent bins. Periodic axes wrap;
 * non-periodic axes cover the atoms' extent. Works for orthorhombic and triclinic cells and any mix
 * of periodic flags; the edge set equals {@link AllPairsSearch}'s.
 *
 * <p>Reuses its scratch arrays between calls (no allocation once sizes have settled). Not
 * thread-safe.
 */
public final class CellList implements NeighbourSearch {
    /** Upper bound on bins per atom, so a sparse non-periodic system cannot exhaust memory. */
    private static final int MAX_BINS_PER_ATOM = 4;

    private double[] frac = new double[0];   // 3N binning coordinates
    private int[] binOf = new int[0];
    private int[] binStart = new int[0];
    private int[] binAtoms = new int[0];
    private int[] binFill = new int[0];
    private int[] found = new int[64];
    private final double[] d = new double[3];
    private final double[] lo = new double[3];
    private final double[] hi = new double[3];
    private final double[] origin = new double[3];
    private final double[] span = new double[3];
    private final int[] nb = new int[3];
    private final int[][] offsets = new int[3][];
    private static final int[] ONE = {0};
    private static final int[] TWO = {0, 1};
    private static final int[] THREE = {-1, 0, 1};
    private Cell lastCell;
    private MinimumImage image = new MinimumImage(null);

    @Override
    public void search(Atoms atoms, double cutoffA, EdgeList out) {
        Cell cell = atoms.cellOrNull();
        NeighbourSearch.requireCutoffFits(cell, cutoffA);
        NeighbourSearch.requireFinitePositions(atoms);
        MinimumImage mi = imageFor(cell);
        int n = atoms.size();
        double[] r = atoms.positions();
        out.reset(n);
        if (n == 0) {
            out.finish();
            return;
        }
        if (frac.length < 3 * n) {
            frac = new double[3 * n];
            binOf = new int[n];
            binAtoms = new int[n];
        }

        // Binning coordinates: fractional along each lattice vector (wrapped on periodic axes).
        double[][] hInv = mi.inverseLattice();
        double[][] h = mi.lattice();
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < n; i++) {
            double x = r[3 * i], y = r[3 * i + 1], z = r[3 * i + 2];
            for (int k = 0; k < 3; k++) {
                double s = x * hInv[0][k] + y * hInv[1][k] + z * hInv[2][k];
                if (mi.periodic(k)) {
                    s -= Math.floor(s);
                    if (s >= 1.0) {
                        s = 0.0;   // -tiny wraps to 1.0 in floating point
                    }
                }
                frac[3 * i + k] = s;
                lo[k] = Math.min(lo[k], s);
                hi[k] = Math.max(hi[k], s);
            }
        }
        // Bins per axis: each at least one cutoff wide perpendicular to its faces.
        for (int k = 0; k < 3; k++) {
            double width = perpendicularWidth(h, k);   // Å per unit fractional coordinate
            if (mi.periodic(k)) {
                origin[k] = 0.0;
                span[k] = 1.0;
            } else {
                origin[k] = lo[k];
                span[k] = Math.max(hi[k] - lo[k], 0.0);
            }
            nb[k] = Math.max(1, (int) Math.floor(span[k] * width / cutoffA));
        }
        long maxBins = (long) MAX_BINS_PER_ATOM * n + 27;
        while ((long) nb[0] * nb[1] * nb[2] > maxBins) {
            int k = largestNonPeriodic(nb, mi);
            if (k < 0) {
                break;   // periodic bins are bounded by the cell: leave them
            }
            nb[k] = Math.max(1, nb[k] / 2);
        }
        int bins = nb[0] * nb[1] * nb[2];
        if (binStart.length < bins + 1) {
            binStart = new int[bins + 1];
        }
        Arrays.fill(binStart, 0, bins + 1, 0);
        for (int i = 0; i < n; i++) {
            int b = 0;
            for (int k = 0; k < 3; k++) {
                int c = span[k] > 0 ? (int) ((frac[3 * i + k] - origin[k]) / span[k] * nb[k]) : 0;
                c = Math.min(Math.max(c, 0), nb[k] - 1);
                b = b * nb[k] + c;
            }
            binOf[i] = b;
            binStart[b + 1]++;
        }
        for (int b = 0; b < bins; b++) {
            binStart[b + 1] += binStart[b];
        }
        if (binFill.length < bins) {
            binFill = new int[bins];
        }
        System.arraycopy(binStart, 0, binFill, 0, bins);
        for (int i = 0; i < n; i++) {
            binAtoms[binFill[binOf[i]]++] = i;
        }

        // Neighbour bins per axis: -1, 0, +1 (periodic: wrapped, without repeating a bin).
        for (int k = 0; k < 3; k++) {
            offsets[k] = nb[k] == 1 ? ONE : nb[k] == 2 && mi.periodic(k) ? TWO : THREE;
        }
        double rc2 = cutoffA * cutoffA;
        for (int i = 0; i < n; i++) {
            int b = binOf[i];
            int c2 = b % nb[2];
            int c1 = (b / nb[2]) % nb[1];
            int c0 = b / (nb[1] * nb[2]);
            int count = 0;
            for (int o0 : offsets[0]) {
                int a0 = wrap(c0 + o0, nb[0], mi.periodic(0));
                if (a0 < 0) {
                    continue;
                }
                for (int o1 : offsets[1]) {
                    int a1 = wrap(c1 + o1, nb[1], mi.periodic(1));
                    if (a1 < 0) {
                        continue;
                    }
                    for (int o2 : offsets[2]) {
                        int a2 = wrap(c2 + o2, nb[2], mi.periodic(2));
                        if (a2 < 0) {
                            continue;
                        }
                        int bb = (a0 * nb[1] + a1) * nb[2] + a2;
                        for (int p = binStart[bb]; p < binStart[bb + 1]; p++) {
                            int j = binAtoms[p];
                            if (j == i) {
                                continue;
                            }
                            d[0] = r[3 * j] - r[3 * i];
                            d[1] = r[3 * j + 1] - r[3 * i + 1];
                            d[2] = r[3 * j + 2] - r[3 * i + 2];
                            mi.apply(d, 0);
                            double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                            if (d2 < rc2) {
                                if (count == found.length) {
                                    found = Arrays.copyOf(found, 2 * count);
                                }
                                found[count++] = j;
                            }
                        }
                    }
                }
            }
            // Increasing j within the row, as AllPairsSearch produces them.
            Arrays.sort(found, 0, count);
            for (int q = 0; q < count; q++) {
                int j = found[q];
                double dist = mi.measure(r, i, j, d);
                if (dist < COINCIDENT_A) {
                    throw NeighbourSearch.coincident(atoms, i, j, dist);
                }
                if (dist < cutoffA) {
                    out.add(i, j, d[0], d[1], d[2], dist);
                }
            }
        }
        out.finish();
        out.measuredFrom(r, mi);
    }

    /**
     * Lets go of the per-atom and per-bin buffers (about 36 bytes an atom), for an owner that
     * searches rarely (a Verlet list between rebuilds); the next search allocates them again.
     */
    void releaseBuffers() {
        frac = new double[0];
        binOf = new int[0];
        binStart = new int[0];
        binAtoms = new int[0];
        binFill = new int[0];
        found = new int[64];
    }

    /** The minimum-image helper of {@code cell}, cached while the cell stays the same. */
    MinimumImage imageFor(Cell cell) {
        if (cell != lastCell) {
            image = new MinimumImage(cell);
            lastCell = cell;
        }
        return image;
    }

    private static int wrap(int c, int n, boolean periodic) {
        if (c >= 0 && c < n) {
            return c;
        }
        if (!periodic) {
            return -1;
        }
        return Math.floorMod(c, n);
    }

    private static int largestNonPeriodic(int[] nb, MinimumImage mi) {
        int best = -1;
        for (int k = 0; k < 3; k++) {
            if (!mi.periodic(k) && nb[k] > 1 && (best < 0 || nb[k] > nb[best])) {
                best = k;
            }
        }
        return best;
    }

    /** Distance between the faces of the unit cell spanned by the other two vectors, Å. */
    private static double perpendicularWidth(double[][] h, int k) {
        double[] a = h[(k + 1) % 3];
        double[] b = h[(k + 2) % 3];
        double nx = a[1] * b[2] - a[2] * b[1];
        double ny = a[2] * b[0] - a[0] * b[2];
        double nz = a[0] * b[1] - a[1] * b[0];
        double vol = Math.abs(h[k][0] * nx + h[k][1] * ny + h[k][2] * nz);
        return vol / Math.sqrt(nx * nx + ny * ny + nz * nz);
    }
}
