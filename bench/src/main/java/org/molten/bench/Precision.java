package org.molten.bench;

/**
 * Arithmetic precision of a configuration and the force error it may show against the float64
 * reference: a bound on the force RMSE relative to the RMS of the reference forces. Float64
 * paths differ from the reference only by summation order (~1e-13 measured); float32 model
 * arithmetic gives ~1e-6 (docs/benchmarks.md, GPU correctness). The bounds leave a wide margin
 * above those and far below any physically visible error.
 */
public enum Precision {
    /** Double precision throughout. */
    FLOAT64(1e-9),
    /** Single-precision model arithmetic. */
    FLOAT32(1e-4);

    /** Largest allowed force RMSE / reference force RMS. */
    public final double relativeForceBound;

    Precision(double relativeForceBound) {
        this.relativeForceBound = relativeForceBound;
    }
}
