package org.molten.forcefield.student;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * A small fixed team of threads that runs one phase at a time: {@link #run} calls
 * {@code task.accept(t)} for t = 0..threads-1, index 0 on the calling thread, and returns when
 * all are done (a fork-join barrier). Workers spin briefly and then park between phases; nothing is
 * allocated per phase, so the message-passing engine can run a few dozen phases per force call.
 * Daemon threads; {@link #close()} stops them.
 */
final class PhasePool implements AutoCloseable {
    /**
     * Spin iterations before a waiting thread parks (a few microseconds): long enough to catch
     * the next phase of a busy force call, short enough not to steal a shared core from the
     * thread doing the work.
     */
    private static final int SPINS = 200;

    private final int size;
    private final Thread[] workers;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile IntConsumer task;
    private volatile int active;
    private volatile int generation;
    private volatile boolean closed;
    private volatile Thread caller;
    private volatile Throwable failure;

    /** A pool of {@code size} threads in all (the caller counts as one). */
    PhasePool(int size, String name) {
        if (size < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + size);
        }
        this.size = size;
        this.workers = new Thread[size - 1];
        for (int w = 0; w < workers.length; w++) {
            int index = w + 1;
            Thread t = new Thread(() -> work(index), name + "-" + index);
            t.setDaemon(true);
            workers[w] = t;
            t.start();
        }
    }

    /** Threads in all, the caller included. */
    int size() {
        return size;
    }

    /**
     * Runs {@code task} on {@code threads} threads (1..size) and waits for all.
     *
     * @throws RuntimeException the first failure of any thread, rethrown on the caller
     */
    void run(int threads, IntConsumer task) {
        if (closed) {
            throw new IllegalStateException("thread pool is closed");
        }
        if (threads <= 1) {
            task.accept(0);
            return;
        }
        int n = Math.min(threads, size);
        this.task = task;
        this.active = n;
        this.failure = null;
        this.caller = Thread.currentThread();
        pending.set(n - 1);
        generation++;                     // volatile write publishes task and active
        for (int w = 0; w < n - 1; w++) {
            LockSupport.unpark(workers[w]);
        }
        try {
            task.accept(0);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        int spins = 0;
        while (pending.get() != 0) {
            if (spins++ < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
            }
        }
        Throwable f = failure;
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error er) {
            throw er;
        }
    }

    private void work(int index) {
        int seen = 0;
        while (true) {
            int spins = 0;
            while (generation == seen && !closed) {
                if (spins++ < SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
            }
            if (closed) {
                return;
            }
            seen = generation;
            if (index < active) {
                try {
                    task.accept(index);
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
                if (pending.decrementAndGet() == 0) {
                    LockSupport.unpark(caller);
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread w : workers) {
            LockSupport.unpark(w);
        }
    }
}
