package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.io.StructureFiles;

/**
 * The README's "From Python" program, extracted verbatim and run with ASE 3.22 against {@code molten serve}: in a
 * directory holding {@code ethanol.xyz} and a {@code ./molten} that starts the command line on the test class path
 * (the real script builds the project first), it must finish with status 0 after ASE's 1,000 steps, and
 * {@code molten serve} must have served them all and ended cleanly. Skipped without ASE, failing under CI=true.
 */
class ReadmePythonExampleTest {
    private static final Path README = Path.of("..", "README.md");
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @Test
    void readmePythonProgramRunsAsShown(@TempDir Path dir) throws Exception {
        boolean ase = Files.isExecutable(PYTHON) && new ProcessBuilder(PYTHON.toString(), "-c", "import ase")
                .redirectErrorStream(true).start().waitFor() == 0;
        PeerTool.require(ase, "ASE for " + PYTHON, "apt-get install python3-ase");
        String md = Files.readString(README);
        int from = md.indexOf("### From Python");
        assertTrue(from >= 0, "README.md has a '### From Python' section");
        Matcher m = Pattern.compile("```python\\n(.*?)```", Pattern.DOTALL).matcher(md);
        assertTrue(m.find(from), "a python block follows the heading");
        Files.writeString(dir.resolve("example.py"), m.group(1));
        StructureFiles.write(dir.resolve("ethanol.xyz"), BuiltInMolecules.load("ethanol"));
        // ./molten: the command line on this test's class path, its output kept for the checks below
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path molten = dir.resolve("molten");
        Files.writeString(molten, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -cp '"
                + classPath + "' " + MoltenCli.class.getName() + " \"$@\" > serve.log 2>&1\n");
        Files.setPosixFilePermissions(molten, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path socket = Path.of("/tmp/ipi_molten");   // the README's name: a stale one from a killed run would block ASE
        Files.deleteIfExists(socket);

        Process p = new ProcessBuilder(PYTHON.toString(), "example.py").directory(dir.toFile()).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the README's program did not finish");
        String served = Files.readString(dir.resolve("serve.log"));
        assertEquals(0, p.exitValue(), out + "\nmolten serve:\n" + served);
        assertTrue(served.contains("molten serve: 1001 force evaluations; the driver closed the connection between steps"),
                "1,000 velocity-Verlet steps and the start, then ASE's close:\n" + served);
    }
}
