package org.molten.bench;

/** Recognises the failures that mean "a native library is not on this machine" (DJL's libtorch, ND4J, the CUDA driver). */
final class MissingNative {
    private MissingNative() {}

    /** A reason for skipping, or null if {@code e} is an ordinary failure. */
    static String describe(Throwable e) {
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
