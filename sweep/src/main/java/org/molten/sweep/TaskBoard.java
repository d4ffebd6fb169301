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
    private final IMap<String, TaskPayload> results;

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
        Collection<String> ids = local ? tasks.localKeySet(new Claimable(gpu)) : List.of();
        if (ids.isEmpty()) {
            ids = tasks.keySet(new Claimable(gpu));
        }
        if (ids.isEmpty()) {
            return null;
        }
        List<String> list = new ArrayList<>(ids);
        return list.get(ThreadLocalRandom.current().nextInt(list.size()));
    }

    /** Claims {@code id} for {@code member}: the claimed record, or null when someone else was faster. */
    TaskEntry claim(String id, String member, boolean gpu) {
        return tasks.executeOnKey(id, new Claim(member, gpu));
    }

    /** Stores the payload and marks the task done, unless the claim {@code claim} was withdrawn meanwhile. */
    boolean complete(String id, int claim, TaskPayload payload) {
        results.set(id, payload);
        Boolean ok = tasks.executeOnKey(id, new Complete(claim));
        return Boolean.TRUE.equals(ok);
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
        return results.get(id);
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

    /** Pending entries a member may take: GPU tasks only on GPU members. */
    static final class Claimable implements Predicate<String, TaskEntry> {
        private static final long serialVersionUID = 1L;
        private final boolean gpu;

        Claimable(boolean gpu) {
            this.gpu = gpu;
        }

        @Override
        public boolean apply(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            return v != null && v.state() == TaskState.PENDING && (gpu || !v.task().protocol().wantsGpu());
        }
    }

    /** PENDING → RUNNING by one member; returns the new record or null. */
    static final class Claim implements EntryProcessor<String, TaskEntry, TaskEntry> {
        private static final long serialVersionUID = 1L;
        private final String member;
        private final boolean gpu;

        Claim(String member, boolean gpu) {
            this.member = member;
            this.gpu = gpu;
        }

        @Override
        public TaskEntry process(Map.Entry<String, TaskEntry> e) {
            TaskEntry v = e.getValue();
            if (v == null || v.state() != TaskState.PENDING || (!gpu && v.task().protocol().wantsGpu())) {
                return null;
            }
            TaskEntry claimed = v.claimedBy(member);
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
            e.setValue(v.released());
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
            e.setValue(v.released());
            return true;
        }
    }
}
