package org.molten.sweep;

/**
 * What a running task calls when it makes progress (an MD chunk done, a phase begun): its member
 * then renews the task's lease on the board ({@link TaskLeases}). A task that stops calling it (a
 * stuck GPU or libxtb call, a deadlock) loses its lease after the sweep's task timeout and runs
 * elsewhere. Cheap and thread-safe: it only records the time.
 */
@FunctionalInterface
public interface TaskHeartbeat {
    /** The task advanced. */
    void progressed();

    /** Reports nothing (the lease then lasts the task timeout from the claim). */
    TaskHeartbeat NONE = () -> { };
}
