package org.molten.forcefield.student;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether ND4J's native backend can be used, decided once per JVM. ND4J is optional at run time:
 * if its classes or natives fail to load, or a GEMM fails, one warning is logged and the optimised
 * student uses Java loops from then on. Fallbacks are counted for {@code molten info}.
 */
public final class Nd4jSupport {
    private static final System.Logger LOG = System.getLogger(Nd4jSupport.class.getName());
    private static final Object LOCK = new Object();
    private static volatile Boolean available;
    private static volatile String reason = "not tried yet";
    private static final AtomicLong FALLBACKS = new AtomicLong();

    private Nd4jSupport() {}

    /** True when ND4J loaded (tries to load it on the first call, which takes seconds). */
    public static boolean available() {
        Boolean a = available;
        if (a != null) {
            return a;
        }
        synchronized (LOCK) {
            if (available == null) {
                try {
                    Nd4jLoader.load();
                    reason = "loaded";
                    available = Boolean.TRUE;
                } catch (Throwable t) {   // UnsatisfiedLinkError, NoClassDefFoundError, ExceptionInInitializerError
                    disable("ND4J could not be loaded (" + t + ")");
                }
            }
            return available;
        }
    }

    /** Turns ND4J off for the rest of the run, with one warning. */
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

    /** How many times a requested ND4J path fell back to Java loops. */
    public static long fallbackCount() {
        return FALLBACKS.get();
    }

    /** "loaded", "not tried yet" or why ND4J is off. */
    public static String status() {
        return reason;
    }

    /** Forgets the decision (tests only: lets a test simulate a failed load and then restore). */
    static void resetForTests() {
        synchronized (LOCK) {
            available = null;
            reason = "not tried yet";
        }
    }

    /** Touches ND4J in its own class so that nothing else links against it before the check. */
    private static final class Nd4jLoader {
        static void load() {
            org.nd4j.linalg.factory.Nd4j.getEnvironment().setMaxThreads(1);
            org.nd4j.linalg.factory.Nd4j.factory().blas().setMaxThreads(1);
            org.nd4j.linalg.api.ndarray.INDArray a = org.nd4j.linalg.factory.Nd4j.create(
                    org.nd4j.linalg.api.buffer.DataType.DOUBLE, new long[]{2, 2}, 'f');
            org.nd4j.linalg.factory.Nd4j.gemm(a, a, a.dup('f'), false, false, 1.0, 0.0);
        }
    }
}
