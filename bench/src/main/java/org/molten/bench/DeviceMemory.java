package org.molten.bench;

/**
 * Device memory in use, from the CUDA driver's cuMemGetInfo in the context current on this thread
 * (the CUDA path makes its context current on the calling thread). Whole-device figure at the end
 * of a configuration, not a peak; null when it cannot be read.
 */
final class DeviceMemory {
    private DeviceMemory() {}

    static Double usedMiB() {
        try {
            long[] free = {0};
            long[] total = {0};
            int rc = jcuda.driver.JCudaDriver.cuMemGetInfo(free, total);
            if (rc != 0 || total[0] <= 0) {
                return null;
            }
            return (total[0] - free[0]) / (1024.0 * 1024.0);
        } catch (Throwable e) {
            return null;
        }
    }
}
