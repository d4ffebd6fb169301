package org.molten.forcefield.neighbours;

import java.util.Arrays;

/**
 * Directed edges (i &lt;- j) sorted by receiving atom i, in compressed-row form: the edges of atom
 * i are {@code rowStart(i) .. rowStart(i+1)-1}. Each edge stores the sending atom j, the
 * minimum-image displacement r_ij = r_j - r_i (Å) and its length d_ij (Å).
 *
 * <p>A reusable buffer: searches {@link #reset(int)} it and append edges atom by atom, so that a
 * caller that keeps one instance allocates nothing once capacities have grown. Within one
 * receiving atom, edges are in increasing j order (so two searches give identical lists).
 */
public final class EdgeList {
    private int atoms;
    private int count;
    private int[] rowStart = new int[1];
    private int[] neighbour = new int[16];
    private double[] vector = new double[48];
    private double[] distance = new double[16];
    private int currentRow;
    private final boolean geometry;
    // what the search measured from (VerletList, CellList), for measure(): positions (Å) and cell
    private double[] source;
    private MinimumImage image;

    /** An empty list that stores the displacements and distances of its edges. */
    public EdgeList() {
        this(true);
    }

    private EdgeList(boolean geometry) {
        this.geometry = geometry;
        if (!geometry) {
            vector = new double[0];
            distance = new double[0];
        }
    }

    /**
     * An empty list that keeps only which atoms are neighbours: 4 bytes per edge instead of 36 (a
     * Verlet list's candidates, whose geometry is measured again at every search; the optimised
     * student's edges, which it measures again at each visit with {@link #measure}). Its
     * {@link #vector}, {@link #distance} and their arrays are not available.
     */
    public static EdgeList indicesOnly() {
        return new EdgeList(false);
    }

    /** Empties the list for a system of {@code atomCount} atoms. */
    public void reset(int atomCount) {
        atoms = atomCount;
        count = 0;
        currentRow = 0;
        if (rowStart.length < atomCount + 1) {
            rowStart = new int[atomCount + 1];
        }
        rowStart[0] = 0;
        source = null;
        image = null;
    }

    /** Records the positions (Å, flat [3N]) and minimum image the search measured its edges with. */
    void measuredFrom(double[] positions, MinimumImage mi) {
        source = positions;
        image = mi;
    }

    /**
     * r_ij of edge {@code e} of receiving atom {@code i} into {@code d[0..2]} (Å), returning |r_ij|
     * (Å): measured again from the positions the search used, by the search's own arithmetic, so
     * the bits are those {@link #vector} and {@link #distance} store (when the list keeps them).
     * The positions are read live: valid while they are those of the search.
     *
     * @throws IllegalStateException when the list was not filled by a VerletList or CellList search
     */
    public double measure(int i, int e, double[] d) {
        if (image == null) {
            throw new IllegalStateException("edge list: no positions to measure from (only a VerletList or CellList"
                    + " search records them)");
        }
        return image.measure(source, i, neighbour[e], d);
    }

    /**
     * Drops the spare capacity (for a list kept unchanged for many steps, such as a Verlet list's
     * candidates; at 200,000 water atoms up to half of 10 million edges).
     */
    public void trimToSize() {
        if (neighbour.length > count) {
            resize(count);
        }
    }

    /**
     * Appends edge i &lt;- j. Edges must arrive in non-decreasing i.
     *
     * @param i receiving atom
     * @param j sending atom
     * @param x x component of r_ij = r_j - r_i, Å (minimum image)
     * @param d |r_ij|, Å
     */
    public void add(int i, int j, double x, double y, double z, double d) {
        while (currentRow < i) {
            rowStart[++currentRow] = count;
        }
        if (i < currentRow) {
            throw new IllegalStateException("edges must be added in order of the receiving atom");
        }
        if (count == neighbour.length) {
            // Grown by half, not doubled: the capacity is kept between searches, and for a large
            // system (10 million edges at 200,000 water atoms, 36 bytes each) the unused tail of a
            // doubled array can be most of a gigabyte.
            resize(Math.max(16, neighbour.length + neighbour.length / 2));
        }
        neighbour[count] = j;
        if (geometry) {
            vector[3 * count] = x;
            vector[3 * count + 1] = y;
            vector[3 * count + 2] = z;
            distance[count] = d;
        }
        count++;
    }

    /**
     * Keeps only the edges i &lt;- j with j &gt; i (in place, order kept): each pair once, in the row
     * of its lower atom. For a Verlet list's candidates.
     */
    void keepUpper() {
        int kept = 0;
        int start = 0;
        for (int i = 0; i < atoms; i++) {
            int end = rowStart[i + 1];
            rowStart[i] = kept;
            for (int e = start; e < end; e++) {
                if (neighbour[e] > i) {
                    neighbour[kept++] = neighbour[e];
                }
            }
            start = end;
        }
        rowStart[atoms] = kept;
        count = kept;
        currentRow = atoms;
    }

    /**
     * Starts a list of {@code atomCount} atoms whose rows are filled out of order by {@link #set}:
     * {@code rowCounts[i]} edges for atom i (i &lt; atomCount), turned here into each row's next
     * free slot. {@link #finish} closes it.
     */
    void fill(int atomCount, int[] rowCounts) {
        reset(atomCount);
        int total = 0;
        for (int i = 0; i < atomCount; i++) {
            rowStart[i] = total;
            int c = rowCounts[i];
            rowCounts[i] = total;
            total += c;
        }
        rowStart[atomCount] = total;
        currentRow = atomCount;
        if (neighbour.length < total) {
            resize(total + total / 32 + 16);
        }
        count = total;
    }

    /** Edge slot {@code e} of a list begun by {@link #fill}: neighbour j and, with geometry, r_ij and d_ij (Å). */
    void set(int e, int j, double x, double y, double z, double d) {
        neighbour[e] = j;
        if (geometry) {
            vector[3 * e] = x;
            vector[3 * e + 1] = y;
            vector[3 * e + 2] = z;
            distance[e] = d;
        }
    }

    /** Whether the list keeps r_ij and d_ij. */
    boolean keepsGeometry() {
        return geometry;
    }

    /** Closes the row index after the last {@link #add}. */
    public void finish() {
        while (currentRow < atoms) {
            rowStart[++currentRow] = count;
        }
        // A capacity far above the edges (grown by half, or left by a larger system) is cut back
        // to them plus 1/32, so that the next searches of a simulation, whose edge counts move by
        // well under that, neither grow it nor keep up to half of it unused.
        if (neighbour.length - count > count / 8 + 64) {
            resize(count + count / 32 + 16);
        }
    }

    private void resize(int cap) {
        neighbour = Arrays.copyOf(neighbour, cap);
        if (geometry) {
            distance = Arrays.copyOf(distance, cap);
            vector = Arrays.copyOf(vector, 3 * cap);
        }
    }

    /** Edges the list holds room for without growing. */
    public int capacity() {
        return neighbour.length;
    }

    /** Number of atoms of the system. */
    public int atomCount() {
        return atoms;
    }

    /** Number of directed edges. */
    public int size() {
        return count;
    }

    /** First edge of receiving atom {@code i}; {@code rowStart(atomCount())} is {@link #size()}. */
    public int rowStart(int i) {
        return rowStart[i];
    }

    /** Receiving atom of edge {@code e} (binary search; use {@link #rowStart} in loops). */
    public int centre(int e) {
        int lo = 0;
        int hi = atoms - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (rowStart[mid] <= e) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Sending atom j of edge {@code e}. */
    public int neighbour(int e) {
        return neighbour[e];
    }

    /** Component {@code k} of r_ij of edge {@code e}, Å. */
    public double vector(int e, int k) {
        return vector[3 * e + k];
    }

    /** d_ij of edge {@code e}, Å. */
    public double distance(int e) {
        return distance[e];
    }

    /** Sending atoms, backing array (valid up to {@link #size()}); read only. */
    public int[] neighbourArray() {
        return neighbour;
    }

    /** Displacements r_ij as [x0, y0, z0, x1, ...], backing array; read only. */
    public double[] vectorArray() {
        return vector;
    }

    /** Distances, backing array; read only. */
    public double[] distanceArray() {
        return distance;
    }

    /** Row starts, backing array of length at least atomCount()+1; read only. */
    public int[] rowStarts() {
        return rowStart;
    }
}
