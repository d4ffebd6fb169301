package org.molten.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The sweep's output directory: {@code tasks/<id>/result.json} and {@code tasks/<id>/report/}
 * (the task's own validation report) per finished task. A task directory appears whole or not at
 * all: it is written under a temporary name and renamed in one atomic step, so a crash or Ctrl-C
 * leaves finished tasks intact and no half-written one; a task whose directory exists is finished
 * and is skipped when the same sweep runs again (resume), and a second result for it is dropped.
 */
public final class ResultStore {
    /** File of a task's outcome inside its directory. */
    public static final String RESULT = "result.json";
    /** Folder of a task's own report inside its directory. */
    public static final String REPORT = "report";

    private final Path tasksDir;
    private final ObjectMapper json;

    /** The store under {@code outDir} (created if needed). */
    public ResultStore(Path outDir) throws IOException {
        this.tasksDir = outDir.resolve("tasks");
        Files.createDirectories(tasksDir);
        this.json = SweepJson.mapper();
    }

    /** The directory of task {@code id}. */
    public Path dir(String id) {
        return tasksDir.resolve(id);
    }

    /** True when task {@code id} has a stored outcome. */
    public boolean finished(String id) {
        return Files.isRegularFile(dir(id).resolve(RESULT));
    }

    /**
     * Stores an outcome and the task's report files atomically.
     *
     * @return false when the task was already stored (the new outcome is dropped)
     */
    public boolean store(TaskResult result, Map<String, byte[]> reportFiles) throws IOException {
        String id = result.task().id();
        if (finished(id)) {
            return false;
        }
        try {
            return storeAtomically(id, result, reportFiles);
        } catch (IOException e) {
            // a full disk or a removed folder: the task's directory is not there (the partial one is removed), and the
            // message names where it was going; the task's record stays on the board until the coordinator stops
            throw new IOException("cannot store the result of task " + id + " in " + tasksDir + ": "
                    + org.molten.integrators.OutputWriteException.problem(e) + " (finished tasks are kept; the same "
                    + "command resumes once there is room)", e);
        }
    }

    private boolean storeAtomically(String id, TaskResult result, Map<String, byte[]> reportFiles) throws IOException {
        Path tmp = Files.createTempDirectory(tasksDir, "." + id + ".partial-");
        try {
            for (Map.Entry<String, byte[]> f : reportFiles.entrySet()) {
                Path target = tmp.resolve(REPORT).resolve(f.getKey()).normalize();
                if (!target.startsWith(tmp.resolve(REPORT))) {
                    throw new IOException("task " + id + " sent a file outside its report directory: " + f.getKey());
                }
                Files.createDirectories(target.getParent());
                Files.write(target, f.getValue());
            }
            json.writeValue(tmp.resolve(RESULT).toFile(), result);
            try {
                Files.move(tmp, dir(id), StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot rename " + tmp + " atomically into place: " + e.getMessage(), e);
            } catch (FileAlreadyExistsException e) {
                return false;
            } catch (IOException e) {
                if (Files.exists(dir(id))) {  // a non-empty target: another writer was first
                    return false;
                }
                throw e;
            }
            return true;
        } finally {
            deleteTree(tmp);
        }
    }

    /** Reads the stored outcome of task {@code id}. */
    public TaskResult read(String id) throws IOException {
        return json.readValue(dir(id).resolve(RESULT).toFile(), TaskResult.class);
    }

    /** Deletes the stored outcome of task {@code id} (a failed task that a resumed sweep runs again). */
    public void forget(String id) throws IOException {
        Path d = dir(id);
        Path aside = Files.createTempDirectory(tasksDir, "." + id + ".partial-");
        Files.delete(aside);
        Files.move(d, aside, StandardCopyOption.ATOMIC_MOVE);  // gone from view in one step, then deleted
        deleteTree(aside);
    }

    /** Removes temporary directories left by an interrupted run. */
    public void cleanPartials() throws IOException {
        try (Stream<Path> s = Files.list(tasksDir)) {
            for (Path p : (Iterable<Path>) s.filter(p -> p.getFileName().toString().contains(".partial-"))::iterator) {
                deleteTree(p);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
