package org.molten.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code molten accuracy}: the bundled model recomputed on the shipped test set reproduces the accuracy table of
 * docs/model-card.md and meets the force target; {@code --device cuda} really runs the kernels; bad input is refused.
 */
class AccuracyCommandTest {
    /** The model card, relative to the validation module (surefire's working directory). */
    static final Path MODEL_CARD = Path.of("..", "docs", "model-card.md");

    /** One row of the model card's accuracy table. */
    record Row(String system, int frames, double energyMev, double forceMae, double forceRmse, String[] printed) {
    }

    /** Rows between the accuracy-table markers of the model card. */
    static List<Row> modelCardTable() throws IOException {
        List<String> lines = Files.readAllLines(MODEL_CARD);
        int begin = lines.indexOf("<!-- accuracy-table:begin -->");
        int end = lines.indexOf("<!-- accuracy-table:end -->");
        assertTrue(begin >= 0 && end > begin, "model card lacks the accuracy-table markers");
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(begin + 1, end)) {
            if (!line.startsWith("|") || line.contains("---") || line.contains("system")) {
                continue;
            }
            String[] c = line.substring(1, line.lastIndexOf('|')).split("\\|");
            for (int k = 0; k < c.length; k++) {
                c[k] = c[k].strip();
            }
            rows.add(new Row(c[0], Integer.parseInt(c[1]), Double.parseDouble(c[3]), Double.parseDouble(c[4]),
                    Double.parseDouble(c[5]), c));
        }
        return rows;
    }

    /** Half a unit in the last printed digit: the table's own rounding. */
    static double halfUlp(String printed) {
        int dot = printed.indexOf('.');
        int decimals = dot < 0 ? 0 : printed.length() - dot - 1;
        return 0.5 * Math.pow(10, -decimals) + 1e-12;
    }

    /** The accuracy of the bundled model on the shipped test set, recomputed once for this class (JSON "systems"). */
    private static JsonNode recomputed;

    static synchronized JsonNode recomputedSystems(Path dir) throws IOException {
        if (recomputed == null) {
            Path json = dir.resolve("acc.json");
            CliRun run = CliRun.of("accuracy", "--json", json.toString());
            assertEquals(0, run.status(), run.out() + run.err());
            assertTrue(run.out().contains("E MAE[meV/atom]") && run.out().contains("ace-ala5-nme"), run.out());
            recomputed = new ObjectMapper().readTree(json.toFile()).get("systems");
        }
        return recomputed;
    }

    /** The card's table is the bundled model recomputed on the shipped test set, to the card's own rounding. */
    @Test
    void reproducesTheModelCardTable(@TempDir Path dir) throws IOException {
        JsonNode systems = recomputedSystems(dir);
        List<Row> card = modelCardTable();
        assertEquals(systems.size(), card.size(), "systems in the model card vs the command");
        for (Row r : card) {
            JsonNode s = systems.get(r.system());
            assertNotNull(s, "command did not report " + r.system());
            assertEquals(r.frames(), s.get("frames").asInt(), r.system() + " frames");
            assertEquals(r.energyMev(), s.get("energy_mae_mev_per_atom").asDouble(), halfUlp(r.printed()[3]), r.system() + " E MAE");
            assertEquals(r.forceMae(), s.get("force_mae_ev_per_a").asDouble(), halfUlp(r.printed()[4]), r.system() + " F MAE");
            assertEquals(r.forceRmse(), s.get("force_rmse_ev_per_a").asDouble(), halfUlp(r.printed()[5]), r.system() + " F RMSE");
        }
    }

    /** The force target, checked on the recomputed figures (not on the Markdown, which only the test above ties to them). */
    @Test
    void meetsTheForceTargetOnEverySystem(@TempDir Path dir) throws IOException {
        JsonNode systems = recomputedSystems(dir);
        assertTrue(systems.size() >= 6, "systems recomputed: " + systems.size());
        systems.fields().forEachRemaining(e -> {
            double mae = e.getValue().get("force_mae_ev_per_a").asDouble();
            assertTrue(mae <= 0.03, e.getKey() + ": force MAE " + mae + " eV/Å above the 0.03 target");
        });
    }

    @Test
    void aFolderWithoutTestFilesIsOneClearError(@TempDir Path dir) {
        CliRun run = CliRun.of("accuracy", "--testset", dir.toString());
        assertEquals(1, run.status());
        assertTrue(run.err().contains("no .xyz or .xyz.gz test files"), run.err());
    }

    /**
     * {@code --device cuda} runs the CUDA kernels (on a real device, else on the CPU emulator of the driver, in a JVM
     * of its own) and gives the CPU's table to float32 rounding; it must not fall back to the CPU quietly.
     */
    @Test
    void deviceCudaRunsTheKernelsAndGivesTheCpuTable(@TempDir Path dir) throws Exception {
        // two frames of the shipped ethanol test file keep this quick (the emulator runs the kernels on one core)
        Path small = dir.resolve("set");
        Files.createDirectories(small);
        try (var in = new java.util.zip.GZIPInputStream(org.molten.forcefield.bundled.TestSet.class.getResourceAsStream(
                "/org/molten/forcefield/student/testset/ethanol.xyz.gz"));
             var reader = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
             var w = Files.newBufferedWriter(small.resolve("ethanol.xyz"))) {
            for (int k = 0; k < 2 * 11; k++) {
                w.write(reader.readLine());
                w.write("\n");
            }
        }
        String driver = EmulatedCuda.driverLibrary();
        assumeTrue(driver != null, "no CUDA device and the CUDA emulator could not be built (g++?)");
        Path cpu = dir.resolve("cpu.json");
        Path cuda = dir.resolve("cuda.json");
        CliRun a = CliRun.of("accuracy", "--testset", small.toString(), "--device", "cpu", "--json", cpu.toString());
        assertEquals(0, a.status(), a.err());
        CliRun b = EmulatedCuda.run(driver, "accuracy", "--testset", small.toString(), "--device", "cuda", "--json", cuda.toString());
        assertEquals(0, b.status(), b.out() + b.err());
        JsonNode cpuJson = new ObjectMapper().readTree(cpu.toFile());
        JsonNode cudaJson = new ObjectMapper().readTree(cuda.toFile());
        assertEquals("student/optimised", cpuJson.get("implementation").asText());
        assertEquals("student/cuda", cudaJson.get("implementation").asText(), "--device cuda fell back to the CPU:\n" + b.err());
        assertFalse(b.err().contains("CUDA path unavailable"), b.err());
        JsonNode x = cpuJson.get("systems").get("ethanol");
        JsonNode y = cudaJson.get("systems").get("ethanol");
        assertEquals(2, x.get("frames").asInt());
        assertEquals(2, y.get("frames").asInt());
        // float32 kernels against the float64 CPU path: far closer than the printed digits (4 and 2 decimals)
        assertEquals(x.get("force_mae_ev_per_a").asDouble(), y.get("force_mae_ev_per_a").asDouble(), 1e-5);
        assertEquals(x.get("force_rmse_ev_per_a").asDouble(), y.get("force_rmse_ev_per_a").asDouble(), 1e-5);
        assertEquals(x.get("energy_mae_mev_per_atom").asDouble(), y.get("energy_mae_mev_per_atom").asDouble(), 1e-2);
    }

    @Test
    void cudaOnlyOptionsAreRefusedClearly() {
        CliRun c = CliRun.of("accuracy", "--backend", "reference", "--device", "cuda");
        assertEquals(1, c.status());
        assertTrue(c.err().contains("--backend reference runs on the CPU only"), c.err());
        CliRun d = CliRun.of("accuracy", "--device", "gpu");
        assertEquals(2, d.status());
        assertTrue(d.err().contains("unknown device 'gpu'; choose one of auto, cpu, cuda"), d.err());
    }
}
