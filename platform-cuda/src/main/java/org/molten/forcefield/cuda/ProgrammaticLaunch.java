package org.molten.forcefield.cuda;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import java.lang.reflect.Method;
import jcuda.NativePointerObject;
import jcuda.driver.CUfunction;
import jcuda.driver.CUstream;

/**
 * Kernel launches with programmatic dependent launch (PDL, sm_90): {@code cuLaunchKernelEx} with the attribute
 * {@code CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION}, so that the next kernel of the stage sequence is
 * launched while the current one still runs, its blocks waiting in {@code griddepcontrol.wait} (molten_kernels.cu)
 * until the current kernel has finished and its memory is visible. Inside a CUDA graph (stream capture turns the
 * attribute into programmatic edges) the launch latency of each of the ~37 kernel nodes of an MD step then overlaps
 * the end of the node before: on the H200, 7 µs less per step at 26-200 atoms (175 -> 168 µs at 26, 245 -> 237 at
 * 200), 2 µs at 3,000 (docs/benchmarks.md, fifth session). Results are unchanged: every stage kernel waits before it
 * touches memory.
 *
 * <p>JCuda 12.6 binds neither the function nor the attribute, so the driver function is called through JNA, with
 * JCuda's function and stream handles. Where the function cannot be had (an old driver, JNA without a native
 * library for the platform), {@link #unavailableReason()} says why and the caller launches plainly.
 *
 * <p>An instance holds the native scratch of one launch at a time: owned by one device system, not thread-safe.
 */
final class ProgrammaticLaunch {
    // cuda.h (CUDA 12/13, LP64): CUlaunchConfig = 7 unsigned ints, CUstream at 32, CUlaunchAttribute* at 40,
    // unsigned numAttrs at 48, 56 bytes; CUlaunchAttribute = id (4 bytes), 4 bytes padding, 64-byte value union
    static final int CONFIG_BYTES = 56;
    static final int ATTRIBUTE_BYTES = 72;
    static final int ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

    private static final Function LAUNCH_EX;
    private static final Method NATIVE_POINTER;
    private static final String UNAVAILABLE;

    static {
        Function f = null;
        Method m = null;
        String why = "";
        try {
            GpuAvailability.loadDriverLibrary();
            String lib = System.getProperty(GpuAvailability.DRIVER_LIBRARY);
            NativeLibrary cuda = lib != null && !lib.isBlank()
                    ? NativeLibrary.getInstance(java.nio.file.Path.of(lib).toAbsolutePath().toString())
                    : NativeLibrary.getInstance("libcuda.so.1");
            f = cuda.getFunction("cuLaunchKernelEx");
            m = NativePointerObject.class.getDeclaredMethod("getNativePointer");
            m.setAccessible(true);
        } catch (LinkageError | RuntimeException | ReflectiveOperationException e) {
            f = null;
            why = "cuLaunchKernelEx unavailable: " + GpuAvailability.describe(e);
        }
        LAUNCH_EX = f;
        NATIVE_POINTER = m;
        UNAVAILABLE = why;
    }

    private final Memory config = new Memory(CONFIG_BYTES);
    private final Memory attribute = new Memory(ATTRIBUTE_BYTES);
    private Memory args = new Memory(1024);

    ProgrammaticLaunch() {
        if (LAUNCH_EX == null) {
            throw new IllegalStateException(UNAVAILABLE);
        }
        attribute.clear();
        attribute.setInt(0, ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
        attribute.setInt(8, 1);  // value.programmaticStreamSerializationAllowed
    }

    /** "" where cuLaunchKernelEx can be called, else why not. */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    /**
     * Launches {@code f} on {@code stream} as a programmatic dependent of the kernel before it; the arguments are
     * the parameter block followed by 32-bit integers, as the stage kernels take them.
     *
     * @return the driver's CUresult (0 = success)
     */
    int launch(CUfunction f, int grid, int threads, int smem, CUstream stream, KernelArgs a) {
        int count = 1 + a.ints().length;
        long table = 0;
        long netAt = 8L * count;
        long intsAt = (netAt + a.net().length + 7) & ~7L;
        long need = intsAt + 4L * a.ints().length;
        if (args.size() < need) {
            args = new Memory(Math.max(need, 2 * args.size()));
        }
        args.setPointer(table, args.share(netAt));
        args.write(netAt, a.net(), 0, a.net().length);
        for (int i = 0; i < a.ints().length; i++) {
            args.setPointer(table + 8L * (i + 1), args.share(intsAt + 4L * i));
            args.setInt(intsAt + 4L * i, a.ints()[i]);
        }
        config.setInt(0, grid);
        config.setInt(4, 1);
        config.setInt(8, 1);
        config.setInt(12, threads);
        config.setInt(16, 1);
        config.setInt(20, 1);
        config.setInt(24, smem);
        config.setInt(28, 0);
        config.setPointer(32, new com.sun.jna.Pointer(handle(stream)));
        config.setPointer(40, attribute);
        config.setLong(48, 0);
        config.setInt(48, 1);
        return LAUNCH_EX.invokeInt(new Object[] {config, new com.sun.jna.Pointer(handle(f)), args, null});
    }

    private static long handle(NativePointerObject o) {
        try {
            return (Long) NATIVE_POINTER.invoke(o);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read a JCuda handle", e);
        }
    }
}
