package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code molten info} names the bundled model and reports every acceleration path and its fallbacks. */
class InfoCommandTest {

    @Test
    void infoReportsModelNd4jAndCudaWithTheirFallbackCounters() {
        CliRun run = CliRun.of("info");
        String out = run.out();
        assertEquals(0, run.status(), out + run.err());
        assertTrue(out.contains("model    " + org.molten.forcefield.bundled.ModelRegistry.defaultVersion().name()
                + ": painn, species Z=1,6,7,8, F=128, T=3"), out);
        assertTrue(out.contains("teacher GFN2-xTB"), out);
        assertTrue(out.matches("(?s).*nd4j     (loaded|off: .+) \\(fallbacks to Java loops \\d+\\).*"), out);
        assertTrue(out.matches("(?s).*cuda     (available: .+|not used \\(.+\\); the student runs on the CPU).*"), out);
        assertTrue(out.matches("(?s).*fallbacks to CPU \\d+.*"), out);
        // every molten.cuda property with what it selects, and the kernel images (issue 20)
        assertTrue(out.contains("cuda properties (what each selects and why it exists):"), out);
        assertTrue(out.contains("-Dmolten.cuda.mode=") && out.contains("-Dmolten.cuda.launch="), out);
        assertTrue(out.contains("kernels: machine code sm_80, sm_86, sm_89, sm_90, PTX compute_90"), out);
        if (out.contains("cuda     not used")) {
            assertTrue(out.contains("\ngraphs   unavailable (CUDA not in use) (captures 0, replays 0"), out);
            assertTrue(!out.contains("graphs   on") && !out.contains("graphs   off"), out);
        } else {
            assertTrue(out.matches("(?s).*\ngraphs   (on|off) \\(captures.*"), out);
        }
    }
}
