package org.molten.forcefield.bundled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Python tests of the training recipe (forcefield/training/test_*.py: the PaiNN model against its spec and
 * the exported weights, ethanol's torsion driving and the changed-start filter of the active loop, md_check's
 * bond and trajectory checks) run here, so that CI runs them with the Java suite. They need /usr/bin/python3
 * with numpy, torch and ASE (Debian: python3-numpy, python3-torch, python3-ase; .ci/run installs them): where
 * one is missing the test skips, and under CI=true it fails ({@link PeerTool}).
 *
 * <p>Both suites start together, before either test ({@link #startBoth}): they are independent (their own folders,
 * temporary files of their own). Each runs through training/parallel_unittest.py, every test module in a process of
 * its own, {@link #JOBS} at a time: the recipe's modules are CPU-bound on one core each (~420 s one after another on
 * CI's two cores, ~220 s two at a time), the scripts' mostly wait on stubbed sleeps. Each test then waits for its own
 * suite and checks it as before: the runner ends with unittest's "Ran N tests" and "OK" over all its modules.
 */
class TrainingRecipeTest {
    private static final Path TRAINING = Path.of("training");
    private static final Path SCRIPTS = Path.of("..", "scripts");
    private static final String PYTHON = PeerTool.PYTHON;
    private static final Path RUNNER = TRAINING.resolve("parallel_unittest.py").toAbsolutePath();
    /** Modules at once: the machine's cores, at least 2 (CI has 2), at most 4 (each process imports torch or RDKit). */
    private static final int JOBS = Math.min(4, Math.max(2, Runtime.getRuntime().availableProcessors()));
    private static Suite recipe;
    private static Suite scripts;

    /** A parallel_unittest.py run over a folder's test_*.py modules, its output (stdout and stderr) going to a file. */
    private record Suite(Process process, Path output) {
        static Suite start(Path dir) {
            try {
                Path out = Files.createTempFile("molten-unittest", ".txt");
                Process p = new ProcessBuilder(PYTHON, RUNNER.toString(), "--jobs", Integer.toString(JOBS), "--start", ".")
                        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
                p.getOutputStream().close();
                return new Suite(p, out);
            } catch (IOException e) {
                return null;   // no python3: the test's PeerTool.require skips (fails under CI=true) before it looks
            }
        }

        /**
         * Waits for the end of the run, at most {@code minutes} (a hung test fails here, naming what it printed, instead
         * of holding CI until its own limit), and returns the output.
         */
        String awaitOutput(String what, long minutes) throws Exception {
            boolean ended = process.waitFor(minutes, TimeUnit.MINUTES);
            String out = Files.readString(output, StandardCharsets.UTF_8);
            assertTrue(ended, what + " did not end within " + minutes + " minutes; its output so far:\n" + out);
            return out;
        }
    }

    @BeforeAll
    static void startBoth() {
        if (Files.isRegularFile(TRAINING.resolve("test_model.py"))) {
            recipe = Suite.start(TRAINING);
        }
        if (Files.isRegularFile(SCRIPTS.resolve("test_device_scripts.py"))) {
            scripts = Suite.start(SCRIPTS);
        }
    }

    /** A suite still running (its test skipped or not selected) is stopped, with what it started; the outputs go. */
    @AfterAll
    static void stopBoth() throws IOException {
        for (Suite s : new Suite[] {recipe, scripts}) {
            if (s != null) {
                s.process().descendants().forEach(ProcessHandle::destroyForcibly);
                s.process().destroyForcibly();
                Files.deleteIfExists(s.output());
            }
        }
    }

    @Test
    void theRecipesPythonTestsPass() throws Exception {
        assertTrue(Files.isRegularFile(TRAINING.resolve("test_model.py")), "run from the forcefield module");
        PeerTool.require(PeerTool.pythonHas("numpy", "torch", "ase"), PYTHON + " with numpy, torch and ASE (the training recipe)",
                "apt-get install python3-numpy python3-torch python3-ase");
        assertTrue(recipe != null, "python3 parallel_unittest.py could not be started in " + TRAINING.toAbsolutePath());
        Process p = recipe.process();
        String out = recipe.awaitOutput("the recipe's python3 parallel_unittest.py", 10);   // ~3.5 min on CI
        assertEquals(0, p.exitValue(), "the recipe's Python tests failed:\n" + out);
        // the runner ends with "Ran N tests" over all modules and "OK": make sure tests were found, so that a renamed
        // file cannot pass empty
        assertTrue(testsRun(out) >= 244, "expected the recipe's 244 tests or more (20 modules):\n" + out);
    }

    /**
     * The Python tests of the measurement scripts (scripts/test_*.py: the 2 fs / 0.5 fs distribution comparison's
     * divergences and cuts; the device scripts of issue 28 with a stand-in java, and every shell script parsing),
     * numpy, bash and tar only, so that CI runs them too.
     */
    @Test
    void theMeasurementScriptsPythonTestsPass() throws Exception {
        assertTrue(Files.isRegularFile(SCRIPTS.resolve("test_constraints_distributions.py")), "run from the forcefield module");
        assertTrue(Files.isRegularFile(SCRIPTS.resolve("test_device_scripts.py")), "run from the forcefield module");
        PeerTool.require(PeerTool.pythonHas("numpy"), PYTHON + " with numpy (the measurement scripts)", "apt-get install python3-numpy");
        assertTrue(scripts != null, "python3 parallel_unittest.py could not be started in " + SCRIPTS.toAbsolutePath());
        Process p = scripts.process();
        String out = scripts.awaitOutput("the scripts' python3 parallel_unittest.py", 5);   // ~75 s on CI
        assertEquals(0, p.exitValue(), "the scripts' Python tests failed:\n" + out);
        assertTrue(testsRun(out) >= 54, "expected the scripts' 54 tests or more (6 modules):\n" + out);
    }

    /** The N of the output's last "Ran N tests" line, the runner's total (each module's own comes before it); -1: none. */
    private static int testsRun(String out) {
        Matcher m = Pattern.compile("^Ran (\\d+) tests? in ", Pattern.MULTILINE).matcher(out);
        int n = -1;
        while (m.find()) {
            n = Integer.parseInt(m.group(1));
        }
        return n;
    }
}
