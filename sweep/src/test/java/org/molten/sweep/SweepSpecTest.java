package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.cli.MoltenCli;

/** Grid expansion and strict reading of spec files. */
class SweepSpecTest {

    private static String refused(Path file) {
        return assertThrows(IllegalArgumentException.class, () -> SweepSpec.read(file)).getMessage();
    }

    @Test
    void yamlAndJsonSpecsExpandToTheSameGrid(@TempDir Path dir) throws Exception {
        Path yaml = Files.writeString(dir.resolve("s.yaml"), """
                weights: [bundled]
                systems: [water, ethanol]
                temperatures_K: [300, 600]
                replicas: 3
                seed: 5
                steps: 80
                equilibration_steps: 20
                """);
        Path json = Files.writeString(dir.resolve("s.json"), """
                {"systems": ["water", "ethanol"], "temperatures_K": [300, 600], "replicas": 3, "seed": 5,
                 "steps": 80, "equilibration_steps": 20}
                """);
        List<SweepTask> a = SweepSpec.read(yaml).expand();
        List<SweepTask> b = SweepSpec.read(json).expand();
        assertEquals(12, a.size());
        assertEquals(a, b, "same grid, same ids");
        assertEquals(List.of(5L, 6L, 7L), a.subList(0, 3).stream().map(SweepTask::seed).toList());
        assertEquals(12, a.stream().map(SweepTask::id).distinct().count());
        SweepSpec longer = SweepSpec.read(json);
        longer.steps = 160L;
        assertNotEquals(a.get(0).id(), longer.expand().get(0).id(), "another protocol names its tasks differently");
    }

    @Test
    void theTaskTimeoutComesFromTheSpecOrAGenerousMultipleOfTheProtocol(@TempDir Path dir) throws Exception {
        SweepSpec s = SweepSpec.read(Files.writeString(dir.resolve("t.yaml"), "systems: [water]\ntask_timeout_s: 90\n"));
        assertEquals(90.0, s.taskTimeoutS);
        List<SweepTask> tasks = s.expand();
        assertEquals(tasks, SweepSpec.read(Files.writeString(dir.resolve("u.yaml"), "systems: [water]\n")).expand(),
                "the timeout is no part of a task's id: a resumed sweep with another timeout keeps its results");
        SweepRun.Options o = SweepRun.Options.embedded(dir, 1, 3);
        assertEquals(90_000, o.withTaskTimeout(s.taskTimeoutS).taskTimeoutMs(tasks));
        assertEquals(TaskTimeout.FLOOR_MS, o.taskTimeoutMs(tasks), "the quick protocol's default is the 30 min floor");
        SweepSpec full = new SweepSpec();
        full.systems = List.of("water");
        full.steps = 1_000_000L;
        assertEquals(TaskTimeout.EXPECTED_TIME_MULTIPLE * TaskTimeout.GENEROUS_MS_PER_STEP
                        * (ValidationTaskExecutor.settings(full.expand().get(0)).equilibrationSteps() + 2_000_000L),
                o.taskTimeoutMs(full.expand()), 1.0, "a long protocol gets a timeout in proportion");
        String m = refused(Files.writeString(dir.resolve("v.yaml"), "systems: [water]\ntask_timeout_s: soon\n"));
        assertTrue(m.contains("field 'task_timeout_s'"), m);
        SweepSpec negative = SweepSpec.read(Files.writeString(dir.resolve("w.yaml"), "systems: [water]\ntask_timeout_s: -5\n"));
        m = assertThrows(IllegalArgumentException.class, negative::expand).getMessage();
        assertTrue(m.contains("task_timeout_s") && m.contains("-5"), m);
    }

    @Test
    void unknownAndMalformedFieldsAreRefusedWithTheFieldNamed(@TempDir Path dir) throws Exception {
        String m = refused(Files.writeString(dir.resolve("a.json"), "{\"systems\": [\"water\"],\n \"temperature\": [300]}"));
        assertTrue(m.contains("a.json") && m.contains("line 2") && m.contains("unknown field 'temperature'")
                && m.contains("temperatures_K"), m);
        m = refused(Files.writeString(dir.resolve("b.yaml"), "systems: [water]\nsteps: many\n"));
        assertTrue(m.contains("b.yaml") && m.contains("line 2") && m.contains("field 'steps'"), m);
        m = refused(Files.writeString(dir.resolve("c.json"), "{\"systems\": [\"water\"], \"temperatures_K\": [300, \"hot\"]}"));
        assertTrue(m.contains("field 'temperatures_K[1]'"), m);
        m = refused(Files.writeString(dir.resolve("d.json"), "{\"systems\": [\"water\"], \"replicas\": 1.5}"));
        assertTrue(m.contains("field 'replicas'"), m);
        m = refused(Files.writeString(dir.resolve("e.json"), "{\"systems\": [\"water\"], "));
        assertTrue(m.contains("e.json") && m.contains("not valid JSON"), m);
        // found by SweepSpecReaderFuzzTest: bytes that are not UTF-8 escaped as MalformedInputException, naming no file
        m = refused(Files.write(dir.resolve("binary.yaml"), new byte[] {'s', 'e', 'e', 'd', ':', ' ', (byte) 0xff, '\n'}));
        assertTrue(m.contains("binary.yaml") && m.contains("not UTF-8"), m);
        m = refused(dir.resolve("missing.yaml"));
        assertTrue(m.contains("missing.yaml") && m.contains("no such file"), m);
        SweepSpec s = SweepSpec.read(Files.writeString(dir.resolve("f.json"), "{\"systems\": [\"water\", \"caffeine\"]}"));
        m = assertThrows(IllegalArgumentException.class, s::expand).getMessage();
        assertTrue(m.contains("caffeine"), m);
        s = SweepSpec.read(Files.writeString(dir.resolve("g.json"), "{\"systems\": [\"water\"], \"steps\": 10}"));
        m = assertThrows(IllegalArgumentException.class, s::expand).getMessage();
        assertTrue(m.contains("too few samples"), m);
    }

    @Test
    void theCommandLineRefusesABadSpecWithExitOne(@TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "systems: [water]\nreplicaz: 2\n");
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = MoltenCli.execute("sweep", "--spec", bad.toString(), "--out", dir.resolve("out").toString());
        } finally {
            System.setErr(saved);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertTrue(text.contains("unknown field 'replicaz'") && text.contains("bad.yaml"), text);
        assertEquals(1, MoltenCli.execute("sweep", "--spec", bad.toString(), "--systems", "water"));
        assertEquals(2, MoltenCli.execute("sweep", "--replicas", "many"));
    }
}
