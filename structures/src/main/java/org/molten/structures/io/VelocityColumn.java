package org.molten.structures.io;

/**
 * When an extended XYZ writer adds the velocities, as ASE's {@code momenta:R:3} column (amu·Å per
 * ASE time unit, see {@link ExtendedXyzFormat}).
 */
public enum VelocityColumn {
    /** Only for frames whose atoms have a non-zero velocity (the default). */
    WHEN_NONZERO,
    /** On every frame, zeros included (constant columns for tools that need them). */
    ALWAYS,
    /** Never: positions (and forces) only. */
    NEVER
}
