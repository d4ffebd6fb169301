package org.molten.core;

/**
 * A seeded, reproducible random source whose whole state can be saved in a checkpoint and
 * restored, so that a restarted stochastic run (Langevin, Bussi, Maxwell–Boltzmann draws)
 * continues bit-for-bit. Generator: xoshiro256** (Blackman and Vigna, 2018), seeded through
 * SplitMix64; Gaussians by the Marsaglia polar method with the spare value kept in the state.
 *
 * <p>Not thread-safe; give each simulation its own stream.
 */
public final class RandomStream {
    private long s0, s1, s2, s3;
    private boolean hasSpare;
    private double spare;

    /** A stream from a seed (any long; the same seed gives the same sequence on every JVM). */
    public RandomStream(long seed) {
        long x = seed;
        x += 0x9E3779B97F4A7C15L; s0 = mix(x);
        x += 0x9E3779B97F4A7C15L; s1 = mix(x);
        x += 0x9E3779B97F4A7C15L; s2 = mix(x);
        x += 0x9E3779B97F4A7C15L; s3 = mix(x);
    }

    private RandomStream(long[] state) {
        restore(state);
    }

    /** A stream continuing exactly from a state returned by {@link #state()}. */
    public static RandomStream fromState(long[] state) {
        return new RandomStream(state);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Next 64 random bits. */
    public long nextLong() {
        long result = Long.rotateLeft(s1 * 5, 7) * 9;
        long t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Long.rotateLeft(s3, 45);
        return result;
    }

    /** Uniform in [0, 1) with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Standard normal deviate. */
    public double nextGaussian() {
        if (hasSpare) {
            hasSpare = false;
            return spare;
        }
        double u, v, s;
        do {
            u = 2 * nextDouble() - 1;
            v = 2 * nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        double m = Math.sqrt(-2 * Math.log(s) / s);
        spare = v * m;
        hasSpare = true;
        return u * m;
    }

    /** The complete state: six longs (four generator words, the spare flag, the spare's bits). */
    public long[] state() {
        return new long[] {s0, s1, s2, s3, hasSpare ? 1 : 0, Double.doubleToRawLongBits(spare)};
    }

    /** Restores a state from {@link #state()}. */
    public void restore(long[] state) {
        if (state.length != 6) {
            throw new IllegalArgumentException("random stream state needs 6 values, got " + state.length);
        }
        s0 = state[0];
        s1 = state[1];
        s2 = state[2];
        s3 = state[3];
        hasSpare = state[4] != 0;
        spare = Double.longBitsToDouble(state[5]);
    }
}
