package org.molten.sweep;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A task's record on the board (an IMap entry, kept with one synchronous backup). Immutable: the
 * entry processors of {@link TaskBoard} replace it. {@code claim} counts the claims so that a
 * member whose claim was withdrawn (it was thought dead, or its lease expired) cannot complete a
 * task claimed again.
 *
 * <p><b>Leases.</b> A claim holds the task until {@code leaseUntilMs} (cluster time, ms); the
 * member running it moves that forward while the task makes progress ({@link TaskLeases}), at most
 * {@code timeoutMs} past the last progress. A task whose lease ran out (its member hangs: a stuck
 * GPU or libxtb call, a swapped-out JVM) goes back to pending as a failed attempt, so a task that
 * hangs on every attempt ends as failed instead of holding the sweep for ever.
 *
 * @param task         what to run
 * @param state        where it stands
 * @param owner        the member running it (its UUID), or null
 * @param ownerName    the member's address, for messages, or null
 * @param claim        number of claims so far
 * @param attempts     attempts that threw or hung
 * @param maxAttempts  attempts allowed before the task is reported as failed
 * @param error        the last error, or null
 * @param timeoutMs    longest time a claim is held without progress, ms
 * @param leaseUntilMs cluster time (ms) at which the running claim's lease runs out; 0 when not running
 * @param reruns       why the task was given back to the queue, one sentence per time, oldest first
 */
public record TaskEntry(SweepTask task, TaskState state, String owner, String ownerName, int claim, int attempts,
                        int maxAttempts, String error, long timeoutMs, long leaseUntilMs, List<String> reruns)
        implements Serializable {
    private static final long serialVersionUID = 2L;

    /** Copies the reasons. */
    public TaskEntry {
        reruns = reruns == null ? List.of() : List.copyOf(reruns);
    }

    /** A new pending task held at most {@link TaskTimeout#FLOOR_MS} without progress. */
    public static TaskEntry pending(SweepTask task, int maxAttempts) {
        return pending(task, maxAttempts, TaskTimeout.FLOOR_MS);
    }

    /** A new pending task whose claims are held at most {@code timeoutMs} without progress. */
    public static TaskEntry pending(SweepTask task, int maxAttempts, long timeoutMs) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
        }
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("task timeout must be positive, got " + timeoutMs + " ms");
        }
        return new TaskEntry(task, TaskState.PENDING, null, null, 0, 0, maxAttempts, null, timeoutMs, 0, List.of());
    }

    TaskEntry claimedBy(String member, String memberName, long nowMs) {
        return new TaskEntry(task, TaskState.RUNNING, member, memberName, claim + 1, attempts, maxAttempts, error, timeoutMs,
                nowMs + timeoutMs, reruns);
    }

    TaskEntry renewedUntil(long untilMs) {
        return new TaskEntry(task, state, owner, ownerName, claim, attempts, maxAttempts, error, timeoutMs,
                Math.max(leaseUntilMs, untilMs), reruns);
    }

    /** Back to pending without counting an attempt (its member left: the task did not fail). */
    TaskEntry released(String why) {
        return new TaskEntry(task, TaskState.PENDING, null, null, claim, attempts, maxAttempts, error, timeoutMs, 0, with(why));
    }

    TaskEntry done() {
        return new TaskEntry(task, TaskState.DONE, owner, ownerName, claim, attempts, maxAttempts, error, timeoutMs, 0, reruns);
    }

    TaskEntry threw(String message) {
        int n = attempts + 1;
        boolean last = n >= maxAttempts;
        String first = message == null ? "" : message.lines().findFirst().orElse("");
        List<String> why = last ? reruns : with("attempt " + n + " on " + who() + " threw: " + first);
        return new TaskEntry(task, last ? TaskState.FAILED : TaskState.PENDING, last ? owner : null, last ? ownerName : null,
                claim, n, maxAttempts, message, timeoutMs, 0, why);
    }

    /** The lease ran out at cluster time {@code nowMs}: a hung attempt, counted as one that threw. */
    TaskEntry expired(long nowMs) {
        String message = String.format(java.util.Locale.ROOT, "lease expired: no progress for %.1f s on %s (claim %d; "
                + "task timeout %.1f s)", (nowMs - leaseUntilMs + timeoutMs) / 1000.0, who(), claim, timeoutMs / 1000.0);
        int n = attempts + 1;
        boolean last = n >= maxAttempts;
        return new TaskEntry(task, last ? TaskState.FAILED : TaskState.PENDING, last ? owner : null, last ? ownerName : null,
                claim, n, maxAttempts, message, timeoutMs, 0, with("attempt " + n + ": " + message));
    }

    private String who() {
        return "member " + (ownerName != null ? ownerName : owner);
    }

    private List<String> with(String why) {
        List<String> out = new ArrayList<>(reruns);
        out.add(why);
        return out;
    }
}
