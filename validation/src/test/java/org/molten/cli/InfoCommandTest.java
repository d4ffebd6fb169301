package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code molten info} names the bundled model and reports every acceleration path and its fallbacks. */
class InfoCommandTest {

    @Test
    void infoReportsModelNd4jAndCudaWithTheirFallbackCounters() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            status = MoltenCli.execute("info");
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        assertTrue(out.contains("model    student-gfn2: painn, species Z=1,6,7,8, F=128, T=3"), out);
        assertTrue(out.contains("teacher GFN2-xTB"), out);
        assertTrue(out.matches("(?s).*nd4j     (loaded|off: .+) \\(fallbacks to Java loops \\d+\\).*"), out);
        assertTrue(out.matches("(?s).*cuda     (available: .+|not used \\(.+\\); the student runs on the CPU).*"), out);
        assertTrue(out.matches("(?s).*fallbacks to CPU \\d+.*"), out);
    }
}
