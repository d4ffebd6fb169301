package org.molten.bench;

/** Recognises the failures that mean "a native library is not on this machine" (DJL's libtorch, ND4J, the CUDA driver). */
final class MissingNative {
    private MissingNative() {}

    /** Thrown by the suite when a configuration cannot run as named here (its reason is reported). */
    static final class Skip extends RuntimeException {
        Skip(String reason) {
            super(reason);
        }
    }

    /** A reason for skipping, or null if {@code e} is an ordinary failure. */
    static String describe(Throwable e) {
        if (e instanceof Skip) {
            return e.getMessage();
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnsatisfiedLinkError || t instanceof NoClassDefFoundError
                    || t instanceof ExceptionInInitializerError || t instanceof ClassNotFoundException
                    || t.getClass().getName().startsWith("ai.djl.engine.EngineException")) {
                return "native library or runtime not available here: " + t.getClass().getSimpleName() + ": " + t.getMessage();
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
