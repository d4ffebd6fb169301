package org.molten.forcefield.cuda;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.molten.core.ForceField;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * Whether the CUDA path can run here, and the factory that picks it or the CPU path. The probe
 * (once per JVM) loads JCuda's driver binding, initialises the driver, finds a device, creates a
 * context and loads the kernels' fatbin into it; any failure (no {@code libcuda.so.1}, no device, a GPU older
 * than sm_80 or a driver older than CUDA 13.0, whose driver loads no image of the fatbin,
 * {@code -Dmolten.cuda.disable=true}) makes the GPU unavailable with a reason. Asking for the
 * student force field then returns the CPU path, logs ONE warning per JVM, and counts the fallback
 * in {@link GpuStatus}; it never throws for want of a GPU.
 */
public final class GpuAvailability {
    private static final Logger LOG = Logger.getLogger(GpuAvailability.class.getName());
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static volatile Probe probe;

    /**
     * The outcome of the probe.
     *
     * @param available whether a CUDA device can run the kernels
     * @param device    its name, or "none"
     * @param reason    why not, or "" when available
     */
    public record Probe(boolean available, String device, String reason) {
    }

    /**
     * System property naming a CUDA driver library ({@code libcuda.so.1}) to load before JCuda's
     * binding: a driver outside the loader's search path, or the CPU emulator used in tests.
     */
    public static final String DRIVER_LIBRARY = "molten.cuda.driverLibrary";
    private static boolean driverLoaded;

    private GpuAvailability() {
    }

    /** Loads {@link #DRIVER_LIBRARY} (once) if it is set. */
    static synchronized void loadDriverLibrary() {
        String lib = System.getProperty(DRIVER_LIBRARY);
        if (lib != null && !lib.isBlank() && !driverLoaded) {
            System.load(java.nio.file.Path.of(lib).toAbsolutePath().toString());
            driverLoaded = true;
        }
    }

    /** Probes once per JVM (thread-safe). */
    public static Probe probe() {
        Probe p = probe;
        if (p == null) {
            synchronized (GpuAvailability.class) {
                p = probe;
                if (p == null) {
                    p = doProbe();
                    probe = p;
                }
            }
        }
        return p;
    }

    private static Probe doProbe() {
        if (Boolean.getBoolean("molten.cuda.disable")) {
            return new Probe(false, "none", "disabled by -Dmolten.cuda.disable=true");
        }
        try {
            loadDriverLibrary();
        } catch (RuntimeException | LinkageError e) {
            return new Probe(false, "none", "cannot load " + System.getProperty(DRIVER_LIBRARY) + ": " + describe(e));
        }
        try (CudaContext cx = new CudaContext()) {
            GpuStatus.device(cx.deviceName());
            return new Probe(true, cx.deviceName(), "");
        } catch (RuntimeException | LinkageError e) {
            return new Probe(false, "none", describe(e));
        }
    }

    /** A one-line cause for logs and {@code molten info}. */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg = root.getMessage() == null ? "" : root.getMessage().lines().findFirst().orElse("");
        if (root instanceof UnsatisfiedLinkError || root instanceof NoClassDefFoundError) {
            return "no CUDA driver (" + root.getClass().getSimpleName() + ": " + msg + ")";
        }
        return root.getClass().getSimpleName() + ": " + msg;
    }

    /**
     * Every {@code molten.cuda.*} system property, one line each: name, its value in this JVM (or "default"), the
     * values it takes, what it selects and why it exists; then which kernel images the jar holds. For
     * {@code molten info}.
     */
    public static String propertiesReport() {
        StringBuilder b = new StringBuilder();
        for (String[] p : CudaProperties.all()) {
            String v = System.getProperty(p[0]);
            b.append(String.format("  -D%s=%s (%s): %s%n", p[0], v == null ? "default" : v, p[1], p[2]));
        }
        try {
            CudaProperties.refuseUnknown(System.getProperties());
        } catch (IllegalArgumentException e) {
            b.append("  refused: ").append(e.getMessage()).append(System.lineSeparator());
        }
        try {
            b.append("  ").append(KernelImage.describe()).append(System.lineSeparator());
        } catch (RuntimeException e) {
            b.append("  kernels: ").append(describe(e)).append(System.lineSeparator());
        }
        return b.toString();
    }

    /** Whether the GPU path is usable. */
    public static boolean available() {
        return probe().available();
    }

    /** The student force field on the GPU if possible, else on the CPU (see the class comment). */
    public static ForceField studentForceField(StudentWeights weights) {
        return studentForceField(weights, CudaOptions.fromSystemProperties());
    }

    /** As {@link #studentForceField(StudentWeights)} with explicit options. */
    public static ForceField studentForceField(StudentWeights weights, CudaOptions options) {
        Probe p = probe();
        String why = p.available() ? DeviceWeights.unsupportedReason(weights) : p.reason();
        if (why == null) {
            try {
                return new CudaStudent(weights, options);
            } catch (RuntimeException | LinkageError e) {
                why = describe(e);
            }
        }
        fallback(why);
        return cpuForceField(weights);
    }

    /** The CPU student, {@link OptimisedStudent} with its defaults. */
    static ForceField cpuForceField(StudentWeights weights) {
        return new OptimisedStudent(weights);
    }

    /** Forgets the probe and the warning (tests switch the GPU off and on). */
    static void resetForTests() {
        synchronized (GpuAvailability.class) {
            probe = null;
            WARNED.set(false);
        }
    }

    /** Counts a fallback to the CPU and warns once per JVM. */
    static void fallback(String reason) {
        GpuStatus.fallback(reason);
        if (WARNED.compareAndSet(false, true)) {
            LOG.warning("CUDA path unavailable (" + reason + "); running the student force field on the CPU");
        }
    }
}
