package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The device check of the replica force paths (GroupCheck, GpuCheck's "groups" section, scripts/group-engine-run.sh)
 * works before it costs device time: two ethanols and two alanine dipeptides on each path (one replica alone would run
 * on the small-molecule kernel, which the check rightly reports as not the path asked for), through the emulator where
 * no GPU is, every line a PASS and each path the one asked for.
 */
class GroupCheckTest {
    @Test
    void everyPathPassesAndRunsTheKernelItNames() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int failed = GroupCheck.run(GroupForcesTest.weights(), 2, 2, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        assertEquals(0, failed, out);
        for (String kernel : new String[] {"k_group_n12)", "k_group_n24)", "k_group_n12_tc)", "k_group_n22_tc)"}) {
            assertTrue(out.contains("PASS") && out.contains(kernel), kernel + " not checked:\n" + out);
        }
        assertEquals(12, out.lines().filter(l -> l.startsWith("PASS")).count(), out);
    }
}
