package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.molten.cli.CliRun;
import org.molten.cli.EmulatedCuda;

/**
 * {@code molten sweep --device cuda --gpu} through a real GPU or the project's emulator of the CUDA
 * driver (cli's shared EmulatedCuda): water × 3 seeds on one GPU slot run as one device batch of 3
 * replicas per phase, and each task's stored report equals the one the same task gives run alone
 * on the device ({@code --gpu-batch 1}): every sample of its energy logs (to float32 rounding: a
 * batch's kernels may round differently from one molecule's), its drift and the baseline
 * comparison. Tiny step counts: the emulator runs the kernels on one CPU core.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class EmulatedGpuSweepTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String[] sweep(Path out, String batch) {
        return new String[] {"sweep", "--systems", "water", "--replicas", "3", "--seed", "11", "--device", "cuda", "--gpu",
                "--slots", "1", "--gpu-batch", batch, "--baseline", "reference", "--equilibration-steps", "10", "--steps", "16",
                "--sample-interval", "1", "--no-plots", "--out", out.toString()};
    }

    @Test
    void threeSeedsRunAsOneDeviceBatchAndEachTaskEqualsItselfAlone(@TempDir Path dir) throws Exception {
        String driver = EmulatedCuda.driverLibrary();
        assumeTrue(driver != null, "no CUDA device and the CUDA emulator could not be built (g++?)");
        Path batched = dir.resolve("batched");
        Path alone = dir.resolve("alone");
        CliRun a = EmulatedCuda.run(driver, sweep(batched, "3"));
        CliRun b = EmulatedCuda.run(driver, sweep(alone, "1"));
        assertEquals(0, a.status(), a.out() + a.err());
        assertEquals(0, b.status(), b.out() + b.err());
        JsonNode ra = JSON.readTree(batched.resolve(SweepReportWriter.JSON).toFile());
        JsonNode rb = JSON.readTree(alone.resolve(SweepReportWriter.JSON).toFile());
        assertEquals(3, ra.path("tasks_done").asInt(), ra.toPrettyString());
        assertEquals(3, rb.path("tasks_done").asInt(), rb.toPrettyString());
        for (int i = 0; i < 3; i++) {
            JsonNode ta = ra.path("tasks").get(i);
            JsonNode tb = rb.path("tasks").get(i);
            String id = ta.path("task").path("id").asText();
            assertEquals(id, tb.path("task").path("id").asText(), "the same grid names its tasks the same way");
            Path da = batched.resolve("tasks").resolve(id).resolve("report");
            Path db = alone.resolve("tasks").resolve(id).resolve("report");
            JsonNode sa = JSON.readTree(da.resolve("report.json").toFile()).path("systems").get(0);
            JsonNode sb = JSON.readTree(db.resolve("report.json").toFile()).path("systems").get(0);
            for (JsonNode run : sa.path("runs")) {
                if (run.path("role").asText().equalsIgnoreCase("optimised")) {
                    assertEquals("cuda", run.path("platform").asText(), run.toPrettyString());
                    assertEquals(3, run.path("batched_replicas").asInt(), "the task ran in the batch of 3: " + run);
                }
            }
            for (JsonNode run : sb.path("runs")) {
                if (run.path("role").asText().equalsIgnoreCase("optimised")) {
                    assertEquals(1, run.path("batched_replicas").asInt(), "alone: " + run);
                }
            }
            assertEquals(sb.path("replicas").get(0).path("seed").asLong(), sa.path("replicas").get(0).path("seed").asLong());
            for (String phase : List.of("equilibration", "optimised-nve", "optimised-nvt")) {
                String log = "water-r0-" + phase + ".csv";
                assertSameSamples(da.resolve(log), db.resolve(log), id + " " + log);
            }
            JsonNode ma = ta.path("metrics");
            JsonNode mb = tb.path("metrics");
            assertEquals(mb.path("stable_fraction").asDouble(), ma.path("stable_fraction").asDouble(), 0.0, id);
            // The drift is the slope of the total energy (about -138 eV) over 8 fs and 3 atoms: float32 rounding of the
            // energies could move it by up to ~1.5e-5 eV / (0.008 ps * 3) = 0.6 meV/atom/ps; measured 0.0035 apart
            // (seed 11), and 0.05 allows 15 times that.
            assertClose(mb.path("drift_meV_per_atom_per_ps"), ma.path("drift_meV_per_atom_per_ps"), 0.05, id + " drift");
            assertTrue(ma.path("force_rmse_vs_baseline_eV_per_A").isNumber(), "every task compared with the baseline: " + ma);
            assertClose(mb.path("teacher_force_mae_eV_per_A"), ma.path("teacher_force_mae_eV_per_A"),
                    1e-6 + 1e-4 * Math.abs(mb.path("teacher_force_mae_eV_per_A").asDouble()), id + " teacher error");
        }
    }

    private static void assertClose(JsonNode expected, JsonNode actual, double tolerance, String what) {
        assertTrue(expected.isNumber() && actual.isNumber(), what + ": " + expected + " vs " + actual);
        assertEquals(expected.asDouble(), actual.asDouble(), tolerance, what);
    }

    /** Every number of every data row equal to float32 rounding (relative 1e-5, absolute 1e-6) as printed. */
    private static void assertSameSamples(Path batch, Path alone, String what) throws Exception {
        List<String[]> x = rows(batch);
        List<String[]> y = rows(alone);
        assertEquals(y.size(), x.size(), what);
        assertTrue(x.size() >= 11, what + ": " + x.size() + " rows");
        for (int i = 0; i < x.size(); i++) {
            assertEquals(y.get(i).length, x.get(i).length, what + " row " + i);
            for (int c = 0; c < x.get(i).length; c++) {
                double u = Double.parseDouble(x.get(i)[c].trim());
                double v = Double.parseDouble(y.get(i)[c].trim());
                // plus one unit of the last printed digit: a float32 difference far below it can still flip it
                // (since the molecule kernel runs thermostats, one replica alone rounds like it, a batch like the stages)
                double printed = Math.max(lastDigit(x.get(i)[c]), lastDigit(y.get(i)[c]));
                assertEquals(v, u, 1e-6 + 1e-5 * Math.abs(v) + printed, what + " row " + i + " column " + c);
            }
        }
    }

    /** One unit of the last digit a CSV field was printed with (0.001 for "65.513", 1 for "12"). */
    private static double lastDigit(String field) {
        String t = field.trim();
        int dot = t.indexOf('.');
        int e = Math.max(t.indexOf('e'), t.indexOf('E'));
        if (dot < 0 || e >= 0) {
            return 0.0;
        }
        return Math.pow(10, -(t.length() - dot - 1));
    }

    private static List<String[]> rows(Path csv) throws Exception {
        return Files.readAllLines(csv).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && (Character.isDigit(l.charAt(0)) || l.charAt(0) == '-')).map(l -> l.split(","))
                .toList();
    }
}
