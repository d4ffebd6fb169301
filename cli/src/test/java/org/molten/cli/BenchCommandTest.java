package org.molten.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.cuda.GpuAvailability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code molten bench} in-process: exit statuses, skipping, the JSON it writes, --compare. */
class BenchCommandTest {
    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void cudaWithoutGpuWarnsOnceAndSkips() throws IOException {
        assumeFalse(GpuAvailability.available(), "this machine has a GPU");
        Path json = dir.resolve("cuda.json");
        CliRun r = run("bench", "--device", "cuda", "--sizes", "3", "--repeats", "3", "--json", json.toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertEquals(1, r.out().split("warning:", -1).length - 1, r.out());
        JsonNode conf = new ObjectMapper().readTree(json.toFile()).get("configurations");
        assertEquals(4, conf.size());
        for (JsonNode c : conf) {
            assertEquals("skipped", c.get("status").asText());
            assertTrue(c.get("reason").asText().contains("GPU"));
        }
    }

    @Test
    void autoWithoutGpuTimesTheCpuPaths() {
        assumeFalse(GpuAvailability.available(), "this machine has a GPU");
        CliRun r = run("bench", "--device", "auto", "--sizes", "3", "--repeats", "3", "--warmup-s", "0",
                "--reference-max-atoms", "3");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("molten bench --device cpu"), r.out());
        assertTrue(r.out().contains("speed-up vs reference (e+f median): optimised-f64 "), r.out());
    }

    @Test
    void compareFlagsASlowerRunWithExitStatus3() throws IOException {
        Path json = dir.resolve("now.json");
        CliRun r = run("bench", "--device", "cpu", "--sizes", "3", "--repeats", "3", "--warmup-s", "0",
                "--json", json.toString(), "--markdown", dir.resolve("now.md").toString());
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(Files.readString(dir.resolve("now.md")).contains("optimised-f64"));
        // a stored run in which every configuration was 100 times faster than this one
        ObjectMapper m = new ObjectMapper();
        JsonNode root = m.readTree(json.toFile());
        for (JsonNode c : root.get("configurations")) {
            for (String part : new String[]{"md_step", "energy_forces"}) {
                if (c.hasNonNull(part)) {
                    ((ObjectNode) c.get(part)).put("median_us", c.get(part).get("median_us").asDouble() / 100);
                }
            }
        }
        Path fast = dir.resolve("fast.json");
        m.writeValue(fast.toFile(), root);
        CliRun c = run("bench", "--device", "cpu", "--sizes", "3", "--repeats", "3", "--warmup-s", "0",
                "--compare", fast.toString());
        assertEquals(3, c.status(), c.out() + c.err());
        assertTrue(c.out().contains("SLOWER"), c.out());
    }

    @Test
    void unreadableCompareFileFailsBeforeTiming() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "not json");
        CliRun r = run("bench", "--device", "cpu", "--sizes", "3", "--compare", bad.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("bad.json"), r.err());
        assertFalse(r.out().contains("atoms (water)"), r.out());
    }
}
