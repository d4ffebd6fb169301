package org.molten.structures.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.molten.core.Atoms;

/**
 * Reading and writing structures with the format chosen by the file name
 * ({@link StructureFormat#forPath}): ".xyz"/".extxyz" extended XYZ, ".pdb" PDB, each optionally
 * gzip-compressed (".xyz.gz"; compressed input is recognised by content). Units: Å, eV, eV/Å,
 * Å/fs, amu. Malformed input raises {@link StructureFormatException} naming file, line and problem.
 */
public final class StructureFiles {
    private StructureFiles() {}

    /**
     * The atoms of the first frame.
     *
     * @throws StructureFormatException for malformed input, or a file with no frame
     */
    public static Atoms read(Path path) throws IOException {
        return readFrame(path, 0).atoms();
    }

    /**
     * One frame: {@code index} 0 is the first, -1 the last (as Python indexes). Frames before it
     * are parsed (and checked) but not kept.
     *
     * @throws StructureFormatException for malformed input or an index beyond the file's frames
     */
    public static Frame readFrame(Path path, int index) throws IOException {
        try (FrameReader r = StructureFormat.forPath(path).open(path)) {
            if (index >= 0) {
                int i = 0;
                for (Frame f = r.next(); f != null; f = r.next(), i++) {
                    if (i == index) {
                        return f;
                    }
                }
                throw new StructureFormatException(path.toString(), 1, i == 0 ? "no frame in the file"
                        : "frame " + index + " requested but the file has " + i + " frames");
            }
            // negative index: keep a ring of the last |index| frames
            int keep = -index;
            Frame[] ring = new Frame[keep];
            int n = 0;
            for (Frame f = r.next(); f != null; f = r.next()) {
                ring[n++ % keep] = f;
            }
            if (n < keep) {
                throw new StructureFormatException(path.toString(), 1, n == 0 ? "no frame in the file"
                        : "frame " + index + " requested but the file has " + n + " frames");
            }
            return ring[(n + index) % keep];
        }
    }

    /** Every frame of the file. */
    public static List<Frame> readAll(Path path) throws IOException {
        try (FrameReader r = StructureFormat.forPath(path).open(path)) {
            return r.readRemaining();
        }
    }

    /** A frame-by-frame reader, for trajectories too large to hold. */
    public static FrameReader open(Path path) throws IOException {
        return StructureFormat.forPath(path).open(path);
    }

    /** Writes the atoms as one frame (replacing the file). */
    public static void write(Path path, Atoms atoms) throws IOException {
        write(path, List.of(Frame.of(atoms)));
    }

    /** Writes one frame (replacing the file). */
    public static void write(Path path, Frame frame) throws IOException {
        write(path, List.of(frame));
    }

    /** Writes the frames (replacing the file). */
    public static void write(Path path, List<Frame> frames) throws IOException {
        StructureFormat.forPath(path).write(path, frames);
    }
}
