package org.molten.forcefield.cuda;

import java.util.Locale;
import org.molten.core.Checks;

/**
 * How the GPU path runs a system. Every default is defined here once; {@link #fromSystemProperties()}
 * lets benchmarks and users override them ({@code -Dmolten.cuda.mode=stages}, ...).
 *
 * @param mode            kernel organisation (see {@link Mode})
 * @param graphs          capture CUDA graphs (per system size and neighbour capacity) and replay them
 * @param stepsPerLaunch  MD steps per graph launch (K): no host synchronisation inside
 * @param graphCacheSize  graphs kept per simulation (least recently used evicted)
 * @param largeSystemAtoms from this many atoms on, the tiled dense layers and one channel per lane
 *                        in the message stages are used (throughput rather than latency)
 * @param cellListAtoms   from this many atoms on, periodic orthorhombic systems use the device
 *                        cell list instead of the all-pairs search
 * @param fp32State       round positions and velocities to float32 after every update (only to
 *                        measure what float64 state buys in energy conservation)
 */
public record CudaOptions(Mode mode, boolean graphs, int stepsPerLaunch, int graphCacheSize, int largeSystemAtoms,
                          int cellListAtoms, boolean fp32State) {

    /** Kernel organisation. */
    public enum Mode {
        /** MOLECULE for small molecules it can hold on an sm_90 GPU, else STAGES. */
        AUTO,
        /** One kernel per stage (about 37 per MD step), captured into a graph. */
        STAGES,
        /**
         * Small molecules: whole MD steps in one 16-block cluster with every activation in shared memory,
         * each block owning a slice of the channels ({@code molten_small.cuh}); up to {@link #MOLECULE_ATOMS}
         * atoms, F of 64, 128 or 256 and as many atoms as fit into a multiprocessor's shared memory
         * (24 at F = 128, T = 3), on sm_90 or newer; STAGES otherwise. (The cluster- and grid-wide megakernels
         * of every size were measured slower than the stage kernels and left the code: git history.)
         */
        MOLECULE
    }

    public static final Mode DEFAULT_MODE = Mode.AUTO;

    public static final boolean DEFAULT_GRAPHS = true;
    public static final int DEFAULT_STEPS_PER_LAUNCH = 10;
    public static final int DEFAULT_GRAPH_CACHE_SIZE = 8;
    /**
     * Measured on the H200 (fourth round of 2026-11-21; docs/benchmarks.md at commit b439b6f): with K-split dense layers the tiled
     * path is faster at every size measured above the small-molecule kernel's range (26, 35, 50, 100 atoms: 205,
     * 210, 214, 232 vs 306, 310, 322, 376 us per MD step); below 25 atoms the stage kernels run only where the
     * small-molecule kernel cannot, and keep the warp path (not measured there).
     */
    public static final int DEFAULT_LARGE_SYSTEM_ATOMS = 25;
    public static final int DEFAULT_CELL_LIST_ATOMS = 1024;
    /** Up to this many atoms AUTO uses the small-molecule kernel (when it fits, {@link Mode#MOLECULE}). */
    public static final int MOLECULE_ATOMS = 32;

    /** Every system property read here, with what it selects and why it exists (for {@code molten info}). */
    public static final java.util.List<String[]> PROPERTIES = java.util.List.of(
            new String[] {"molten.cuda.mode", "auto|stages|molecule", "kernel organisation; auto: the small-molecule"
                    + " kernel where a molecule fits (sm_90), else one kernel per stage; to time or rule out one"},
            new String[] {"molten.cuda.graphs", "true|false", "capture CUDA graphs and replay them (default true);"
                    + " false times the eager launches"},
            new String[] {"molten.cuda.stepsPerLaunch", "K > 0", "MD steps per graph launch without host"
                    + " synchronisation (default " + DEFAULT_STEPS_PER_LAUNCH + ")"},
            new String[] {"molten.cuda.largeSystemAtoms", "N > 0", "from N atoms on, the tiled dense layers and"
                    + " warp-per-row message passes (default " + DEFAULT_LARGE_SYSTEM_ATOMS + ", measured)"},
            new String[] {"molten.cuda.fp32State", "true|false", "round positions and velocities to float32 after"
                    + " every update, only to measure what float64 state buys in energy conservation"},
            new String[] {"molten.cuda.serialConstraints", "true|false", "solve RATTLE's pairs serially on one thread"
                    + " instead of one constraint group per lane (the same bits), only to measure what the groups buy"});

    public CudaOptions {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        Checks.requirePositive(stepsPerLaunch, "stepsPerLaunch");
        Checks.requirePositive(graphCacheSize, "graphCacheSize");
        Checks.requirePositive(largeSystemAtoms, "largeSystemAtoms");
        Checks.requirePositive(cellListAtoms, "cellListAtoms");
    }

    /** The defaults. */
    public static CudaOptions defaults() {
        return new CudaOptions(DEFAULT_MODE, DEFAULT_GRAPHS, DEFAULT_STEPS_PER_LAUNCH, DEFAULT_GRAPH_CACHE_SIZE,
                DEFAULT_LARGE_SYSTEM_ATOMS, DEFAULT_CELL_LIST_ATOMS, false);
    }

    /**
     * The defaults overridden by the system properties of {@link #PROPERTIES}.
     *
     * @throws IllegalArgumentException for a value that is not one of those, or an unknown {@code molten.cuda.*}
     *                                  name ({@link CudaProperties})
     */
    public static CudaOptions fromSystemProperties() {
        CudaProperties.refuseUnknown(System.getProperties());
        CudaOptions d = defaults();
        String m = System.getProperty("molten.cuda.mode");
        Mode mode = d.mode;
        if (m != null) {
            try {
                mode = Mode.valueOf(m.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("molten.cuda.mode must be auto, stages or molecule: " + m);
            }
        }
        boolean graphs = bool("molten.cuda.graphs", d.graphs);
        int k = positiveInt("molten.cuda.stepsPerLaunch", d.stepsPerLaunch);
        boolean fp32 = bool("molten.cuda.fp32State", d.fp32State);
        int large = positiveInt("molten.cuda.largeSystemAtoms", d.largeSystemAtoms);
        return new CudaOptions(mode, graphs, k, d.graphCacheSize, large, d.cellListAtoms, fp32);
    }

    /** A positive integer property; a value that is not one is refused (Integer.getInteger would ignore it). */
    private static int positiveInt(String key, int dflt) {
        String v = System.getProperty(key);
        if (v == null) {
            return dflt;
        }
        try {
            int x = Integer.parseInt(v.trim());
            if (x > 0) {
                return x;
            }
        } catch (NumberFormatException e) {
            // refused below, with the key
        }
        throw new IllegalArgumentException(key + " must be a positive whole number: " + v);
    }

    private static boolean bool(String key, boolean dflt) {
        String v = System.getProperty(key);
        if (v == null) {
            return dflt;
        }
        if (v.equalsIgnoreCase("true") || v.equals("1")) {
            return true;
        }
        if (v.equalsIgnoreCase("false") || v.equals("0")) {
            return false;
        }
        throw new IllegalArgumentException(key + " must be true or false: " + v);
    }

    public CudaOptions withMode(Mode m) {
        return new CudaOptions(m, graphs, stepsPerLaunch, graphCacheSize, largeSystemAtoms, cellListAtoms,
                fp32State);
    }

    public CudaOptions withGraphs(boolean g) {
        return new CudaOptions(mode, g, stepsPerLaunch, graphCacheSize, largeSystemAtoms, cellListAtoms,
                fp32State);
    }

    public CudaOptions withStepsPerLaunch(int k) {
        return new CudaOptions(mode, graphs, k, graphCacheSize, largeSystemAtoms, cellListAtoms,
                fp32State);
    }

    public CudaOptions withFp32State(boolean f) {
        return new CudaOptions(mode, graphs, stepsPerLaunch, graphCacheSize, largeSystemAtoms, cellListAtoms,
                f);
    }

    public CudaOptions withLargeSystemAtoms(int n) {
        return new CudaOptions(mode, graphs, stepsPerLaunch, graphCacheSize, n, cellListAtoms,
                fp32State);
    }

    public CudaOptions withCellListAtoms(int n) {
        return new CudaOptions(mode, graphs, stepsPerLaunch, graphCacheSize, largeSystemAtoms, n,
                fp32State);
    }
}
