package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.molten.validation.ValidationSettings;
import org.molten.validation.metrics.TeacherErrors;
import org.molten.validation.plots.EnergyPlots;
import org.molten.validation.plots.TeacherErrorPlots;
import org.molten.validation.reports.BaselineComparison;
import org.molten.validation.observables.ObservableComparison;
import org.molten.validation.reports.Thresholds;

/**
 * The PNG plots of one system: replica 0's NVE and NVT energies (with the baseline's or the
 * teacher's run when there is one), the divergence from the baseline, the teacher's per-atom
 * errors and the structural distributions. A plot that cannot be drawn (no fonts, no
 * java.desktop) costs the validation nothing but a warning.
 */
final class SystemPlots {
    private SystemPlots() {}

    static List<String> draw(SystemSource system, List<ReplicaOutcome> replicas, TeacherErrors.Result teacher,
                             BaselineComparison comparison, List<ObservableComparison> observables, ValidationSettings s,
                             Thresholds t, Path outDir, List<String> warnings) {
        List<String> plots = new ArrayList<>();
        String name = system.name();
        ReplicaOutcome r = replicas.get(0);
        int n = r.start().size();
        if (r.nve() != null) {
            energies(plots, outDir, name, "nve", r.nve(), r.teacherNve() != null ? r.teacherNve() : r.baselineNve(), n,
                    Double.NaN, t.maxDriftFor(r.nve().spec().precision()), warnings);
            energies(plots, outDir, name, "nvt", r.nvt(), r.teacherNvt() != null ? r.teacherNvt() : r.baselineNvt(), n,
                    s.temperatureK(), Double.NaN, warnings);
        }
        if (comparison != null && !comparison.divergence().isEmpty()) {
            draw(plots, name + "-divergence.png", warnings,
                    () -> EnergyPlots.writeDivergence(outDir.resolve(name + "-divergence.png"), name, comparison.divergence()));
        }
        if (teacher != null && teacher.frames() > 0) {
            String file = name + "-teacher-errors.png";
            draw(plots, file, warnings, () -> TeacherErrorPlots.write(outDir.resolve(file), name, teacher,
                    t.maxTeacherForceMaeEvPerA()));
        }
        if (!observables.isEmpty()) {
            String file = name + "-distributions.png";
            String teacherName = r.teacherNve() != null ? r.teacherNve().spec().forceField().name() : "teacher";
            draw(plots, file, warnings, () -> ObservableCheck.plot(outDir.resolve(file), name, observables, teacherName));
        }
        return plots;
    }

    private interface Drawing {
        void draw() throws IOException;
    }

    private static void energies(List<String> plots, Path outDir, String name, String ensemble, RunOutcome student,
                                 RunOutcome other, int atoms, double targetK, double maxDriftMeVPerAtomPerPs,
                                 List<String> warnings) {
        if (student == null) {
            return;
        }
        String file = name + "-" + ensemble + ".png";
        List<EnergyPlots.Curve> curves = new ArrayList<>();
        curves.add(new EnergyPlots.Curve("student (replica 0)", student.series()));
        if (other != null) {
            curves.add(new EnergyPlots.Curve(other.spec().forceField().name(), other.series()));
        }
        draw(plots, file, warnings, () -> EnergyPlots.writeEnergies(outDir.resolve(file),
                name + " " + ensemble.toUpperCase(Locale.ROOT), curves, atoms, targetK, maxDriftMeVPerAtomPerPs));
    }

    private static void draw(List<String> plots, String file, List<String> warnings, Drawing d) {
        try {
            d.draw();
            plots.add(file);
        } catch (IOException | RuntimeException | Error e) {
            // A missing font, display library or java.desktop module must not cost the validation its numbers;
            // AWT reports missing fonts as an InternalError, itself a VirtualMachineError: only rethrow the fatal ones.
            if (e instanceof OutOfMemoryError || e instanceof StackOverflowError) {
                throw (Error) e;
            }
            // A machine that cannot draw gives the same message for every plot: said once (PlotWarnings).
            warnings.add(e instanceof org.molten.validation.plots.PlotsUnavailableException ? e.getMessage()
                    : "plot " + file + " could not be drawn: " + e);
        }
    }
}
