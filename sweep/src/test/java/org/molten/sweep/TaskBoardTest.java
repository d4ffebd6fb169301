package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The board's transitions on one member: one claim wins, withdrawn claims cannot complete, GPU tasks go to GPU members. */
class TaskBoardTest {

    private static SweepTask task(String device) {
        SweepProtocol p = new SweepProtocol(20L, 80L, null, null, null, null, null, device, null, false);
        return SweepTask.of(SweepTask.BUNDLED, "water", null, 300, 1, 0, p);
    }

    @Test
    void claimsAreExclusiveFencedAndGpuTasksWaitForGpuMembers(@TempDir Path out) throws Exception {
        try (Members m = new Members()) {
            HazelcastInstance hz = m.member();
            TaskBoard board = new TaskBoard(hz);
            SweepTask cpu = task("cpu");
            SweepTask gpu = task("cuda");
            board.offer(TaskEntry.pending(cpu, 2));
            board.offer(TaskEntry.pending(gpu, 2));

            assertEquals(cpu.id(), board.pickPending(true, false), "a CPU member sees only the CPU task");
            assertNull(board.claim(gpu.id(), "cpu-member", false), "a CPU member cannot claim a GPU task");
            TaskEntry first = board.claim(cpu.id(), "member-a", false);
            assertNotNull(first);
            assertNull(board.claim(cpu.id(), "member-b", false), "one claim wins");
            assertEquals(gpu.id(), board.pickPending(true, true));

            // member-a is declared dead: its task goes back, a second claim takes it, and member-a's late result is refused.
            assertEquals(1, board.releaseOrphans(Set.of("member-b")));
            TaskEntry second = board.claim(cpu.id(), "member-b", false);
            assertEquals(first.claim() + 1, second.claim());
            assertFalse(board.complete(cpu.id(), first.claim(), new TaskPayload(TaskMetrics.unknown(), java.util.Map.of(), "a", 1)));
            assertTrue(board.complete(cpu.id(), second.claim(), new TaskPayload(TaskMetrics.unknown(), java.util.Map.of(), "b", 1)));
            assertEquals(TaskState.DONE, board.get(cpu.id()).state());
            assertEquals("b", board.payload(cpu.id()).member());

            // A task that throws on every attempt ends FAILED with its error after max attempts (2 here).
            TaskEntry g1 = board.claim(gpu.id(), "gpu-member", true);
            board.fail(gpu.id(), g1.claim(), "boom 1");
            assertEquals(TaskState.PENDING, board.get(gpu.id()).state());
            TaskEntry g2 = board.claim(gpu.id(), "gpu-member", true);
            board.fail(gpu.id(), g2.claim(), "boom 2");
            assertEquals(TaskState.FAILED, board.get(gpu.id()).state());
            assertEquals("boom 2", board.get(gpu.id()).error());
            assertEquals(2, board.get(gpu.id()).attempts());
        }
    }

    @Test
    void aWithdrawnClaimsLateResultNeitherReplacesTheResultNorLingers() {
        try (Members m = new Members()) {
            TaskBoard board = new TaskBoard(m.member());
            SweepTask cpu = task("cpu");
            board.offer(TaskEntry.pending(cpu, 2));
            TaskEntry first = board.claim(cpu.id(), "member-a", false);
            assertEquals(1, board.releaseOrphans(Set.of("member-b")));  // member-a thought dead
            TaskEntry second = board.claim(cpu.id(), "member-b", false);

            // member-a finishes while member-b still runs the task: refused, and nothing of it stays on the board
            assertFalse(board.complete(cpu.id(), first.claim(), new TaskPayload(TaskMetrics.unknown(), java.util.Map.of(), "a", 1)));
            assertNull(board.payload(cpu.id()), "a refused completion's payload was left behind");

            // member-b completes; member-a's late result (the same task, run again) comes after it and is refused
            assertTrue(board.complete(cpu.id(), second.claim(), new TaskPayload(TaskMetrics.unknown(), java.util.Map.of(), "b", 2)));
            assertFalse(board.complete(cpu.id(), first.claim(), new TaskPayload(TaskMetrics.unknown(), java.util.Map.of(), "a", 3)));
            assertEquals(TaskState.DONE, board.get(cpu.id()).state());
            assertNotNull(board.payload(cpu.id()), "the done task lost its result to the withdrawn claim's late one");
            assertEquals("b", board.payload(cpu.id()).member(), "the withdrawn claim overwrote the result of the claim that completed");
            assertEquals(2.0, board.payload(cpu.id()).wallSeconds());
        }
    }

    @Test
    void aCoordinatorWithoutWorkersSaysSo(@TempDir Path out) {
        Members m = new Members();
        SweepRun.Options o = new SweepRun.Options(out, "sweep (test)", List.of(m.address()), m.clusterName, "127.0.0.1", m.port, 0,
                false, 3, false);
        String msg = assertThrows(IllegalStateException.class,
                () -> SweepRun.run(List.of(task("cpu")), o, new FakeExecutor(0), SweepProgress.quiet())).getMessage();
        assertTrue(msg.contains("no molten worker") && msg.contains(m.clusterName), msg);
    }
}
