package org.molten.forcefield.safetensors;

import java.util.Arrays;

/**
 * One named tensor: its stored dtype, its shape and its values widened to double, row-major
 * (the last index varies fastest, as in PyTorch and NumPy). Immutable: accessors return copies.
 */
public final class Tensor {
    private final Dtype dtype;
    private final int[] shape;
    private final double[] values;

    private Tensor(Dtype dtype, int[] shape, double[] values) {
        this.dtype = dtype;
        this.shape = shape;
        this.values = values;
    }

    /**
     * A tensor of the given shape; the arrays are copied.
     *
     * @throws IllegalArgumentException if the number of values does not match the shape
     */
    public static Tensor of(Dtype dtype, int[] shape, double[] values) {
        long n = elementCount(shape);
        if (n != values.length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " holds " + n
                    + " values, got " + values.length);
        }
        return new Tensor(dtype, shape.clone(), values.clone());
    }

    /** Number of elements of a shape (1 for a scalar, shape []); -1 never occurs for valid shapes. */
    public static long elementCount(int[] shape) {
        long n = 1;
        for (int s : shape) {
            if (s < 0) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape));
            }
            n *= s;
        }
        return n;
    }

    /** The dtype the tensor was stored in (or is to be written in). */
    public Dtype dtype() {
        return dtype;
    }

    /** The shape, a copy. */
    public int[] shape() {
        return shape.clone();
    }

    /** True when the shape equals {@code expected}. */
    public boolean hasShape(int... expected) {
        return Arrays.equals(shape, expected);
    }

    /** Number of elements. */
    public int size() {
        return values.length;
    }

    /** The values, row-major, a copy. */
    public double[] values() {
        return values.clone();
    }

    /** Value at flat row-major index {@code i}. */
    public double value(int i) {
        return values[i];
    }

    @Override
    public String toString() {
        return "Tensor[" + dtype + " " + Arrays.toString(shape) + "]";
    }
}
