package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep of 2 systems × 3 seeds that want a GPU, run by one GPU slot: the slot takes all six tasks
 * (one model, temperature and protocol) as one mixed batch, and every task's stored result and
 * report are those the task gives run alone.
 */
class GpuBatchSweepTest {
    /** A fake executor whose batches are recorded; task i of a batch is what the fake gives that task alone. */
    private static final class BatchingFake implements TaskExecutor {
        final FakeExecutor alone = new FakeExecutor(0);
        final List<List<SweepTask>> batches = Collections.synchronizedList(new ArrayList<>());

        @Override
        public TaskMetrics execute(SweepTask task, Path reportDir) throws Exception {
            batches.add(List.of(task));
            return alone.execute(task, reportDir);
        }

        @Override
        public List<TaskMetrics> executeBatch(List<SweepTask> tasks, List<Path> reportDirs) throws Exception {
            batches.add(List.copyOf(tasks));
            List<TaskMetrics> out = new ArrayList<>();
            for (int i = 0; i < tasks.size(); i++) {
                out.add(alone.execute(tasks.get(i), reportDirs.get(i)));
            }
            return out;
        }
    }

    @Test
    void bothSystemsSeedsRunAsOneMixedBatchAndEveryResultIsTheTaskAlone(@TempDir Path dir) throws Exception {
        SweepProtocol cuda = new SweepProtocol(20L, 80L, null, null, null, null, null, "cuda", null, false);
        List<SweepTask> tasks = new ArrayList<>();
        for (String system : List.of("water", "ethanol")) {
            for (int k = 0; k < 3; k++) {
                tasks.add(SweepTask.of(SweepTask.BUNDLED, system, null, 300, 11 + k, k, cuda));
            }
        }
        BatchingFake fake = new BatchingFake();
        Path out = dir.resolve("sweep");
        SweepReport report;
        try (Members m = new Members()) {
            HazelcastInstance gpuMember = m.member();
            // Every task is on the board before the GPU slot looks, so that its batches are whole.
            TaskBoard board = new TaskBoard(gpuMember);
            tasks.forEach(t -> board.offer(TaskEntry.pending(t, 3)));
            try (TaskWorkers workers = new TaskWorkers(gpuMember, fake, 1, true, 64)) {
                SweepRun.Options o = new SweepRun.Options(out, "sweep (test)", List.of(m.address()), m.clusterName, "127.0.0.1",
                        m.port, 0, false, 3, false);
                report = SweepRun.run(tasks, o, fake, SweepProgress.quiet());
            }
        }
        assertEquals(1, fake.batches.size(), "both systems' seeds in one batch (issue 29's mixed batches): " + fake.batches);
        List<SweepTask> batch = fake.batches.get(0);
        assertEquals(6, batch.size(), batch.toString());
        Set<String> systems = new TreeSet<>();
        batch.forEach(t -> systems.add(t.system()));
        assertEquals(Set.of("ethanol", "water"), systems, "two systems in the batch: " + batch);
        assertEquals(List.of(11L, 11L, 12L, 12L, 13L, 13L), batch.stream().map(SweepTask::seed).toList());
        assertEquals(6, report.tasksDone());
        assertEquals(6, fake.alone.totalStarts(), "each task ran once");
        ResultStore store = new ResultStore(out);
        FakeExecutor reference = new FakeExecutor(0);
        for (SweepTask t : tasks) {
            Path alone = Files.createDirectories(dir.resolve("alone").resolve(t.id()));
            TaskMetrics expected = reference.execute(t, alone);
            TaskResult stored = store.read(t.id());
            assertTrue(stored.done(), t.id());
            assertEquals(expected, stored.metrics(), t.id());
            for (String file : List.of("report.json", "report.md")) {
                assertArrayEquals(Files.readAllBytes(alone.resolve(file)),
                        Files.readAllBytes(store.dir(t.id()).resolve(ResultStore.REPORT).resolve(file)), t.id() + " " + file);
            }
        }
    }
}
