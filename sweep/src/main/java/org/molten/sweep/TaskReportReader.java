package org.molten.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a task's figures from the report.json that {@code molten validate} wrote. The only place
 * that knows the report's keys; every key is optional (absent, null or of another type gives
 * null, shown as "n/a"), so reports from before and after the protocol changes of the teacher
 * validation issue are both read. Keys read, in order of preference (system = the entry of
 * {@code systems[]} whose {@code name} is the task's system, else the first):
 * <ul>
 *   <li>stable fraction: {@code system.stable_fraction}, {@code summary.stable_fraction},
 *       {@code stable_fraction}; else 1 when every run of {@code system.runs[]} with
 *       {@code role} OPTIMISED has {@code blow_up} null and {@code steps_completed ==
 *       steps_requested}, 0 when one has not</li>
 *   <li>drift: {@code system.nve_drift.mean} (the student's NVE drift over the task's replicas),
 *       {@code system.drift_meV_per_atom_per_ps}, {@code
 *       system.comparison.optimised_drift_meV_per_atom_per_ps}, else the mean of {@code
 *       runs[].energy.drift_meV_per_atom_per_ps} over OPTIMISED PRODUCTION NVE runs</li>
 *   <li>teacher error: {@code teacher_force_mae_eV_per_A} (any letter case) in the system, in
 *       {@code system.teacher}, in {@code summary} or at the top</li>
 *   <li>force RMSE against the baseline: {@code system.comparison.forces.force_rmse_eV_per_A}</li>
 *   <li>divergences: every number in {@code system.divergences} (an object of observable →
 *       value), plus {@code comparison.final_rmsd_A}, {@code comparison.max_rmsd_A} and {@code
 *       comparison.divergence_time_fs} when numeric</li>
 *   <li>verdict: {@code summary.passed}; failed criteria: {@code summary.failed}</li>
 *   <li>statistical checks: the entries of {@code system.criteria[]} with {@code unit} "SE", not {@code skipped}:
 *       {@code criterion}, {@code run}, {@code value}, {@code passed}, and the nominal limit from {@code detail}
 *       ("limit 3 SE as Student t ...") or else {@code threshold}</li>
 * </ul>
 */
public final class TaskReportReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TaskReportReader() {}

    /** The figures of {@code reportJson} for the task's system {@code systemName} (may be null). */
    public static TaskMetrics read(Path reportJson, String systemName) throws IOException {
        return fromTree(JSON.readTree(reportJson.toFile()), systemName);
    }

    /** The figures of a parsed report (see the class comment for the keys). */
    public static TaskMetrics fromTree(JsonNode root, String systemName) {
        JsonNode system = pickSystem(root.path("systems"), systemName);
        JsonNode summary = root.path("summary");
        Double stable = firstNumber(system.path("stable_fraction"), summary.path("stable_fraction"), root.path("stable_fraction"));
        if (stable == null) {
            stable = stableFromRuns(system.path("runs"));
        }
        Double drift = firstNumber(system.path("nve_drift").path("mean"), system.path("drift_meV_per_atom_per_ps"),
                system.path("comparison").path("optimised_drift_meV_per_atom_per_ps"));
        if (drift == null) {
            drift = meanProductionDrift(system.path("runs"));
        }
        Double teacher = firstNumber(field(system, "teacher_force_mae_eV_per_A"), field(system.path("teacher"), "force_mae_eV_per_A"),
                field(system.path("teacher"), "teacher_force_mae_eV_per_A"), field(summary, "teacher_force_mae_eV_per_A"),
                field(root, "teacher_force_mae_eV_per_A"));
        Double rmse = number(system.path("comparison").path("forces").path("force_rmse_eV_per_A"));
        Map<String, Double> divergences = new LinkedHashMap<>();
        JsonNode div = system.path("divergences");
        for (Iterator<Map.Entry<String, JsonNode>> it = div.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Double v = number(e.getValue());
            if (v != null) {
                divergences.put(e.getKey(), v);
            }
        }
        for (String k : List.of("final_rmsd_A", "max_rmsd_A", "divergence_time_fs")) {
            Double v = number(system.path("comparison").path(k));
            if (v != null) {
                divergences.putIfAbsent(k, v);
            }
        }
        JsonNode passed = summary.path("passed");
        JsonNode failed = summary.path("failed");
        return new TaskMetrics(stable, drift, teacher, rmse, passed.isBoolean() ? passed.booleanValue() : null, divergences,
                statisticalChecks(system.path("criteria")), failed.isInt() ? failed.intValue() : null);
    }

    private static final java.util.regex.Pattern NOMINAL_LIMIT = java.util.regex.Pattern.compile("limit ([0-9.]+) SE");

    /**
     * The evaluated criteria whose unit is "SE" (z-tests), with their nominal limit: the number in the detail's
     * "limit 3 SE as Student t ..." (the threshold itself is widened for few blocks), else the threshold.
     */
    private static List<StatisticalCheck> statisticalChecks(JsonNode criteria) {
        List<StatisticalCheck> out = new ArrayList<>();
        if (!criteria.isArray()) {
            return out;
        }
        for (JsonNode c : criteria) {
            if (!"SE".equals(c.path("unit").asText()) || c.path("skipped").asBoolean(false) || !c.path("passed").isBoolean()) {
                continue;
            }
            Double limit = number(c.path("threshold"));
            java.util.regex.Matcher m = NOMINAL_LIMIT.matcher(c.path("detail").asText(""));
            if (m.find()) {
                limit = Double.parseDouble(m.group(1));
            }
            if (limit == null) {
                continue;
            }
            out.add(new StatisticalCheck(c.path("criterion").asText("?"), c.path("run").asText(""), number(c.path("value")),
                    limit, c.path("passed").booleanValue()));
        }
        return out;
    }

    private static JsonNode pickSystem(JsonNode systems, String name) {
        if (!systems.isArray() || systems.isEmpty()) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        for (JsonNode s : systems) {
            if (name != null && name.equals(s.path("name").asText(null))) {
                return s;
            }
        }
        return systems.get(0);
    }

    private static Double stableFromRuns(JsonNode runs) {
        if (!runs.isArray() || runs.isEmpty()) {
            return null;
        }
        boolean any = false;
        for (JsonNode r : runs) {
            if (!"OPTIMISED".equalsIgnoreCase(r.path("role").asText(""))) {
                continue;
            }
            any = true;
            boolean blew = r.hasNonNull("blow_up");
            JsonNode done = r.path("steps_completed");
            JsonNode asked = r.path("steps_requested");
            if (blew || (done.isNumber() && asked.isNumber() && done.asLong() < asked.asLong())) {
                return 0.0;
            }
        }
        return any ? 1.0 : null;
    }

    private static Double meanProductionDrift(JsonNode runs) {
        List<Double> values = new ArrayList<>();
        for (JsonNode r : runs) {
            if ("OPTIMISED".equalsIgnoreCase(r.path("role").asText("")) && "NVE".equalsIgnoreCase(r.path("ensemble").asText(""))
                    && !"EQUILIBRATION".equalsIgnoreCase(r.path("phase").asText(""))) {
                Double d = number(r.path("energy").path("drift_meV_per_atom_per_ps"));
                if (d != null) {
                    values.add(d);
                }
            }
        }
        return values.isEmpty() ? null : values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    /** The child of {@code node} whose name equals {@code name} ignoring letter case (snake_case units vary). */
    private static JsonNode field(JsonNode node, String name) {
        if (node.has(name)) {
            return node.get(name);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (k.toLowerCase(Locale.ROOT).equals(lower)) {
                return node.get(k);
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static Double firstNumber(JsonNode... nodes) {
        for (JsonNode n : nodes) {
            Double v = number(n);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** A finite number, or the mean of an array of numbers (replicas), else null. */
    private static Double number(JsonNode n) {
        if (n == null) {
            return null;
        }
        if (n.isNumber() && Double.isFinite(n.asDouble())) {
            return n.asDouble();
        }
        if (n.isArray() && !n.isEmpty()) {
            double sum = 0;
            for (JsonNode e : n) {
                if (!e.isNumber()) {
                    return null;
                }
                sum += e.asDouble();
            }
            return sum / n.size();
        }
        return null;
    }
}
