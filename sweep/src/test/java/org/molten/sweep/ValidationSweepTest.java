package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.molten.cli.MoltenCli;

/**
 * End to end through {@code molten sweep} with the real validation on the shortest protocol it
 * accepts (16 samples: 80 steps at one sample every 5), water and ethanol, the reference baseline.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ValidationSweepTest {

    @Test
    void sweepOfRealValidationsWritesEveryTaskReportAndTheAggregate(@TempDir Path out) throws Exception {
        int status = MoltenCli.execute("sweep", "--systems", "water,ethanol", "--replicas", "1", "--seed", "3", "--steps", "80",
                "--equilibration-steps", "20", "--baseline", "reference", "--slots", "2", "--no-plots", "--out", out.toString());
        assertEquals(0, status, "every task ran");
        JsonNode r = new ObjectMapper().readTree(out.resolve(SweepReportWriter.JSON).toFile());
        assertEquals(2, r.path("tasks_done").asInt(), r.toPrettyString());
        for (JsonNode t : r.path("tasks")) {
            String id = t.path("task").path("id").asText();
            Path report = out.resolve("tasks").resolve(id).resolve("report");
            JsonNode own = new ObjectMapper().readTree(report.resolve("report.json").toFile());
            assertEquals(t.path("task").path("system").asText(), own.path("systems").get(0).path("name").asText());
            assertEquals(3, own.path("settings").path("seed").asLong(), "the task's seed reached the validation");
            assertTrue(Files.isRegularFile(report.resolve("report.md")), id);
            // The figures come from the task's own report: the bundled model holds these short runs together, and the
            // reference baseline is the same model (force RMSE at rounding level).
            assertEquals(1.0, t.path("metrics").path("stable_fraction").asDouble(), 0.0, t.toPrettyString());
            assertEquals(own.path("systems").get(0).path("nve_drift").path("mean").asDouble(),
                    t.path("metrics").path("drift_meV_per_atom_per_ps").asDouble(), 0.0);
            assertTrue(t.path("metrics").path("drift_meV_per_atom_per_ps").isNumber(), t.toPrettyString());
            assertTrue(t.path("metrics").path("force_rmse_vs_baseline_eV_per_A").asDouble() < 1e-9, t.toPrettyString());
        }
        JsonNode rank = r.path("summary").path("ranking");
        assertEquals(1, rank.size());
        assertEquals("bundled", rank.get(0).path("model").asText());
        assertTrue(rank.get(0).path("median_abs_drift_meV_per_atom_per_ps").isNumber());
    }
}
