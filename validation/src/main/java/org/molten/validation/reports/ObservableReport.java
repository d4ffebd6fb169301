package org.molten.validation.reports;

import java.util.List;

/**
 * One structural distribution of the student's MD against the teacher's from the same starting
 * states (all replicas, NVE and NVT pooled).
 *
 * @param name               "bond C-H", "angle H-C-H", "dihedral phi", "rdf O-O"
 * @param unit               unit of the observable ("A", "deg")
 * @param studentSamples     values from the student's frames
 * @param teacherSamples     values from the teacher's frames
 * @param jensenShannonBits  Jensen–Shannon divergence of the two histograms, bits (0 to 1)
 * @param wasserstein1       1-Wasserstein distance of the two samples, in {@code unit}
 * @param threshold          the largest divergence allowed, bits
 * @param passed             divergence within the threshold
 * @param binCentres         histogram bin centres, in {@code unit}
 * @param studentDensity     the student's normalised histogram
 * @param teacherDensity     the teacher's normalised histogram
 */
public record ObservableReport(String name, String unit, long studentSamples, long teacherSamples, double jensenShannonBits,
                               double wasserstein1, double threshold, boolean passed, List<Double> binCentres,
                               List<Double> studentDensity, List<Double> teacherDensity) {
}
