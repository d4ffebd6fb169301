package org.molten.sweep;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The slots of one member: threads that take pending tasks from the {@link TaskBoard}, run them
 * with a {@link TaskExecutor} in a private temporary directory and hand back the payload. A member
 * takes a task only when it has a free slot (pull), so fast and slow members share the work by
 * their speed. While a slot runs a task, the member's heartbeat ({@link TaskLeases}) renews the
 * task's lease as long as the task reports progress; a late result of a claim whose lease ran out
 * is refused by the board.
 */
public final class TaskWorkers implements AutoCloseable {
    /** Longest wait between looks at an empty board, ms. */
    private static final long MAX_IDLE_MS = 500;
    /**
     * Default most GPU tasks a slot claims as one batch of replicas: enough seeds of a small
     * molecule to fill much of an H100 (ethanol: 512 packed copies ran 290,000 replica-steps/s,
     * docs/scaling.md), few enough that one slow batch does not hold back a large share of a sweep.
     */
    public static final int DEFAULT_GPU_BATCH = 64;

    private final HazelcastInstance hz;
    private final TaskBoard board;
    private final TaskExecutor executor;
    private final String memberId;
    private final String memberName;
    private final boolean gpu;
    private final int gpuBatch;
    private final List<Thread> threads = new ArrayList<>();
    private final TaskLeases leases;
    private volatile boolean running = true;

    /**
     * Starts {@code slots} threads on member {@code hz}.
     *
     * @param slots tasks run at once on this member (for CPU tasks: its cores)
     * @param gpu   true when this member has a GPU and takes the tasks that want one
     */
    public TaskWorkers(HazelcastInstance hz, TaskExecutor executor, int slots, boolean gpu) {
        this(hz, executor, slots, gpu, DEFAULT_GPU_BATCH);
    }

    /**
     * Starts {@code slots} threads on member {@code hz}; with {@code gpu}, each slot claims up to
     * {@code gpuBatch} GPU tasks of one batch key at once and runs them as one batch of replicas
     * ({@link TaskExecutor#executeBatch}); CPU tasks are always taken one by one.
     */
    public TaskWorkers(HazelcastInstance hz, TaskExecutor executor, int slots, boolean gpu, int gpuBatch) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be at least 1, got " + slots);
        }
        if (gpuBatch < 1) {
            throw new IllegalArgumentException("GPU batch must be at least 1 task, got " + gpuBatch);
        }
        this.gpuBatch = gpuBatch;
        this.hz = hz;
        this.board = new TaskBoard(hz);
        this.executor = executor.sharing(coresPerSlot(Runtime.getRuntime().availableProcessors(), slots));
        this.gpu = gpu;
        this.memberId = hz.getCluster().getLocalMember().getUuid().toString();
        this.memberName = hz.getCluster().getLocalMember().getAddress().toString();
        this.leases = new TaskLeases(hz, board);
        for (int i = 0; i < slots; i++) {
            Thread t = new Thread(this::loop, "molten-sweep-slot-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** The cores of one slot: the member's cores shared by its slots, at least one. */
    static int coresPerSlot(int cores, int slots) {
        return Math.max(1, cores / slots);
    }

    /** The executor the slots run tasks with (limited to {@link #coresPerSlot} threads per task). */
    TaskExecutor executor() {
        return executor;
    }

    private void loop() {
        long idleMs = 20;
        boolean local = !hz.getCluster().getLocalMember().isLiteMember();
        while (running) {
            try {
                String id = board.pickPending(local, gpu);
                List<TaskEntry> claimed = id == null ? List.of() : claim(id);
                if (claimed.isEmpty()) {
                    if (id == null) {
                        Thread.sleep(idleMs);
                        idleMs = Math.min(MAX_IDLE_MS, idleMs * 2);
                    }
                    continue;
                }
                idleMs = 20;
                if (claimed.size() == 1) {
                    runOne(claimed.get(0));
                } else {
                    runBatch(claimed);
                }
            } catch (HazelcastInstanceNotActiveException | InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (!hz.getLifecycleService().isRunning()) {
                    return;
                }
                // A migration or a member leaving made a board call fail: look again.
                sleepQuietly(100);
            }
        }
    }

    /** Claims task {@code id}, with its batch mates on a GPU member: the claimed records (empty: someone was faster). */
    private List<TaskEntry> claim(String id) {
        if (gpu && gpuBatch > 1) {
            List<TaskEntry> batch = board.claimBatch(id, memberId, memberName, gpuBatch, leases.now());
            if (batch != null) {
                return batch;
            }
        }
        TaskEntry one = board.claim(id, memberId, memberName, gpu, leases.now());
        return one == null ? List.of() : List.of(one);
    }

    /**
     * Runs a batch of GPU tasks together and completes each with its own payload; when the batch
     * throws, every task of it counts a failed attempt (and goes back to pending while it has
     * attempts left). Each payload's wall time is the batch's.
     */
    private void runBatch(List<TaskEntry> claimed) {
        List<SweepTask> batch = claimed.stream().map(TaskEntry::task).toList();
        List<Path> dirs = new ArrayList<>();
        long t0 = System.nanoTime();
        try (TaskLeases.Held lease = leases.hold(claimed)) {
            for (int i = 0; i < batch.size(); i++) {
                dirs.add(Files.createTempDirectory("molten-task-"));
            }
            List<TaskMetrics> metrics = executor.executeBatch(batch, dirs, lease);
            if (metrics.size() != batch.size()) {
                throw new IllegalStateException("a batch of " + batch.size() + " tasks gave " + metrics.size() + " results");
            }
            double wall = (System.nanoTime() - t0) * 1e-9;
            for (int i = 0; i < batch.size(); i++) {
                TaskPayload payload = TaskPayload.collect(metrics.get(i), dirs.get(i), memberName, wall);
                board.complete(batch.get(i).id(), claimed.get(i).claim(), payload);
            }
        } catch (HazelcastInstanceNotActiveException e) {
            throw e;
        } catch (Throwable e) {  // as runOne: recorded and retried, for each task of the batch (a completed one is not touched)
            if (!running || !hz.getLifecycleService().isRunning()) {
                return;
            }
            String error = describe(e);
            for (TaskEntry c : claimed) {
                board.fail(c.task().id(), c.claim(), error);
            }
        } finally {
            dirs.forEach(TaskWorkers::deleteQuietly);
        }
    }

    private void runOne(TaskEntry claimed) {
        SweepTask task = claimed.task();
        Path dir = null;
        long t0 = System.nanoTime();
        try (TaskLeases.Held lease = leases.hold(List.of(claimed))) {
            dir = Files.createTempDirectory("molten-task-");
            TaskMetrics metrics = executor.execute(task, dir, lease);
            TaskPayload payload = TaskPayload.collect(metrics, dir, memberName, (System.nanoTime() - t0) * 1e-9);
            board.complete(task.id(), claimed.claim(), payload);
        } catch (HazelcastInstanceNotActiveException e) {
            throw e;
        } catch (Throwable e) {  // the task's failure, whatever it was, is recorded and retried (OutOfMemoryError too)
            if (!running || !hz.getLifecycleService().isRunning()) {
                return;  // stopped, not failed: the coordinator puts the task back when this member leaves
            }
            board.fail(task.id(), claimed.claim(), describe(e));
        } finally {
            deleteQuietly(dir);
        }
    }

    /** The exception's class, message and first frames, for the report. */
    static String describe(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        String[] lines = w.toString().split("\\R");
        return String.join("\n", java.util.Arrays.copyOf(lines, Math.min(lines.length, 8)));
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // A temporary directory left behind costs disk space only.
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops taking tasks and waits up to {@code waitMs} for running ones to end. */
    public void stop(long waitMs) {
        running = false;
        long deadline = System.currentTimeMillis() + waitMs;
        for (Thread t : threads) {
            try {
                t.join(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stop(0);
        threads.forEach(Thread::interrupt);
        leases.close();
    }
}
