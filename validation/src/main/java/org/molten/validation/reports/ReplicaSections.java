package org.molten.validation.reports;

import static org.molten.validation.reports.MarkdownReportWriter.escape;
import static org.molten.validation.reports.MarkdownReportWriter.sig;

import java.util.Locale;
import org.molten.validation.metrics.TeacherErrors;

/**
 * The parts of report.md about replicas, the teacher and the structural distributions (kept
 * apart from {@link MarkdownReportWriter}, which writes the runs and criteria).
 */
final class ReplicaSections {
    private ReplicaSections() {}

    static void append(StringBuilder md, ValidationReport r) {
        md.append("\n## Replicas\n\n");
        md.append("Independent starts per system (replica k: seed + k). Time to failure: simulated time into the run that "
                + "failed first (explosion, bond stretched, hydrogen dissociated or moved, atom escaped).\n\n");
        md.append("| System | Replica | Seed | Stable | Time to failure [fs] | Failure | T at NVE / NVT start [K] | NVE drift [meV/atom/ps] "
                + "| NVT ⟨T⟩ [K] | Force MAE vs teacher [eV/Å] |\n");
        md.append("|---|---:|---:|---|---:|---|---:|---:|---:|---:|\n");
        for (SystemReport sys : r.systems()) {
            for (ReplicaReport p : sys.replicas()) {
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %.1f / %.1f | %s | %s | %s |%n", sys.name(),
                        p.replica(), p.seed(), p.stable() ? "yes" : "**no**",
                        p.timeToFailureFs() == null ? "–" : String.format(Locale.ROOT, "%.1f", p.timeToFailureFs()),
                        p.failure() == null ? "–" : escape(p.failedRun() + ": " + p.failure()), p.startTemperatureK(), p.nvtStartTemperatureK(),
                        p.nveDriftMeVPerAtomPerPs() == null ? "–" : sig(p.nveDriftMeVPerAtomPerPs(), 3),
                        p.nvtMeanTemperatureK() == null ? "–" : String.format(Locale.ROOT, "%.1f", p.nvtMeanTemperatureK()),
                        p.teacherForceMaeEvPerA() == null ? "–" : sig(p.teacherForceMaeEvPerA(), 3)));
            }
        }

        md.append("\n## The student against its teacher on its own trajectories\n\n");
        md.append("Frames spread evenly over every production run of every replica, evaluated by the teacher. Force MAE "
                + "and RMSE over all components (eV/Å), the largest error of one atom (vector norm), the energy error after one "
                + "constant offset per system (meV/atom), and the atoms with the largest force MAE.\n\n");
        md.append("| System | Frames | Failed | Force MAE [eV/Å] | Force RMSE [eV/Å] | Largest atom error [eV/Å] | Where "
                + "| Energy error [meV/atom] | Worst atoms (MAE eV/Å) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|---:|---|\n");
        for (SystemReport sys : r.systems()) {
            TeacherErrors.Result t = sys.teacher();
            if (t == null) {
                md.append("| ").append(sys.name()).append(" | – | – | – | – | – | ")
                        .append(sys.teacherSkipped() == null ? "–" : "skipped: " + escape(sys.teacherSkipped()))
                        .append(" | – | – |\n");
                continue;
            }
            StringBuilder worst = new StringBuilder();
            for (TeacherErrors.AtomError a : t.worstAtoms()) {
                worst.append(worst.length() == 0 ? "" : ", ").append(a.element()).append(a.index()).append(' ')
                        .append(sig(a.forceMaeEvPerA(), 3));
            }
            String where = t.maxAtomFrame() == null ? "–" : String.format(Locale.ROOT, "%s%d, %s, t = %.1f fs",
                    t.maxAtomElement(), t.maxAtomIndex(), t.maxAtomFrame().run(), t.maxAtomFrame().timeFs());
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s | %s |%n", sys.name(), t.frames(),
                    t.framesFailed(), sig(t.forceMaeEvPerA(), 3), sig(t.forceRmseEvPerA(), 3), sig(t.maxAtomErrorEvPerA(), 3),
                    escape(where), sig(t.energyErrorMeVPerAtom(), 3), worst));
        }

        boolean any = r.systems().stream().anyMatch(s -> !s.observables().isEmpty());
        if (any) {
            md.append("\n## Structural distributions: student MD against teacher MD\n\n");
            md.append("Every replica's NVE and NVT frames pooled, the teacher's runs started from the identical states with "
                    + "the same thermostat noise.\n\n");
            md.append("| System | Observable | Student values | Teacher values | Jensen-Shannon [bits] | 1-Wasserstein | Limits "
                    + "| Result |\n");
            md.append("|---|---|---:|---:|---:|---:|---:|---|\n");
            for (SystemReport sys : r.systems()) {
                for (org.molten.validation.observables.ObservableComparison o : sys.observables()) {
                    md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %s %s | JS %s, W1 %s %s | %s |%n",
                            sys.name(), o.name(), o.studentSamples(), o.teacherSamples(), sig(o.jensenShannon(), 3),
                            sig(o.wasserstein1(), 3), o.unit(), sig(o.maxJensenShannon(), 3), sig(o.maxWasserstein1(), 3),
                            o.unit(), o.passed() ? "pass" : "**FAIL**"));
                }
            }
        }
    }
}
