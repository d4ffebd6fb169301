package org.molten.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
     * Runs tasks that share their {@link SweepTask#batchKey()} (only their seeds differ) together,
     * task i writing into the empty directory {@code reportDirs.get(i)}: a GPU member's batch of
     * replicas. Each task's figures and files must be those it gives run alone with
     * {@link #execute}. The default runs them one after the other.
     *
     * @return task i's figures at index i
     * @throws Exception when the batch could not run; the sweep counts a failed attempt for each task
     */
    default List<TaskMetrics> executeBatch(List<SweepTask> tasks, List<Path> reportDirs) throws Exception {
        List<TaskMetrics> out = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            out.add(execute(tasks.get(i), reportDirs.get(i)));
        }
        return out;
    }

    /**
     * As {@link #execute(SweepTask, Path)}, calling {@code heartbeat} whenever the task makes
     * progress, so that its member keeps its lease (a task that stops calling it is taken back
     * after the sweep's task timeout and run elsewhere). The default reports no progress: the
     * lease then lasts the task timeout from the claim.
     */
    default TaskMetrics execute(SweepTask task, Path reportDir, TaskHeartbeat heartbeat) throws Exception {
        return execute(task, reportDir);
    }

    /**
     * As {@link #executeBatch(List, List)}, calling {@code heartbeat} whenever the batch makes
     * progress. The default reports no progress.
     */
    default List<TaskMetrics> executeBatch(List<SweepTask> tasks, List<Path> reportDirs, TaskHeartbeat heartbeat)
            throws Exception {
        return executeBatch(tasks, reportDirs);
    }

    /**
     * This executor with each task limited to {@code cores} threads in all (its models and its
     * replica workers): a member with S slots gives each slot cores / S, so that its slots together
     * use the machine's cores once, not S times. The default ignores the limit (test fakes).
     */
    default TaskExecutor sharing(int cores) {
        return this;
    }
}
