package org.molten.validation.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.ThermostatKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.Thresholds;

/**
 * {@link SeedBatch}: validations that differ only in their seed run as one batch per phase on a
 * platform (here the host's "cpu" platform, which runs a {@code ReplicaSet} as the device does),
 * and each seed's report equals that of the seed run alone on the same platform: the same replica
 * (seed, start, samples), the same stability, drift, teacher error and, for every seed of the
 * batch, the comparison with the implementation baseline that a validation makes for its replica 0.
 */
class SeedBatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ModelProvider MODELS = BundledModels.bundled(OptimisedStudent.Precision.FLOAT64);

    /** Water, 10 equilibration + 16 NVE + 16 NVT steps sampled every step, 2 teacher frames per run, on the CPU. */
    private static ValidationSettings settings(long seed) {
        return new ValidationSettings(List.of("water"), 300.0, 0.5, 10, 16, 16, 1, ThermostatKind.LANGEVIN, 50.0,
                DeviceChoice.CPU, BaselineKind.REFERENCE, seed, false, 1, 2, List.of());
    }

    private static ValidationRunner validation(long seed, Path dir) {
        return new ValidationRunner(settings(seed), Thresholds.defaults(), MODELS, dir, "test", "seed " + seed).cores(1);
    }

    @Test
    void eachSeedOfTheBatchReportsWhatItReportsAlone(@TempDir Path dir) throws Exception {
        List<ValidationRunner> batch = new ArrayList<>();
        for (long seed : new long[] {11, 12, 13}) {
            batch.add(validation(seed, dir.resolve("batch-" + seed)));
        }
        SeedBatch.run(batch, "cpu", Progress.NONE);
        for (long seed : new long[] {11, 13}) {
            Path alone = dir.resolve("alone-" + seed);
            SeedBatch.run(List.of(validation(seed, alone)), "cpu", Progress.NONE);
            JsonNode b = system(dir.resolve("batch-" + seed));
            JsonNode a = system(alone);
            assertEquals(seed, b.path("replicas").get(0).path("seed").asLong(), b.path("replicas").toString());
            assertTrue(b.path("comparison").path("forces").path("force_rmse_eV_per_A").isNumber(),
                    "every seed of the batch is compared with the baseline, as replica 0 alone: " + b.path("comparison"));
            assertSameFigures(a, b, "systems[0]");
            for (String phase : List.of("equilibration", "optimised-nve", "optimised-nvt")) {
                String log = "water-r0-" + phase + ".csv";
                assertEquals(data(alone.resolve(log)), data(dir.resolve("batch-" + seed).resolve(log)), log + " of seed " + seed);
            }
        }
    }

    /**
     * Validations of different systems (issue 29: a sweep's GPU slot may batch across systems) run as one mixed batch
     * and each reports what it reports alone; one of another temperature is still refused.
     */
    @Test
    void validationsOfDifferentSystemsBatchTogetherAndReportWhatTheyReportAlone(@TempDir Path dir) throws Exception {
        ValidationSettings ethanol = new ValidationSettings(List.of("ethanol"), 300.0, 0.5, 10, 16, 16, 1,
                ThermostatKind.LANGEVIN, 50.0, DeviceChoice.CPU, BaselineKind.REFERENCE, 12, false, 1, 2, List.of());
        List<ValidationRunner> batch = List.of(validation(11, dir.resolve("batch-water")),
                new ValidationRunner(ethanol, Thresholds.defaults(), MODELS, dir.resolve("batch-ethanol"), "test", "ethanol").cores(1));
        SeedBatch.run(batch, "cpu", Progress.NONE);
        SeedBatch.run(List.of(new ValidationRunner(ethanol, Thresholds.defaults(), MODELS, dir.resolve("alone-ethanol"), "test",
                "ethanol").cores(1)), "cpu", Progress.NONE);
        JsonNode b = system(dir.resolve("batch-ethanol"));
        assertEquals("ethanol", b.path("name").asText(), b.toString().substring(0, Math.min(200, b.toString().length())));
        assertSameFigures(system(dir.resolve("alone-ethanol")), b, "systems[0]");
        for (String phase : List.of("equilibration", "optimised-nve", "optimised-nvt")) {
            String log = "ethanol-r0-" + phase + ".csv";
            assertEquals(data(dir.resolve("alone-ethanol").resolve(log)), data(dir.resolve("batch-ethanol").resolve(log)), log);
        }
        assertTrue(Files.exists(dir.resolve("batch-water").resolve("water-r0-optimised-nvt.csv")));
    }

    @Test
    void validationsThatDifferInMoreThanTheSeedAreRefused(@TempDir Path dir) {
        ValidationRunner hot = new ValidationRunner(
                new ValidationSettings(List.of("water"), 400.0, 0.5, 10, 16, 16, 1, ThermostatKind.LANGEVIN, 50.0,
                        DeviceChoice.CPU, BaselineKind.REFERENCE, 12, false, 1, 2, List.of()),
                Thresholds.defaults(), MODELS, dir.resolve("b"), "test", "hot");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SeedBatch.run(List.of(validation(11, dir.resolve("a")), hot), "cpu", Progress.NONE));
        assertTrue(e.getMessage().contains("differ only in their seed"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> SeedBatch.run(List.of(validation(11, dir.resolve("a")), validation(12, dir.resolve("a"))), "cpu",
                        Progress.NONE), "two seeds into one directory");
    }

    private static JsonNode system(Path dir) throws Exception {
        return JSON.readTree(dir.resolve(ValidationRunner.JSON_REPORT).toFile()).path("systems").get(0);
    }

    /** Every field of the two reports' system equal, except timings and paths (which name the directory). */
    private static void assertSameFigures(JsonNode alone, JsonNode batch, String where) {
        if (alone.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = alone.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String k = e.getKey();
                if (k.equals("performance") || k.contains("wall") || k.contains("per_second") || k.contains("per_s") || k.contains("batched")
                        || k.contains("file") || k.contains("path") || k.contains("log")) {
                    continue;
                }
                assertTrue(batch.has(k), where + "." + k + " missing in the batch's report");
                assertSameFigures(e.getValue(), batch.get(k), where + "." + k);
            }
        } else if (alone.isArray()) {
            assertEquals(alone.size(), batch.size(), where);
            for (int i = 0; i < alone.size(); i++) {
                assertSameFigures(alone.get(i), batch.get(i), where + "[" + i + "]");
            }
        } else {
            assertEquals(alone, batch, where);
        }
    }

    /** The numeric rows of an energy log (comment and header lines dropped). */
    private static List<String> data(Path csv) throws Exception {
        return Files.readAllLines(csv).stream().filter(l -> !l.isBlank() && (Character.isDigit(l.strip().charAt(0))
                || l.strip().charAt(0) == '-')).toList();
    }
}
