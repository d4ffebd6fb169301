package org.molten.sweep;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The cluster-wide task queue: an IMap of {@link TaskEntry} by task id and an IMap of
 * {@link TaskPayload} by task id. Every change of a task is an entry processor, which Hazelcast
 * runs atomically on the entry's owner and applies to its backup, so two members can never both
 * claim one task, and a completion from a member whose claim was withdrawn is ignored.
 */
public final class TaskBoard {
    /** Name of the map of task records. */
    public static final String TASKS = "molten-sweep-tasks";
    /** Name of the map of finished tasks' payloads. */
    public static final String RESULTS = "molten-sweep-results";

    private final IMap<String, TaskEntry> tasks;
    private final IMap<String, ClaimedPayload> results;

    /** The board of the cluster {@code hz} belongs to. */
    public TaskBoard(HazelcastInstance hz) {
        this.tasks = hz.getMap(TASKS);
        this.results = hz.getMap(RESULTS);
    }

    /** Adds a task unless the cluster already holds it (a coordinator restarted while workers ran). */
    public void offer(TaskEntry entry) {
        tasks.putIfAbsent(entry.task().id(), entry);
    }

    /** The record of task {@code id}, or null. */
    public TaskEntry get(String id) {
        return tasks.get(id);
    }

    /** Ids of every task on the board. */
    public Set<String> ids() {
        return tasks.keySet();
    }

    /** Ids of the tasks in one of {@code states}. */
    public Set<String> idsIn(TaskState... states) {
        return tasks.keySet(new InState(states));
    }

    /**
     * A pending task id, chosen at random among those this member holds (no network) or, when it
     * holds none, among all; null when none is pending.
     *
     * @param local false on a lite member, which holds no entries
     * @param gpu   true on a member with a GPU: it may take tasks that want one
     */
    String pickPending(boolean local, boolean gpu) {
        // A GPU member looks for the tasks that only it can run first, then for any.
        for (Predicate<String, TaskEntry> which : gpu ? List.of(new Claimable(true, true), new Claimable(true, false))
                : List.of(new Claimable(false, false))) {
            Collection<String> ids = local ? tasks.localKeySet(which) : List.of();
            if (ids.isEmpty()) {
                ids = tasks.keySet(which);
            }
            if (!ids.isEmpty()) {
                List<String> list = new ArrayList<>(ids);
                return list.get(ThreadLocalRandom.current().nextInt(list.size()));
            }
        }
        return null;
    }

    /**
     * Claims for {@code member}, in one call, the pending task {@code id} and up to {@code max - 1}
     * other pending tasks of its {@link SweepTask#batchKey()} (the same model, temperature and protocol;
     * seeds and systems may differ), to run as one batch of replicas on a GPU.
     * Each task's claim is atomic on its entry, as {@link #claim} is: a member racing for the same
     * tasks gets the others, never one of these; and each claimed task is RUNNING on
     * {@code member} as if claimed alone, so {@link #releaseOrphans} puts them all back should
     * the member die, and each completes or fails on its own.
     *
     * @return the claimed records, ordered by seed (empty when someone else was faster); null when
     *         {@code id} is not a pending GPU task, which is claimed alone
     */
    List<TaskEntry> claimBatch(String id, String member, int max) {
        return claimBatch(id, member, member, max, System.currentTimeMillis());
    }

    /** As {@link #claimBatch(String, String, int)}, the leases starting at cluster time {@code nowMs}. */
    List<TaskEntry> claimBatch(String id, String member, String memberName, int max, long nowMs) {
        if (max < 1) {
            throw new IllegalArgumentException("a batch holds at least one task, got " + max);
        }
        TaskEntry anchor = tasks.get(id);
        if (anchor == null || anchor.state() != TaskState.PENDING) {
            return List.of();
        }
        if (!anchor.task().protocol().wantsGpu()) {
            return null;
        }
        SweepTask.BatchKey key = anchor.task().batchKey();
        // A task that has already thrown is retried alone, and no batch takes it in: otherwise one seed that
        // throws would use up the attempts of every batch-mate it is grouped with again and again.
        if (anchor.attempts() > 0) {
            max = 1;
        }
        List<TaskEntry> mates = new ArrayList<>(tasks.values(new PendingOf(key)));
        mates.removeIf(e -> e.task().id().equals(id) || e.attempts() > 0);
        mates.sort(java.util.Comparator.comparingLong((TaskEntry e) -> e.task().seed()).thenComparing(e -> e.task().id()));
        Set<String> ids = new java.util.LinkedHashSet<>();
        ids.add(id);
        for (TaskEntry e : mates) {
            if (ids.size() >= max) {
                break;
            }
            ids.add(e.task().id());
        }
        Map<String, TaskEntry> claimed = tasks.executeOnKeys(ids, new Claim(member, memberName, true, key, nowMs));
        List<TaskEntry> out = new ArrayList<>();
        for (TaskEntry e : claimed.values()) {
            if (e != null) {
                out.add(e);
            }
        }
        out.sort(java.util.Comparator.comparingLong((TaskEntry e) -> e.task().seed()).thenComparing(e -> e.task().id()));
        return out;
    }

    /** Claims {@code id} for {@code member}: the claimed record, or null when someone else was faster. */
    TaskEntry claim(String id, String member, boolean gpu) {
        return claim(id, member, member, gpu, System.currentTimeMillis());
    }

    /** Claims {@code id} for {@code member} with a lease from cluster time {@code nowMs}; null when someone else was faster. */
    TaskEntry claim(String id, String member, String memberName, boolean gpu, long nowMs) {
        return tasks.executeOnKey(id, new Claim(member, memberName, gpu, null, nowMs));
    }

    /**
     * Moves the lease of claim {@code claim} of task {@code id} forward to cluster time {@code untilMs} (never back);
     * false when that claim no longer holds the task (its lease ran out, its member was thought dead, it ended).
     */
    boolean renew(String id, int claim, long untilMs) {
        return Boolean.TRUE.equals(tasks.executeOnKey(id, new Renew(claim, untilMs)));
    }

    /**
     * Gives every running task whose lease ran out before cluster time {@code nowMs} back to the queue as a hung
     * attempt (failed once its attempts are used up); returns how many.
     */
    public int releaseExpired(long nowMs) {
        Map<String, Boolean> r = tasks.executeOnEntries(new ReleaseExpired(nowMs), new InState(TaskState.RUNNING));
        return (int) r.values().stream().filter(Boolean.TRUE::equals).count();
    }

    /**
     * Stores the payload and marks the task done, unless the claim {@code claim} was withdrawn meanwhile; then the
     * payload is dropped again and the task's stored result (if a later claim has completed it) stays as it was.
     * The payload goes first, so that a DONE task always has one; it is stored with its claim number and never
     * replaces the payload of a later claim, so that a member thought dead cannot overwrite, after the fact, the
     * result of the member that ran the task again (both write under the same key).
     */
    boolean complete(String id, int claim, TaskPayload payload) {
        results.executeOnKey(id, new StorePayload(new ClaimedPayload(claim, payload)));
        boolean ok = Boolean.TRUE.equals(tasks.executeOnKey(id, new Complete(claim)));
        if (!ok) {
            results.executeOnKey(id, new DropPayload(claim));
        }
        return ok;
    }

    /** Counts a throwing attempt: back to pending, or failed once its attempts are used up. */
    void fail(String id, int claim, String error) {
        tasks.executeOnKey(id, new Fail(claim, error));
    }

    /** Puts every task running on a member not in {@code live} back to pending; returns how many. */
    public int releaseOrphans(Set<String> live) {
        Map<String, Boolean> r = tasks.executeOnEntries(new ReleaseOrphans(live), new InState(TaskState.RUNNING));
        return (int) r.values().stream().filter(Boolean.TRUE::equals).count();
    }

    /** The payload of a done task, or null. */
    public TaskPayload payload(String id) {
        ClaimedPayload p = results.get(id);
        return p == null ? null : p.payload();
    }

    /** Forgets a task that the coordinator has stored. */
    public void remove(String id) {
        results.delete(id);
        tasks.delete(id);
    }

    /** Puts a done task whose payload was lost back to pending. */
    public void requeue(String id) {
        tasks.executeOnKey(id, new Requeue());
    }

    /** Entries in one of the given states. */
    static final class InState implements Predicate<String, TaskEntry> {
        private static final long serialVersionUID = 1L;
        private final TaskState[] states;

        InState(TaskState... states) {
            this.states = states;
        }

        @Override
        public boolean apply(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null) {
                return false;
            }
            for (TaskState s : states) {
                if (v.state() == s) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Pending entries a member may take: GPU tasks only on GPU members; with {@code gpuOnly}, only those. */
    static final class Claimable implements Predicate<String, TaskEntry> {
        private static final long serialVersionUID = 1L;
        private final boolean gpu;
        private final boolean gpuOnly;

        Claimable(boolean gpu, boolean gpuOnly) {
            this.gpu = gpu;
            this.gpuOnly = gpuOnly;
        }

        @Override
        public boolean apply(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.PENDING) {
                return false;
            }
            boolean wants = v.task().protocol().wantsGpu();
            return gpuOnly ? wants : gpu || !wants;
        }
    }

    /** Pending entries of one batch key. */
    static final class PendingOf implements Predicate<String, TaskEntry> {
        private static final long serialVersionUID = 1L;
        private final SweepTask.BatchKey key;

        PendingOf(SweepTask.BatchKey key) {
            this.key = key;
        }

        @Override
        public boolean apply(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            return v != null && v.state() == TaskState.PENDING && v.task().batchKey().equals(key);
        }
    }

    /**
     * PENDING → RUNNING by one member (of batch {@code key} unless it is null), its lease running from cluster time
     * {@code nowMs}; returns the new record or null.
     */
    static final class Claim implements EntryProcessor<String, TaskEntry, TaskEntry> {
        private static final long serialVersionUID = 2L;
        private final String member;
        private final String memberName;
        private final boolean gpu;
        private final SweepTask.BatchKey key;
        private final long nowMs;

        Claim(String member, String memberName, boolean gpu, SweepTask.BatchKey key, long nowMs) {
            this.member = member;
            this.memberName = memberName;
            this.gpu = gpu;
            this.key = key;
            this.nowMs = nowMs;
        }

        @Override
        public TaskEntry process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.PENDING || (!gpu && v.task().protocol().wantsGpu())
                    || (key != null && !v.task().batchKey().equals(key))) {
                return null;
            }
            TaskEntry claimed = v.claimedBy(member, memberName, nowMs);
            e.setValue(claimed);
            return claimed;
        }
    }

    /** RUNNING (this claim) → DONE; returns whether it applied. */
    static final class Complete implements EntryProcessor<String, TaskEntry, Boolean> {
        private static final long serialVersionUID = 1L;
        private final int claim;

        Complete(int claim) {
            this.claim = claim;
        }

        @Override
        public Boolean process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.RUNNING || v.claim() != claim) {
                return false;
            }
            e.setValue(v.done());
            return true;
        }
    }

    /** RUNNING (this claim) → PENDING or FAILED, counting the attempt. */
    static final class Fail implements EntryProcessor<String, TaskEntry, Boolean> {
        private static final long serialVersionUID = 1L;
        private final int claim;
        private final String error;

        Fail(int claim, String error) {
            this.claim = claim;
            this.error = error;
        }

        @Override
        public Boolean process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.RUNNING || v.claim() != claim) {
                return false;
            }
            e.setValue(v.threw(error));
            return true;
        }
    }

    /** RUNNING on a member that left → PENDING (not counted as an attempt: the task did not fail). */
    static final class ReleaseOrphans implements EntryProcessor<String, TaskEntry, Boolean> {
        private static final long serialVersionUID = 1L;
        private final Set<String> live;

        ReleaseOrphans(Set<String> live) {
            this.live = Set.copyOf(live);
        }

        @Override
        public Boolean process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.RUNNING || live.contains(v.owner())) {
                return false;
            }
            e.setValue(v.released("member " + (v.ownerName() != null ? v.ownerName() : v.owner())
                    + " left the cluster while running it (claim " + v.claim() + ")"));
            return true;
        }
    }

    /** RUNNING (this claim) → the same with its lease moved forward; returns whether that claim still holds the task. */
    static final class Renew implements EntryProcessor<String, TaskEntry, Boolean> {
        private static final long serialVersionUID = 1L;
        private final int claim;
        private final long untilMs;

        Renew(int claim, long untilMs) {
            this.claim = claim;
            this.untilMs = untilMs;
        }

        @Override
        public Boolean process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.RUNNING || v.claim() != claim) {
                return false;
            }
            if (untilMs > v.leaseUntilMs()) {
                e.setValue(v.renewedUntil(untilMs));
            }
            return true;
        }
    }

    /** RUNNING with its lease run out before {@code nowMs} → PENDING (or FAILED), a hung attempt. */
    static final class ReleaseExpired implements EntryProcessor<String, TaskEntry, Boolean> {
        private static final long serialVersionUID = 1L;
        private final long nowMs;

        ReleaseExpired(long nowMs) {
            this.nowMs = nowMs;
        }

        @Override
        public Boolean process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.RUNNING || v.leaseUntilMs() >= nowMs) {
                return false;
            }
            e.setValue(v.expired(nowMs));
            return true;
        }
    }

    /** A task's payload with the number of the claim that produced it. */
    record ClaimedPayload(int claim, TaskPayload payload) implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Stores a payload unless one of a later claim is there; returns whether it stored. */
    static final class StorePayload implements EntryProcessor<String, ClaimedPayload, Boolean> {
        private static final long serialVersionUID = 1L;
        private final ClaimedPayload payload;

        StorePayload(ClaimedPayload payload) {
            this.payload = payload;
        }

        @Override
        public Boolean process(Map.Entry<String, ClaimedPayload> e) {
            ClaimedPayload v = e.getValue();
            if (v != null && v.claim() > payload.claim()) {
                return false;
            }
            e.setValue(payload);
            return true;
        }
    }

    /** Removes the payload stored by claim {@code claim} (a refused completion's), and no other. */
    static final class DropPayload implements EntryProcessor<String, ClaimedPayload, Boolean> {
        private static final long serialVersionUID = 1L;
        private final int claim;

        DropPayload(int claim) {
            this.claim = claim;
        }

        @Override
        public Boolean process(Map.Entry<String, ClaimedPayload> e) {
            ClaimedPayload v = e.getValue();
            if (v == null || v.claim() != claim) {
                return false;
            }
            e.setValue(null);
            return true;
        }
    }

    /** DONE without a payload → PENDING. */
    static final class Requeue implements EntryProcessor<String, TaskEntry, Boolean> {
        private static final long serialVersionUID = 1L;

        @Override
        public Boolean process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.DONE) {
                return false;
            }
            e.setValue(v.released("its payload was lost with the members that held it"));
            return true;
        }
    }
}
