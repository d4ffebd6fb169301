package org.molten.forcefield.bundled;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Peer tests (real xtb, ASE) need tools outside Java. Where one is missing the test is skipped
 * locally, but under the environment variable {@code CI=true} it fails, naming the package to
 * install, so that a broken install step in CI cannot hide behind a green, skipped run.
 */
final class PeerTool {
    /** Debian's interpreter, the one apt-get fills with python3-numpy, python3-torch, ... (not a virtualenv's). */
    static final String PYTHON = "/usr/bin/python3";

    private PeerTool() {}

    /** Whether {@link #PYTHON} imports every one of the modules (within a minute). */
    static boolean pythonHas(String... modules) {
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import " + String.join(", ", modules))
                    .redirectErrorStream(true).start();
            p.getOutputStream().close();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

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
