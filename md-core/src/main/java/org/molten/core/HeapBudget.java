package org.molten.core;

import java.util.Locale;

/**
 * A check, before large buffers are allocated, that an estimated amount of Java heap fits under
 * the JVM's limit ({@code -Xmx}), so that a system too large for the heap is refused with its atom
 * count, the estimate and the setting to use, instead of failing later with an
 * {@link OutOfMemoryError} stack trace.
 */
public final class HeapBudget {
    private static final double GIB = 1024.0 * 1024.0 * 1024.0;

    private HeapBudget() {}

    /** Whether {@code bytes} more fit under the heap limit beside what is in use (after a GC if they seem not to). */
    public static boolean fits(long bytes) {
        Runtime rt = Runtime.getRuntime();
        long max = rt.maxMemory();
        if (max == Long.MAX_VALUE || bytes <= max - (rt.totalMemory() - rt.freeMemory())) {
            return true;
        }
        System.gc();
        return bytes <= max - (rt.totalMemory() - rt.freeMemory());
    }

    /**
     * Refuses {@code estimateBytes} of new heap for {@code atoms} atoms when it does not fit under
     * this JVM's limit beside the heap in use (a garbage collection is asked for before refusing).
     *
     * @param what what needs the memory ("student/optimised")
     * @throws InsufficientHeapException naming the atoms, the estimate, the limit and the -Xmx to use
     */
    public static void require(String what, long atoms, long estimateBytes) {
        Runtime rt = Runtime.getRuntime();
        long max = rt.maxMemory();
        if (max == Long.MAX_VALUE || estimateBytes <= max - (rt.totalMemory() - rt.freeMemory())) {
            return;
        }
        System.gc(); // what is in use may be mostly garbage
        require(what, atoms, estimateBytes, max, rt.totalMemory() - rt.freeMemory());
    }

    /**
     * As {@link #require(String, long, long)} with the limit and the heap in use given (tests).
     *
     * @param maxHeapBytes  the heap limit, bytes
     * @param usedHeapBytes heap in use now, bytes
     */
    public static void require(String what, long atoms, long estimateBytes, long maxHeapBytes, long usedHeapBytes) {
        if (estimateBytes <= maxHeapBytes - usedHeapBytes) {
            return;
        }
        // Room for the estimate, what is in use, and a quarter more for the collector to work in.
        long neededGiB = (long) Math.ceil((estimateBytes + usedHeapBytes) * 1.25 / GIB);
        throw new InsufficientHeapException(String.format(Locale.ROOT,
                "%s needs about %s of Java heap for %,d atoms (estimate, %.0f KB per atom), but this JVM's heap limit"
                        + " is %s with %s in use; give it more with -Xmx%dg (for ./molten: MOLTEN_JAVA_OPTS=-Xmx%dg ./molten ...)"
                        + " or simulate fewer atoms",
                what, size(estimateBytes), atoms, estimateBytes / 1024.0 / Math.max(1, atoms), size(maxHeapBytes),
                size(usedHeapBytes), neededGiB, neededGiB));
    }

    private static String size(long bytes) {
        return bytes >= GIB ? String.format(Locale.ROOT, "%.1f GB", bytes / GIB)
                : String.format(Locale.ROOT, "%.0f MB", bytes / (1024.0 * 1024.0));
    }

    /** Thrown when an estimated allocation does not fit under the heap limit. */
    public static final class InsufficientHeapException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        InsufficientHeapException(String message) {
            super(message);
        }
    }
}
