package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.HazelcastInstance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * {@link TaskBoard#claimBatch}: a GPU slot claims, in one call, pending tasks that differ only in
 * their seed and system; never a task of another model, temperature or protocol, nor one already
 * running; two members racing for one batch never both get a task; and when the member dies,
 * every task of its batch goes back to pending.
 */
class GpuBatchClaimTest {
    private static final SweepProtocol CUDA = new SweepProtocol(20L, 80L, null, null, null, null, null, "cuda", null, false);

    private static SweepTask task(String model, String system, double kelvin, long seed, SweepProtocol p) {
        return SweepTask.of(model, system, null, kelvin, seed, (int) seed, p);
    }

    private static SweepTask water(long seed) {
        return task(SweepTask.BUNDLED, "water", 300, seed, CUDA);
    }

    @Test
    void aTaskThatThrewIsRetriedAloneAndJoinsNoBatch() {
        try (Members m = new Members()) {
            TaskBoard board = new TaskBoard(m.member());
            for (long seed = 1; seed <= 4; seed++) {
                board.offer(TaskEntry.pending(water(seed), 3));
            }
            // seed 2's first attempt threw (in a batch or alone)
            TaskEntry two = board.claim(water(2).id(), "gpu-a", true);
            board.fail(water(2).id(), two.claim(), "boom");
            assertEquals(TaskState.PENDING, board.get(water(2).id()).state());
            assertEquals(List.of(1L, 3L, 4L), board.claimBatch(water(1).id(), "gpu-a", 64).stream().map(e -> e.task().seed()).toList(),
                    "a batch leaves out the task that threw");
            assertEquals(List.of(2L), board.claimBatch(water(2).id(), "gpu-b", 64).stream().map(e -> e.task().seed()).toList(),
                    "the task that threw runs alone");
        }
    }

    @Test
    void anotherMoleculeOfTheSameModelTemperatureAndProtocolJoinsTheBatch() {
        try (Members m = new Members()) {
            TaskBoard board = new TaskBoard(m.member());
            SweepTask ethanol = task(SweepTask.BUNDLED, "ethanol", 300, 11, CUDA);
            SweepTask hot = task(SweepTask.BUNDLED, "ethanol", 400, 12, CUDA);
            for (SweepTask t : List.of(water(1), water(2), ethanol, hot)) {
                board.offer(TaskEntry.pending(t, 2));
            }
            List<String> batch = board.claimBatch(water(1).id(), "gpu-a", 64).stream().map(e -> e.task().id()).toList();
            assertEquals(List.of(water(1).id(), water(2).id(), ethanol.id()), batch,
                    "water and ethanol at 300 K share a device batch (issue 29's mixed batches); 400 K does not");
            assertEquals(TaskState.PENDING, board.get(hot.id()).state());
        }
    }

    @Test
    void aBatchHoldsOnlyPendingSeedsOfOneKeyAndAllReturnWhenItsMemberDies() {
        try (Members m = new Members()) {
            HazelcastInstance hz = m.member();
            TaskBoard board = new TaskBoard(hz);
            for (long seed = 1; seed <= 6; seed++) {
                board.offer(TaskEntry.pending(water(seed), 2));
            }
            List<SweepTask> others = List.of(task(SweepTask.BUNDLED, "water", 400, 1, CUDA),
                    task("other.pt", "water", 300, 1, CUDA),
                    task(SweepTask.BUNDLED, "water", 300, 7,
                            new SweepProtocol(20L, 96L, null, null, null, null, null, "cuda", null, false)),
                    task(SweepTask.BUNDLED, "water", 300, 8,
                            new SweepProtocol(20L, 80L, null, null, null, null, null, "cuda", "float32", false)));
            others.forEach(t -> board.offer(TaskEntry.pending(t, 2)));
            SweepTask cpu = task(SweepTask.BUNDLED, "water", 300, 9,
                    new SweepProtocol(20L, 80L, null, null, null, null, null, "cpu", null, false));
            board.offer(TaskEntry.pending(cpu, 2));
            // Seed 6 is running elsewhere already.
            board.claim(water(6).id(), "gpu-b", true);

            List<TaskEntry> batch = board.claimBatch(water(3).id(), "gpu-a", 4);
            assertEquals(List.of(1L, 2L, 3L, 4L), batch.stream().map(e -> e.task().seed()).toList(),
                    "the anchor and the lowest pending seeds of its key, at most 4");
            for (TaskEntry e : batch) {
                assertEquals(TaskState.RUNNING, board.get(e.task().id()).state());
                assertEquals("gpu-a", board.get(e.task().id()).owner());
            }
            List<TaskEntry> rest = board.claimBatch(water(5).id(), "gpu-b", 64);
            assertEquals(List.of(5L), rest.stream().map(e -> e.task().seed()).toList(), "6 runs already, 1-4 are gpu-a's");
            for (SweepTask t : others) {
                assertEquals(TaskState.PENDING, board.get(t.id()).state(), "not of the batch's key: " + t.id());
            }
            assertEquals(TaskState.PENDING, board.get(cpu.id()).state());
            assertNull(board.claimBatch(cpu.id(), "gpu-a", 4), "a CPU task is claimed alone");
            assertEquals(List.of(), board.claimBatch(water(1).id(), "gpu-b", 4), "a running anchor gives nothing");

            // gpu-a dies: its four tasks go back to pending, and its late results are refused.
            assertEquals(4, board.releaseOrphans(Set.of("gpu-b")));
            for (TaskEntry e : batch) {
                assertEquals(TaskState.PENDING, board.get(e.task().id()).state());
                assertFalse(board.complete(e.task().id(), e.claim(), new TaskPayload(TaskMetrics.unknown(), Map.of(), "gpu-a", 1)));
            }
            assertEquals(TaskState.RUNNING, board.get(water(5).id()).state(), "gpu-b's batch stays with gpu-b");
        }
    }

    @Test
    void twoMembersRacingForOneKeyNeverShareATask() throws Exception {
        try (Members m = new Members()) {
            HazelcastInstance a = m.member();
            HazelcastInstance b = m.member();
            int n = 60;
            List<String> ids = new ArrayList<>();
            for (long seed = 1; seed <= n; seed++) {
                new TaskBoard(a).offer(TaskEntry.pending(water(seed), 2));
                ids.add(water(seed).id());
            }
            Map<String, List<String>> claimed = new java.util.concurrent.ConcurrentHashMap<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                HazelcastInstance hz = i % 2 == 0 ? a : b;
                String member = "member-" + i;
                List<String> mine = Collections.synchronizedList(new ArrayList<>());
                claimed.put(member, mine);
                Thread t = new Thread(() -> {
                    TaskBoard board = new TaskBoard(hz);
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    // Every thread anchors on the same tasks in turn, so that their batches overlap.
                    for (String id : ids) {
                        List<TaskEntry> got = board.claimBatch(id, member, 7);
                        got.forEach(e -> mine.add(e.task().id()));
                    }
                });
                threads.add(t);
                t.start();
            }
            go.countDown();
            for (Thread t : threads) {
                t.join(60_000);
            }
            Set<String> all = new HashSet<>();
            int total = 0;
            for (Map.Entry<String, List<String>> e : claimed.entrySet()) {
                total += e.getValue().size();
                all.addAll(e.getValue());
                for (String id : e.getValue()) {
                    assertEquals(e.getKey(), new TaskBoard(a).get(id).owner(), id);
                }
            }
            assertEquals(n, total, "each task claimed exactly once: " + claimed);
            assertEquals(new HashSet<>(ids), all);
        }
    }
}
