package org.molten.validation.observables;

import java.util.ArrayList;
import java.util.List;

/**
 * One observable compared between the student's and the teacher's trajectories.
 *
 * @param name             observable name ("bond C-H", "dihedral phi", "rdf O-O")
 * @param kind             its kind
 * @param unit             unit of the values and of W1 ("Å", "deg")
 * @param studentSamples   values measured on the student's frames (tuples × frames)
 * @param teacherSamples   values measured on the teacher's frames
 * @param jensenShannon    JS divergence of the two histograms, base 2, in [0, 1]; NaN when a side is empty
 * @param wasserstein1     1-Wasserstein distance in {@code unit} (circular for dihedrals); NaN when a side is empty
 * @param maxJensenShannon the JS limit applied
 * @param maxWasserstein1  the W1 limit applied, in {@code unit}
 * @param passed           both at or below their limits (false when a side has no samples)
 * @param reason           why it failed, or "" when it passed
 * @param wasserstein1Exact true when W1 used every value (no reservoir subsampling)
 * @param student          the student's histogram
 * @param teacher          the teacher's histogram
 */
public record ObservableComparison(String name, ObservableKind kind, String unit, long studentSamples, long teacherSamples,
                                   double jensenShannon, double wasserstein1, double maxJensenShannon, double maxWasserstein1,
                                   boolean passed, String reason, boolean wasserstein1Exact,
                                   HistogramData student, HistogramData teacher) {

    /**
     * Compares every observable of two accumulators of the same {@link ObservableSet}.
     *
     * @throws IllegalArgumentException when the accumulators measure different observable sets
     *                                  (different start structures or cells)
     */
    public static List<ObservableComparison> compareAll(ObservableAccumulator student, ObservableAccumulator teacher,
                                                        DivergenceThresholds thresholds) {
        if (!student.observables().equals(teacher.observables())) {
            throw new IllegalArgumentException("student and teacher observables differ (not the same start structure?): "
                    + student.observables() + " vs " + teacher.observables());
        }
        List<ObservableComparison> out = new ArrayList<>();
        for (Observable o : student.observables().observables()) {
            out.add(compare(o, student, teacher, thresholds));
        }
        return out;
    }

    /** Compares one observable of two accumulators of the same set. */
    public static ObservableComparison compare(Observable o, ObservableAccumulator student, ObservableAccumulator teacher,
                                               DivergenceThresholds thresholds) {
        ObservableKind kind = o.kind();
        long ns = student.sampleCount(o);
        long nt = teacher.sampleCount(o);
        double maxJs = thresholds.maxJensenShannon(kind);
        double maxW1 = thresholds.maxWasserstein1(kind);
        HistogramData hs = HistogramData.of(student, o);
        HistogramData ht = HistogramData.of(teacher, o);
        boolean exact = student.exactSamples(o) && teacher.exactSamples(o);
        if (ns == 0 || nt == 0) {
            String reason = "no samples from the " + (ns == 0 && nt == 0 ? "student or the teacher" : ns == 0 ? "student" : "teacher");
            return new ObservableComparison(o.name(), kind, o.unit(), ns, nt, Double.NaN, Double.NaN, maxJs, maxW1, false,
                    reason, exact, hs, ht);
        }
        double js = Divergences.jensenShannon(student.histogram(o), teacher.histogram(o));
        double w1 = kind.periodic
                ? Divergences.circularWasserstein1(student.samples(o), teacher.samples(o), o.lower(), o.upper() - o.lower())
                : Divergences.wasserstein1(student.samples(o), teacher.samples(o));
        List<String> why = new ArrayList<>();
        if (!(js <= maxJs)) {
            why.add(String.format(java.util.Locale.ROOT, "JS %.4f > %.4f", js, maxJs));
        }
        if (!(w1 <= maxW1)) {
            why.add(String.format(java.util.Locale.ROOT, "W1 %.4g %s > %.4g %s", w1, o.unit(), maxW1, o.unit()));
        }
        return new ObservableComparison(o.name(), kind, o.unit(), ns, nt, js, w1, maxJs, maxW1, why.isEmpty(),
                String.join("; ", why), exact, hs, ht);
    }
}
