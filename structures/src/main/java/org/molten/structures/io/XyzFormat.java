package org.molten.structures.io;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;

import org.molten.core.Atoms;

/**
 * Plain XYZ: per frame the atom count, a free comment line, then {@code symbol x y z} per atom
 * (Å). Symbols are case-insensitive; a bare atomic number is accepted in place of a symbol;
 * columns after z are ignored. Frames follow each other. The comment line is kept verbatim as
 * info {@code comment} and never interpreted; nothing else survives in plain XYZ (no cell, energy,
 * forces or velocities: use {@link ExtendedXyzFormat} for those). Positions are written with 8
 * decimals.
 */
public final class XyzFormat {
    private XyzFormat() {}

    /** Every frame of the file (gzip-compressed or not). */
    public static List<Frame> readAll(Path path) throws IOException {
        try (FrameReader r = open(path)) {
            return r.readRemaining();
        }
    }

    /** Every frame of a text source; {@code sourceName} names it in error messages. */
    public static List<Frame> readAll(Reader reader, String sourceName) throws IOException {
        try (FrameReader r = open(reader, sourceName)) {
            return r.readRemaining();
        }
    }

    /** A frame-by-frame reader of the file (gzip-compressed or not). */
    public static FrameReader open(Path path) throws IOException {
        return new XyzFrameReader(Gzip.openReader(path), path.toString(), false);
    }

    /** A frame-by-frame reader of a text source. */
    public static FrameReader open(Reader reader, String sourceName) {
        return new XyzFrameReader(reader, sourceName, false);
    }

    /** Writes the frames (gzip-compressed when the name ends in ".gz"), replacing the file. */
    public static void write(Path path, List<Frame> frames) throws IOException {
        try (Writer w = Gzip.openWriter(path, false)) {
            for (Frame f : frames) {
                write(w, f);
            }
        }
    }

    /**
     * Writes one frame; the comment line is the frame's info {@code comment} (empty when absent).
     *
     * @throws IllegalArgumentException for a non-finite position (naming the atom)
     */
    public static void write(Writer out, Frame frame) throws IOException {
        Atoms a = frame.atoms();
        double[] r = a.positions();
        ExtendedXyzFormat.requireFinite(a, r, "position", "Å");
        StringBuilder sb = new StringBuilder(64 * (a.size() + 2));
        sb.append(a.size()).append('\n').append(frame.info().getOrDefault("comment", "")).append('\n');
        for (int i = 0; i < a.size(); i++) {
            String sym = a.element(i).symbol();
            sb.append(sym);
            if (sym.length() == 1) {
                sb.append(' ');
            }
            for (int k = 0; k < 3; k++) {
                sb.append(' ');
                FixedDecimal.append(sb, r[3 * i + k], 16, ExtendedXyzFormat.POSITION_DECIMALS);
            }
            sb.append('\n');
        }
        out.write(sb.toString());
    }
}
