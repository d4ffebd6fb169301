package org.molten.structures;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.molten.core.Atoms;
import org.molten.structures.io.ExtendedXyzFormat;
import org.molten.structures.io.Frame;

/**
 * Molecules that ship with Molten, isolated (no cell), positions in Å with the centre of mass at
 * the origin, each at its GFN2-xTB minimum (Bannwarth, Ehlert, Grimme, JCTC 15, 1652 (2019)), the
 * teacher the bundled student model is distilled from. Made by {@code structures/scripts/make_molecules.sh}
 * (Open Babel 3-D guess, then {@code xtb --opt tight --gfn 2}, lowest of several conformer starts).
 *
 * <ul>
 *   <li>{@code water} H2O, 3 atoms</li>
 *   <li>{@code ethanol} C2H6O, 9 atoms</li>
 *   <li>{@code benzene} C6H6, 12 atoms</li>
 *   <li>{@code alanine-dipeptide} Ace-Ala-NMe, C6H12N2O2, 22 atoms (aliases {@code ala2}, {@code dipeptide})</li>
 *   <li>{@code ace-ala5-nme} Ace-(Ala)5-NMe, C18H32N6O6, 62 atoms (aliases {@code ala5}, {@code peptide})</li>
 * </ul>
 */
public final class BuiltInMolecules {
    private static final String RESOURCE_DIR = "molecules/";

    /** Canonical names in order of size. */
    private static final List<String> NAMES = List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme");

    /** Alias (lower case) to canonical name. */
    private static final Map<String, String> ALIASES = aliases();

    private BuiltInMolecules() {}

    private static Map<String, String> aliases() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String n : NAMES) {
            m.put(n, n);
        }
        m.put("h2o", "water");
        m.put("etoh", "ethanol");
        m.put("c6h6", "benzene");
        m.put("ala2", "alanine-dipeptide");
        m.put("dipeptide", "alanine-dipeptide");
        m.put("alanine_dipeptide", "alanine-dipeptide");
        m.put("ace-ala-nme", "alanine-dipeptide");
        m.put("ala5", "ace-ala5-nme");
        m.put("peptide", "ace-ala5-nme");
        m.put("ace-(ala)5-nme", "ace-ala5-nme");
        return Map.copyOf(m);
    }

    /** The canonical names, smallest molecule first. */
    public static List<String> names() {
        return NAMES;
    }

    /**
     * The canonical name for {@code name} or one of its aliases (case-insensitive; '_' reads as '-').
     *
     * @throws IllegalArgumentException for an unknown name, listing the known names
     */
    public static String canonicalName(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        String canonical = ALIASES.get(key);
        if (canonical == null) {
            canonical = ALIASES.get(key.replace('_', '-'));
        }
        if (canonical == null) {
            throw new IllegalArgumentException("unknown built-in molecule '" + name + "'; known: "
                    + String.join(", ", NAMES) + " (aliases: ala2, dipeptide, ala5, peptide, h2o, etoh, c6h6)");
        }
        return canonical;
    }

    /** True when {@code name} is a canonical name or an alias. */
    public static boolean isKnown(String name) {
        try {
            canonicalName(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A fresh copy of the built-in molecule: isolated (no cell), positions in Å, zero velocities,
     * standard masses.
     *
     * @param name canonical name or alias, see {@link #names()}
     * @throws IllegalArgumentException for an unknown name, listing the known names
     */
    public static Atoms load(String name) {
        String canonical = canonicalName(name);
        String resource = RESOURCE_DIR + canonical + ".xyz";
        InputStream in = BuiltInMolecules.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("built-in molecule resource missing from the jar: " + resource);
        }
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            List<Frame> frames = ExtendedXyzFormat.readAll(r, "built-in " + resource);
            if (frames.size() != 1) {
                throw new IllegalStateException("built-in " + resource + " holds " + frames.size() + " frames, not 1");
            }
            return frames.get(0).atoms().copy();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read built-in molecule " + resource, e);
        }
    }
}
