package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member with S slots gives each task cores / S threads in all (issue 16: two one-slot members on
 * one machine each ran their task on every core and oversubscribed it).
 */
class SlotCoresTest {
    private static final SweepTask WATER = SweepTask.of(SweepTask.BUNDLED, "water", null, 300, 3, 0, SweepProtocol.defaults());

    @Test
    void aSlotsShareIsTheCoresDividedBySlotsAndAtLeastOne() {
        assertEquals(4, TaskWorkers.coresPerSlot(8, 2));
        assertEquals(2, TaskWorkers.coresPerSlot(8, 3));
        assertEquals(1, TaskWorkers.coresPerSlot(2, 4));
        assertEquals(2, TaskWorkers.coresPerSlot(2, 1));
    }

    @Test
    void aTasksValidationRunnerGetsTheSlotsShare(@TempDir Path dir) {
        assertEquals(3, new ValidationTaskExecutor().sharing(3).runner(WATER, dir).cores());
        // Outside a sweep slot (no share given) the validation's default stays: every core.
        assertEquals(Runtime.getRuntime().availableProcessors(), new ValidationTaskExecutor().runner(WATER, dir).cores());
    }

    @Test
    void theSlotsOfAMemberRunTasksWithTheirShare() {
        AtomicInteger asked = new AtomicInteger();
        TaskExecutor fake = (task, dir) -> {
            throw new UnsupportedOperationException("not run here");
        };
        TaskExecutor recording = new TaskExecutor() {
            @Override
            public TaskMetrics execute(SweepTask task, Path reportDir) {
                throw new UnsupportedOperationException("not run here");
            }

            @Override
            public TaskExecutor sharing(int cores) {
                asked.set(cores);
                return fake;
            }
        };
        int cores = Runtime.getRuntime().availableProcessors();
        try (Members m = new Members()) {
            HazelcastInstance hz = m.member();
            try (TaskWorkers w = new TaskWorkers(hz, recording, 2, false)) {
                assertEquals(TaskWorkers.coresPerSlot(cores, 2), asked.get());
                assertSame(fake, w.executor());
            }
        }
    }
}
