package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that hangs (its executor blocks mid-task, the member stays in the cluster): the task's
 * lease runs out one task timeout after its last progress, the task runs on another member, the
 * hung claim's late result is refused, the sweep ends and counts every task once; a task that
 * keeps reporting progress keeps its lease however long it runs. Short leases (1 s) keep it fast.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HungMemberSweepTest {

    private static List<SweepTask> grid(int replicas) {
        SweepSpec s = new SweepSpec();
        s.systems = List.of("water");
        s.replicas = replicas;
        s.seed = 31;
        s.steps = 80L;
        s.equilibrationSteps = 20L;
        return s.expand();
    }

    private static String address(HazelcastInstance hz) {
        return hz.getCluster().getLocalMember().getAddress().toString();
    }

    @Test
    void aTaskWhoseMemberHangsRunsElsewhereAndItsLateResultIsRefused(@TempDir Path out) throws Exception {
        List<SweepTask> tasks = grid(4);
        FakeExecutor fake = new FakeExecutor(300);
        CountDownLatch hanging = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<String> hungTask = new AtomicReference<>();
        // Reports progress three times, then blocks (a stuck GPU or libxtb call) until released; later tasks run normally.
        TaskExecutor hangsOnce = new TaskExecutor() {
            @Override
            public TaskMetrics execute(SweepTask task, Path dir) throws Exception {
                return fake.execute(task, dir);
            }

            @Override
            public TaskMetrics execute(SweepTask task, Path dir, TaskHeartbeat beat) throws Exception {
                if (hungTask.compareAndSet(null, task.id())) {
                    for (int i = 0; i < 3; i++) {
                        beat.progressed();
                        Thread.sleep(100);
                    }
                    hanging.countDown();
                    assertTrue(release.await(60, TimeUnit.SECONDS), "never released");
                }
                return fake.execute(task, dir);
            }
        };
        // The healthy member lets the hung one wake up as soon as it starts the hung task again: the late result
        // (claim 1) then reaches the board while claim 2 runs.
        TaskExecutor healthy = (task, dir) -> {
            if (task.id().equals(hungTask.get())) {
                release.countDown();
            }
            return fake.execute(task, dir);
        };
        try (Members m = new Members()) {
            HazelcastInstance hung = m.member();
            HazelcastInstance good = m.member();
            TaskWorkers hungWorkers = new TaskWorkers(hung, hangsOnce, 1, false);
            AtomicReference<TaskWorkers> goodWorkers = new AtomicReference<>();
            Thread starter = new Thread(() -> {
                try {
                    if (hanging.await(60, TimeUnit.SECONDS)) {   // only once the hung member holds a task
                        goodWorkers.set(new TaskWorkers(good, healthy, 1, false));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            starter.start();
            SweepRun.Options o = new SweepRun.Options(out, "sweep (test)", List.of(m.address()), m.clusterName, "127.0.0.1",
                    m.port, 0, false, 3, false).withTaskTimeout(1.0);
            try {
                SweepReport r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> SweepRun.run(tasks, o,
                        (t, d) -> {
                            throw new AssertionError("a lite coordinator runs no task");
                        }, SweepProgress.quiet()), "the sweep never ended: the hung member's task was never run elsewhere");
                starter.join();

                assertTrue(hung.getLifecycleService().isRunning(), "the hung member stayed in the cluster");
                assertEquals(4, r.tasksDone(), "every task has a result");
                assertEquals(0, r.tasksFailed());
                try (Stream<Path> s = Files.list(out.resolve("tasks"))) {
                    assertEquals(4, s.filter(p -> Files.isRegularFile(p.resolve(ResultStore.RESULT))).count());
                }
                assertEquals(4, r.tasks().stream().map(t -> t.task().id()).distinct().count(), "no task counted twice");
                assertEquals(4, r.summary().groups().stream().mapToInt(SweepSummary.Group::tasks).sum());

                TaskResult h = r.tasks().stream().filter(t -> t.task().id().equals(hungTask.get())).findFirst().orElseThrow();
                assertEquals(2, fake.starts.get(h.task().id()).get(), "the hung task ran to its end twice: " + fake.starts);
                assertEquals(address(good), h.member(), "the stored result is the claim that completed, not the late one");
                assertEquals(1, h.attempts(), "the hang counts as one attempt");
                assertEquals(1, h.reruns().size(), h.reruns().toString());
                String why = h.reruns().get(0);
                assertTrue(why.contains("lease expired") && why.contains(address(hung)) && why.contains("claim 1"), why);
                for (TaskResult t : r.tasks()) {
                    if (t != h) {
                        assertEquals(List.of(), t.reruns(), t.task().id());
                    }
                }
                String md = Files.readString(out.resolve(SweepReportWriter.MARKDOWN));
                assertTrue(md.contains("## Tasks run again") && md.contains(h.task().id()) && md.contains("lease expired"), md);
                assertNull(new TaskBoard(good).payload(h.task().id()), "the refused late payload was left on the board");
            } finally {
                release.countDown();
                hungWorkers.close();
                if (goodWorkers.get() != null) {
                    goodWorkers.get().close();
                }
            }
        }
    }

    @Test
    void aTaskThatKeepsProgressingKeepsItsLeaseLongerThanTheTimeout(@TempDir Path out) throws Exception {
        List<SweepTask> tasks = grid(1);
        FakeExecutor fake = new FakeExecutor(0);
        // 2.5 s of work with progress every 100 ms under a 1 s timeout
        TaskExecutor slow = new TaskExecutor() {
            @Override
            public TaskMetrics execute(SweepTask task, Path dir) throws Exception {
                throw new AssertionError("the sweep passes its heartbeat");
            }

            @Override
            public TaskMetrics execute(SweepTask task, Path dir, TaskHeartbeat beat) throws Exception {
                for (int i = 0; i < 25; i++) {
                    Thread.sleep(100);
                    beat.progressed();
                }
                return fake.execute(task, dir);
            }
        };
        SweepReport r = SweepRun.run(tasks, SweepRun.Options.embedded(out, 1, 3).withoutPlots().withTaskTimeout(1.0), slow,
                SweepProgress.quiet());
        TaskResult t = r.tasks().get(0);
        assertEquals(TaskResult.DONE, t.status());
        assertEquals(0, t.attempts(), "a progressing task lost its lease: " + t.reruns());
        assertEquals(List.of(), t.reruns());
        assertEquals(1, fake.totalStarts());
    }

    @Test
    void anExpiredLeaseRequeuesAsAnAttemptAndRefusesTheLateResult() {
        try (Members m = new Members()) {
            TaskBoard board = new TaskBoard(m.member());
            SweepTask task = grid(1).get(0);
            board.offer(TaskEntry.pending(task, 2, 1000));
            TaskEntry first = board.claim(task.id(), "a", "host-a:5701", false, 10_000);
            assertEquals(11_000, first.leaseUntilMs());
            assertTrue(board.renew(task.id(), first.claim(), 12_000), "its own claim renews");
            assertEquals(0, board.releaseExpired(11_500), "a renewed lease holds");
            assertEquals(1, board.releaseExpired(12_001));
            TaskEntry back = board.get(task.id());
            assertEquals(TaskState.PENDING, back.state());
            assertEquals(1, back.attempts());
            assertTrue(back.reruns().get(0).contains("no progress for 1.0 s on member host-a:5701 (claim 1"), back.reruns().toString());
            assertFalse(board.renew(task.id(), first.claim(), 20_000), "an expired claim cannot renew");
            assertFalse(board.complete(task.id(), first.claim(), new TaskPayload(TaskMetrics.unknown(), Map.of(), "a", 1)),
                    "the late result of an expired claim is refused");
            TaskEntry second = board.claim(task.id(), "b", "host-b:5701", false, 13_000);
            assertFalse(board.complete(task.id(), first.claim(), new TaskPayload(TaskMetrics.unknown(), Map.of(), "a", 1)));
            assertEquals(1, board.releaseExpired(14_001), "hangs again");
            assertEquals(TaskState.FAILED, board.get(task.id()).state(), "a task that hangs on every attempt ends failed");
            assertTrue(board.get(task.id()).error().startsWith("lease expired"), board.get(task.id()).error());
            assertEquals(second.claim(), board.get(task.id()).claim());
        }
    }
}
