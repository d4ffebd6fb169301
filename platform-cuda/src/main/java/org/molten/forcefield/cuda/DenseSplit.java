package org.molten.forcefield.cuda;

/**
 * How many ways a tiled dense stage (dense_tile in molten_dense.cuh) splits its input dimension K.
 *
 * <p>A tiled stage has one work item per 32-row tile; a 201-atom F-wide layer has 7 to 28 of them
 * and a 3,000-atom one 94, against 2 blocks x 132 multiprocessors on an H200. Each block then walks
 * its K in a serial chain of 32-wide chunks, and that chain, not the arithmetic, sets the stage's
 * time. With S splits a tile becomes S work items over a share of the chunks each; the block that
 * finishes a tile last adds the S partial tiles in split order (deterministic) and runs the epilogue.
 * The price is the partial tiles' round trip through L2 and one more dependent step.
 *
 * <p>The automatic choice minimises a count in units of one chunk's time: waves of work items over the
 * GPU's block slots times (chunks per split + one chunk of per-item overhead), plus two chunks for the
 * combination when S &gt; 1. System property {@value #PROPERTY}: {@code auto} (the default) or a
 * fixed number of splits (clamped to the chunks and to the scratch bound), for timing side by side.
 */
final class DenseSplit {
    /** System property: {@code auto} or a positive number of K splits. Read when a system is set up. */
    static final String PROPERTY = "molten.cuda.denseSplit";
    /** Most splits of one stage. */
    static final int MAX_SPLITS = 16;
    /** Work items (tiles x splits) of one split stage at most, per multiprocessor: bounds the scratch. */
    static final int MAX_UNITS_PER_SM = 8;
    /** Chunk width of dense_tile (KC). */
    private static final int KC = 32;

    private final int fixed;      // 0: automatic
    private final int slots;      // resident blocks of a dense stage on the GPU (2 per multiprocessor)
    private final int maxUnits;

    private DenseSplit(int fixed, int multiprocessors) {
        this.fixed = fixed;
        this.slots = 2 * multiprocessors;
        this.maxUnits = MAX_UNITS_PER_SM * multiprocessors;
    }

    /** The choice named by {@value #PROPERTY} for a GPU of {@code multiprocessors}; refuses a bad value by name. */
    static DenseSplit fromProperty(int multiprocessors) {
        String v = System.getProperty(PROPERTY, "auto").trim();
        if (v.equals("auto")) {
            return new DenseSplit(0, multiprocessors);
        }
        int s;
        try {
            s = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            s = 0;
        }
        if (s < 1 || s > MAX_SPLITS) {
            throw new IllegalArgumentException(PROPERTY + " must be auto or a whole number from 1 to " + MAX_SPLITS
                    + ", not " + v);
        }
        return new DenseSplit(s, multiprocessors);
    }

    /** Splits of a stage of {@code tiles} tiles and {@code k} inputs. */
    int splits(int tiles, int k) {
        int chunks = (k + KC - 1) / KC;
        int limit = Math.max(1, Math.min(Math.min(chunks, MAX_SPLITS), maxUnits / Math.max(1, tiles)));
        if (fixed > 0) {
            return Math.min(fixed, limit);
        }
        int best = 1;
        double bestCost = cost(tiles, chunks, 1);
        for (int s = 2; s <= limit; s++) {
            double c = cost(tiles, chunks, s);
            if (c < bestCost - 1e-9) {
                best = s;
                bestCost = c;
            }
        }
        return best;
    }

    /** The model: chunk-times of a stage of {@code tiles} tiles, {@code chunks} chunks, {@code s} splits. */
    double cost(int tiles, int chunks, int s) {
        long units = (long) tiles * s;
        long waves = (units + slots - 1) / slots;
        int perSplit = (chunks + s - 1) / s;
        return waves * (perSplit + 1.0) + (s > 1 ? 2.0 : 0.0);
    }

    /**
     * Floats of partial tiles a split stage needs at most: tiles x splits is at most the unit bound, and a
     * tile holds 32 rows x at most 128 outputs (32 MJ channels x NP parts, MJ NP &lt;= 4).
     */
    long scratchFloats() {
        return (long) maxUnits * 32 * 128;
    }

    /** Tile counters a split stage needs at most (a split stage has at most half the unit bound of tiles). */
    int counters() {
        return maxUnits;
    }
}
