package org.molten.integrators;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A reporter could not write its file any more (a full disk, a directory removed mid-run, an I/O
 * error): thrown by {@link Simulation#step(int)} and {@link Simulation#close()} with the file and
 * the problem in words ({@code cannot write /runs/e.csv: no space left on device}), so that a
 * caller can stop cleanly and save the state elsewhere ({@link Simulation#rescueCheckpoint()}).
 */
public final class OutputWriteException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final long step;

    /**
     * @param file  the file that could not be written, or null when the reporter has none
     * @param step  the simulation's step when it happened
     * @param cause the I/O error
     */
    public OutputWriteException(Path file, long step, IOException cause) {
        super("cannot write " + (file == null ? "an output" : file.toString()) + " at step " + step + ": " + problem(cause), cause);
        this.file = file;
        this.step = step;
    }

    /** The file that could not be written, or null. */
    public Path file() {
        return file;
    }

    /** The step at which it happened. */
    public long step() {
        return step;
    }

    /** The I/O problem in words, lower case, without the path ("no space left on device"). */
    public String problem() {
        return problem(getCause());
    }

    /** The problem of {@code e} in words, lower case, without the path. */
    public static String problem(IOException e) {
        if (e instanceof NoSuchFileException f && f.getReason() == null) {
            return "no such file or directory";
        }
        String m = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }
}
