package org.molten.sweep;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One validation run of a sweep: one model on one system (or structure file) at one temperature
 * with one seed, under the sweep's protocol. Its {@link #id()} is derived from all of that, so
 * the same sweep in the same output directory names its tasks the same way (resume), and a
 * changed protocol names them differently (no stale result is taken for a new one).
 *
 * @param id           stable name, usable as a directory name
 * @param model        weights file, or {@link #BUNDLED} for the bundled model
 * @param system       built-in system name, or null when {@code structure} is given
 * @param structure    structure file, or null when {@code system} is given
 * @param temperatureK target temperature, K
 * @param seed         seed of velocities and thermostat noise
 * @param replica      index of the seed within the grid's replicas (0-based)
 * @param protocol     the protocol shared by the sweep
 */
public record SweepTask(String id, String model, String system, String structure, double temperatureK, long seed,
                        int replica, SweepProtocol protocol) implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The model name of the bundled weights. */
    public static final String BUNDLED = "bundled";

    /** Builds the task and derives its id. */
    public static SweepTask of(String model, String system, String structure, double temperatureK, long seed, int replica,
                               SweepProtocol protocol) {
        if ((system == null) == (structure == null)) {
            throw new IllegalArgumentException("a task needs exactly one of a system and a structure file");
        }
        String readable = String.format(Locale.ROOT, "%s__%s__%sK__seed%d", shortName(model),
                shortName(system != null ? system : structure), trim(temperatureK), seed).replaceAll("[^A-Za-z0-9._-]", "_");
        String digest = sha256(model + "|" + system + "|" + structure + "|" + temperatureK + "|" + seed + "|" + protocol);
        return new SweepTask(readable + "__" + digest.substring(0, 8), model, system, structure, temperatureK, seed, replica,
                protocol);
    }

    /**
     * What tasks must share to run as one batch of replicas on a GPU: the model, the temperature and the
     * protocol. Seeds and systems may differ (issue 29): the device runs replicas of different molecules
     * in one mixed batch, one per cell ({@code SeedBatch}), so a campaign over many molecules fills a GPU
     * with all of them instead of a few seeds of one.
     */
    public record BatchKey(String model, double temperatureK, SweepProtocol protocol) implements Serializable {
        private static final long serialVersionUID = 2L;
    }

    /** This task's {@link BatchKey}. */
    public BatchKey batchKey() {
        return new BatchKey(model, temperatureK, protocol);
    }

    /** The model as shown in reports: "bundled" or the weight file's name. */
    public String modelLabel() {
        return shortName(model);
    }

    /** The system as shown in reports: its name or the structure file's name. */
    public String systemLabel() {
        return system != null ? system : shortName(structure);
    }

    private static String shortName(String pathOrName) {
        String s = pathOrName.replace('\\', '/');
        return s.substring(s.lastIndexOf('/') + 1);
    }

    private static String trim(double t) {
        return t == Math.rint(t) ? Long.toString((long) t) : Double.toString(t);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
