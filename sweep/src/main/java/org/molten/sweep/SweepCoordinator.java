package org.molten.sweep;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Puts a sweep's unfinished tasks on the board and collects them until every one is stored:
 * done tasks with their payloads, failed ones with their errors. It alone writes the output
 * directory, and each task exactly once (a task that ran twice — its member was thought dead, or
 * a payload was re-sent — is stored the first time and dropped after). It also keeps the board
 * whole: tasks running on members that left go back to pending, so do tasks whose lease ran out
 * (their member hangs: {@link TaskLeases}), and tasks whose records were lost (two members dying
 * at once) are put back.
 */
public final class SweepCoordinator {
    private static final long POLL_MS = 100;
    private static final long ORPHAN_CHECK_MS = 1000;
    private static final long RESEED_CHECK_MS = 5000;

    private final HazelcastInstance hz;
    private final TaskBoard board;
    private final ResultStore store;
    private final int maxAttempts;
    private final long taskTimeoutMs;
    private final SweepProgress progress;

    /**
     * @param hz          a member of the sweep's cluster (lite or not)
     * @param store       the output directory
     * @param maxAttempts attempts a throwing task gets before it is reported as failed
     * @param progress    where progress goes
     */
    public SweepCoordinator(HazelcastInstance hz, ResultStore store, int maxAttempts, SweepProgress progress) {
        this(hz, store, maxAttempts, TaskTimeout.FLOOR_MS, progress);
    }

    /**
     * @param hz            a member of the sweep's cluster (lite or not)
     * @param store         the output directory
     * @param maxAttempts   attempts a throwing (or hanging) task gets before it is reported as failed
     * @param taskTimeoutMs longest time a member holds a task without progress before it runs elsewhere, ms
     * @param progress      where progress goes
     */
    public SweepCoordinator(HazelcastInstance hz, ResultStore store, int maxAttempts, long taskTimeoutMs,
                            SweepProgress progress) {
        if (taskTimeoutMs < 1) {
            throw new IllegalArgumentException("task timeout must be positive, got " + taskTimeoutMs + " ms");
        }
        this.taskTimeoutMs = taskTimeoutMs;
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
        }
        this.hz = hz;
        this.board = new TaskBoard(hz);
        this.store = store;
        this.maxAttempts = maxAttempts;
        this.progress = progress;
    }

    /**
     * What one run of the coordinator did.
     *
     * @param resumed tasks already stored before it started (skipped)
     * @param ran     tasks it stored as done
     * @param failed  tasks it stored as failed
     */
    public record Counts(int resumed, int ran, int failed) {
    }

    /** Runs the unfinished ones of {@code tasks} to the end; returns what it did. */
    public Counts run(List<SweepTask> tasks) throws IOException, InterruptedException {
        return run(tasks, () -> { });
    }

    /**
     * As {@link #run(List)}, calling {@code offered} once every unfinished task is on the board
     * (an embedded sweep starts its slots there).
     */
    public Counts run(List<SweepTask> tasks, Runnable offered) throws IOException, InterruptedException {
        store.cleanPartials();
        Map<String, SweepTask> remaining = new LinkedHashMap<>();
        for (SweepTask t : tasks) {
            if (store.finished(t.id()) && !store.read(t.id()).done()) {
                store.forget(t.id());  // a task that failed last time gets its attempts again
            }
            if (!store.finished(t.id())) {
                remaining.put(t.id(), t);
            } else if (board.get(t.id()) != null) {
                board.remove(t.id());  // stored by a coordinator that stopped before it could tidy the board
            }
        }
        int total = tasks.size();
        int resumed = total - remaining.size();
        for (SweepTask t : remaining.values()) {
            board.offer(TaskEntry.pending(t, maxAttempts, taskTimeoutMs));
        }
        offered.run();
        int ran = 0;
        int failed = 0;
        int running = 0;
        long start = System.nanoTime();
        long lastOrphanCheck = 0;
        long lastReseed = System.currentTimeMillis();
        while (!remaining.isEmpty()) {
            if (!hz.getLifecycleService().isRunning()) {
                throw new IllegalStateException("the sweep's cluster member stopped with " + remaining.size() + " tasks left");
            }
            Set<String> ended = new HashSet<>(board.idsIn(TaskState.DONE, TaskState.FAILED));
            ended.retainAll(remaining.keySet());
            for (String id : ended) {
                TaskResult r = collect(id);
                if (r != null) {
                    remaining.remove(id);
                    if (r.done()) {
                        ran++;
                    } else {
                        failed++;
                    }
                }
            }
            long now = System.currentTimeMillis();
            if (now - lastOrphanCheck >= ORPHAN_CHECK_MS) {
                lastOrphanCheck = now;
                Set<String> live = hz.getCluster().getMembers().stream().map(Member::getUuid).map(Object::toString)
                        .collect(Collectors.toSet());
                board.releaseOrphans(live);
                board.releaseExpired(hz.getCluster().getClusterTime());  // hung members: their tasks run elsewhere
                running = board.idsIn(TaskState.RUNNING).size();
            }
            if (now - lastReseed >= RESEED_CHECK_MS) {
                lastReseed = now;
                Set<String> present = board.ids();
                for (SweepTask t : remaining.values()) {
                    if (!present.contains(t.id())) {
                        board.offer(TaskEntry.pending(t, maxAttempts, taskTimeoutMs));
                    }
                }
            }
            int finishedNow = ran + failed;
            double elapsed = (System.nanoTime() - start) * 1e-9;
            double eta = finishedNow == 0 ? Double.NaN : elapsed / finishedNow * remaining.size();
            progress.update(resumed + finishedNow, remaining.isEmpty() ? 0 : running, failed, total, eta);
            if (!remaining.isEmpty() && ended.isEmpty()) {
                Thread.sleep(POLL_MS);
            }
        }
        return new Counts(resumed, ran, failed);
    }

    /** Stores task {@code id} if it has ended and its payload is there; returns the stored result or null. */
    private TaskResult collect(String id) throws IOException {
        TaskEntry e = board.get(id);
        if (e == null) {
            return null;
        }
        TaskResult r;
        Map<String, byte[]> files;
        if (e.state() == TaskState.DONE) {
            TaskPayload p = board.payload(id);
            if (p == null) {
                board.requeue(id);  // the payload was lost with its members: run it again
                return null;
            }
            r = new TaskResult(e.task(), TaskResult.DONE, e.attempts(), e.error(), p.member(), p.wallSeconds(), p.metrics(),
                    e.reruns());
            files = p.files();
        } else if (e.state() == TaskState.FAILED) {
            r = new TaskResult(e.task(), TaskResult.FAILED, e.attempts(), e.error(), null, null, TaskMetrics.unknown(),
                    e.reruns());
            files = Map.of();
        } else {
            return null;
        }
        store.store(r, files);  // false only when a stored copy exists already: counted once either way
        board.remove(id);
        return r;
    }
}
