package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.runs.ModelProvider;
import picocli.CommandLine;

/** Ctrl-C during {@code molten validate}: exit 130, one line naming the phase, logs flushed, no report. */
class ValidateInterruptTest {

    @Test
    void aStopDuringTheFirstProductionRunEndsWith130AndFlushedLogs(@TempDir Path dir) throws Exception {
        StopRequest stop = StopRequest.manual();
        ValidateCommandTest.SpringModels springs = new ValidateCommandTest.SpringModels(20, 20);
        // The optimised model asks to stop at its 700th evaluation: inside the optimised NVE run
        // (400 equilibration steps come first).
        ModelProvider models = new ModelProvider() {
            @Override
            public Model optimised(DeviceChoice device, List<String> warnings) {
                Model m = springs.optimised(device, warnings);
                ForceField inner = m.forceField();
                ForceField counting = new ForceField() {
                    int calls;

                    @Override
                    public String name() {
                        return inner.name();
                    }

                    @Override
                    public double energyAndForces(Atoms atoms, double[] forces) {
                        if (++calls == 700) {
                            stop.request("SIGINT");
                        }
                        return inner.energyAndForces(atoms, forces);
                    }
                };
                return new Model(m.info(), counting);
            }

            @Override
            public Model baseline(BaselineKind kind, boolean periodic, List<String> warnings) {
                return springs.baseline(kind, periodic, warnings);
            }
        };
        CommandLine cl = new CommandLine(new MoltenCli());
        ValidateCommand cmd = (ValidateCommand) cl.getSubcommands().get("validate").getCommand();
        cmd.modelProvider = models;
        cmd.stopRequest = stop;
        StringWriter out = new StringWriter(), err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute("validate", "--systems", "H2O", "--replicas", "1", "--steps", "2000", "--equilibration-steps", "400",
                "--sample-interval", "10", "--seed", "7", "--out", dir.toString());
        assertEquals(130, exit, out + "\n" + err);
        assertEquals("molten validate: stopped by SIGINT during water: replica 0 optimised NVE; the energy logs written so far are in "
                + dir + " (flushed); no report was written, the validation did not finish", err.toString().strip());
        assertFalse(Files.exists(dir.resolve("report.json")));
        List<String> nve = Files.readAllLines(dir.resolve("water-r0-optimised-nve.csv"));
        // Steps 0, 10, ..., 300 (the stop is honoured at the end of the 100-step chunk holding step 299).
        assertEquals(2 + 31, nve.size(), "T convention comment, header + rows flushed up to the stop: " + nve.size());
        assertEquals(2 + 41, Files.readAllLines(dir.resolve("water-r0-equilibration.csv")).size());
    }
}
