package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;

/**
 * {@code molten stability --device cuda} on the GPU, or where there is none on the project's CPU emulator of the CUDA
 * driver: water and ethanol as one mixed batch on the device, with 5 fs steps, blow up in the first frame as they do
 * on the host, and each is scored and dropped from the device batch by itself (the device's thermostat noise is not
 * the host's, so trajectories differ; the events do not). Measured on the emulator: a stable 40-step run of this batch
 * took 44 s (water:stable, ethanol:stable on both paths), too slow for CI, so only the blow-up runs here.
 */
class StabilityDeviceTest {

    private static Path molecules(Path dir) throws Exception {
        Path f = dir.resolve("two.extxyz");
        StructureFiles.write(f, List.of(Frame.of(BuiltInMolecules.load("water")).withInfo("name", "water"),
                Frame.of(BuiltInMolecules.load("ethanol")).withInfo("name", "ethanol")));
        return f;
    }

    private static JsonNode run(String driver, Path dir, String device, String name, String... more) throws Exception {
        Path out = dir.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of("stability", "--structure", molecules(dir).toString(),
                "--device", device, "--seed", "5", "--out", out.toString()));
        args.addAll(List.of(more));
        CliRun r = device.equals("cuda") ? EmulatedCuda.run(driver, args.toArray(String[]::new)) : CliRun.of(args.toArray(String[]::new));
        assertTrue(r.status() == 0 || r.status() == StabilityCommand.EXIT_FAILED, r.status() + "\n" + r.out() + r.err());
        assertFalse((r.out() + r.err()).contains("instead"), "no fallback to the host: " + r.err());
        return new ObjectMapper().readTree(out.resolve("stability.json").toFile());
    }

    private static List<String> events(JsonNode report) {
        return java.util.stream.StreamSupport.stream(report.path("molecules").spliterator(), false)
                .map(m -> m.path("name").asText() + ":" + m.path("event").asText()).toList();
    }

    @Test
    void theDeviceBatchGivesTheHostsEventsAndDropsEachBlownUpReplica(@TempDir Path dir) throws Exception {
        String driver = EmulatedCuda.driverLibrary();
        assumeTrue(driver != null, "no CUDA device and the CUDA emulator could not be built (g++?)");
        // 5 fs steps blow both molecules up within the first frame on either path (one device run: the emulator
        // takes about a second per step of this batch, so the test stays at 10 device steps)
        String[] blowUp = {"--ps", "0.2", "--timestep", "5", "--frames", "4"};
        JsonNode gpu = run(driver, dir, "cuda", "gpu", blowUp);
        JsonNode cpu = run(driver, dir, "cpu", "cpu", blowUp);
        assertEquals("cuda", gpu.path("platform").asText());
        assertEquals(List.of("water:explosion", "ethanol:explosion"), events(gpu), gpu.toPrettyString());
        assertEquals(events(cpu), events(gpu));
        for (JsonNode m : gpu.path("molecules")) {
            assertEquals(1, m.path("event_frame").asInt(), m.toPrettyString());
            assertEquals(0.125, m.path("score").asDouble(), 0.0);
        }
    }
}
