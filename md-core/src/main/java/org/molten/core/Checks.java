package org.molten.core;

/**
 * Argument checks that return the value and name it in the message, written as {@code !(x > 0)}
 * so that NaN fails too: {@code requirePositive(-0.5, "timestep_fs")} throws
 * "timestep_fs must be strictly positive: -0.5".
 */
public final class Checks {
    private Checks() {}

    /** @throws IllegalArgumentException if {@code x} is not finite and strictly positive */
    public static double requirePositive(double x, String name) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(name + " must be strictly positive and finite: " + x);
        }
        return x;
    }

    /** @throws IllegalArgumentException if {@code x} is negative, NaN or infinite */
    public static double requireNonNegative(double x, String name) {
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(name + " must be zero or positive and finite: " + x);
        }
        return x;
    }

    /** @throws IllegalArgumentException if {@code n} is not strictly positive */
    public static int requirePositive(int n, String name) {
        if (n <= 0) {
            throw new IllegalArgumentException(name + " must be strictly positive: " + n);
        }
        return n;
    }

    /** @throws IllegalArgumentException if {@code n} is negative */
    public static long requireNonNegative(long n, String name) {
        if (n < 0) {
            throw new IllegalArgumentException(name + " must be zero or positive: " + n);
        }
        return n;
    }

    /** @throws IllegalArgumentException if {@code x} is NaN or infinite */
    public static double requireFinite(double x, String name) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException(name + " must be finite: " + x);
        }
        return x;
    }
}
