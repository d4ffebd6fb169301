package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.structures.WaterBox;
import org.molten.structures.io.StructureFiles;

/**
 * {@code molten run} on a system too large for the heap, in a forked JVM with {@code -Xmx128m}:
 * one line naming the atoms, the estimate and the -Xmx to use, exit 1, no OutOfMemoryError.
 */
class RunHeapLimitTest {

    @Test
    void aWaterBoxTooLargeForTheHeapIsRefusedWithTheSettingToUse(@TempDir Path dir) throws Exception {
        Path box = dir.resolve("water.extxyz");
        StructureFiles.write(box, WaterBox.forAtomCount(9000, 5)); // ~270 MB even in the memory-saving float64 layout
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-Xss8m", "-Dai.djl.offline=true", "-cp", cp, MoltenCli.class.getName(), "run",
                "--structure", box.toString(), "--device", "cpu", "--steps", "10", "--seed", "1"))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the forked run did not end");
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(1, p.exitValue(), text);
        assertFalse(text.contains("OutOfMemoryError"), text);
        String line = text.lines().filter(l -> l.startsWith("molten run: ")).findFirst().orElse("");
        assertTrue(line.matches("molten run: student/optimised( \\(memory-saving layout\\))? needs about \\d+ MB of Java heap for 9,000 atoms \\(estimate,"
                + " \\d+ KB per atom\\), but this JVM's heap limit is 128 MB with \\d+ MB in use; give it more with -Xmx\\d+[mg]"
                + " \\(for ./molten: MOLTEN_JAVA_OPTS=-Xmx\\d+[mg] ./molten ...\\) or simulate fewer atoms"), text);
    }
}
