package org.molten.forcefield.bundled;

import org.molten.structures.io.ExtendedXyzFormat;
import org.molten.structures.io.Frame;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * The test set of the bundled model: per system, GFN2-xTB energies (eV) and forces (eV/Å) of
 * frames from an independent 300 K GFN2-xTB MD run (never seen in training), as gzip-compressed
 * extended XYZ (ASE dialect) under {@value #RESOURCE_DIR}. Made by
 * forcefield/training/generate_data.py.
 */
public final class TestSet {
    /** Class-path folder of the shipped test files, {@code <system>.xyz.gz}. */
    public static final String RESOURCE_DIR = "/org/molten/forcefield/student/testset/";
    /** The shipped systems, in report order. */
    public static final List<String> SYSTEMS = List.of("water", "ethanol", "benzene", "alanine-dipeptide",
            "ace-ala5-nme", "water-clusters");

    private TestSet() {
    }

    /** The shipped frames of one system (see {@link #SYSTEMS}). */
    public static List<Frame> bundled(String system) throws IOException {
        if (!SYSTEMS.contains(system)) {
            throw new IllegalArgumentException("no shipped test set for system '" + system + "'; known: " + SYSTEMS);
        }
        String resource = RESOURCE_DIR + system + ".xyz.gz";
        try (InputStream in = TestSet.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("test set " + resource + " is not on the class path");
            }
            try (Reader r = new InputStreamReader(new GZIPInputStream(in), StandardCharsets.US_ASCII)) {
                return requireLabelled(ExtendedXyzFormat.readAll(r, resource), resource);
            }
        }
    }

    /** Every shipped system's frames, in {@link #SYSTEMS} order. */
    public static Map<String, List<Frame>> bundled() throws IOException {
        Map<String, List<Frame>> out = new LinkedHashMap<>();
        for (String s : SYSTEMS) {
            out.put(s, bundled(s));
        }
        return out;
    }

    /**
     * A test set from a folder: every {@code <system>.xyz.gz} or {@code <system>.xyz} file (extended
     * XYZ with energy and forces), keyed by the file name up to its first dot, sorted by name.
     */
    public static Map<String, List<Frame>> read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": not a folder of test files");
        }
        Map<String, List<Frame>> out = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.{xyz,xyz.gz,extxyz,extxyz.gz}")) {
            for (Path p : files) {
                String name = p.getFileName().toString();
                out.put(name.substring(0, name.indexOf('.')), requireLabelled(ExtendedXyzFormat.readAll(p), p.toString()));
            }
        }
        if (out.isEmpty()) {
            throw new IOException(dir + ": no .xyz or .xyz.gz test files");
        }
        return out;
    }

    private static List<Frame> requireLabelled(List<Frame> frames, String source) throws IOException {
        if (frames.isEmpty()) {
            throw new IOException(source + ": no frames");
        }
        for (int k = 0; k < frames.size(); k++) {
            Frame f = frames.get(k);
            if (f.energyEv().isEmpty() || !f.hasForces()) {
                throw new IOException(source + ": frame " + k + " has no " + (f.energyEv().isEmpty() ? "energy" : "forces")
                        + " (test frames need the teacher's energy= and forces columns)");
            }
        }
        return new ArrayList<>(frames);
    }
}
