package org.molten.sweep;

/**
 * A task's outcome as the sweep records it in {@code tasks/<id>/result.json}.
 *
 * @param task        the task
 * @param status      "done" (it ran; its simulation may still have blown up) or "failed" (it threw on every attempt)
 * @param attempts    attempts that threw before the outcome (0 when it ran the first time)
 * @param error       the last error, or null
 * @param member      the member that ran it, or null
 * @param wallSeconds wall-clock time of the successful run, s (null when failed; for a task of a GPU batch, the batch's)
 * @param metrics     its figures (all null when failed)
 * @param reruns      why it was given back to the queue and run again (a member that left, a lease that ran out,
 *                    an attempt that threw), oldest first; empty when it ran once
 */
public record TaskResult(SweepTask task, String status, int attempts, String error, String member, Double wallSeconds,
                         TaskMetrics metrics, java.util.List<String> reruns) {
    /** Copies the reasons (absent in result.json files of earlier versions: none). */
    public TaskResult {
        reruns = reruns == null ? java.util.List.of() : java.util.List.copyOf(reruns);
    }

    /** A result of a task that ran once. */
    public TaskResult(SweepTask task, String status, int attempts, String error, String member, Double wallSeconds,
                      TaskMetrics metrics) {
        this(task, status, attempts, error, member, wallSeconds, metrics, java.util.List.of());
    }

    /** Status of a task that ran. */
    public static final String DONE = "done";
    /** Status of a task that threw on every attempt. */
    public static final String FAILED = "failed";

    /** True when the task ran to a result. */
    public boolean done() {
        return DONE.equals(status);
    }
}
