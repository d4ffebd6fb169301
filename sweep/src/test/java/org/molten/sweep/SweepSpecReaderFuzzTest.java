package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bad input, tried at scale: {@link SweepSpec#read} given mutated spec files (JSON and YAML) may fail
 * only with its own IllegalArgumentException naming the file, never another exception, a hang or
 * an out-of-memory. Regression mode replays the corpus under
 * src/test/resources/org/molten/sweep/SweepSpecReaderFuzzTestInputs; {@code JAZZER_FUZZ=1} mutates it.
 */
class SweepSpecReaderFuzzTest {
    private static void read(byte[] data, String suffix) throws IOException {
        Path file = Files.createTempFile("fuzz-spec", suffix);
        try {
            Files.write(file, data);
            try {
                SweepSpec.read(file);
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage() != null && e.getMessage().contains(file.toString()), "the file is not named: " + e);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void json(byte[] data) throws IOException {
        read(data, ".json");
    }

    @FuzzTest(maxDuration = "60s")
    void yaml(byte[] data) throws IOException {
        read(data, ".yaml");
    }
}
