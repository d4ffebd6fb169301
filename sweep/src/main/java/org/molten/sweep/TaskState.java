package org.molten.sweep;

/** Where a task stands on the board. */
public enum TaskState {
    /** Waiting for a member with a free slot. */
    PENDING,
    /** Claimed by a member, which runs it. */
    RUNNING,
    /** Finished; its payload waits in the results map for the coordinator. */
    DONE,
    /** Threw on every allowed attempt; the last error is recorded. */
    FAILED
}
