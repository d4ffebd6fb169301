package org.molten.structures.io;

/** When an extended XYZ writer adds the {@code velocities:R:3} column (Å/fs). */
public enum VelocityColumn {
    /** Only for frames whose atoms have a non-zero velocity (the default). */
    WHEN_NONZERO,
    /** On every frame, zeros included (constant columns for tools that need them). */
    ALWAYS,
    /** Never: positions (and forces) only. */
    NEVER
}
