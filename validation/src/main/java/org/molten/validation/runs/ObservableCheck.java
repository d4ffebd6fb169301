package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.validation.observables.DivergenceThresholds;
import org.molten.validation.observables.ObservableAccumulator;
import org.molten.validation.observables.ObservableComparison;
import org.molten.validation.observables.ObservableKind;
import org.molten.validation.observables.ObservableSet;
import org.molten.validation.plots.DistributionPlots;
import org.molten.validation.reports.Thresholds;

/**
 * The structural distributions of the student's MD against the teacher's (with
 * {@code --baseline teacher}): every replica's NVE and NVT frames of each side pooled into one
 * accumulator over the observables of the start structure (bonds and angles by type, backbone
 * dihedrals, O–O distances), then compared observable by observable. A teacher run that blew up,
 * broke its structure or stopped early is left out (it is judged on its own, as the teacher's);
 * the student's runs are all in, as its stability is judged apart too.
 */
final class ObservableCheck {
    private ObservableCheck() {}

    static List<ObservableComparison> compare(Atoms start, List<ReplicaOutcome> replicas, Thresholds t) {
        ObservableSet set = ObservableSet.of(start);
        ObservableAccumulator student = new ObservableAccumulator(set);
        ObservableAccumulator teacher = new ObservableAccumulator(set);
        for (ReplicaOutcome r : replicas) {
            add(student, r.nve(), start);
            add(student, r.nvt(), start);
            if (intact(r.teacherNve())) {
                add(teacher, r.teacherNve(), start);
            }
            if (intact(r.teacherNvt())) {
                add(teacher, r.teacherNvt(), start);
            }
        }
        DivergenceThresholds limits = DivergenceThresholds.defaults();
        if (!Double.isNaN(t.maxObservableDivergence())) {
            for (ObservableKind k : ObservableKind.values()) {
                limits = limits.withMaxJensenShannon(k, t.maxObservableDivergence());
            }
        }
        return ObservableComparison.compareAll(student, teacher, limits);
    }

    /** The run did all its steps without a blow-up and kept its structure (false for null). */
    static boolean intact(RunOutcome run) {
        return run != null && run.blowUp() == null && run.stepsCompleted() == run.spec().steps()
                && (run.integrity() == null || run.integrity().intact());
    }

    private static void add(ObservableAccumulator acc, RunOutcome run, Atoms start) {
        if (run == null) {
            return;
        }
        for (double[] frame : run.frames()) {
            acc.add(frame, start.cellOrNull());
        }
    }

    static void plot(Path file, String system, List<ObservableComparison> observables, String teacherName) throws IOException {
        DistributionPlots.write(file, system, observables, "student", teacherName);
    }
}
