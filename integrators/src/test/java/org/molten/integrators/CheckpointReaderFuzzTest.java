package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * Bad input, tried at scale: {@link Checkpoint#read} given mutated checkpoints may fail only with an
 * IOException whose message names the file, never another exception, a hang or an out-of-memory.
 * The CRC that ends a checkpoint would stop almost every mutation at its first check, so the target
 * reads each input twice: as given, and with its last 8 bytes replaced by the CRC of the rest, which
 * sends the mutated body through the parser. Regression mode replays the corpus under
 * src/test/resources/org/molten/integrators/CheckpointReaderFuzzTestInputs (a Langevin checkpoint of
 * three argon atoms); {@code JAZZER_FUZZ=1} mutates it (docs/fuzzing.md).
 */
class CheckpointReaderFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void checkpoint(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".chk");
        try {
            read(file, data);
            if (data.length >= 20) {
                byte[] fixed = data.clone();
                CRC32 crc = new CRC32();
                crc.update(fixed, 0, fixed.length - 8);
                ByteBuffer.wrap(fixed, fixed.length - 8, 8).putLong(crc.getValue());
                read(file, fixed);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void read(Path file, byte[] data) throws IOException {
        Files.write(file, data);
        try {
            Checkpoint.read(file);
        } catch (IOException e) {
            assertTrue(e.getMessage() != null && e.getMessage().contains(file.toString()), "the file is not named: " + e);
        }
    }
}
