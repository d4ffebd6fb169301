package org.molten.forcefield.teacher;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one thread on which a session's xtb calls run, with a large stack. xtb's Fortran keeps work arrays on the
 * stack: on a Java thread's default 1 MiB stack a 180-atom water cluster overflowed it and took the JVM down
 * (SIGSEGV in libxtb); the xtb command line asks for {@code ulimit -s unlimited} for the same reason. The stack is
 * reserved address space, touched only as deep as xtb goes. A hand-off costs tens of microseconds against single
 * points of 0.3 ms and more.
 */
final class XtbWorker implements AutoCloseable {
    /** Stack reserved for xtb's thread (bytes). */
    static final long STACK_BYTES = 1L << 30;
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
        Thread t = new Thread(null, task, "molten-xtb-" + COUNT.incrementAndGet(), STACK_BYTES);
        t.setDaemon(true); // a teacher never closed does not keep the JVM alive
        return t;
    });

    /**
     * Runs {@code work} on the worker thread and returns its result, waiting for it even if the caller is
     * interrupted (native work cannot be stopped half-way; the caller's interrupt flag is kept).
     */
    <T> T call(Callable<T> work) {
        Future<T> f = thread.submit(work);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException r) {
                        throw r;
                    }
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Lets the thread end once its work is done. */
    @Override
    public void close() {
        thread.shutdown();
    }
}
