package org.molten.sweep;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a finished task sends back to the coordinator: its figures and its report files (path
 * relative to the task's report directory → bytes), so that members need no shared file system.
 *
 * @param metrics     the figures
 * @param files       the report files
 * @param member      the member that ran it, for the report
 * @param wallSeconds wall-clock time of the run on that member, s
 */
public record TaskPayload(TaskMetrics metrics, Map<String, byte[]> files, String member, double wallSeconds)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Reads every regular file under {@code dir}. */
    static TaskPayload collect(TaskMetrics metrics, Path dir, String member, double wallSeconds) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        return new TaskPayload(metrics, files, member, wallSeconds);
    }
}
