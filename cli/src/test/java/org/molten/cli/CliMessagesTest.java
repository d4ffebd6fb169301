package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user reads when something is wrong: file problems name the file, what the command wanted
 * to do with it and the problem; usage errors give the problem and one line pointing to --help.
 */
class CliMessagesTest {
    @TempDir
    Path dir;

    private static void refused(CliRun r, int status, String expectedErr) {
        assertEquals(status, r.status(), r.err());
        assertEquals(expectedErr, r.err().strip(), r.err());
        assertEquals("", r.out(), "nothing on standard output");
    }

    @Test
    void fileProblemsNameThePathAndTheProblem() throws IOException {
        Path missing = dir.resolve("missing.xyz");
        refused(CliRun.of("run", "--structure", missing.toString()), 1,
                "molten run: cannot read structure file '" + missing + "': no such file or directory");
        Path folder = Files.createDirectories(dir.resolve("frames.xyz"));
        refused(CliRun.of("run", "--structure", folder.toString()), 1,
                "molten run: cannot read structure file '" + folder + "': is a directory, not a file");
        refused(CliRun.of("run", "--structure", dir.toString()), 1,
                "molten run: cannot read structure file '" + dir + "': is a directory, not a file");
        Path chk = dir.resolve("none.chk");
        refused(CliRun.of("run", "--system", "water", "--restart", chk.toString()), 1,
                "molten run: checkpoint " + chk + " does not exist or is not a file");
        Path weights = dir.resolve("w.safetensors");
        refused(CliRun.of("run", "--system", "water", "--model", weights.toString(), "--steps", "1"), 1,
                "molten run: cannot read student weights '" + weights + "': no such file or directory");

        // an output whose directory is a regular file
        Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "precious\n");
        Path log = blocker.resolve("e.csv");
        refused(CliRun.of("run", "--system", "water", "--steps", "1", "--log", log.toString()), 1,
                "molten run: cannot write energy log '" + log + "': '" + blocker + "' is a file, not a directory");
        Path traj = dir.resolve("traj-dir");
        Files.createDirectories(traj);
        refused(CliRun.of("run", "--system", "water", "--steps", "1", "--trajectory", traj.toString()), 1,
                "molten run: cannot write trajectory '" + traj + "': is a directory, not a file");

        // validate checks --out before running anything
        refused(CliRun.of("validate", "--systems", "water", "--out", blocker.toString()), 1,
                "molten validate: cannot write the report to --out '" + blocker + "': it is a file, not a directory");
        assertEquals("precious\n", Files.readString(blocker), "nothing was overwritten");
    }

    @Test
    void aFileProblemWithoutContextStillNamesTheFile() {
        java.nio.file.NoSuchFileException e = new java.nio.file.NoSuchFileException("a/b.json");
        assertEquals("cannot access 'a/b.json': no such file or directory", FileErrors.message(e));
        assertEquals("cannot access 'x' (and 'y'): permission denied",
                FileErrors.message(new java.nio.file.AccessDeniedException("x", "y", null)));
        assertEquals(null, FileErrors.message(new IOException("plain")));
    }

    @Test
    void usageErrorsPointToHelpInsteadOfPrintingIt() {
        CliRun r = CliRun.of("run", "--system", "water", "--stepz", "10");
        assertEquals(2, r.status());
        List<String> lines = r.err().lines().toList();
        assertEquals("molten run: Unknown options: '--stepz', '10'", lines.get(0), r.err());
        assertEquals("Try 'molten run --help' for the options.", lines.get(lines.size() - 1), r.err());
        assertTrue(lines.size() <= 4, "the error, picocli's suggestions and the pointer, not the help:\n" + r.err());
        assertTrue(r.err().contains("--steps"), "suggests the option meant: " + r.err());

        r = CliRun.of("validate", "--max-drift", "lots");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("molten validate: Invalid value for option '--max-drift'"), r.err());
        assertTrue(r.err().strip().endsWith("Try 'molten validate --help' for the options."), r.err());
        assertTrue(r.err().lines().count() <= 3, r.err());

        r = CliRun.of("frobnicate");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("molten: Unmatched argument at index 0: 'frobnicate'"), r.err());
        assertTrue(r.err().strip().endsWith("Try 'molten --help' for the options."), r.err());
        assertTrue(r.err().lines().count() <= 4, r.err());
    }
}
