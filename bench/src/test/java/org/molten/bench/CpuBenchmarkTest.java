package org.molten.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.student.StudentWeights;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The benchmark's plumbing (not its timings): systems, paths, statistics and the JSON contract. */
class CpuBenchmarkTest {
    @TempDir
    Path dir;

    @Test
    void latencyQuantilesInterpolate() {
        LatencyStats s = LatencyStats.ofNanos(new long[]{4000, 1000, 3000, 2000, 99}, 4);
        assertEquals(4, s.calls());
        assertEquals(2.5, s.medianUs(), 1e-12);
        assertEquals(1.75, s.p25Us(), 1e-12);
        assertEquals(1.0, s.minUs(), 1e-12);
        assertEquals(4.0, s.maxUs(), 1e-12);
    }

    @Test
    void sizeTokensPickTheDocumentedSystems() {
        assertEquals("alanine-dipeptide", BenchSystems.forToken("22", 1).description());
        assertEquals(22, BenchSystems.forToken("22", 1).atoms().size());
        BenchSystems.Named box = BenchSystems.forToken("60w", 1);
        assertEquals(60, box.atoms().size());
        assertNotNull(box.atoms().cellOrNull());
        assertEquals(50, BenchSystems.forToken("50", 1).atoms().size());
        assertNull(BenchSystems.forToken("50", 1).atoms().cellOrNull());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BenchSystems.forToken("x7", 1));
        assertTrue(e.getMessage().contains("x7"));
        assertThrows(IllegalArgumentException.class, () -> BenchPath.of("gpu-magic"));
        assertEquals(BenchPath.OPTIMISED_F32, BenchPath.of("optimised-f32"));
    }

    @Test
    void runsAndWritesJsonWithPathAndMedian() throws IOException {
        StudentWeights w = StudentWeights.random(1, new int[]{1, 6, 7, 8}, 8, 1, 6, 4.0, 8.0);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<CpuBenchmark.Result> results = CpuBenchmark.run(w, new CpuBenchmark.Settings(List.of("3", "9"), 3, 5.0, 0.0,
                7, 0.01, List.of(BenchPath.REFERENCE, BenchPath.OPTIMISED, BenchPath.OPTIMISED_F32)),
                new PrintStream(log, true));
        assertEquals(6, results.size());
        for (CpuBenchmark.Result r : results) {
            assertEquals(3, r.stats().calls());
            assertTrue(r.stats().medianUs() > 0 && r.cpu().medianUs() >= 0);
        }
        String table = BenchReport.table(results);
        assertTrue(table.contains("| 9 | ethanol | optimised-f32 |"), table);
        Path json = dir.resolve("bench.json");
        BenchReport.writeJson(json, results, Map.of("cpu_model", "test"));
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertEquals("test", root.get("context").get("cpu_model").asText());
        JsonNode first = root.get("configurations").get(0);
        assertEquals("reference", first.get("path").asText());
        assertTrue(first.get("median_us").asDouble() > 0);
        assertEquals(1.0, first.get("speedup_vs_reference").asDouble(), 1e-12);
        assertEquals("optimised", root.get("configurations").get(1).get("path").asText());
    }
}
