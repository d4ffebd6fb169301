package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;
import org.molten.validation.stability.StabilityFiles;

/** {@code molten stability}: help with units, bad input (exit 2, naming the option or file), a short run, FAIL as 3. */
class StabilityCommandTest {

    private static Path twoMolecules(Path dir) throws Exception {
        Path f = dir.resolve("two.extxyz");
        StructureFiles.write(f, List.of(Frame.of(BuiltInMolecules.load("water")).withInfo("name", "water"),
                Frame.of(BuiltInMolecules.load("ethanol")).withInfo("name", "ethanol")));
        return f;
    }

    @Test
    void helpListsEveryOptionWithItsUnit() {
        CliRun r = CliRun.of("stability", "--help");
        assertEquals(0, r.status(), r.err());
        for (String s : List.of("--structure", "--select", "--model", "--device", "--temperature=<K>", "--ps=<ps>",
                "--timestep=<fs>", "--friction=<1/fs>", "--replicas", "--seed", "--frames", "--min-score", "--out",
                "reference", "MLIPAudit", "2.5 Å")) {
            assertTrue(r.out().contains(s), "help lacks " + s + ":\n" + r.out());
        }
        assertTrue(CliRun.of("--help").out().contains("stability"), "listed among the commands");
    }

    @Test
    void badInputExitsTwoNamingTheProblem(@TempDir Path dir) throws Exception {
        Path two = twoMolecules(dir);
        CliRun ps = CliRun.of("stability", "--structure", two.toString(), "--ps", "0", "--out", dir.resolve("o").toString());
        assertEquals(2, ps.status());
        assertTrue(ps.err().contains("--ps must be a positive number of ps"), ps.err());
        CliRun frames = CliRun.of("stability", "--structure", two.toString(), "--ps", "0.1", "--frames", "7");
        assertEquals(2, frames.status());
        assertTrue(frames.err().contains("--frames 7 does not divide the run's 200 steps"), frames.err());
        CliRun missing = CliRun.of("stability", "--structure", dir.resolve("none.xyz").toString());
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("none.xyz") && missing.err().contains("no such file"), missing.err());
        Path cl = dir.resolve("chloro.xyz");
        Files.writeString(cl, "2\nname=hcl\nH 0 0 0\nCl 1.27 0 0\n");
        CliRun element = CliRun.of("stability", "--structure", cl.toString(), "--out", dir.resolve("o").toString());
        assertEquals(2, element.status());
        assertTrue(element.err().contains("chloro.xyz frame 0 (hcl)") && element.err().contains("element Cl"), element.err());
        CliRun device = CliRun.of("stability", "--structure", two.toString(), "--device", "tpu");
        assertEquals(2, device.status());
        assertTrue(device.err().contains("--device must be auto, reference, cpu or cuda: tpu"), device.err());
    }

    @Test
    void aShortRunWritesTheTableJsonAndCsvAndPasses(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        CliRun r = CliRun.of("stability", "--structure", twoMolecules(dir).toString(), "--device", "cpu", "--ps", "0.05",
                "--frames", "5", "--replicas", "2", "--seed", "3", "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        // the header names the platform asked for, not one the run may not get (a fallback is warned after it)
        assertTrue(r.err().contains("replicas (24 atoms), --device cpu, 0.05 ps at"), r.err());
        assertTrue(r.out().contains("molecule") && r.out().contains("time[ps]"), r.out());
        assertTrue(r.out().matches("(?s).*\\nethanol +9 +2 +1\\.0000 +stable .*"), r.out());
        assertTrue(r.out().contains("mean score 1.0000 over 2 molecules x 2 replicas") && r.out().contains("PASS"), r.out());
        List<String> csv = Files.readAllLines(out.resolve(StabilityFiles.CSV));
        assertEquals(StabilityFiles.CSV_HEADER, csv.get(0));
        assertEquals(3, csv.size());
        String json = Files.readString(out.resolve(StabilityFiles.JSON));
        assertTrue(json.contains("\"status\" : \"complete\"") && json.contains("\"steps_per_frame\" : 20"), json);
    }

    @Test
    void aStopRequestEndsTheRunWithItsFiguresWrittenAndExit130(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        StabilityCommand command = new StabilityCommand();
        command.stopRequest = StopRequest.manual();
        command.stopRequest.request("test");
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = new picocli.CommandLine(command).setErr(new java.io.PrintWriter(err))
                .setOut(new java.io.PrintWriter(new java.io.StringWriter()));
        int status = cl.execute("--structure", twoMolecules(dir).toString(), "--ps", "0.05", "--frames", "5",
                "--out", out.toString());
        assertEquals(StopRequest.EXIT_STATUS, status, err.toString());
        assertTrue(err.toString().contains("interrupted after 0 of 5 frames"), err.toString());
        assertTrue(Files.readString(out.resolve(StabilityFiles.JSON)).contains("\"status\" : \"interrupted\""));
    }

    @Test
    void aRunBelowMinScoreExitsThree(@TempDir Path dir) throws Exception {
        // 5 fs steps for water (its O-H stretch has a 9 fs period): the integration blows up
        CliRun r = CliRun.of("stability", "--structure", twoMolecules(dir).toString(), "--device", "cpu", "--ps", "1",
                "--timestep", "5", "--frames", "10", "--out", dir.resolve("out").toString());
        assertEquals(StabilityCommand.EXIT_FAILED, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("explosion") && r.out().contains("FAIL"), r.out());
    }
}
