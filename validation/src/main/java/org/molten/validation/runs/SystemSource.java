package org.molten.validation.runs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.structures.io.StructureFiles;

/**
 * Where a validated system comes from: a built-in system ({@link SystemCatalog}) or the user's
 * structure file (XYZ, extended XYZ, PDB; its first frame, velocities ignored), named by its file
 * name without the extension.
 *
 * @param name the name in the report ("ethanol", "my-peptide")
 * @param file the structure file, or null for a built-in system
 */
public record SystemSource(String name, Path file) {

    /** A built-in system by its canonical name. */
    public static SystemSource builtIn(String name) {
        return new SystemSource(name, null);
    }

    /** The first frame of a structure file. */
    public static SystemSource file(Path file) {
        String base = file.getFileName().toString();
        String stem = base.toLowerCase(Locale.ROOT).endsWith(".gz") ? base.substring(0, base.length() - 3) : base;
        int dot = stem.lastIndexOf('.');
        return new SystemSource(dot > 0 ? stem.substring(0, dot) : stem, file);
    }

    /**
     * The starting structure of replica {@code seed}'s run (the water box is built with the seed;
     * molecules and files are the same for every replica), velocities zero.
     *
     * @throws UncheckedIOException naming the file when it cannot be read
     */
    public Atoms load(long seed) {
        if (file == null) {
            return SystemCatalog.load(name, seed);
        }
        try {
            Atoms a = StructureFiles.read(file);
            java.util.Arrays.fill(a.velocities(), 0.0);
            return a;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read structure file " + file + ": " + e.getMessage(), e);
        }
    }

    /** True for a periodic system. */
    public boolean periodic() {
        return file == null ? SystemCatalog.isPeriodic(name) : load(0).cell().map(c -> c.anyPeriodic()).orElse(false);
    }
}
