package org.molten.validation.runs;

import java.util.List;
import org.molten.core.Atoms;
import org.molten.validation.reports.ObservableReport;
import org.molten.validation.reports.Thresholds;

/** Structural distributions of the student's MD against the teacher's (filled in with the observables package). */
final class ObservableCheck {
    private ObservableCheck() {}

    static List<ObservableReport> compare(Atoms start, List<ReplicaOutcome> replicas, Thresholds t) {
        throw new UnsupportedOperationException("TODO(lead): wire org.molten.validation.observables");
    }

    static void plot(java.nio.file.Path file, String system, List<ObservableReport> observables) throws java.io.IOException {
        throw new UnsupportedOperationException("TODO(lead): wire DistributionPlots");
    }
}
