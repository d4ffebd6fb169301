package org.molten.validation.reports;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.molten.validation.BaselineKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.metrics.EnergyDrift;
import org.molten.validation.metrics.TemperatureStatistics;

/**
 * Writes a {@link ValidationReport} as report.md: the verdict and the tables a reviewer reads
 * first, then every criterion, the baseline comparison, the plots and the provenance.
 */
public final class MarkdownReportWriter {
    private MarkdownReportWriter() {}

    /** Writes {@code report} to {@code file}, replacing it. */
    public static void write(ValidationReport report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // atomically: a full disk leaves the previous report (or none), never half of one, and names the file
        org.molten.integrators.AtomicFileWrite.write(file, render(report).getBytes(StandardCharsets.UTF_8), "report");
    }

    /** The Markdown text. */
    public static String render(ValidationReport r) {
        StringBuilder md = new StringBuilder();
        ValidationSettings s = r.settings();
        Summary sum = r.summary();
        md.append("# Molten validation report\n\n");
        md.append(String.format(Locale.ROOT, "**Verdict: %s** — %d of %d criteria passed%s over %d system(s); wall time %s.%n%n",
                sum.verdict(), sum.criteria() - sum.failed() - sum.skipped(), sum.criteria(),
                sum.skipped() > 0 ? ", " + sum.skipped() + " skipped" : "", r.systems().size(), duration(sum.wallSeconds())));
        if (sum.interrupted() != null) {
            md.append("**Partial report: the validation was stopped by ").append(sum.interrupted())
                    .append(" before it finished.** The systems below cover only the replicas that finished; not finished:\n\n");
            for (String u : sum.unfinished()) {
                md.append("- ").append(u).append('\n');
            }
            md.append('\n');
        }
        verdictTable(md, r);
        DomainSection.note(md, r);
        md.append("- Command: `molten ").append(r.command()).append("`\n");
        md.append("- Date (UTC): ").append(r.createdUtc()).append('\n');
        md.append("- Optimised model: ").append(model(r.optimised())).append('\n');
        md.append(s.baseline() == BaselineKind.TEACHER ? "- Baseline model (teacher MD): " : "- Baseline model: ")
                .append(model(r.baseline())).append('\n');
        md.append("- Provenance (weight-file metadata): ").append(provenance(r.optimised())).append('\n');
        if (r.baseline() != null && r.optimised() != null && !r.baseline().provenance().equals(r.optimised().provenance())) {
            md.append("- Baseline provenance: ").append(provenance(r.baseline())).append('\n');
        }
        md.append(String.format(Locale.ROOT, "- Protocol (%s): T = %s K, dt = %s fs, equilibration %d steps (Langevin), "
                        + "NVE %d steps (%s ps, Velocity Verlet), NVT %d steps (%s ps, %s, tau = %s fs), sample every %d steps, "
                        + "%d replica(s) per system with seeds %d to %d, teacher on %d frames per production run%n",
                protocolName(s), num(s.temperatureK()), num(s.timestepFs()),
                s.equilibrationSteps(), s.nveSteps(), num(s.nvePs()), s.nvtSteps(), num(s.nvtPs()), s.thermostat().id(),
                num(s.thermostatTimeConstantFs()), s.sampleIntervalSteps(), s.replicas(), s.replicaSeed(0),
                s.replicaSeed(s.replicas() - 1), s.teacherFramesPerRun()));
        Environment e = r.environment();
        md.append(String.format(Locale.ROOT, "- Environment: %s, Java %s (%s), %s %s %s, %d cores%n", e.moltenVersion(),
                e.javaVersion(), e.javaVendor(), e.osName(), e.osVersion(), e.osArch(), e.cpuCores()));
        if (!r.warnings().isEmpty()) {
            md.append("\n**Warnings**\n\n");
            for (String w : r.warnings()) {
                md.append("- ").append(w).append('\n');
            }
        }
        if (sum.failed() > 0) {
            md.append("\n**Failed criteria**\n\n");
            for (String f : sum.failures()) {
                md.append("- ").append(escape(f)).append('\n');
            }
        }
        if (sum.skipped() > 0) {
            md.append("\n**Skipped criteria** (not evaluated here: a skip is not a pass)\n\n");
            for (String f : sum.skips()) {
                md.append("- ").append(escape(f)).append('\n');
            }
        }
        ReplicaSections.append(md, r);
        DomainSection.section(md, r);

        md.append("\n## Runs\n\n");
        md.append("| System | Atoms | Run | Model | Drift ± SE [meV/atom/ps] | \\|drift·t\\|/σ(K) | Max excursion [meV/atom] "
                + "| ⟨T⟩ ± SE [K] | σ_T / σ_T,canonical | Integrity | Steps/s | ns/day | Result |\n");
        md.append("|---|---:|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
        for (SystemReport sys : r.systems()) {
            for (RunReport run : sys.runs()) {
                EnergyDrift d = run.energy();
                TemperatureStatistics t = run.temperature();
                boolean runPassed = sys.criteria().stream().filter(c -> c.run().equals(run.label())).allMatch(CriterionResult::passed);
                md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        sys.name(), sys.atoms(), run.label(), run.model() + whereRan(run),
                        d == null ? "–" : sig(d.driftMeVPerAtomPerPs(), 3) + " ± " + sig(d.driftStandardErrorMeVPerAtomPerPs(), 2),
                        d == null ? "–" : sig(d.driftToKineticSigmaRatio(), 3),
                        d == null ? "–" : sig(d.maxExcursionMeVPerAtom(), 3),
                        t == null ? "–" : String.format(Locale.ROOT, "%.1f ± %.1f", t.meanK(), t.meanStandardErrorK()),
                        t == null || run.ensemble() == Ensemble.NVE ? "–" : String.format(Locale.ROOT, "%.3f", t.sigmaRatio()),
                        run.integrity() == null ? "–" : run.integrity().intact() ? "intact" : "**broken**",
                        run.performance() == null ? "–" : sig(run.performance().stepsPerSecond(), 3),
                        run.performance() == null ? "–" : sig(run.performance().nsPerDay(), 3),
                        runPassed ? "pass" : "**FAIL**"));
            }
        }

        md.append("\n## Optimised vs baseline\n\n");
        md.append("| System | Frames | Force RMSE [eV/Å] | Max \\|ΔF\\| [eV/Å] | Relative RMSE | Max \\|ΔE\\| [meV/atom] "
                + "| NVE drift optimised / baseline [meV/atom/ps] | RMSD at end [Å] | RMSD > " + num(BaselineComparison.DIVERGENCE_RMSD_A)
                + " Å after [fs] |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SystemReport sys : r.systems()) {
            BaselineComparison c = sys.comparison();
            if (c == null) {
                md.append("| ").append(sys.name()).append(" | – | – | – | – | – | – | – | – |\n");
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s / %s | %s | %s |%n", sys.name(),
                    c.forces().frames(), sig(c.forces().forceRmseEvPerA(), 3), sig(c.forces().forceMaxAbsErrorEvPerA(), 3),
                    sig(c.forces().forceRelativeRmse(), 3), sig(c.forces().energyMaxAbsErrorMeVPerAtom(), 3),
                    sig(c.optimisedDriftMeVPerAtomPerPs(), 3), sig(c.baselineDriftMeVPerAtomPerPs(), 3), sig(c.finalRmsdA(), 3),
                    c.divergenceTimeFs() == null ? "never" : num(c.divergenceTimeFs())));
        }

        md.append("\n## Criteria\n\n");
        Thresholds th = r.thresholds();
        md.append(String.format(Locale.ROOT, "Thresholds: |drift| ≤ %s meV/atom/ps (float64) or ≤ %s (float32); "
                        + "|drift × run length| / σ(K) < %s; NVT ⟨T⟩ within %s SE of the target; σ_T within %s SE of T·sqrt(2/dof) "
                        + "(canonical thermostats; both limits widened as Student t for the number of blocks); bonds ≤ %s × their start, hydrogens on their heavy atom, no atom more than "
                        + "%s Å beyond the starting extent, no atoms closer than %s Å, no hydrogen more than 2.5 Å from its partner; "
                        + "force RMSE vs baseline ≤ %s eV/Å; force MAE vs teacher on the student's frames ≤ %s eV/Å; stable "
                        + "replicas ≥ %s; Jensen-Shannon divergence of each distribution vs the teacher's MD ≤ %s bits.%n%n",
                num(th.maxDriftMeVPerAtomPerPs()), num(th.maxDriftFloat32MeVPerAtomPerPs()), num(th.maxDriftToKineticSigmaRatio()),
                num(th.maxTemperatureDeviationSigmas()), num(th.maxFluctuationDeviationSigmas()), num(th.maxBondStretchRatio()),
                num(th.escapeMarginA()), num(th.overlapLimitA()), num(th.maxForceRmseEvPerA()),
                num(th.maxTeacherForceMaeEvPerA()), num(th.minStableFraction()),
                Double.isNaN(th.maxObservableDivergence()) ? "the per-kind limit (see the table)" : num(th.maxObservableDivergence())));
        md.append("| System | Run | Criterion | Value | Threshold | Result | Detail |\n");
        md.append("|---|---|---|---:|---:|---|---|\n");
        for (SystemReport sys : r.systems()) {
            for (CriterionResult c : sys.criteria()) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s %s %s | %s | %s |%n", sys.name(), c.run(),
                        c.criterion().id(), c.value() == null ? "–" : sig(c.value(), 3), c.comparison(), sig(c.threshold(), 4),
                        c.unit().equals("1") ? "" : c.unit(), c.skipped() ? "skipped" : c.passed() ? "pass" : "**FAIL**",
                        escape(c.detail())));
            }
        }

        md.append("\n## Plots\n\n");
        for (SystemReport sys : r.systems()) {
            if (sys.plots().isEmpty()) {
                continue;
            }
            md.append("### ").append(sys.name()).append(" (").append(sys.formula()).append(")\n\n");
            for (String p : sys.plots()) {
                md.append("![").append(sys.name()).append(' ').append(p).append("](").append(p).append(")\n\n");
            }
        }
        md.append("Definitions of every metric and threshold: docs/validation.md. Sampled series of each run "
                + "(Time[ps] Etot[eV] Epot[eV] Ekin[eV] T[K]) are in the CSV files next to this report.\n");
        return md.toString();
    }

    private static String model(ModelInfo m) {
        if (m == null) {
            return "–";
        }
        return "`" + m.name() + "`: " + m.kind() + (m.precision() == null ? "" : ", " + m.precision().name().toLowerCase(Locale.ROOT))
                + (m.device() == null ? "" : ", " + m.device()) + (m.source() == null || m.source().isEmpty() ? "" : ", " + m.source());
    }

    private static String provenance(ModelInfo m) {
        if (m == null || m.provenance() == null || m.provenance().isEmpty()) {
            return "–";
        }
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> en : m.provenance().entrySet()) {
            b.append(en.getKey()).append(" = ").append(en.getValue()).append("; ");
        }
        b.setLength(b.length() - 2);
        return b.toString();
    }

    /** The one table a chemist reads first: per system, stable? faithful? observables? drift? */
    private static void verdictTable(StringBuilder md, ValidationReport r) {
        md.append("| System | Atoms | Replicas | Stable | Faithful to the teacher (force MAE) | Observables vs teacher MD "
                + "| NVE drift [meV/atom/ps] | NVT ⟨T⟩ [K] | Same as baseline |\n");
        md.append("|---|---:|---:|---|---|---|---|---|---|\n");
        for (SystemReport sys : r.systems()) {
            SystemVerdict v = sys.verdict();
            if (v == null) {
                continue;
            }
            String stable = String.format(Locale.ROOT, "%s (%d/%d)", bold(v.stable()),
                    sys.replicas().stream().filter(ReplicaReport::stable).count(), sys.replicas().size());
            String faithful = sys.teacher() == null ? bold(v.faithful()) + (sys.teacherSkipped() == null ? "" : ": "
                    + escape(sys.teacherSkipped())) : String.format(Locale.ROOT, "%s (%s eV/Å)", bold(v.faithful()),
                    sig(sys.teacher().forceMaeEvPerA(), 3));
            String drift = sys.nveDrift() == null ? bold(v.drift()) : String.format(Locale.ROOT, "%s (%s ± %s)",
                    bold(v.drift()), sig(sys.nveDrift().mean(), 2), sig(sys.nveDrift().std(), 2));
            String temp = sys.nvtTemperature() == null ? bold(v.temperature()) : String.format(Locale.ROOT, "%s (%.1f ± %.1f)",
                    bold(v.temperature()), sys.nvtTemperature().mean(),
                    Double.isFinite(sys.nvtTemperature().std()) ? sys.nvtTemperature().std() : 0.0);
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s | %s |%n", sys.name(), sys.atoms(),
                    sys.replicas().size(), stable, faithful, bold(v.observables()), drift, temp, bold(v.baseline())));
            if (!"n/a".equals(v.teacherMd())) {
                // The teacher's own MD, judged as the student's runs are, on a row of its own: its failure is not the student's.
                md.append(String.format(Locale.ROOT, "| %s: teacher's own MD | %d | %d | %s | – | – | – | – | – |%n", sys.name(),
                        sys.atoms(), sys.replicas().size(), bold(v.teacherMd()) + (v.teacherMdDetail().isEmpty() ? ""
                                : " (" + escape(v.teacherMdDetail()) + ")")));
            }
        }
        md.append('\n');
    }

    private static String bold(String verdict) {
        return "FAIL".equals(verdict) ? "**FAIL**" : verdict;
    }

    static String escape(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }

    /** Plain number without trailing zeros. */
    static String num(double v) {
        if (!Double.isFinite(v)) {
            return "–";
        }
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** {@code digits} significant digits, scientific only for very small or large magnitudes. */
    static String sig(double v, int digits) {
        if (!Double.isFinite(v)) {
            return "–";
        }
        if (v == 0) {
            return "0";
        }
        double a = Math.abs(v);
        if (a < 1e-3 || a >= 1e6) {
            return String.format(Locale.ROOT, "%." + (digits - 1) + "e", v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(digits)).stripTrailingZeros().toPlainString();
    }

    private static String duration(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        return String.format(Locale.ROOT, "%d min %02d s", (long) seconds / 60, (long) seconds % 60);
    }

    /** "full" or "quick" when the step counts are those presets', else "custom" (steps set by hand). */
    static String protocolName(ValidationSettings s) {
        if (s.full()) {
            return s.nveSteps() == ValidationSettings.FULL_PRODUCTION_STEPS && s.nvtSteps() == ValidationSettings.FULL_PRODUCTION_STEPS
                    && s.equilibrationSteps() == ValidationSettings.FULL_EQUILIBRATION_STEPS ? "full" : "custom";
        }
        return s.nveSteps() == ValidationSettings.QUICK_NVE_STEPS && s.nvtSteps() == ValidationSettings.QUICK_NVT_STEPS
                && s.equilibrationSteps() == ValidationSettings.QUICK_EQUILIBRATION_STEPS ? "quick" : "custom";
    }

    /** " [cuda, batch of 4]" for a run whose steps ran on a device platform; nothing on the host. */
    private static String whereRan(RunReport run) {
        if (run.platform() == null || run.platform().equals("cpu") || run.platform().equals("reference")) {
            return "";
        }
        return " [" + run.platform() + (run.batchedReplicas() > 1 ? ", batch of " + run.batchedReplicas() : "") + "]";
    }
}
