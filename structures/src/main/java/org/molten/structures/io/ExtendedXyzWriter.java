package org.molten.structures.io;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;

import org.molten.core.Atoms;

/**
 * Appends frames to an extended XYZ file as a simulation runs (the trajectory reporter, training
 * data). Each frame is flushed to the operating system as soon as it is written (for ".gz", as a
 * sync-flushed deflate block), so a run that crashes or is killed keeps every frame written before:
 * the readers of this package read such a file, compressed or not, up to its last whole frame.
 * Format and units as {@link ExtendedXyzFormat} (Å, eV, eV/Å, velocities in Å/fs).
 *
 * <p>Not thread-safe. Close it (try-with-resources) to write the gzip trailer.
 */
public final class ExtendedXyzWriter implements AutoCloseable {
    private final Writer out;
    private final String target;
    private final VelocityColumn velocities;
    private final StringBuilder buffer = new StringBuilder(1 << 16);
    private long frames;
    private boolean closed;

    private ExtendedXyzWriter(Writer out, String target, VelocityColumn velocities) {
        this.out = out;
        this.target = target;
        this.velocities = velocities;
    }

    /** A new file (replacing an existing one), velocities when non-zero. */
    public static ExtendedXyzWriter create(Path path) throws IOException {
        return create(path, VelocityColumn.WHEN_NONZERO);
    }

    /** A new file (replacing an existing one). */
    public static ExtendedXyzWriter create(Path path, VelocityColumn velocities) throws IOException {
        return new ExtendedXyzWriter(Gzip.openWriter(path, false), path.toString(), velocities);
    }

    /** Continues an existing file (or creates it), for a run restarted from a checkpoint. */
    public static ExtendedXyzWriter append(Path path, VelocityColumn velocities) throws IOException {
        return new ExtendedXyzWriter(Gzip.openWriter(path, true), path.toString(), velocities);
    }

    /** Writes to an open writer (closed by {@link #close()}); {@code targetName} is used in messages. */
    public static ExtendedXyzWriter to(Writer out, String targetName, VelocityColumn velocities) {
        return new ExtendedXyzWriter(out, targetName, velocities);
    }

    /**
     * Writes and flushes one frame.
     *
     * @throws IllegalArgumentException for a non-finite position or velocity (nothing is written)
     */
    public void write(Frame frame) throws IOException {
        if (closed) {
            throw new IOException(target + ": trajectory writer is closed");
        }
        buffer.setLength(0);
        ExtendedXyzFormat.format(buffer, frame, velocities);
        out.append(buffer);
        out.flush();
        frames++;
    }

    /** Writes the atoms' current state (positions, velocities, cell) with no energy or forces. */
    public void write(Atoms atoms) throws IOException {
        write(Frame.of(atoms));
    }

    /** Writes the atoms' current state with the energy (eV) and forces (eV/Å, flat [3N], or null). */
    public void write(Atoms atoms, double energyEv, double[] forcesEvPerA) throws IOException {
        write(Frame.of(atoms, energyEv, forcesEvPerA));
    }

    /** Frames written by this writer. */
    public long framesWritten() {
        return frames;
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
    }
}
