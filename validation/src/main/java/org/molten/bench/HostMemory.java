package org.molten.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** Peak Java heap per configuration: the heap pools' peak usage (as the GC records it) since the last reset. */
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
