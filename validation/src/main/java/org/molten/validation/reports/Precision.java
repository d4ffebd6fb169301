package org.molten.validation.reports;

/** Arithmetic precision of a force-field evaluation, which sets the NVE drift limit. */
public enum Precision {
    /** IEEE double: forces accurate to ~1e-14 relative, drift limited by the integrator. */
    FLOAT64,
    /** IEEE single (or mixed with float32 accumulation): rounding of the forces adds drift. */
    FLOAT32
}
