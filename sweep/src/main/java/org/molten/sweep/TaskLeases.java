package org.molten.sweep;

import com.hazelcast.core.HazelcastInstance;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A member's heartbeat: keeps the leases of the tasks its slots run while they make progress. Each
 * claim gets a {@link Held} whose {@link TaskHeartbeat} records the cluster time of the last
 * progress; every {@value #TICK_MS} ms the member moves the claim's lease on the board to that time
 * plus the task timeout, once it has moved by an eighth of the timeout (so a long timeout costs
 * few board calls). A task that stops progressing is not renewed and its lease runs out one timeout
 * after its last progress; a member that freezes altogether renews nothing. Cluster time
 * (Hazelcast's, the same on every member) is used so that members' clocks need not agree.
 */
final class TaskLeases implements AutoCloseable {
    /** Period of the heartbeat, ms. */
    static final long TICK_MS = 100;

    private final HazelcastInstance hz;
    private final TaskBoard board;
    private final Set<Held> held = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;

    TaskLeases(HazelcastInstance hz, TaskBoard board) {
        this.hz = hz;
        this.board = board;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "molten-sweep-heartbeat");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::tick, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
    }

    /** Cluster time, ms. */
    long now() {
        return hz.getCluster().getClusterTime();
    }

    /** Starts keeping the leases of {@code claimed} (one task, or one GPU batch run together). */
    Held hold(List<TaskEntry> claimed) {
        Held h = new Held(claimed, now());
        held.add(h);
        return h;
    }

    private void tick() {
        for (Held h : held) {
            try {
                h.renew();
            } catch (RuntimeException e) {
                // A member leaving or a migration: the next tick tries again; an expired lease is the coordinator's call.
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        held.clear();
    }

    /** The leases of one claim (a task or a batch) while its slot runs it. */
    final class Held implements TaskHeartbeat, AutoCloseable {
        private final List<TaskEntry> claimed;
        private final long timeoutMs;
        private volatile long lastProgressMs;
        private long renewedFromMs;
        private volatile boolean lost;

        private Held(List<TaskEntry> claimed, long nowMs) {
            this.claimed = List.copyOf(claimed);
            this.timeoutMs = claimed.stream().mapToLong(TaskEntry::timeoutMs).min().orElse(TaskTimeout.FLOOR_MS);
            this.lastProgressMs = nowMs;
            this.renewedFromMs = nowMs;
        }

        @Override
        public void progressed() {
            lastProgressMs = now();
        }

        /** True once the board refused a renewal: another claim holds the task (its result will be refused too). */
        boolean lost() {
            return lost;
        }

        private synchronized void renew() {
            long from = lastProgressMs;
            if (lost || from - renewedFromMs < Math.max(1, timeoutMs / 8)) {
                return;
            }
            renewedFromMs = from;
            for (TaskEntry e : claimed) {
                if (!board.renew(e.task().id(), e.claim(), from + e.timeoutMs())) {
                    lost = true;
                }
            }
        }

        @Override
        public void close() {
            held.remove(this);
        }
    }
}
