package org.molten.integrators;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where an output file stood when a checkpoint was written: its absolute path and flushed length
 * in bytes. A restart truncates the file back to this length before appending, so rows written
 * after the checkpoint by the interrupted run are not duplicated (GROMACS does the same with
 * {@code mdrun -append}).
 *
 * @param file  absolute, normalised path
 * @param bytes length in bytes
 */
public record OutputMark(Path file, long bytes) {

    /** The mark of {@code file} as it is now on disk. */
    public static OutputMark of(Path file) throws IOException {
        Path p = file.toAbsolutePath().normalize();
        return new OutputMark(p, Files.exists(p) ? Files.size(p) : 0L);
    }

    /**
     * Truncates the file to this mark.
     *
     * @throws IOException if the file is shorter than the mark (it was replaced or cut since the
     *                     checkpoint), naming both lengths
     */
    public void rewind() throws IOException {
        long now = Files.exists(file) ? Files.size(file) : -1;
        if (now < bytes) {
            throw new IOException(file + " has " + (now < 0 ? "disappeared" : now + " bytes")
                    + " but held " + bytes + " bytes when the checkpoint was written; cannot continue it");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(bytes);
        }
    }
}
