package org.molten.validation.observables;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The raw values of one observable, for the exact 1-Wasserstein distance. Every value is kept up
 * to {@link #capacity()}; past it, a uniform random subset of that size is kept (reservoir
 * sampling, Vitter's algorithm R, with a fixed seed so a run repeats exactly). Below capacity the
 * distance is exact; above it, its sampling error is of order σ/√capacity, far below any
 * threshold used here (σ the spread of the observable).
 */
public final class SampleReservoir {
    /** Default capacity: 2^18 values (2 MiB) per observable. */
    public static final int DEFAULT_CAPACITY = 1 << 18;

    private final int capacity;
    private final SplittableRandom random;
    private double[] values;
    private int size;
    private long seen;

    /**
     * An empty reservoir.
     *
     * @param capacity most values kept, at least 1
     * @param seed     seed of the subsampling once full
     */
    public SampleReservoir(int capacity, long seed) {
        if (capacity < 1) {
            throw new IllegalArgumentException("reservoir capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
        this.random = new SplittableRandom(seed);
        this.values = new double[Math.min(capacity, 1024)];
    }

    /** Offers one value. */
    public void add(double v) {
        seen++;
        if (size < capacity) {
            if (size == values.length) {
                values = Arrays.copyOf(values, (int) Math.min(capacity, 2L * values.length));
            }
            values[size++] = v;
            return;
        }
        long r = random.nextLong(seen);
        if (r < capacity) {
            values[(int) r] = v;
        }
    }

    /**
     * Offers the values kept by {@code other} as if they had been offered here one by one,
     * weighted by how many values each side has seen: exact (every value kept) while both
     * together stay within capacity.
     */
    public void addAll(SampleReservoir other) {
        if (seen + other.seen <= capacity) {
            for (int k = 0; k < other.size; k++) {
                add(other.values[k]);
            }
            return;
        }
        // Keep from each side a share proportional to what it has seen, chosen at random.
        long total = seen + other.seen;
        int fromOther = (int) Math.min(other.size, Math.round((double) capacity * other.seen / total));
        int fromThis = Math.min(size, capacity - fromOther);
        double[] mine = pick(values, size, fromThis);
        double[] theirs = pick(other.values, other.size, fromOther);
        values = new double[capacity];
        System.arraycopy(mine, 0, values, 0, mine.length);
        System.arraycopy(theirs, 0, values, mine.length, theirs.length);
        size = mine.length + theirs.length;
        seen = total;
    }

    private double[] pick(double[] from, int n, int k) {
        double[] copy = Arrays.copyOf(from, n);
        for (int i = 0; i < k; i++) {            // partial Fisher-Yates shuffle
            int j = i + random.nextInt(n - i);
            double t = copy[i];
            copy[i] = copy[j];
            copy[j] = t;
        }
        return Arrays.copyOf(copy, k);
    }

    /** Most values kept. */
    public int capacity() {
        return capacity;
    }

    /** Values offered so far. */
    public long seen() {
        return seen;
    }

    /** True when every value offered is kept. */
    public boolean exact() {
        return seen == size;
    }

    /** The values kept, a copy, in no particular order. */
    public double[] values() {
        return Arrays.copyOf(values, size);
    }
}
