package org.molten.validation.stability;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * {@code stability.json} and {@code stability.csv} of a report, each replaced whole (written beside, then moved over
 * the old one), so that a run interrupted at any moment leaves the last complete write of what it measured. Scores not
 * yet final (a replica still running) are null in the JSON and empty in the CSV.
 */
public final class StabilityFiles {
    /** The JSON file's name in the output folder. */
    public static final String JSON = "stability.json";
    /** The CSV file's name in the output folder. */
    public static final String CSV = "stability.csv";
    /** The CSV's header: one row per molecule, units in the names. */
    public static final String CSV_HEADER = "molecule,atoms,replicas,score,event,event_frame,event_time[ps],"
            + "stable_replicas,hydrogen_detached_replicas,exploded_replicas,source,detail";

    private static final ObjectMapper JSON_MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StabilityFiles() {}

    /** Writes both files into {@code dir} (created if missing). */
    public static void write(StabilityReport report, Path dir) throws IOException {
        Files.createDirectories(dir);
        replace(dir.resolve(JSON), JSON_MAPPER.writeValueAsString(json(report)) + "\n");
        replace(dir.resolve(CSV), csv(report));
    }

    static ObjectNode json(StabilityReport r) {
        ObjectNode root = JSON_MAPPER.createObjectNode();
        root.put("protocol", "MLIPAudit stability: Langevin NVT; score 1/2 f/N on explosion at frame f, "
                + "1/2 + 1/2 f/N when a hydrogen first moves > 2.5 A from its bonded atom, 1 when stable");
        root.put("status", r.status());
        root.put("verdict", r.verdict());
        number(root, "mean_score", r.meanScore());
        root.put("min_score", r.minScore());
        root.put("model", r.model());
        root.put("platform", r.platform());
        StabilitySettings s = r.settings();
        ObjectNode set = root.putObject("settings");
        set.put("temperature_K", s.temperatureK());
        set.put("length_ps", s.ps());
        set.put("timestep_fs", s.timestepFs());
        set.put("friction_per_fs", s.frictionPerFs());
        set.put("thermostat", "Langevin (BAOAB)");
        set.put("hydrogen_rule", s.hydrogenRule().id());
        set.put("replicas_per_molecule", s.replicas());
        set.put("seed", s.seed());
        set.put("frames", s.frames());
        set.put("steps_per_frame", s.stepsPerFrame());
        set.put("frame_interval_fs", s.frameFs());
        root.put("frames_done", r.framesDone());
        root.put("time_done_ps", r.timePs(r.framesDone()));
        root.put("wall_s", Math.round(r.wallSeconds() * 10) / 10.0);
        ObjectNode counts = root.putObject("counts");
        counts.put("molecules", r.molecules().size());
        counts.put("replicas", r.replicas());
        counts.put("replicas_scored", r.scoredReplicas());
        for (StabilityEvent e : StabilityEvent.values()) {
            counts.put("replicas_" + e.id().replace('-', '_'), r.replicas(e));
            counts.put("molecules_" + e.id().replace('-', '_'), r.molecules(e));
        }
        ArrayNode mols = root.putArray("molecules");
        for (int i = 0; i < r.molecules().size(); i++) {
            MoleculeStability m = r.molecules().get(i);
            ObjectNode o = mols.addObject();
            o.put("name", m.name());
            o.put("source", m.source());
            o.put("atoms", m.atoms());
            number(o, "score", m.score());
            ReplicaStability w = m.worst();
            o.put("event", w.event().id());
            o.put("event_frame", w.eventFrame());
            number(o, "event_time_ps", w.eventFrame() < 0 ? Double.NaN : r.timePs(w.eventFrame()));
            ArrayNode reps = o.putArray("replicas");
            for (int j = 0; j < m.replicas().size(); j++) {
                ReplicaStability x = m.replicas().get(j);
                ObjectNode rj = reps.addObject();
                rj.put("replica", j);
                rj.put("seed", s.seed() + (long) i * s.replicas() + j);
                number(rj, "score", x.score());
                rj.put("event", x.event().id());
                rj.put("event_frame", x.eventFrame());
                number(rj, "event_time_ps", x.eventFrame() < 0 ? Double.NaN : r.timePs(x.eventFrame()));
                rj.put("explosion_frame", x.explosionFrame());
                rj.put("hydrogen_detachment_frame", x.detachmentFrame());
                rj.put("frames_done", x.framesDone());
                rj.put("detail", x.detail());
            }
        }
        return root;
    }

    static String csv(StabilityReport r) {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        for (MoleculeStability m : r.molecules()) {
            ReplicaStability w = m.worst();
            b.append(field(m.name())).append(',').append(m.atoms()).append(',').append(m.replicas().size()).append(',')
                    .append(Double.isFinite(m.score()) ? String.format(Locale.ROOT, "%.6f", m.score()) : "").append(',')
                    .append(w.event().id()).append(',')
                    .append(w.eventFrame() < 0 ? "" : Integer.toString(w.eventFrame())).append(',')
                    .append(w.eventFrame() < 0 ? "" : String.format(Locale.ROOT, "%.3f", r.timePs(w.eventFrame()))).append(',')
                    .append(m.count(StabilityEvent.STABLE)).append(',').append(m.count(StabilityEvent.HYDROGEN_DETACHED))
                    .append(',').append(m.count(StabilityEvent.EXPLOSION)).append(',')
                    .append(field(m.source())).append(',').append(field(w.detail())).append('\n');
        }
        return b.toString();
    }

    private static void number(ObjectNode o, String key, double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        } else {
            o.putNull(key);
        }
    }

    /** A CSV field, quoted when it holds a comma, quote or line break. */
    private static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static void replace(Path target, String text) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
