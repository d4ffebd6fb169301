package org.molten.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Peer tests (real xtb, ASE) need tools outside Java. Where one is missing the test is skipped
 * locally, but under the environment variable {@code CI=true} it fails, naming the package to
 * install, so that a broken install step in CI cannot hide behind a green, skipped run.
 */
final class PeerTool {
    private PeerTool() {}

    /**
     * Continues when the peer was found; otherwise fails under {@code CI=true}, skips elsewhere.
     *
     * @param found   whether the peer tool answered
     * @param tool    what is missing, e.g. "xtb on the PATH"
     * @param install how to get it, e.g. "apt-get install xtb"
     */
    static void require(boolean found, String tool, String install) {
        require(found, tool, install, System.getenv("CI"));
    }

    /** As {@link #require(boolean, String, String)} with the value of CI given (tests of this helper). */
    static void require(boolean found, String tool, String install, String ciVariable) {
        if (found) {
            return;
        }
        String message = tool + " is missing (" + install + ")";
        if ("true".equalsIgnoreCase(ciVariable)) {
            fail(message + ": under CI=true a peer test must run, not skip");
        }
        assumeTrue(false, message + ": peer test skipped (under CI=true it would fail)");
    }
}
