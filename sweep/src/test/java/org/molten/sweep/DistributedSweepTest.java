package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep's promises with a fake executor: a sweep on three members of which one is
 * terminated mid-task loses no task and stores none twice; an embedded sweep resumes; a task
 * that throws is retried then reported; a blown-up simulation is a result.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DistributedSweepTest {

    private static List<SweepTask> grid(List<String> systems, List<Double> temperatures, int replicas) {
        SweepSpec s = new SweepSpec();
        s.systems = systems;
        s.temperaturesK = temperatures;
        s.replicas = replicas;
        s.seed = 11;
        s.steps = 80L;
        s.equilibrationSteps = 20L;
        return s.expand();
    }

    private static long taskDirs(Path out) throws Exception {
        try (Stream<Path> s = Files.list(out.resolve("tasks"))) {
            return s.filter(p -> Files.isRegularFile(p.resolve(ResultStore.RESULT))).count();
        }
    }

    /** An executor that tells when its member started its first task. */
    private static TaskExecutor signalling(FakeExecutor inner, CountDownLatch started) {
        return (task, dir) -> {
            started.countDown();
            return inner.execute(task, dir);
        };
    }

    @Test
    void threeMembersOneTerminatedMidTaskLoseNothingAndCountNothingTwice(@TempDir Path out) throws Exception {
        List<SweepTask> tasks = grid(List.of("water", "ethanol"), List.of(300.0, 600.0), 3);
        FakeExecutor fake = new FakeExecutor(300);
        CountDownLatch victimStarted = new CountDownLatch(1);
        try (Members m = new Members()) {
            HazelcastInstance a = m.member();
            HazelcastInstance b = m.member();
            HazelcastInstance victim = m.member();
            List<TaskWorkers> workers = new ArrayList<>();
            workers.add(new TaskWorkers(a, fake, 1, false));
            workers.add(new TaskWorkers(b, fake, 1, false));
            workers.add(new TaskWorkers(victim, signalling(fake, victimStarted), 1, false));
            Thread killer = new Thread(() -> {
                try {
                    if (victimStarted.await(60, TimeUnit.SECONDS)) {
                        victim.getLifecycleService().terminate();  // mid-task: its executor is sleeping
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            killer.start();
            SweepRun.Options o = new SweepRun.Options(out, "sweep (test)", List.of(m.address()), m.clusterName, "127.0.0.1",
                    m.port, 0, false, 3, false);
            SweepReport r = SweepRun.run(tasks, o, (t, d) -> {
                throw new AssertionError("a lite coordinator runs no task");
            }, SweepProgress.quiet());
            killer.join();
            workers.forEach(TaskWorkers::close);

            assertFalse(victim.getLifecycleService().isRunning(), "the victim was terminated");
            assertEquals(12, r.tasksTotal());
            assertEquals(12, r.tasksDone(), "every task has a result");
            assertEquals(0, r.tasksFailed());
            assertEquals(12, taskDirs(out), "one stored result per task");
            assertEquals(12, r.tasks().stream().map(t -> t.task().id()).distinct().count(), "no task counted twice");
            assertTrue(fake.starts.values().stream().anyMatch(c -> c.get() >= 2),
                    "the victim's task ran again elsewhere: " + fake.starts);
            int counted = r.summary().groups().stream().mapToInt(SweepSummary.Group::tasks).sum();
            assertEquals(12, counted, "the groups count each task once");
            for (SweepSummary.Group g : r.summary().groups()) {
                assertEquals(3, g.tasks(), g.toString());
                assertEquals(1.0, g.stableFraction(), 1e-12);
            }
        }
    }

    @Test
    void embeddedSweepResumesWithoutRerunningFinishedTasks(@TempDir Path out) throws Exception {
        List<SweepTask> tasks = grid(List.of("water", "ethanol"), List.of(300.0), 2);
        FakeExecutor first = new FakeExecutor(50);
        SweepReport r1 = SweepRun.run(tasks, SweepRun.Options.embedded(out, 2, 3).withoutPlots(), first, SweepProgress.quiet());
        assertEquals(4, r1.tasksDone());
        assertEquals(4, first.totalStarts());
        assertTrue(Files.isRegularFile(out.resolve(SweepReportWriter.JSON)));
        assertTrue(Files.isRegularFile(out.resolve(SweepReportWriter.MARKDOWN)));
        for (SweepTask t : tasks) {
            assertTrue(Files.isRegularFile(out.resolve("tasks").resolve(t.id()).resolve("report/report.json")),
                    "the task's own report is kept beside its result: " + t.id());
        }

        FakeExecutor second = new FakeExecutor(50);
        SweepReport r2 = SweepRun.run(tasks, SweepRun.Options.embedded(out, 2, 3).withoutPlots(), second, SweepProgress.quiet());
        assertEquals(0, second.totalStarts(), "a finished sweep runs nothing again");
        assertEquals(4, r2.tasksResumed());
        assertEquals(4, r2.tasksDone());

        // A crash that left one task unfinished (and a half-written directory): only that one runs.
        SweepTask lost = tasks.get(2);
        new ResultStore(out).forget(lost.id());
        Files.createDirectories(out.resolve("tasks").resolve("." + lost.id() + ".partial-123/report"));
        FakeExecutor third = new FakeExecutor(50);
        SweepReport r3 = SweepRun.run(tasks, SweepRun.Options.embedded(out, 2, 3), third, SweepProgress.quiet());
        assertEquals(Map.of(lost.id(), 1), toInts(third.starts));
        assertEquals(3, r3.tasksResumed());
        assertEquals(4, taskDirs(out));
        try (Stream<Path> s = Files.list(out.resolve("tasks"))) {
            assertEquals(0, s.filter(p -> p.getFileName().toString().contains(".partial-")).count(), "partials cleaned");
        }
        if (r3.warnings().isEmpty()) {  // fonts present: both plots drawn, none empty
            assertEquals(List.of("plots/stable-fraction.png", "plots/drift.png"), r3.plots());
            for (String p : r3.plots()) {
                assertTrue(Files.size(out.resolve(p)) > 1000, p);
            }
        } else {
            assertEquals(List.of(), r3.plots(), "no plot without fonts: " + r3.warnings());
            assertFalse(Files.exists(out.resolve("plots/stable-fraction.png")));
        }
        JsonNode j = new ObjectMapper().readTree(out.resolve(SweepReportWriter.JSON).toFile());
        assertEquals(4, j.path("tasks_total").asInt());
        assertEquals(1.0, j.path("summary").path("ranking").get(0).path("stable_fraction").asDouble(), 1e-12);
        assertTrue(j.path("summary").path("groups").get(0).path("abs_drift_meV_per_atom_per_ps").path("median").isNumber(),
                j.toPrettyString());
    }

    private static Map<String, Integer> toInts(Map<String, java.util.concurrent.atomic.AtomicInteger> m) {
        Map<String, Integer> r = new HashMap<>();
        m.forEach((k, v) -> r.put(k, v.get()));
        return r;
    }

    @Test
    void throwingTaskIsRetriedThenReportedAndBlowUpIsAResult(@TempDir Path out) throws Exception {
        // water throws on every attempt, ethanol once, benzene blows up.
        List<SweepTask> tasks = grid(List.of("water", "ethanol", "benzene"), List.of(300.0), 1);
        FakeExecutor fake = new FakeExecutor(10, t -> t.system().equals("benzene"), Map.of("water", 99, "ethanol", 1));
        SweepReport r = SweepRun.run(tasks, SweepRun.Options.embedded(out, 2, 3).withoutPlots(), fake, SweepProgress.quiet());
        Map<String, TaskResult> bySystem = new HashMap<>();
        r.tasks().forEach(t -> bySystem.put(t.task().system(), t));

        TaskResult water = bySystem.get("water");
        assertEquals(TaskResult.FAILED, water.status());
        assertEquals(3, water.attempts(), "bounded retries");
        assertEquals(3, fake.starts.get(water.task().id()).get());
        assertTrue(water.error().contains("fake failure"), water.error());

        TaskResult ethanol = bySystem.get("ethanol");
        assertEquals(TaskResult.DONE, ethanol.status());
        assertEquals(1, ethanol.attempts());
        assertEquals(1.0, ethanol.metrics().stableFraction(), 0.0);

        TaskResult benzene = bySystem.get("benzene");
        assertEquals(TaskResult.DONE, benzene.status(), "a blow-up is a result, not a failure");
        assertEquals(0.0, benzene.metrics().stableFraction(), 0.0);
        assertEquals(1, r.tasksFailed());
        String md = Files.readString(out.resolve(SweepReportWriter.MARKDOWN));
        assertTrue(md.contains("fake failure"), "the error is in the report");
        SweepSummary.Group waterGroup = r.summary().groups().stream().filter(g -> g.system().equals("water")).findFirst()
                .orElseThrow();
        assertNull(waterGroup.stableFraction(), "a failed task is not folded into the figures");
        assertEquals(1, waterGroup.failed());
        assertNotNull(r.summary().ranking().get(0).stableFraction());
    }
}
