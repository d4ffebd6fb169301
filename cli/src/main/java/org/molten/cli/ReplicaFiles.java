package org.molten.cli;

import java.nio.file.Path;

/**
 * File names of one replica of {@code molten run --replicas N}: the replica's index goes before the
 * file's extension ({@code energy.csv} → {@code energy.r0.csv}, {@code traj.xyz.gz} →
 * {@code traj.r0.xyz.gz}, {@code run.chk} → {@code run.r0.chk}, {@code run} → {@code run.r0}).
 * With one replica the names are used as given.
 */
final class ReplicaFiles {
    private ReplicaFiles() {}

    /** The name of replica {@code k}'s copy of {@code file} in a run of {@code replicas} replicas. */
    static Path of(Path file, int k, int replicas) {
        if (file == null || replicas == 1) {
            return file;
        }
        String name = file.getFileName().toString();
        String tail = "";
        if (name.endsWith(".gz")) {
            tail = ".gz";
            name = name.substring(0, name.length() - 3);
        }
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        return file.resolveSibling(stem + ".r" + k + ext + tail);
    }
}
