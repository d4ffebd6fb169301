package org.molten.forcefield.student;

import org.molten.core.HeapBudget;

/**
 * Estimate of the Java heap the optimised student ({@link OptimisedStudent}) keeps for a system,
 * counted from the buffers it allocates (StudentBuffersR.java.template, PairGeometryR, ForeignRowsR,
 * the neighbour lists), so that a system too large for the heap is refused before anything is
 * allocated ({@link HeapBudget}). Per atom at F = 128, T = 3 in float64: about 80 KB in the fast
 * layout, 18 KB in the memory-saving one; per neighbour pair within the cutoff about 49 bytes
 * (the pair's gradients, the directed edges and the Verlet candidates, indices only); the
 * threads' foreign rows (6 F-wide rows per atom near the boundary of a thread's region); fixed:
 * the tiles of the memory-saving layout and the engine's copies of the weights. ND4J's GEMM
 * buffers live outside the heap and are not counted.
 */
public final class StudentMemory {
    /** Atoms per Å³ of liquid water at 1 g/cm³: the densest common case, for estimates before a neighbour search. */
    public static final double CONDENSED_ATOMS_PER_A3 = 0.1003;

    private static final int ARRAY_HEADER = 16;
    private static final int REFERENCE = 4;          // compressed references (heaps under 32 GB)
    private static final int EDGE_BYTES = 4;          // EdgeList.indicesOnly: the neighbour (r_ij measured again)
    private static final int CANDIDATE_BYTES = 4;     // the Verlet list's candidates: the neighbour only
    private static final double EDGE_SLACK = 1.125;   // EdgeList.finish leaves at most 1/8 spare capacity
    private static final double SLACK = 1.04;

    private StudentMemory() {}

    /**
     * Heap bytes of an optimised student's buffers for {@code atoms} atoms with {@code pairs}
     * undirected pairs within the cutoff.
     */
    public static long optimisedBytes(StudentWeights w, OptimisedStudent.Options o, long atoms, long pairs) {
        return optimisedBytes(w, o, atoms, pairs, false);
    }

    /**
     * As {@link #optimisedBytes(StudentWeights, OptimisedStudent.Options, long, long)}, in the
     * memory-saving layout when {@code recompute} (the blocks share one set of per-block buffers and
     * only each block's input features are kept).
     */
    public static long optimisedBytes(StudentWeights w, OptimisedStudent.Options o, long atoms, long pairs,
                                      boolean recompute) {
        int real = o.precision() == OptimisedStudent.Precision.FLOAT64 ? 8 : 4;
        int f = w.hidden();
        int fh = w.readoutHidden();
        int layers = w.layers();
        int threads = o.threads();
        long rowF = ARRAY_HEADER + align(f * (long) real) + REFERENCE;
        long rowFh = ARRAY_HEADER + align(fh * (long) real) + REFERENCE;
        // Fast layout (StudentBuffersR): s, sMid = gSmid, gS, h, g1..g4; vMid = gVmid, gV, gUv, gVv
        // (3 rows each); per block v_in, U v, V v (3 rows each) and 11 scalar rows, less the 5 rows no
        // block touches (references to a row of zeros); the readout's 2 F_h rows.
        // Memory-saving layout: s, sMid, g1..g3 (gS shares g3's rows); vMid, gV, v (3 rows each); one
        // set of phi_vv, phi_s, phi_vs, whatever T. The other intermediates (23 F rows, 2 F_h rows per
        // atom) live in each thread's tile rows, their buffers holding only references (25 per atom).
        long rowsF = recompute ? 5 + 9 + 3
                : 8 + 12 + 20L * layers - 5;
        long perAtom = rowsF * rowF + (recompute ? (3 + 25) * REFERENCE : 5 * REFERENCE + 2 * rowFh)
                + 3 * 4 + 8                          // species, order, rank; atom energies
                + 4L * threads                       // each thread's foreign-slot map (ForeignRowsR)
                + 4                                  // each centre's first pair (PairGeometryR)
                + 4 + 4 + 24 + 4;                    // species rows; spatial order; Verlet reference, row counts
        // Pairs (PairGeometryR): dE/dd and dE/du (4 doubles, 1/32 spare); the directed
        // edges (2 per pair, neighbours only, up to 1/8 spare capacity, the worst case taken) and the
        // Verlet candidate pairs within cutoff + skin (once each, trimmed to size, a bit each for the
        // search), as many more as the volume ratio says.
        double skin = (w.cutoffA() + o.skinA()) / w.cutoffA();
        double perPair = 32 * 33 / 32.0 + 2 * EDGE_SLACK * EDGE_BYTES + (CANDIDATE_BYTES + 0.125) * skin * skin * skin;
        // G1 gives an array of half a region or more whole regions, and the collector needs some room:
        // measured on a 3000-atom water box, the live heap is 3-8% above the sum of the arrays.
        // (phi's two tiled rows share g_U v's tile rows, StudentBuffersR)
        long tiles = recompute ? (long) threads * StudentBuffersF64.TILE * (21 * rowF + 2 * rowFh) : 0;
        // The engine's copies of the weights (BlockWeightsR: 22 F x F matrices in both orientations,
        // the filter's n_rbf rows, 12 biases per block; the readout both ways; the embedding): fixed,
        // 9 MB in float64 at F = 128, T = 3.
        long vectorF = ARRAY_HEADER + align(f * (long) real);
        long weights = layers * ((22L * f + 3L * w.nRbf()) * rowF + 12 * vectorF)
                + (long) f * rowFh + (long) fh * rowF + (long) w.speciesCount() * rowF;
        return (long) Math.ceil(SLACK * (atoms * perAtom + pairs * perPair + tiles + weights
                + foreignAtoms(atoms, pairs, w.cutoffA(), threads) * (ForeignRowsF64.ROWS * rowF + 3 * 8)));
    }

    /**
     * Atoms for which the threads of the pair passes keep foreign rows (ForeignRowsR): all threads
     * but the last keep them for the atoms within the cutoff beyond their region of atoms/threads
     * atoms, taken as the shell of a cube of that volume, at most the region's own atom count (the
     * space-filling curve's regions are ragged, not cubes, so a thin shell would undercount). The
     * density comes from the pairs per atom.
     */
    static long foreignAtoms(long atoms, long pairs, double cutoffA, int threads) {
        if (threads < 2 || atoms == 0) {
            return 0;
        }
        double density = 2.0 * pairs / atoms / (4.0 / 3.0 * Math.PI * cutoffA * cutoffA * cutoffA);   // per Å³
        double region = (double) atoms / threads;
        double side = Math.cbrt(region / Math.max(density, 1e-12));
        double shell = 6.0 * side * side * cutoffA * density;
        return (long) Math.ceil((threads - 1) * Math.min(region, shell));
    }

    /** Undirected pairs within {@code cutoffA} of {@code atoms} atoms at a uniform density (atoms per Å³), at most all pairs. */
    public static long pairsAtDensity(long atoms, double cutoffA, double atomsPerA3) {
        long dense = (long) Math.ceil(0.5 * atoms * atomsPerA3 * 4.0 / 3.0 * Math.PI * cutoffA * cutoffA * cutoffA);
        return Math.min(dense, atoms * (atoms - 1) / 2);
    }

    /**
     * Refuses (before allocating) a system whose buffers would not fit the heap.
     *
     * @throws HeapBudget.InsufficientHeapException naming the atoms, the estimate and the -Xmx to use
     */
    public static void requireHeapFor(String what, StudentWeights w, OptimisedStudent.Options o, long atoms, long pairs) {
        HeapBudget.require(what, atoms, optimisedBytes(w, o, atoms, pairs, true));
    }

    private static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }
}
