package org.molten.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Java heap per configuration: the heap pools' peak usage (as the GC records it) since the last reset,
 * and the heap live objects hold (after a full collection), for the memory a model keeps per atom.
 */
final class HostMemory {
    private HostMemory() {}

    static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    /** Heap in use after a full collection, bytes: what live objects hold. */
    static long usedAfterGcBytes() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Sum of the heap pools' peaks, MiB (pools peak at different times: an upper bound of the true peak). */
    static double peakHeapMiB() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum / (1024.0 * 1024.0);
    }
}
