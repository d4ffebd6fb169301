package org.molten.forcefield.bundled;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The rule for peer tests: skip locally, fail under CI=true, with the package to install named. */
class PeerToolTest {
    @Test
    void aMissingPeerFailsUnderCiAndSkipsElsewhere() {
        assertDoesNotThrow(() -> PeerTool.require(true, "xtb", "apt-get install xtb", "true"));
        AssertionFailedError ci = assertThrows(AssertionFailedError.class,
                () -> PeerTool.require(false, "xtb", "apt-get install xtb", "true"));
        assertTrue(ci.getMessage().contains("apt-get install xtb"), ci.getMessage());
        TestAbortedException local = assertThrows(TestAbortedException.class,
                () -> PeerTool.require(false, "xtb", "apt-get install xtb", null));
        assertTrue(local.getMessage().contains("apt-get install xtb"), local.getMessage());
        assertThrows(TestAbortedException.class, () -> PeerTool.require(false, "xtb", "apt-get install xtb", "false"));
    }
}
