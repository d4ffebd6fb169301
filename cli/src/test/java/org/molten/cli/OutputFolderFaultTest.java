package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.runs.ModelProvider;
import picocli.CommandLine;

/**
 * {@code molten validate} and {@code molten minimize} whose output folder or file cannot be
 * written: an --out that cannot hold files is refused before any MD with the folder and the
 * problem named; a folder removed mid-validation stops it with the file named, exit 1, no stack
 * trace; a minimisation log on a full disk ({@code /dev/full}) is named with the structure written.
 */
class OutputFolderFaultTest {

    /** {@code molten ARGS} in-process with the validation's models replaced, errors printed as MoltenCli prints them. */
    private static CliRun run(ModelProvider models, String... args) {
        CommandLine cl = new CommandLine(new MoltenCli());
        if (models != null) {
            ((ValidateCommand) cl.getSubcommands().get("validate").getCommand()).modelProvider = models;
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            if (!(ex instanceof IOException || ex instanceof UncheckedIOException || ex instanceof IllegalArgumentException
                    || ex instanceof IllegalStateException)) {
                throw ex;
            }
            Throwable cause = ex instanceof UncheckedIOException u ? u.getCause() : ex;
            String file = FileErrors.message(cause);
            c.getErr().println("molten " + c.getCommandName() + ": " + (file != null ? file : cause.getMessage()));
            return 1;
        });
        int status = cl.execute(args);
        return new CliRun(status, out.toString(), err.toString());
    }

    private static void oneLineNoTrace(CliRun r) {
        assertEquals(1, r.err().lines().count(), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
    }

    @Test
    void anOutFolderThatCannotHoldFilesIsRefusedBeforeAnyMd(@TempDir Path dir) {
        AtomicInteger calls = new AtomicInteger();
        CliRun r = run(counting(calls, dir, Integer.MAX_VALUE), "validate", "--systems", "water", "--out", "/dev/full/report");
        assertEquals(1, r.status(), r.err());
        assertEquals("molten validate: cannot write in the report folder --out '/dev/full/report': not a directory\n", r.err());
        assertEquals(0, calls.get(), "no force was evaluated");
    }

    @Test
    void aValidationWhoseFolderIsRemovedMidRunStopsNamingTheFile(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        AtomicInteger calls = new AtomicInteger();
        CliRun r = run(counting(calls, out, 300), "validate", "--systems", "water", "--steps", "2000", "--equilibration-steps",
                "400", "--replicas", "1", "--teacher-frames", "2", "--threads", "1", "--out", out.toString());
        assertEquals(1, r.status(), r.err());
        oneLineNoTrace(r);
        assertTrue(r.err().startsWith("molten validate: cannot access '" + out.resolve("water-r0-equilibration.csv")
                + "': the file (or its folder) was removed while the run wrote it"), r.err());
        assertFalse(Files.exists(out.resolve("report.json")), "no report of a run that lost its logs");
    }

    @Test
    void aMinimisationLogOnAFullDiskIsNamedAndTheStructureWritten(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("min.csv");
        Files.createSymbolicLink(log, Path.of("/dev/full"));
        Path relaxed = dir.resolve("relaxed.xyz");
        CliRun r = run(null, "minimize", "--system", "water", "--force-field", "classical", "--out", relaxed.toString(),
                "--log", log.toString());
        assertEquals(1, r.status(), r.err());
        oneLineNoTrace(r);
        assertTrue(r.err().startsWith("molten minimize: cannot write log '" + log + "'"), r.err());
        assertTrue(Files.size(relaxed) > 0, "the structure reached is written");
        Path full = dir.resolve("full.xyz");
        Files.createSymbolicLink(full, Path.of("/dev/full"));
        r = run(null, "minimize", "--system", "water", "--force-field", "classical", "--out", full.toString());
        assertEquals(1, r.status(), r.err());
        assertEquals("molten minimize: cannot write structure file '" + full + "': no space left on device\n", r.err());
    }

    /**
     * The test models of ValidateCommandTest whose student counts its force calls and, at call {@code removeAt},
     * deletes {@code folder} (the run's --out vanishing under it).
     */
    private static ModelProvider counting(AtomicInteger calls, Path folder, int removeAt) {
        ValidateCommandTest.SpringModels springs = new ValidateCommandTest.SpringModels(20, 20);
        return new ModelProvider() {
            @Override
            public Teacher teacher(boolean periodic, List<String> warnings) {
                return springs.teacher(periodic, warnings);
            }

            @Override
            public Model optimised(DeviceChoice device, List<String> warnings) {
                Model m = springs.optimised(device, warnings);
                ForceField inner = m.forceField();
                return new Model(m.info(), new ForceField() {
                    @Override
                    public String name() {
                        return inner.name();
                    }

                    @Override
                    public double energyAndForces(Atoms atoms, double[] forces) {
                        if (calls.incrementAndGet() == removeAt) {
                            deleteTree(folder);
                        }
                        return inner.energyAndForces(atoms, forces);
                    }
                });
            }

            @Override
            public Model baseline(BaselineKind kind, boolean periodic, List<String> warnings) {
                return springs.baseline(kind, periodic, warnings);
            }
        };
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
