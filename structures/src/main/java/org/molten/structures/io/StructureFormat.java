package org.molten.structures.io;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The structure file formats Molten reads and writes. */
public enum StructureFormat {
    /** Plain XYZ ({@link XyzFormat}): species and positions only. */
    XYZ,
    /** Extended XYZ, ASE/OVITO dialect ({@link ExtendedXyzFormat}): cell, pbc, energy, forces, velocities, info. */
    EXTENDED_XYZ,
    /** PDB ATOM/HETATM, CRYST1, MODEL ({@link PdbFormat}). */
    PDB;

    /**
     * The format a file name asks for, ignoring a trailing ".gz": ".extxyz" and ".xyz" are extended
     * XYZ (as in ASE: a superset that plain-XYZ readers read, and that reads plain XYZ), ".pdb"
     * (and ".ent") is PDB.
     *
     * @throws IllegalArgumentException for any other extension, listing the known ones
     */
    public static StructureFormat forPath(Path path) {
        String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        if (name.endsWith(".xyz") || name.endsWith(".extxyz")) {
            return EXTENDED_XYZ;
        }
        if (name.endsWith(".pdb") || name.endsWith(".ent")) {
            return PDB;
        }
        throw new IllegalArgumentException("cannot tell the structure format of '" + path
                + "' from its extension; use .xyz, .extxyz or .pdb (optionally followed by .gz)");
    }

    /** A frame-by-frame reader of the file in this format (gzip-compressed or not). */
    public FrameReader open(Path path) throws IOException {
        return switch (this) {
            case XYZ -> XyzFormat.open(path);
            case EXTENDED_XYZ -> ExtendedXyzFormat.open(path);
            case PDB -> PdbFormat.open(path);
        };
    }

    /** A frame-by-frame reader of a text source in this format. */
    public FrameReader open(Reader reader, String sourceName) {
        return switch (this) {
            case XYZ -> XyzFormat.open(reader, sourceName);
            case EXTENDED_XYZ -> ExtendedXyzFormat.open(reader, sourceName);
            case PDB -> PdbFormat.open(reader, sourceName);
        };
    }

    /** Writes the frames in this format (gzip-compressed when the name ends in ".gz"). */
    public void write(Path path, List<Frame> frames) throws IOException {
        switch (this) {
            case XYZ -> XyzFormat.write(path, frames);
            case EXTENDED_XYZ -> ExtendedXyzFormat.write(path, frames);
            case PDB -> PdbFormat.write(path, frames);
        }
    }

    /** Writes the frames in this format to an open writer (not closed). */
    public void write(Writer out, List<Frame> frames) throws IOException {
        switch (this) {
            case XYZ -> {
                for (Frame f : frames) {
                    XyzFormat.write(out, f);
                }
            }
            case EXTENDED_XYZ -> {
                for (Frame f : frames) {
                    ExtendedXyzFormat.write(out, f);
                }
            }
            case PDB -> PdbFormat.write(out, frames);
        }
    }
}
