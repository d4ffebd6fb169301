package org.molten.forcefield.safetensors;

import java.util.Locale;

/**
 * Floating-point element types Molten reads from safetensors files, with their header spelling
 * and size in bytes. F64 and F32 are read and written; F16 and BF16 are read only (weights are
 * widened to double on load).
 */
public enum Dtype {
    /** IEEE binary64. */
    F64(8, true),
    /** IEEE binary32. */
    F32(4, true),
    /** IEEE binary16 (read only). */
    F16(2, false),
    /** bfloat16, the upper half of a binary32 (read only). */
    BF16(2, false);

    /** Bytes per element. */
    public final int bytes;
    private final boolean writable;

    Dtype(int bytes, boolean writable) {
        this.bytes = bytes;
        this.writable = writable;
    }

    /** True when Molten can write tensors of this type. */
    public boolean writable() {
        return writable;
    }

    /** The spelling in a safetensors header ("F32"). */
    public String headerName() {
        return name();
    }

    /**
     * The dtype of a header string.
     *
     * @throws IllegalArgumentException naming the unknown dtype and the supported ones
     */
    public static Dtype ofHeaderName(String s) {
        for (Dtype d : values()) {
            if (d.name().equals(s)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unsupported dtype '" + s + "' (supported: F64, F32, F16, BF16)");
    }

    /** Parses a user-facing choice case-insensitively ("f32", "F64"). */
    public static Dtype parse(String s) {
        return ofHeaderName(s == null ? "" : s.trim().toUpperCase(Locale.ROOT));
    }
}
