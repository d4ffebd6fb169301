package org.molten.forcefield.bundled;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;

/**
 * The student versions bundled with Molten, listed in {@value #REGISTRY_RESOURCE}: one line per version, name = weight
 * file in that folder ({@code student-gfn2-v5 = student-gfn2.safetensors}: v5 keeps the name it shipped under,
 * newer versions get their own, {@code student-gfn2-v6.safetensors}), and the line {@code default = NAME}
 * that chooses the version Molten runs without {@code --model}. Adding a version is a new file and a new line;
 * making it the default is changing the {@code default} line. The training recipe (export.py, md_check.py) reads the
 * same file.
 *
 * <p>A version is found by its name ({@code student-gfn2-v5}), by its last part ({@code v5}), or, for the default,
 * by the family name {@value BundledModel#NAME}.
 */
public final class ModelRegistry {
    /** Class-path folder of the bundled weights. */
    public static final String FOLDER = "/org/molten/forcefield/student/";
    /** The registry file. */
    public static final String REGISTRY_RESOURCE = FOLDER + "models.properties";
    private static final String DEFAULT_KEY = "default";

    /**
     * One bundled version.
     *
     * @param name     its name, {@code student-gfn2-v5}
     * @param resource the class-path location of its weights
     */
    public record Version(String name, String resource) {
        /** The short name, the part after the last '-' ("v5"). */
        public String alias() {
            return name.substring(name.lastIndexOf('-') + 1);
        }
    }

    private static final List<Version> VERSIONS;
    private static final Version DEFAULT;

    static {
        Properties p = new Properties();
        try (InputStream in = ModelRegistry.class.getResourceAsStream(REGISTRY_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("this build of Molten does not contain " + REGISTRY_RESOURCE);
            }
            try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                p.load(r);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + REGISTRY_RESOURCE, e);
        }
        List<Version> versions = new ArrayList<>();
        for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
            if (!key.equals(DEFAULT_KEY)) {
                versions.add(new Version(key, FOLDER + p.getProperty(key).trim()));
            }
        }
        VERSIONS = List.copyOf(versions);
        String def = p.getProperty(DEFAULT_KEY, "").trim();
        DEFAULT = VERSIONS.stream().filter(v -> v.name().equals(def)).findFirst().orElseThrow(() ->
                new IllegalStateException(REGISTRY_RESOURCE + ": default '" + def + "' is not a listed version " + names()));
    }

    private ModelRegistry() {
    }

    /** Every bundled version, sorted by name. */
    public static List<Version> versions() {
        return VERSIONS;
    }

    /** The version Molten runs without {@code --model}. */
    public static Version defaultVersion() {
        return DEFAULT;
    }

    /**
     * The version a name means: its full name, its short name ({@code v5}) or the family name
     * {@value BundledModel#NAME} (the default); case-insensitive.
     */
    public static Optional<Version> find(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        if (n.equals(BundledModel.NAME)) {
            return Optional.of(DEFAULT);
        }
        return VERSIONS.stream().filter(v -> v.name().equals(n) || v.alias().equals(n)).findFirst();
    }

    /** "student-gfn2-v5 (v5, default)" for each version, for messages. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (Version v : VERSIONS == null ? List.<Version>of() : VERSIONS) {
            out.add(v.name() + " (" + v.alias() + (v == DEFAULT ? ", default" : "") + ")");
        }
        return out;
    }
}
