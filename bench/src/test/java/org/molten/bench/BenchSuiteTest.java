package org.molten.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.student.StudentWeights;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The suite's contracts, not its timings: JSON, regression flags, the no-cache check, skipping. */
class BenchSuiteTest {
    @TempDir
    Path dir;

    private static final StudentWeights SMALL = StudentWeights.random(1, new int[]{1, 6, 7, 8}, 8, 1, 6, 4.0, 8.0);

    private static BenchSuite.Settings settings(List<String> sizes, boolean cpu, boolean cuda) {
        return new BenchSuite.Settings(sizes, cpu, cuda, 3, 5.0, 0.0, 7, 0.01, 300, 200);
    }

    private static ConfigResult synthetic(String config, double mdMedianUs, double forceRmse) {
        SampleStats s = new SampleStats(5, mdMedianUs, mdMedianUs, 1.0, mdMedianUs - 2, mdMedianUs + 2);
        double sps = 1e6 / mdMedianUs;
        return new ConfigResult("cpu", config, Precision.FLOAT64, 22, "alanine-dipeptide", false, ConfigResult.Status.ok, "",
                s, s, sps, 22 * sps, sps * 0.5e-6 * 86400, 50.0, 80.0, null, "reference (float64, all pairs)", 1e-12, forceRmse,
                1.0, 1e-9, 10);
    }

    @Test
    void ratiosAreTheReferenceMedianOverEachPathsMedianOfTheSameSize() {
        ConfigResult ref = synthetic("reference", 30000, 0);
        ConfigResult opt = synthetic("optimised-f64", 2500, 1e-14);
        ConfigResult loops = synthetic("optimised-f64-loops", 3000, 1e-14);
        ConfigResult nd4j = synthetic("optimised-f64-nd4j", 2000, 1e-14);
        List<ConfigResult> all = List.of(ref, opt, loops, nd4j);
        assertEquals(12.0, SuiteReport.speedupVsReference(opt, all)[0], 1e-12);
        assertEquals(12.0, SuiteReport.speedupVsReference(opt, all)[1], 1e-12);
        String line = SuiteReport.ratioLine(all);
        assertTrue(line.contains("optimised-f64 12.0×"), line);
        assertTrue(line.contains("ND4J vs loops (e+f median): 1.50×"), line);
        assertTrue(SuiteReport.markdown(all).contains("| 12.0× / 12.0× |"), SuiteReport.markdown(all));
        // no reference at this size: no ratio rather than a made-up one
        assertTrue(Double.isNaN(SuiteReport.speedupVsReference(opt, List.of(opt))[0]));
        assertEquals("", SuiteReport.ratioLine(List.of(opt)));
    }

    @Test
    void jsonRoundTripKeepsEveryField() throws IOException {
        ConfigResult ok = synthetic("optimised-f64", 1000, 1e-14);
        ConfigResult skipped = ConfigResult.notRun("cuda", "cuda-md-graphs", Precision.FLOAT32, 22, "alanine-dipeptide",
                false, ConfigResult.Status.skipped, "no usable GPU: none");
        SuiteJson j = new SuiteJson(SuiteJson.FORMAT, "2026-11-21T00:00:00Z", Map.of("cpu_model", "test"), List.of(ok, skipped));
        Path f = dir.resolve("r.json");
        j.write(f);
        SuiteJson back = SuiteJson.read(f);
        assertEquals(j, back);
        JsonNode tree = new ObjectMapper().readTree(f.toFile());
        JsonNode c = tree.get("configurations").get(0);
        for (String field : List.of("md_step", "energy_forces", "ns_per_day", "atom_steps_per_second", "peak_heap_mi_b",
                "force_rmse_ev_per_a", "energy_diff_ev", "device_memory_used_mi_b")) {
            assertTrue(c.has(field), field);
        }
        assertTrue(c.get("device_memory_used_mi_b").isNull());
    }

    @Test
    void readRefusesAFileThatIsNotAResult() throws IOException {
        Path f = dir.resolve("x.json");
        java.nio.file.Files.writeString(f, "{\"format\":\"other\",\"configurations\":[]}");
        IOException e = assertThrows(IOException.class, () -> SuiteJson.read(f));
        assertTrue(e.getMessage().contains("x.json"));
    }

    @Test
    void compareFlagsTwentyPercentSlowerButNotFive() {
        List<ConfigResult> base = List.of(synthetic("a", 1000, 1e-14), synthetic("b", 1000, 1e-14));
        Comparison fine = Comparison.of(base, List.of(synthetic("a", 1050, 1e-14), synthetic("b", 900, 1e-14)), 10);
        assertFalse(fine.anyFlagged());
        assertEquals(0, fine.exitCode());
        Comparison slow = Comparison.of(base, List.of(synthetic("a", 1200, 1e-14), synthetic("b", 1000, 1e-14)), 10);
        assertTrue(slow.anyFlagged());
        assertNotEquals(0, slow.exitCode());
        assertEquals("SLOWER", slow.rows().get(0).verdict());
        assertEquals(20.0, slow.rows().get(0).changePct(), 1e-9);
        assertEquals("ok", slow.rows().get(1).verdict());
        assertTrue(slow.table().contains("SLOWER"));
        // a wider tolerance accepts the same run
        assertFalse(Comparison.of(base, List.of(synthetic("a", 1200, 1e-14)), 25).anyFlagged());
    }

    @Test
    void compareFlagsNumericallyDifferentAndFailedButNotSkipped() {
        List<ConfigResult> base = List.of(synthetic("a", 1000, 1e-14), synthetic("b", 1000, 1e-14), synthetic("c", 1000, 1e-14));
        ConfigResult wrong = synthetic("a", 900, 1e-3);   // faster but beyond the float64 bound
        ConfigResult failed = ConfigResult.notRun("cpu", "b", Precision.FLOAT64, 22, "x", false, ConfigResult.Status.failed,
                "no-cache check failed");
        ConfigResult skipped = ConfigResult.notRun("cpu", "c", Precision.FLOAT64, 22, "x", false, ConfigResult.Status.skipped,
                "no libtorch");
        Comparison c = Comparison.of(base, List.of(wrong, failed, skipped), 10);
        assertEquals("NUMERICS", c.rows().get(0).verdict());
        assertTrue(c.rows().get(0).flagged());
        assertEquals("FAILED", c.rows().get(1).verdict());
        assertEquals("skipped", c.rows().get(2).verdict());
        assertFalse(c.rows().get(2).flagged());
        assertEquals(3, c.exitCode());
        assertThrows(IllegalArgumentException.class, () -> Comparison.of(base, base, -1));
    }

    /** Answers the same energy and forces whatever the positions: a cache. */
    private static final class CachingFake implements ForceField {
        @Override
        public String name() {
            return "fake";
        }

        @Override
        public double energyAndForces(Atoms atoms, double[] forces) {
            java.util.Arrays.fill(forces, 0.1);
            return -1.0;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void noCacheCheckFailsAForceFieldThatRepeatsItsAnswer() {
        SuiteConfig fake = SuiteConfig.forceField("fake-cache", "cpu", Precision.FLOAT64, true, w -> new CachingFake());
        List<ConfigResult> r = new BenchSuite(SMALL, settings(List.of("3"), true, false), new PrintStream(new ByteArrayOutputStream()),
                n -> List.of(fake), n -> List.of()).run();
        assertEquals(1, r.size());
        assertEquals(ConfigResult.Status.failed, r.get(0).status());
        assertTrue(r.get(0).reason().contains("no-cache"), r.get(0).reason());
        assertTrue(Comparison.of(List.of(), r, 10).anyFlagged());
    }

    @Test
    void guardDetectsUnchangedPositions() {
        FreshInputGuard g = new FreshInputGuard("t");
        double[] x = {1, 2, 3};
        g.record(x, 1.0, null);
        assertThrows(StaleResultException.class, () -> g.record(x, 2.0, null));
        FreshInputGuard h = new FreshInputGuard("t");
        h.record(new double[]{1, 2, 3}, 1.0, null);
        h.record(new double[]{1, 2, 3.1}, 1.5, null);
        assertEquals(2, h.calls());
    }

    @Test
    void tinyRealRunWritesEveryField() throws IOException {
        List<ConfigResult> r = new BenchSuite(SMALL, settings(List.of("3", "9"), true, false), new PrintStream(new ByteArrayOutputStream()),
                n -> SuiteConfig.cpuConfigs(n, 200).stream().filter(c -> !c.id().startsWith("torchscript")).toList(),
                n -> List.of()).run();
        assertEquals(6, r.size());
        for (ConfigResult c : r) {
            assertEquals(ConfigResult.Status.ok, c.status(), c.reason());
            assertEquals(3, c.energyForces().samples());
            assertEquals(3, c.mdStep().samples());
            assertTrue(c.energyForces().minUs() <= c.energyForces().medianUs()
                    && c.energyForces().medianUs() <= c.energyForces().maxUs());
            assertTrue(c.nsPerDay() > 0 && c.atomStepsPerSecond() > c.stepsPerSecond() && c.peakHeapMiB() > 0);
            assertTrue(c.accurate(), c.config() + " RMSE " + c.forceRmseEvPerA());
            assertTrue(c.freshInputCalls() >= 6);
            assertNull(c.deviceMemoryUsedMiB());
            assertTrue(c.heapKbPerAtom() != null && !c.heapKbPerAtom().isNaN(), c.config() + ": heap per atom measured");
        }
        Path f = dir.resolve("run.json");
        new SuiteJson(SuiteJson.FORMAT, "now", Map.of(), r).write(f);
        JsonNode conf = new ObjectMapper().readTree(f.toFile()).get("configurations");
        assertEquals(6, conf.size());
        for (JsonNode c : conf) {
            for (String field : List.of("device", "config", "precision", "atoms", "system", "status", "energy_forces",
                    "md_step", "steps_per_second", "atom_steps_per_second", "ns_per_day", "peak_heap_mi_b",
                    "heap_kb_per_atom", "device_memory_used_mi_b", "accuracy_reference", "energy_diff_ev", "force_rmse_ev_per_a",
                    "force_rmse_bound_ev_per_a", "fresh_input_calls")) {
                assertTrue(c.has(field), field);
            }
            for (String s : List.of("mean_us", "median_us", "sd_us", "min_us", "max_us", "samples")) {
                assertTrue(c.get("md_step").has(s), s);
            }
        }
        assertFalse(Comparison.of(r, r, 10).anyFlagged());
    }

    @Test
    void cudaWithoutGpuIsSkippedNotFailed() {
        assumeFalse(GpuAvailability.available(), "this machine has a GPU");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<ConfigResult> r = new BenchSuite(SMALL, settings(List.of("3"), false, true), new PrintStream(log, true)).run();
        assertEquals(SuiteConfig.cudaConfigs().size(), r.size());
        for (ConfigResult c : r) {
            assertEquals("cuda", c.device());
            assertEquals(ConfigResult.Status.skipped, c.status());
        }
        String out = log.toString();
        assertEquals(1, out.split("warning:", -1).length - 1, out);
        assertFalse(Comparison.of(List.of(), r, 10).anyFlagged());
    }
}
