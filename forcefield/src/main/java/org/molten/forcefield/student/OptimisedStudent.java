package org.molten.forcefield.student;

import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.ForceField;
import org.molten.core.HeapBudget;
import org.molten.forcefield.neighbours.EdgeList;
import org.molten.forcefield.neighbours.VerletList;

/**
 * The optimised CPU student: the model of docs/model.md (PaiNN, Schütt, Unke and Gastegger,
 * ICML 2021) with a Verlet-skin cell-list neighbour search, message passing fused over undirected
 * pairs with a hand-derived fused backward pass, a small thread team, and ND4J GEMMs for the
 * atom-wise dense layers of large systems. Float64 by default (agrees with
 * {@link ReferenceStudent} to ~1e-12 relative); float32 on request (~1e-6).
 *
 * <p>Not thread-safe (one instance per simulation); {@link #close()} stops its worker threads.
 */
public final class OptimisedStudent implements ForceField {

    /** Arithmetic of the features and weights (geometry and forces are always float64). */
    public enum Precision {
        /** IEEE double throughout. */
        FLOAT64,
        /** IEEE single for features, weights and per-pair channel work. */
        FLOAT32
    }

    /** How the atom-wise dense layers are computed. */
    public enum DenseBackend {
        /** ND4J GEMMs from {@link Options#nd4jMinAtoms} atoms on (when ND4J loads), loops below. */
        AUTO,
        /** Always plain Java loops. */
        LOOPS,
        /** Always ND4J (falls back to loops, with one warning, if ND4J cannot load). */
        ND4J
    }

    /**
     * Atoms from which ND4J GEMMs beat the Java loops for the dense layers (measured with
     * {@code molten bench --device cpu}; see docs/benchmarks.md).
     */
    public static final int ND4J_MIN_ATOMS = 150;

    /** Atoms from which a second thread pays for its synchronisation (measured, docs/benchmarks.md). */
    public static final int PARALLEL_MIN_ATOMS = 12;

    /** Atoms from which the atoms are processed in space-filling-curve order (cache locality). */
    static final int SPATIAL_ORDER_MIN_ATOMS = 64;

    /** Default thread count: the available processors, at most 4 (per-thread buffers grow with it). */
    public static final int DEFAULT_THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    /**
     * Options of the optimised path.
     *
     * @param precision        float64 (default) or float32
     * @param threads          worker threads in all (the caller included), at least 1
     * @param skinA            Verlet skin in Å (0 rebuilds the neighbour list every call)
     * @param dense            dense-layer backend
     * @param nd4jMinAtoms     atoms from which {@link DenseBackend#AUTO} uses ND4J
     * @param parallelMinAtoms atoms from which more than one thread is used
     */
    public record Options(Precision precision, int threads, double skinA, DenseBackend dense, int nd4jMinAtoms,
                          int parallelMinAtoms) {
        public Options {
            if (precision == null || dense == null) {
                throw new IllegalArgumentException("precision and dense backend must be given");
            }
            Checks.requirePositive(threads, "threads");
            Checks.requireNonNegative(skinA, "Verlet skin (Å)");
            Checks.requireNonNegative(nd4jMinAtoms, "nd4jMinAtoms");
            Checks.requireNonNegative(parallelMinAtoms, "parallelMinAtoms");
        }

        /** Float64, {@link #DEFAULT_THREADS}, the default skin, AUTO dense backend, measured thresholds. */
        public static Options defaults() {
            return new Options(Precision.FLOAT64, DEFAULT_THREADS, VerletList.DEFAULT_SKIN_A, DenseBackend.AUTO,
                    ND4J_MIN_ATOMS, PARALLEL_MIN_ATOMS);
        }

        public Options withPrecision(Precision p) {
            return new Options(p, threads, skinA, dense, nd4jMinAtoms, parallelMinAtoms);
        }

        public Options withThreads(int n) {
            return new Options(precision, n, skinA, dense, nd4jMinAtoms, parallelMinAtoms);
        }

        public Options withSkinA(double s) {
            return new Options(precision, threads, s, dense, nd4jMinAtoms, parallelMinAtoms);
        }

        public Options withDense(DenseBackend d) {
            return new Options(precision, threads, skinA, d, nd4jMinAtoms, parallelMinAtoms);
        }

        public Options withNd4jMinAtoms(int n) {
            return new Options(precision, threads, skinA, dense, n, parallelMinAtoms);
        }

        public Options withParallelMinAtoms(int n) {
            return new Options(precision, threads, skinA, dense, nd4jMinAtoms, n);
        }
    }

    private final StudentWeights weights;
    private final Options options;
    private final VerletList neighbours;
    private final EdgeList edges = EdgeList.indicesOnly();   // r_ij measured again at each visit
    private final PhasePool pool;
    private final StudentEngine engine;
    private int[] speciesRows = new int[0];
    private final SpatialOrder spatialOrder = new SpatialOrder();
    private int[] order;
    private boolean lastUsedNd4j;
    private boolean closed;
    private long budgetedBytes;   // heap already checked against the limit (StudentMemory's estimate)
    private boolean memorySaving;

    /** An optimised student with {@link Options#defaults()}. */
    public OptimisedStudent(StudentWeights weights) {
        this(weights, Options.defaults());
    }

    public OptimisedStudent(StudentWeights weights, Options options) {
        this.weights = weights;
        this.options = options;
        this.neighbours = new VerletList(options.skinA());
        this.pool = new PhasePool(options.threads(), "molten-student");
        this.engine = options.precision() == Precision.FLOAT64
                ? new StudentEngineF64(weights, options.threads())
                : new StudentEngineF32(weights, options.threads());
    }

    @Override
    public String name() {
        return options.precision() == Precision.FLOAT64 ? "student/optimised" : "student/optimised-f32";
    }

    /** The weights' SHA-256 ({@link StudentWeights#fingerprint()}): a restart with other weights is refused. */
    @Override
    public String parametersFingerprint() {
        return "student-weights sha256:" + weights.fingerprint();
    }

    /** The options in force. */
    public Options options() {
        return options;
    }

    /** The weights this model evaluates. */
    public StudentWeights weights() {
        return weights;
    }

    /** How many times the Verlet neighbour list has been rebuilt. */
    public long neighbourListRebuilds() {
        return neighbours.rebuildCount();
    }

    /** Whether the last call computed the dense layers with ND4J. */
    public boolean lastCallUsedNd4j() {
        return lastUsedNd4j;
    }

    @Override
    public boolean providesPerAtomEnergies() {
        return true;
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        return energyAndForces(atoms, forces, null);
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        if (closed) {
            throw new IllegalStateException(name() + " is closed");
        }
        int n = atoms.size();
        ForceField.requireOutputLengths(atoms, forces, perAtomEnergiesEv);
        if (speciesRows.length < n) {
            speciesRows = new int[n];
        }
        for (int i = 0; i < n; i++) {
            int z = atoms.atomicNumber(i);
            try {
                speciesRows[i] = weights.speciesIndex(z);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("atom " + i + ": " + e.getMessage(), e);
            }
        }
        // Refuse a system too large for the heap before the buffers are allocated: first with the
        // pairs of a liquid (before the neighbour search allocates), then with the pairs found.
        requireHeap(n, StudentMemory.pairsAtDensity(n, weights.cutoffA(), StudentMemory.CONDENSED_ATOMS_PER_A3));
        neighbours.search(atoms, weights.cutoffA(), edges);
        requireHeap(n, edges.size() / 2);
        // Process large systems along a space-filling curve, computed from the positions of this call: an order
        // kept from the last neighbour-list build would depend on when that was, and with it the order of the
        // pair sums, so that a run restarted from a checkpoint (which builds its list afresh) drifted from the
        // run that went on by ulps (StudentWaterBoxRestartTest). Its cost is a sort of n keys per call.
        if (n < SPATIAL_ORDER_MIN_ATOMS || n >= 1 << 21) {
            order = null;
        } else {
            order = spatialOrder.compute(atoms, 0.5 * weights.cutoffA());
        }
        int threads = n >= options.parallelMinAtoms() ? options.threads() : 1;
        boolean nd4j = switch (options.dense()) {
            case LOOPS -> false;
            case ND4J -> true;
            case AUTO -> n >= options.nd4jMinAtoms();
        };
        nd4j = nd4j && Nd4jSupport.available();
        if (nd4j) {
            try {
                lastUsedNd4j = true;
                return engine.evaluate(n, speciesRows, order, edges, forces, perAtomEnergiesEv, pool, threads, true);
            } catch (RuntimeException | LinkageError e) {
                Nd4jSupport.disable("ND4J GEMM failed (" + e + ")");
            }
        }
        lastUsedNd4j = false;
        return engine.evaluate(n, speciesRows, order, edges, forces, perAtomEnergiesEv, pool, threads, false);
    }

    /**
     * Checks the heap the buffers need; when the fast layout does not fit, switches (for good) to
     * the memory-saving one, which recomputes each block's forward state in the backward pass.
     */
    private void requireHeap(int atoms, long pairs) {
        long fast = StudentMemory.optimisedBytes(weights, options, atoms, pairs, false);
        if (!memorySaving && fast > budgetedBytes && !HeapBudget.fits(fast - budgetedBytes)) {
            useMemorySavingLayout();
        }
        long estimate = StudentMemory.optimisedBytes(weights, options, atoms, pairs, memorySaving);
        if (estimate > budgetedBytes) {
            HeapBudget.require(name() + (memorySaving ? " (memory-saving layout)" : ""), atoms, estimate - budgetedBytes);
            budgetedBytes = estimate;
        }
    }

    /**
     * From the next call on, the memory-saving layout: the interaction blocks share one set of
     * buffers, keep no block's input features, and the atom-wise intermediates live only per tile of
     * 64 atoms; the backward pass of each block runs the blocks before it again and recomputes its
     * intermediates tile by tile (at F = 128, T = 3 in float64 18 instead of 75 F-wide rows per atom:
     * 26.5 instead of 84.7 KB per atom retained on a 3,000-atom water box with two threads), the
     * same forces bit for bit. Chosen by itself when the fast layout does not fit the heap.
     */
    public void useMemorySavingLayout() {
        memorySaving = true;
        engine.setRecompute(true);
    }

    /** Whether the memory-saving layout is in use. */
    public boolean memorySavingLayout() {
        return memorySaving;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            pool.close();
            engine.close();
        }
    }
}
