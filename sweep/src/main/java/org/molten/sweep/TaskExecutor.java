package org.molten.sweep;

import java.nio.file.Path;

/**
 * Runs one task on a member. The production implementation is {@link ValidationTaskExecutor};
 * tests substitute fakes. Implementations must be safe to call from several threads at once
 * (one call per slot).
 */
@FunctionalInterface
public interface TaskExecutor {
    /**
     * Runs {@code task}, writing its own report files into the empty directory {@code reportDir}.
     * A simulation that blows up is a result (its metrics say unstable), not an exception.
     *
     * @return the figures of the finished task
     * @throws Exception when the task could not run (bad weights, a bug, out of memory); the
     *                   sweep retries it a bounded number of times and then reports the error
     */
    TaskMetrics execute(SweepTask task, Path reportDir) throws Exception;

    /**
     * This executor with each task limited to {@code cores} threads in all (its models and its
     * replica workers): a member with S slots gives each slot cores / S, so that its slots together
     * use the machine's cores once, not S times. The default ignores the limit (test fakes).
     */
    default TaskExecutor sharing(int cores) {
        return this;
    }
}
