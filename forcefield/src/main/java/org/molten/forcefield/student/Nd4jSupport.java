package org.molten.forcefield.student;

import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the optimised student's dense layers can go through a native GEMM ({@link DenseGemm}),
 * decided once per JVM. The provider is the optional module forcefield-nd4j (ND4J/OpenBLAS),
 * found with {@link ServiceLoader}; the name stays "Nd4j" because that is the library it brings.
 * Without the module the loops are used quietly (a lean class path is a choice); if the module is
 * present but its natives fail to load, or a GEMM fails, one warning is logged and the Java loops
 * are used from then on. Fallbacks are counted for {@code molten info}.
 */
public final class Nd4jSupport {
    private static final System.Logger LOG = System.getLogger(Nd4jSupport.class.getName());
    private static final Object LOCK = new Object();
    private static volatile Boolean available;
    private static volatile DenseGemm gemm;
    private static volatile String reason = "not tried yet";
    private static final AtomicLong FALLBACKS = new AtomicLong();

    private Nd4jSupport() {}

    /**
     * True when a GEMM provider is on the class path and loaded (tries on the first call, which takes seconds).
     *
     * @return whether {@link OptimisedStudent} may use native GEMMs
     */
    public static boolean available() {
        Boolean a = available;
        if (a != null) {
            return a;
        }
        synchronized (LOCK) {
            if (available == null) {
                DenseGemm provider = null;
                try {
                    Iterator<DenseGemm> it = ServiceLoader.load(DenseGemm.class).iterator();
                    provider = it.hasNext() ? it.next() : null;
                } catch (ServiceConfigurationError e) {
                    disable("the dense GEMM provider could not be instantiated (" + e + ")");
                    return false;
                }
                if (provider == null) {
                    reason = "not on the class path (module forcefield-nd4j)";
                    available = Boolean.FALSE;
                    LOG.log(System.Logger.Level.DEBUG, "no dense GEMM provider; the student's dense layers use Java loops");
                    return false;
                }
                try {
                    provider.load();
                    gemm = provider;
                    reason = "loaded";
                    available = Boolean.TRUE;
                } catch (Throwable t) {   // UnsatisfiedLinkError, NoClassDefFoundError, ExceptionInInitializerError
                    disable(provider.name() + " could not be loaded (" + t + ")");
                }
            }
            return available;
        }
    }

    /** The loaded provider; only after {@link #available()} returned true. */
    static DenseGemm gemm() {
        DenseGemm g = gemm;
        if (g == null) {
            throw new IllegalStateException("no dense GEMM provider loaded: " + reason);
        }
        return g;
    }

    /** Turns the GEMM path off for the rest of the run, with one warning. */
    static void disable(String why) {
        synchronized (LOCK) {
            boolean first = !Boolean.FALSE.equals(available);
            available = Boolean.FALSE;
            reason = why;
            FALLBACKS.incrementAndGet();
            if (first) {
                LOG.log(System.Logger.Level.WARNING, why + "; the student's dense layers use Java loops");
            }
        }
    }

    /**
     * How many times a requested GEMM path fell back to Java loops.
     *
     * @return the count since the JVM started
     */
    public static long fallbackCount() {
        return FALLBACKS.get();
    }

    /**
     * "loaded", "not tried yet", "not on the class path (module forcefield-nd4j)" or why the GEMM path is off.
     *
     * @return the state in words
     */
    public static String status() {
        return reason;
    }

    /** Forgets the decision (tests only: lets a test simulate a failed load and then restore). */
    static void resetForTests() {
        synchronized (LOCK) {
            available = null;
            gemm = null;
            reason = "not tried yet";
        }
    }
}
