package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.reports.JsonReportWriter;
import org.molten.validation.runs.ModelProvider;
import picocli.CommandLine;

/**
 * Ctrl-C during {@code molten validate}: exit 130, one line naming the phase and where the partial
 * report is, logs flushed, and a report of what finished (verdict INCOMPLETE, the unfinished
 * replicas listed; issue 19).
 */
class ValidateInterruptTest {

    /** Spring models whose optimised model asks {@code stop} to stop at its {@code at}-th evaluation. */
    private static ModelProvider stoppingAt(StopRequest stop, int at) {
        ValidateCommandTest.SpringModels springs = new ValidateCommandTest.SpringModels(20, 20);
        return new ModelProvider() {
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
                        if (++calls == at) {
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

            @Override
            public Teacher teacher(boolean periodic, List<String> warnings) {
                return springs.teacher(periodic, warnings);
            }
        };
    }

    private static int validate(ModelProvider models, StopRequest stop, StringWriter out, StringWriter err, String... args) {
        CommandLine cl = new CommandLine(new MoltenCli());
        ValidateCommand cmd = (ValidateCommand) cl.getSubcommands().get("validate").getCommand();
        cmd.modelProvider = models;
        cmd.stopRequest = stop;
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void aStopDuringTheFirstProductionRunEndsWith130AndFlushedLogs(@TempDir Path dir) throws Exception {
        StopRequest stop = StopRequest.manual();
        // The optimised model asks to stop at its 700th evaluation: inside the optimised NVE run
        // (400 equilibration steps come first).
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = validate(stoppingAt(stop, 700), stop, out, err, "validate", "--systems", "H2O", "--replicas", "1", "--steps",
                "2000", "--equilibration-steps", "400", "--sample-interval", "10", "--seed", "7", "--out", dir.toString());
        assertEquals(130, exit, out + "\n" + err);
        assertEquals("molten validate: stopped by SIGINT during water: replica 0 optimised NVE; partial report (verdict "
                + "INCOMPLETE, 0 of 1 replicas finished) in " + dir.resolve("report.md") + "; energy logs flushed",
                err.toString().strip());
        JsonNode summary = JsonReportWriter.mapper().readTree(dir.resolve("report.json").toFile()).path("summary");
        assertEquals("INCOMPLETE", summary.path("verdict").asText(), summary.toPrettyString());
        assertEquals("SIGINT", summary.path("interrupted").asText());
        assertEquals("water: no replica finished", summary.path("unfinished").get(0).asText());
        assertTrue(Files.readString(dir.resolve("report.md")).contains("- water: no replica finished"));
        List<String> nve = Files.readAllLines(dir.resolve("water-r0-optimised-nve.csv"));
        // Steps 0, 10, ..., 300 (the stop is honoured at the end of the 100-step chunk holding step 299).
        assertEquals(2 + 31, nve.size(), "T convention comment, header + rows flushed up to the stop: " + nve.size());
        assertEquals(2 + 41, Files.readAllLines(dir.resolve("water-r0-equilibration.csv")).size());
    }

    @Test
    void aStopDuringTheSecondReplicaReportsTheFirstAndListsTheSecond(@TempDir Path dir) throws Exception {
        StopRequest stop = StopRequest.manual();
        // One worker thread runs replica 0 (401 + 2001 + 2001 evaluations of its equilibration, NVE and NVT, each with
        // its initial forces), then replica 1: evaluation 5100 is in replica 1's NVE (it starts at 4805).
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = validate(stoppingAt(stop, 5100), stop, out, err, "validate", "--systems", "H2O", "--replicas", "2",
                "--threads", "1", "--steps", "2000", "--equilibration-steps", "400", "--sample-interval", "10", "--seed", "7",
                "--thermostat-time", "20", "--out", dir.toString());
        assertEquals(130, exit, out + "\n" + err);
        assertEquals("molten validate: stopped by SIGINT during water: replica 1 optimised NVE; partial report (verdict "
                + "INCOMPLETE, 1 of 2 replicas finished) in " + dir.resolve("report.md") + "; energy logs flushed",
                err.toString().strip());
        JsonNode report = JsonReportWriter.mapper().readTree(dir.resolve("report.json").toFile());
        JsonNode summary = report.path("summary");
        assertEquals("INCOMPLETE", summary.path("verdict").asText(), summary.toPrettyString());
        assertEquals(0, summary.path("failed").asInt(), "replica 0 passes alone: " + summary.toPrettyString());
        assertEquals("SIGINT", summary.path("interrupted").asText());
        assertEquals(1, summary.path("unfinished").size());
        assertEquals("water: replica 1 of 2 did not finish", summary.path("unfinished").get(0).asText());
        JsonNode water = report.path("systems").get(0);
        assertEquals(1, water.path("replicas").size(), "only the finished replica is reported: " + water.path("replicas"));
        assertEquals(0, water.path("replicas").get(0).path("replica").asInt());
        assertEquals(7, water.path("replicas").get(0).path("seed").asLong());
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("**Verdict: INCOMPLETE**"), md);
        assertTrue(md.contains("stopped by SIGINT before it finished") && md.contains("- water: replica 1 of 2 did not finish"), md);
        assertEquals(2 + 31, Files.readAllLines(dir.resolve("water-r1-optimised-nve.csv")).size(), "flushed up to the stop");
        assertEquals(2 + 201, Files.readAllLines(dir.resolve("water-r0-optimised-nvt.csv")).size(), "replica 0 complete");
    }
}
