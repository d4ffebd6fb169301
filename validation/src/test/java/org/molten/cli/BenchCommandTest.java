package org.molten.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.cuda.GpuAvailability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code molten bench} in-process: exit statuses, skipping, the JSON it writes, --compare. */
class BenchCommandTest {
    @TempDir
    Path dir;

    private record Result(int status, String out, String err) {
    }

    private static Result run(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int status = MoltenCli.execute(args);
            return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void cudaWithoutGpuWarnsOnceAndSkips() throws IOException {
        assumeFalse(GpuAvailability.available(), "this machine has a GPU");
        Path json = dir.resolve("cuda.json");
        Result r = run("bench", "--device", "cuda", "--sizes", "3", "--repeats", "3", "--json", json.toString());
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
        Result r = run("bench", "--device", "auto", "--sizes", "3", "--repeats", "3", "--warmup-s", "0",
                "--reference-max-atoms", "3");
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("molten bench --device cpu"), r.out());
        assertTrue(r.out().contains("speed-up vs reference (e+f median): optimised-f64 "), r.out());
    }

    @Test
    void compareFlagsASlowerRunWithExitStatus3() throws IOException {
        Path json = dir.resolve("now.json");
        Result r = run("bench", "--device", "cpu", "--sizes", "3", "--repeats", "3", "--warmup-s", "0",
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
        Result c = run("bench", "--device", "cpu", "--sizes", "3", "--repeats", "3", "--warmup-s", "0",
                "--compare", fast.toString());
        assertEquals(3, c.status(), c.out() + c.err());
        assertTrue(c.out().contains("SLOWER"), c.out());
    }

    @Test
    void unreadableCompareFileFailsBeforeTiming() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "not json");
        Result r = run("bench", "--device", "cpu", "--sizes", "3", "--compare", bad.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("bad.json"), r.err());
        assertFalse(r.out().contains("atoms (water)"), r.out());
    }
}
