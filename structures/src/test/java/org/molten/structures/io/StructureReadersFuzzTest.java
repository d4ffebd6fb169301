package org.molten.structures.io;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bad input, tried at scale: the structure readers given mutated files may fail only with their
 * own {@link StructureFormatException} naming file, line and problem, never another exception, a
 * hang or an out-of-memory. Jazzer's JUnit integration: in every test run (regression mode) each
 * target replays its corpus under src/test/resources/org/molten/structures/io/StructureReadersFuzzTestInputs/
 * (valid files and the inputs of past findings), deterministic and quick; {@code JAZZER_FUZZ=1} mutates
 * them coverage-guided for maxDuration (docs/fuzzing.md).
 */
class StructureReadersFuzzTest {
    /** Reads every frame; only the format's own exception, with a message, may come out. */
    private static void readAll(StructureFormat format, byte[] data, String name) throws IOException {
        try {
            format.open(new StringReader(new String(data, StandardCharsets.UTF_8)), name).readRemaining();
        } catch (StructureFormatException e) {
            assertFalse(e.problem() == null || e.problem().isBlank(), "no problem stated: " + e.getMessage());
        }
    }

    @FuzzTest(maxDuration = "60s")
    void xyz(byte[] data) throws IOException {
        readAll(StructureFormat.XYZ, data, "fuzz.xyz");
    }

    @FuzzTest(maxDuration = "60s")
    void extendedXyz(byte[] data) throws IOException {
        readAll(StructureFormat.EXTENDED_XYZ, data, "fuzz.extxyz");
    }

    @FuzzTest(maxDuration = "60s")
    void pdb(byte[] data) throws IOException {
        readAll(StructureFormat.PDB, data, "fuzz.pdb");
    }

    /** Compressed input through the file path (the gzip magic is recognised by content). */
    @FuzzTest(maxDuration = "60s")
    void gzipExtendedXyz(byte[] data) throws IOException {
        Path file = Files.createTempFile("fuzz", ".xyz.gz");
        try {
            Files.write(file, data);
            try {
                StructureFiles.readAll(file);
            } catch (StructureFormatException e) {
                assertFalse(e.problem() == null || e.problem().isBlank(), "no problem stated: " + e.getMessage());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
