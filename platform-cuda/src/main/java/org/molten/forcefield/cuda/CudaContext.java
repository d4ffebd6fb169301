package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuCtxCreate;
import static jcuda.driver.JCudaDriver.cuCtxDestroy;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuFuncSetAttribute;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.JCudaDriver;

/**
 * One simulation's own CUDA state: a context on device 0, a stream, the Molten module loaded
 * into that context, and every device allocation made through it. Two simulations never share
 * one (OpenMM's rule: a Context owns its platform data), so they can run on different threads
 * without locks. Every public entry point of the classes that use it calls {@link #makeCurrent()}
 * first, because a CUDA context is current per host thread.
 *
 * <p>Not thread-safe; {@link #close()} frees everything.
 */
final class CudaContext implements AutoCloseable {
    private final CUcontext context = new CUcontext();
    private final CUstream stream = new CUstream();
    private final CUmodule module = new CUmodule();
    private final Map<String, CUfunction> functions = new HashMap<>();
    private final Map<String, Integer> smemLimit = new HashMap<>();
    private final List<CUdeviceptr> allocations = new ArrayList<>();
    private final String deviceName;
    private final int multiprocessors;
    private final int clockKHz;
    private final int maxSharedOptin;
    private final boolean clusterLaunch;
    private final boolean cooperativeLaunch;
    private final int computeMajor;
    private final int computeMinor;
    private boolean closed;

    /**
     * Creates a context on device 0 and loads the kernels' fatbin ({@link KernelImage}) into it.
     *
     * @throws jcuda.CudaException    for any driver error (no device, ...)
     * @throws IllegalStateException  where the driver loads no image of the fatbin for this GPU (an older
     *                                architecture than sm_80, or a driver older than CUDA 13.0), naming both
     * @throws UnsatisfiedLinkError   when the CUDA driver library is missing
     */
    CudaContext() {
        JCudaDriver.setExceptionsEnabled(true);
        cuInit(0);
        int[] count = {0};
        cuDeviceGetCount(count);
        if (count[0] == 0) {
            throw new IllegalStateException("no CUDA device");
        }
        CUdevice device = new CUdevice();
        cuDeviceGet(device, 0);
        byte[] name = new byte[256];
        cuDeviceGetName(name, name.length, device);
        int len = 0;
        while (len < name.length && name[len] != 0) {
            len++;
        }
        deviceName = new String(name, 0, len, StandardCharsets.UTF_8);
        multiprocessors = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        clockKHz = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
        maxSharedOptin = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        clusterLaunch = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) != 0;
        cooperativeLaunch = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH) != 0;
        computeMajor = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
        computeMinor = attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        cuCtxCreate(context, 0, device);
        boolean ok = false;
        try {
            cuStreamCreate(stream, 0);
            try {
                cuModuleLoadData(module, KernelImage.fatbin());
            } catch (jcuda.CudaException e) {
                int[] driver = {0};
                JCudaDriver.cuDriverGetVersion(driver);
                throw new IllegalStateException("the driver loads none of the kernels' images for " + deviceName
                        + " (sm_" + computeMajor + computeMinor + ", driver CUDA " + driver[0] / 1000 + "."
                        + driver[0] % 1000 / 10 + "): " + e.getMessage() + "; " + KernelImage.describe());
                // no cause: GpuAvailability.describe reports the root cause, and this message is the one to read
            }
            ok = true;
        } finally {
            if (!ok) {
                cuCtxDestroy(context);
            }
        }
    }

    private static int attribute(CUdevice device, int attribute) {
        int[] v = {0};
        cuDeviceGetAttribute(v, attribute, device);
        return v[0];
    }

    /** Makes this context current on the calling thread. */
    void makeCurrent() {
        if (closed) {
            throw new IllegalStateException("CUDA context already closed");
        }
        cuCtxSetCurrent(context);
    }

    CUstream stream() {
        return stream;
    }

    String deviceName() {
        return deviceName;
    }

    /** Largest dynamic shared memory a kernel may opt in to, bytes. */
    int maxSharedMemoryPerBlock() {
        return maxSharedOptin;
    }

    int multiprocessors() {
        return multiprocessors;
    }

    /**
     * The card's FP32 arithmetic rate without tensor cores, FLOP/s: multiprocessors x 128 FP32 lanes
     * (sm_90) x 2 (a fused multiply-add) x the peak clock; NaN where the driver reports no clock.
     */
    double fp32PeakFlops() {
        return clockKHz > 0 ? multiprocessors * 128.0 * 2.0 * clockKHz * 1e3 : Double.NaN;
    }

    boolean clusterLaunch() {
        return clusterLaunch;
    }

    boolean cooperativeLaunch() {
        return cooperativeLaunch;
    }

    /**
     * Whether the GPU has the sm_90 instructions the stage kernels use when launched as programmatic dependents
     * ({@code griddepcontrol.wait}, compiled for sm_90 only, molten_common.cuh) and that the small-molecule
     * kernel needs (clusters, mbarriers; compiled as a trap below sm_90).
     */
    boolean hopperInstructions() {
        return computeMajor >= 9;
    }

    /** The major number of the GPU's compute capability (9 on an H100 / H200). */
    int computeMajor() {
        return computeMajor;
    }

    /** "sm_90" etc.: the GPU's compute capability. */
    String architecture() {
        return "sm_" + computeMajor + computeMinor;
    }

    /** A kernel of the module, looked up once. */
    CUfunction function(String name) {
        return functions.computeIfAbsent(name, k -> {
            CUfunction f = new CUfunction();
            cuModuleGetFunction(f, module, k);
            return f;
        });
    }

    /** Raises a kernel's dynamic shared-memory limit to at least {@code bytes} (above 48 KiB needs this). */
    void allowSharedMemory(String kernel, int bytes) {
        if (bytes > maxSharedOptin) {
            throw new IllegalStateException(kernel + " needs " + bytes + " bytes of shared memory; the device allows "
                    + maxSharedOptin);
        }
        Integer have = smemLimit.get(kernel);
        if (have == null || have < bytes) {
            cuFuncSetAttribute(function(kernel), CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    Math.max(bytes, 48 * 1024));
            smemLimit.put(kernel, Math.max(bytes, 48 * 1024));
        }
    }

    /** Allows a cluster of more than 8 blocks for this kernel (sm_90, non-portable). */
    void allowNonPortableCluster(String kernel) {
        cuFuncSetAttribute(function(kernel), CUfunction_attribute.CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    }

    /** Device memory owned by this context (freed by {@link #free} or {@link #close()}). */
    DevicePointer alloc(long bytes) {
        DevicePointer p = new DevicePointer();
        cuMemAlloc(p, Math.max(bytes, 16));
        allocations.add(p);
        return p;
    }

    void free(CUdeviceptr p) {
        if (allocations.remove(p)) {
            cuMemFree(p);
        }
    }

    void synchronize() {
        cuStreamSynchronize(stream);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            cuCtxSetCurrent(context);
            for (CUdeviceptr p : allocations) {
                cuMemFree(p);
            }
            allocations.clear();
            cuModuleUnload(module);
            cuStreamDestroy(stream);
        } finally {
            closed = true;
            cuCtxDestroy(context);
        }
    }
}
