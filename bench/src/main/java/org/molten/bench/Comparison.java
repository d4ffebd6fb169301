package org.molten.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Regression check of a run against a stored one: a configuration (same device, config and atom
 * count) is flagged when its median time (MD step, else energy+forces) is more than the tolerance
 * slower than the stored median, when its force RMSE against the reference exceeds its precision's
 * bound, or when it failed (stale results, an exception) where the stored run had it working.
 * Skipped configurations and ones present in only one run are listed, not flagged.
 */
public final class Comparison {
    /** Default tolerance, percent slower. */
    public static final double DEFAULT_TOLERANCE_PCT = 10.0;

    /**
     * One row of the comparison.
     *
     * @param key        device/config/atoms
     * @param baselineUs stored median µs (NaN if absent)
     * @param currentUs  this run's median µs (NaN if absent)
     * @param changePct  (current / baseline − 1) × 100
     * @param verdict    ok, SLOWER, NUMERICS, FAILED, skipped, new, missing
     * @param flagged    whether this row makes the comparison fail
     * @param note       details
     */
    public record Row(String key, double baselineUs, double currentUs, double changePct, String verdict, boolean flagged,
                      String note) {
    }

    private final List<Row> rows;
    private final double tolerancePct;

    private Comparison(List<Row> rows, double tolerancePct) {
        this.rows = rows;
        this.tolerancePct = tolerancePct;
    }

    /** Compares {@code current} with {@code baseline}. */
    public static Comparison of(List<ConfigResult> baseline, List<ConfigResult> current, double tolerancePct) {
        if (!(tolerancePct >= 0)) {
            throw new IllegalArgumentException("--tolerance must be a non-negative percentage: " + tolerancePct);
        }
        Map<String, ConfigResult> base = new LinkedHashMap<>();
        for (ConfigResult r : baseline) {
            base.put(r.key(), r);
        }
        List<Row> rows = new ArrayList<>();
        for (ConfigResult c : current) {
            ConfigResult b = base.remove(c.key());
            double bu = b == null ? Double.NaN : b.headlineMedianUs();
            double cu = c.headlineMedianUs();
            double pct = (cu / bu - 1) * 100;
            if (c.status() == ConfigResult.Status.skipped) {
                rows.add(new Row(c.key(), bu, cu, Double.NaN, "skipped", false, c.reason()));
            } else if (c.status() == ConfigResult.Status.failed && c.forceRmseEvPerA() == null) {
                rows.add(new Row(c.key(), bu, cu, Double.NaN, "FAILED", true, c.reason()));
            } else if (c.forceRmseEvPerA() != null && !c.accurate()) {
                rows.add(new Row(c.key(), bu, cu, pct, "NUMERICS", true, String.format(Locale.ROOT,
                        "force RMSE %.2e eV/Å > bound %.1e (%s)", c.forceRmseEvPerA(), c.forceRmseBoundEvPerA(), c.precision())));
            } else if (b == null || b.status() != ConfigResult.Status.ok || Double.isNaN(bu)) {
                rows.add(new Row(c.key(), bu, cu, Double.NaN, "new", false, "no stored figure to compare with"));
            } else if (pct > tolerancePct) {
                rows.add(new Row(c.key(), bu, cu, pct, "SLOWER", true,
                        String.format(Locale.ROOT, "median more than %.1f%% slower", tolerancePct)));
            } else {
                rows.add(new Row(c.key(), bu, cu, pct, "ok", false, ""));
            }
        }
        for (ConfigResult b : base.values()) {
            rows.add(new Row(b.key(), b.headlineMedianUs(), Double.NaN, Double.NaN, "missing", false, "not run this time"));
        }
        return new Comparison(rows, tolerancePct);
    }

    /** The rows, current run's order first, then configurations only in the baseline. */
    public List<Row> rows() {
        return rows;
    }

    /** Whether any row is flagged. */
    public boolean anyFlagged() {
        return rows.stream().anyMatch(Row::flagged);
    }

    /** Exit status for the command line: 0 when nothing is flagged, else 3. */
    public int exitCode() {
        return anyFlagged() ? 3 : 0;
    }

    /** The comparison as a Markdown table. */
    public String table() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "Comparison (tolerance %.1f%% on the median MD step, else energy+forces):%n%n", tolerancePct));
        sb.append("| device/config/atoms | stored median µs | current median µs | change | verdict | note |\n");
        sb.append("|---|---:|---:|---:|---|---|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", r.key(),
                    Double.isNaN(r.baselineUs()) ? "n/a" : String.format(Locale.ROOT, "%.1f", r.baselineUs()),
                    Double.isNaN(r.currentUs()) ? "n/a" : String.format(Locale.ROOT, "%.1f", r.currentUs()),
                    Double.isNaN(r.changePct()) ? "" : String.format(Locale.ROOT, "%+.1f%%", r.changePct()),
                    r.verdict(), r.note().replace('|', '/')));
        }
        long n = rows.stream().filter(Row::flagged).count();
        sb.append(n == 0 ? "\nNo regression.\n" : "\n" + n + " configuration(s) flagged.\n");
        return sb.toString();
    }
}
