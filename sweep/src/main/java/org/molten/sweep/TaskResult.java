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
 */
public record TaskResult(SweepTask task, String status, int attempts, String error, String member, Double wallSeconds,
                         TaskMetrics metrics) {
    /** Status of a task that ran. */
    public static final String DONE = "done";
    /** Status of a task that threw on every attempt. */
    public static final String FAILED = "failed";

    /** True when the task ran to a result. */
    public boolean done() {
        return DONE.equals(status);
    }
}
