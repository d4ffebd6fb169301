package org.molten.sweep;

import java.io.Serializable;

/**
 * A task's record on the board (an IMap entry, kept with one synchronous backup). Immutable: the
 * entry processors of {@link TaskBoard} replace it. {@code claim} counts the claims so that a
 * member whose claim was withdrawn (it was thought dead) cannot complete a task claimed again.
 *
 * @param task        what to run
 * @param state       where it stands
 * @param owner       the member running it (its UUID), or null
 * @param claim       number of claims so far
 * @param attempts    attempts that threw
 * @param maxAttempts attempts allowed before the task is reported as failed
 * @param error       the last error, or null
 */
public record TaskEntry(SweepTask task, TaskState state, String owner, int claim, int attempts, int maxAttempts, String error)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A new pending task. */
    public static TaskEntry pending(SweepTask task, int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
        }
        return new TaskEntry(task, TaskState.PENDING, null, 0, 0, maxAttempts, null);
    }

    TaskEntry claimedBy(String member) {
        return new TaskEntry(task, TaskState.RUNNING, member, claim + 1, attempts, maxAttempts, error);
    }

    TaskEntry released() {
        return new TaskEntry(task, TaskState.PENDING, null, claim, attempts, maxAttempts, error);
    }

    TaskEntry done() {
        return new TaskEntry(task, TaskState.DONE, owner, claim, attempts, maxAttempts, error);
    }

    TaskEntry threw(String message) {
        int n = attempts + 1;
        return new TaskEntry(task, n >= maxAttempts ? TaskState.FAILED : TaskState.PENDING, n >= maxAttempts ? owner : null,
                claim, n, maxAttempts, message);
    }
}
