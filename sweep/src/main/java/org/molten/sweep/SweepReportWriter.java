package org.molten.sweep;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import org.molten.integrators.AtomicFileWrite;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes a {@link SweepReport} as sweep-report.json and sweep-report.md (each atomically). */
public final class SweepReportWriter {
    /** JSON report file name in the output directory. */
    public static final String JSON = "sweep-report.json";
    /** Markdown report file name in the output directory. */
    public static final String MARKDOWN = "sweep-report.md";

    private SweepReportWriter() {}

    /** Writes both files into {@code outDir}. */
    public static void write(SweepReport report, Path outDir) throws IOException {
        // each atomically (temp, fsync, rename; the temp file removed on failure): a full disk leaves the previous
        // report or none, never half of one, and the error names the file
        AtomicFileWrite.write(outDir.resolve(JSON), SweepJson.mapper().writeValueAsBytes(report), "sweep report");
        AtomicFileWrite.write(outDir.resolve(MARKDOWN), markdown(report).getBytes(StandardCharsets.UTF_8), "sweep report");
    }

    /** The Markdown text. */
    static String markdown(SweepReport r) {
        StringBuilder b = new StringBuilder();
        b.append("# molten sweep\n\n");
        b.append(String.format(Locale.ROOT, "%s · `molten %s`%n%n", r.createdUtc(), r.command()));
        b.append(String.format(Locale.ROOT, "%d tasks: %d ran to a result, %d failed (threw on every attempt), %d resumed "
                + "from an earlier run; %.1f s.%n%n", r.tasksTotal(), r.tasksDone(), r.tasksFailed(), r.tasksResumed(),
                r.wallSeconds()));
        b.append("## Models, best first\n\n");
        b.append("Ranked by stable fraction, then median |NVE drift|, then teacher force error; n/a: no task reported it.\n\n");
        b.append("| rank | model | tasks | failed | stable fraction | median abs drift (meV/atom/ps) | teacher force MAE (eV/Å) |\n");
        b.append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (SweepSummary.ModelRank m : r.summary().ranking()) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %s | %s | %s |%n", m.rank(), m.model(), m.tasks(), m.failed(),
                    fmt(m.stableFraction(), "%.3f"), fmt(m.medianAbsDriftMeVPerAtomPerPs(), "%.4g"),
                    fmt(m.meanTeacherForceMaeEvPerA(), "%.4g")));
        }
        b.append("\n## Per model, system and temperature\n\n");
        b.append("| model | system | T (K) | tasks | failed | stable fraction | passed | abs drift median / p90 / max (meV/atom/ps) "
                + "| teacher force MAE mean (eV/Å) | force RMSE vs baseline mean (eV/Å) | divergences (mean) |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
        for (SweepSummary.Group g : r.summary().groups()) {
            SweepSummary.Distribution d = g.absDriftMeVPerAtomPerPs();
            String drift = d == null ? "n/a" : String.format(Locale.ROOT, "%.4g / %.4g / %.4g", d.median(), d.p90(), d.max());
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |%n", g.model(), g.system(),
                    fmt(g.temperatureK(), "%.0f"), g.tasks(), g.failed(), fmt(g.stableFraction(), "%.3f"),
                    fmt(g.passedFraction(), "%.3f"), drift, fmt(mean(g.teacherForceMaeEvPerA()), "%.4g"),
                    fmt(mean(g.forceRmseVsBaselineEvPerA()), "%.3g"), divergences(g.divergences())));
        }
        chance(b, r.summary().statisticalCriteria());
        if (!r.plots().isEmpty()) {
            b.append("\n## Plots\n\n");
            for (String p : r.plots()) {
                b.append("![").append(p).append("](").append(p).append(")\n");
            }
        }
        b.append("\n## Tasks\n\nEach task's own validation report: `tasks/<id>/report/report.md`.\n\n");
        b.append("| task | status | attempts | member | wall (s) | stable | drift (meV/atom/ps) | error |\n");
        b.append("|---|---|---:|---|---:|---:|---:|---|\n");
        for (TaskResult t : r.tasks()) {
            String err = t.error() == null ? "" : t.error().lines().findFirst().orElse("").replace("|", "\\|");
            b.append(String.format(Locale.ROOT, "| [%s](tasks/%s/report/report.md) | %s | %d | %s | %s | %s | %s | %s |%n",
                    t.task().id(), t.task().id(), t.status(), t.attempts(), t.member() == null ? "" : t.member(),
                    fmt(t.wallSeconds(), "%.1f"), fmt(t.metrics().stableFraction(), "%.2f"),
                    fmt(t.metrics().driftMeVPerAtomPerPs(), "%.4g"), err));
        }
        List<TaskResult> rerun = r.tasks().stream().filter(t -> !t.reruns().isEmpty()).toList();
        if (!rerun.isEmpty()) {
            b.append("\n## Tasks run again\n\n");
            b.append("A task goes back to the queue when its member leaves the cluster, when its lease runs out (no progress "
                    + "for the task timeout: a hung member) or when an attempt throws; its stored result is that of the claim "
                    + "that completed, the others' late results were refused.\n\n");
            for (TaskResult t : rerun) {
                b.append("- `").append(t.task().id()).append("` (").append(t.status()).append("): ")
                        .append(String.join("; ", t.reruns()).replace("\n", " ")).append('\n');
            }
        }
        if (!r.warnings().isEmpty()) {
            b.append("\n## Warnings\n\n");
            r.warnings().forEach(w -> b.append("- ").append(w).append('\n'));
        }
        return b.toString();
    }

    /** The statistical criteria's failures against chance, so that a verdict does not hinge on noise. */
    private static void chance(StringBuilder b, ChanceFailures c) {
        if (c == null || c.checks() == 0) {
            return;
        }
        b.append("\n## Statistical criteria against chance\n\n");
        b.append(String.format(Locale.ROOT, "%d checks of k-SE criteria (z-tests: mean temperature, temperature fluctuation); "
                + "a correct integrator fails each with probability erfc(k/sqrt 2) (0.27 %% at 3 SE), so chance alone predicts "
                + "**%.2f** failures; **%d** failed (P(>= %d by chance) = %.3g): %s. %d task(s) failed only statistical "
                + "criteria.%n%n", c.checks(), c.expectedByChance(), c.failed(), c.failed(), c.pChance(),
                c.exceedsChance() ? "**more than chance explains**" : "consistent with chance", c.tasksFailingOnlyStatistical()));
        b.append(String.format(Locale.ROOT, "A row is flagged when its failures are improbable by chance: P below %.2g / %d rows "
                + "(Bonferroni).%n%n", ChanceFailures.ALPHA, c.rows().size()));
        b.append("| model | system | T (K) | criterion | checks | failed | expected by chance | P(>= failed by chance) | verdict |\n");
        b.append("|---|---|---:|---|---:|---:|---:|---:|---|\n");
        for (ChanceFailures.Row row : c.rows()) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %d | %.3g | %.3g | %s |%n", row.model(), row.system(),
                    fmt(row.temperatureK(), "%.0f"), row.criterion(), row.checks(), row.failed(), row.expectedByChance(),
                    row.pChance(), row.exceedsChance() ? "**exceeds chance**" : "within chance"));
        }
    }

    private static Double mean(SweepSummary.Distribution d) {
        return d == null ? null : d.mean();
    }

    private static String divergences(Map<String, Double> d) {
        return d.isEmpty() ? "n/a" : d.entrySet().stream()
                .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.3g", e.getValue())).collect(Collectors.joining(", "));
    }

    private static String fmt(Double v, String format) {
        return v == null || !Double.isFinite(v) ? "n/a" : String.format(Locale.ROOT, format, v);
    }
}
