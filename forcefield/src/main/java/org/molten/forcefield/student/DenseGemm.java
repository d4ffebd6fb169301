package org.molten.forcefield.student;

/**
 * Service interface: the atom-wise dense layers of the optimised student as BLAS matrix products
 * (y = x W + b over a block of atom rows) from a native library. Optional: the module
 * forcefield-nd4j provides one (ND4J/OpenBLAS) through META-INF/services; without a provider, or
 * when it fails to load, {@link OptimisedStudent} uses its Java loops ({@link Nd4jSupport} decides
 * once per JVM). Same results as the loops up to summation order (float64: ~1e-15 relative).
 */
public interface DenseGemm {
    /**
     * Library name for logs and {@code molten info}.
     *
     * @return e.g. "ND4J (OpenBLAS)"
     */
    String name();

    /**
     * Loads the native library and runs one tiny product; throws whatever the library throws
     * (UnsatisfiedLinkError, NoClassDefFoundError, ...) when it cannot be used.
     */
    void load();

    /**
     * A float64 weight in the library's own layout.
     *
     * @param rows the weight as rows m[in][out]
     * @return the prepared weight
     */
    Weight weight(double[][] rows);

    /**
     * A float32 weight in the library's own layout.
     *
     * @param rows the weight as rows m[in][out]
     * @return the prepared weight
     */
    Weight weight(float[][] rows);

    /**
     * Buffers for one worker thread: one reused input/output pair per call site ("slot").
     *
     * @param slots number of call sites
     * @return a new workspace, used by one thread at a time
     */
    Workspace workspace(int slots);

    /** A weight prepared by {@link DenseGemm#weight}. */
    interface Weight {
    }

    /** One thread's buffers; the products of the dense layers, as the Java loops ({@code DenseF64}, {@code DenseF32}) compute them. */
    interface Workspace {
        /**
         * Rows {@code from..to-1}: y[i] = x[i] W + bias, or y[i] += x[i] W when {@code accumulate}.
         *
         * @param slot       call site, selects the reused buffers
         * @param x          input rows, {@code in} wide
         * @param w          the weight, from a float64 {@link DenseGemm#weight(double[][])}
         * @param in         input width
         * @param out        output width
         * @param bias       bias of width {@code out}, or null
         * @param y          output rows, {@code out} wide
         * @param from       first row
         * @param to         end row (exclusive)
         * @param accumulate add to y instead of overwriting it (bias then ignored)
         */
        void linear(int slot, double[][] x, Weight w, int in, int out, double[] bias, double[][] y, int from, int to,
                    boolean accumulate);

        /**
         * As {@link #linear(int, double[][], Weight, int, int, double[], double[][], int, int, boolean)} in float32.
         *
         * @param slot       call site
         * @param x          input rows
         * @param w          the weight, from a float32 {@link DenseGemm#weight(float[][])}
         * @param in         input width
         * @param out        output width
         * @param bias       bias, or null
         * @param y          output rows
         * @param from       first row
         * @param to         end row (exclusive)
         * @param accumulate add to y instead of overwriting it
         */
        void linear(int slot, float[][] x, Weight w, int in, int out, float[] bias, float[][] y, int from, int to,
                    boolean accumulate);
    }
}
