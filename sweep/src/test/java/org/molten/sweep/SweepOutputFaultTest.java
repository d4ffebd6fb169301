package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.cli.MoltenCli;

/**
 * {@code molten sweep}'s output folder when it cannot be written: refused before any task with
 * the folder named; a result that cannot be stored (its folder removed) names the task and the
 * folder and leaves no partial directory; a report that cannot be replaced names the file and
 * leaves the previous one and no temporary file.
 */
class SweepOutputFaultTest {

    @Test
    void anOutFolderThatCannotHoldFilesIsRefusedBeforeAnyTask() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        int status;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = MoltenCli.execute("sweep", "--systems", "water", "--steps", "80", "--out", "/dev/full/sweep");
        } finally {
            System.setErr(saved);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertEquals("molten sweep: cannot write in the sweep's output folder --out '/dev/full/sweep': not a directory\n", text);
    }

    @Test
    void aResultThatCannotBeStoredNamesTheTaskAndLeavesNoPartialDirectory(@TempDir Path out) throws IOException {
        ResultStore store = new ResultStore(out);
        SweepTask task = SweepTask.of(SweepTask.BUNDLED, "water", null, 300, 1, 0, SweepProtocol.defaults());
        TaskResult r = new TaskResult(task, TaskResult.DONE, 0, null, "m", 1.0, TaskMetrics.unknown());
        Files.delete(out.resolve("tasks"));   // the folder removed under the running sweep
        String m = assertThrows(IOException.class, () -> store.store(r, Map.of("report.json", new byte[10]))).getMessage();
        assertTrue(m.startsWith("cannot store the result of task " + task.id() + " in " + out.resolve("tasks")
                + ": no such file or directory"), m);
        assertFalse(store.finished(task.id()));
    }

    @Test
    void aReportThatCannotBeReplacedKeepsThePreviousAndNoTemporaryFile(@TempDir Path out) throws IOException {
        SweepReport report = new SweepReport("molten sweep", "now", "sweep", 0, 0, 0, 0, 0.0, SweepSummary.of(List.of()),
                List.of(), List.of(), List.of());
        SweepReportWriter.write(report, out);
        String before = Files.readString(out.resolve(SweepReportWriter.JSON));
        Files.delete(out.resolve(SweepReportWriter.MARKDOWN));
        Files.createDirectories(out.resolve(SweepReportWriter.MARKDOWN).resolve("in-the-way"));
        String m = assertThrows(IOException.class, () -> SweepReportWriter.write(report, out)).getMessage();
        assertTrue(m.startsWith("cannot write sweep report '" + out.resolve(SweepReportWriter.MARKDOWN) + "'"), m);
        assertEquals(before, Files.readString(out.resolve(SweepReportWriter.JSON)));
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList());
        }
    }
}
