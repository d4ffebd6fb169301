package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.safetensors.Dtype;
import org.molten.forcefield.student.StudentWeights;
import org.molten.validation.reports.JsonReportWriter;

/**
 * {@code molten validate} through its real model provider: the optimised student against the
 * reference student, both reading one weight file (random weights: the dynamics are not
 * physical, so only the comparison and the report contents are checked, not the stability verdict).
 */
class ValidateWithStudentTest {

    static Path randomWeights(Path dir) throws Exception {
        Path file = dir.resolve("random.safetensors");
        StudentWeights.random(5).save(file, Dtype.F64);
        return file;
    }

    /**
     * The default models (bundled student, optimised path, against its TorchScript export) on a
     * short water run: stable, intact, energy conserved, forces equal. The temperature criteria
     * are not asserted here: 0.5 ps of NVT is too short for them to mean much.
     */
    @Test
    void theBundledModelIsStableOnWaterAndMatchesItsTorchScriptExport(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("report");
        // captured: a failing criterion's summary must not appear in the test log as if a test had failed
        CliRun r = CliRun.of("validate", "--systems", "water", "--steps", "1000", "--equilibration-steps", "200",
                "--out", out.toString());
        int exit = r.status();
        assertTrue(exit == 0 || exit == ValidateCommand.EXIT_FAILED, "exit " + exit + "\n" + r.out() + r.err());
        JsonNode j = JsonReportWriter.mapper().readTree(out.resolve("report.json").toFile());
        assertEquals("torchscript:student-gfn2", j.path("baseline").path("name").asText(), j.path("warnings").toString());
        assertEquals(0, j.path("warnings").size(), j.path("warnings").toString());
        assertTrue(j.path("optimised").path("provenance").path("teacher").asText().contains("GFN2-xTB"));
        for (JsonNode c : j.path("systems").get(0).path("criteria")) {
            String id = c.path("criterion").asText();
            if (!id.equals("mean-temperature") && !id.equals("temperature-fluctuation")) {
                assertTrue(c.path("passed").asBoolean(), c.toString());
            }
        }
        double rmse = j.path("systems").get(0).path("comparison").path("forces").path("force_rmse_eV_per_A").asDouble();
        assertTrue(rmse < 1e-8, "float64 Java vs float64 libtorch: " + rmse);
    }

    @Test
    void theOptimisedStudentMatchesTheReferenceOnTheSameFrames(@TempDir Path dir) throws Exception {
        Path weights = randomWeights(dir);
        Path out = dir.resolve("report");
        CliRun r = CliRun.of("validate", "--weights", weights.toString(), "--baseline", "reference", "--systems", "water",
                "--steps", "160", "--equilibration-steps", "40", "--sample-interval", "4", "--out", out.toString());
        int exit = r.status();
        assertTrue(exit == 0 || exit == ValidateCommand.EXIT_FAILED, "exit " + exit + "\n" + r.out() + r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("molten validate: PASS, ") || l.startsWith("molten validate: FAIL, ")),
                "the verdict names the command: " + r.out());
        JsonNode j = JsonReportWriter.mapper().readTree(out.resolve("report.json").toFile());
        assertEquals("student/optimised", j.path("optimised").path("name").asText());
        assertEquals("FLOAT64", j.path("optimised").path("precision").asText());
        assertEquals("student/reference", j.path("baseline").path("name").asText());
        assertEquals("painn", j.path("optimised").path("provenance").path("architecture").asText());
        assertEquals(weights.toString(), j.path("optimised").path("source").asText());
        assertEquals(0, j.path("warnings").size(), j.path("warnings").toString());
        JsonNode forces = j.path("systems").get(0).path("comparison").path("forces");
        assertTrue(forces.path("frames").asInt() >= 40);
        assertTrue(forces.path("force_rmse_eV_per_A").asDouble() < 1e-10, forces.toString());
        for (JsonNode c : j.path("systems").get(0).path("criteria")) {
            if (c.path("criterion").asText().equals("baseline-force-rmse")) {
                assertTrue(c.path("passed").asBoolean());
            }
        }
    }

    @Test
    void float32IsRecordedAndJudgedWithTheFloat32DriftLimit(@TempDir Path dir) throws Exception {
        Path weights = randomWeights(dir);
        Path out = dir.resolve("report");
        CliRun.of("validate", "--weights", weights.toString(), "--precision", "float32", "--baseline", "reference",
                "--systems", "water",
                "--steps", "120", "--equilibration-steps", "0", "--sample-interval", "4", "--out", out.toString());
        JsonNode j = JsonReportWriter.mapper().readTree(out.resolve("report.json").toFile());
        assertEquals("FLOAT32", j.path("optimised").path("precision").asText());
        double rmse = j.path("systems").get(0).path("comparison").path("forces").path("force_rmse_eV_per_A").asDouble();
        assertTrue(rmse > 0 && rmse < 1e-3, "float32 vs float64 force RMSE " + rmse);
        for (JsonNode c : j.path("systems").get(0).path("criteria")) {
            if (c.path("criterion").asText().equals("energy-drift") && c.path("run").asText().startsWith("optimised")) {
                assertEquals(j.path("thresholds").path("max_drift_float32_meV_per_atom_per_ps").asDouble(), c.path("threshold").asDouble());
            }
            if (c.path("criterion").asText().equals("energy-drift") && c.path("run").asText().startsWith("baseline")) {
                assertEquals(j.path("thresholds").path("max_drift_meV_per_atom_per_ps").asDouble(), c.path("threshold").asDouble());
            }
        }
    }

    @Test
    void unreadableWeightsAreOneClearError(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.safetensors");
        CliRun r = CliRun.of("validate", "--weights", missing.toString(), "--systems", "water", "--out",
                dir.resolve("r").toString());
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("molten validate: cannot read the student weights '" + missing + "': "), r.err());
        assertEquals(1, CliRun.of("validate", "--precision", "float16", "--out", dir.resolve("r").toString()).status());
        // The TorchScript baseline is the bundled model's export: it cannot check other weights.
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = new picocli.CommandLine(new MoltenCli());
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            c.getErr().println(ex.getMessage());
            return 1;
        });
        assertEquals(1, cl.execute("validate", "--weights", randomWeights(dir).toString(), "--baseline", "torchscript", "--systems", "water", "--out", dir.resolve("r").toString()));
        assertTrue(err.toString().contains("use --baseline reference"), err.toString());
    }
}
