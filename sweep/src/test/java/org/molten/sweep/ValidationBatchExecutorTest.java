package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ValidationTaskExecutor#executeBatch} with the real validation: GPU tasks (device cuda) of
 * two systems and two seeds, run as one batch, each give the figures and energy logs of the task
 * run alone (where no GPU is usable, as in CI, the batch runs its validations one after the other;
 * the device batch itself is checked by SeedBatchTest and ValidateDeviceBatchTest); tasks that
 * differ in more than their seed and system are refused.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ValidationBatchExecutorTest {
    private static final SweepProtocol CUDA = new SweepProtocol(20L, 80L, null, null, null, null, "reference", "cuda", null,
            false);

    @Test
    void eachTaskOfABatchGivesWhatItGivesAlone(@TempDir Path dir) throws Exception {
        SweepTask three = SweepTask.of(SweepTask.BUNDLED, "water", null, 300, 3, 0, CUDA);
        SweepTask four = SweepTask.of(SweepTask.BUNDLED, "ethanol", null, 300, 4, 1, CUDA);   // another molecule: a mixed batch
        ValidationTaskExecutor executor = new ValidationTaskExecutor().sharing(1);
        Path b3 = Files.createDirectories(dir.resolve("batch-3"));
        Path b4 = Files.createDirectories(dir.resolve("batch-4"));
        List<TaskMetrics> batch = executor.executeBatch(List.of(three, four), List.of(b3, b4));
        Path alone = Files.createDirectories(dir.resolve("alone-4"));
        TaskMetrics single = executor.execute(four, alone);
        assertEquals(single, batch.get(1), "seed 4 in the batch and alone");
        JsonNode own = new ObjectMapper().readTree(b4.resolve("report.json").toFile());
        assertEquals(4, own.path("settings").path("seed").asLong());
        assertTrue(batch.get(1).driftMeVPerAtomPerPs() != null && batch.get(1).forceRmseVsBaselineEvPerA() != null,
                batch.get(1).toString());
        for (String log : List.of("ethanol-r0-optimised-nve.csv", "ethanol-r0-optimised-nvt.csv")) {
            assertArrayEquals(Files.readAllBytes(alone.resolve(log)), Files.readAllBytes(b4.resolve(log)), log);
        }
        assertEquals(3, new ObjectMapper().readTree(b3.resolve("report.json").toFile()).path("settings").path("seed").asLong());
    }

    @Test
    void tasksThatDifferInMoreThanTheSeedAreRefused(@TempDir Path dir) {
        SweepTask cold = SweepTask.of(SweepTask.BUNDLED, "water", null, 300, 3, 0, CUDA);
        SweepTask hot = SweepTask.of(SweepTask.BUNDLED, "water", null, 350, 4, 1, CUDA);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ValidationTaskExecutor().executeBatch(List.of(cold, hot), List.of(dir.resolve("a"), dir.resolve("b"))));
        assertTrue(e.getMessage().contains(hot.id()) && e.getMessage().contains("more than its seed"), e.getMessage());
    }
}
