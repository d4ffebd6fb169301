/**
 * Structural observables of MD trajectories and how far two sets of them are apart: the
 * student's trajectories against the teacher's from identical starting states.
 *
 * <p>{@link org.molten.validation.observables.ObservableSet} fixes, from a start structure, the
 * distributions to measure (bond lengths by bond type, bond angles by angle type, backbone φ/ψ/ω
 * of peptides, the O–O g(r) of water boxes or the O–O distances of water clusters) and their
 * bins; an {@link org.molten.validation.observables.ObservableAccumulator} per side fills them from
 * frames (positions in Å and the cell); {@link org.molten.validation.observables.ObservableComparison}
 * gives per observable the Jensen–Shannon divergence, the 1-Wasserstein distance and a verdict
 * against {@link org.molten.validation.observables.DivergenceThresholds}.
 *
 * <pre>{@code
 * ObservableSet set = ObservableSet.of(start);                 // once per system
 * ObservableAccumulator student = new ObservableAccumulator(set);
 * ObservableAccumulator teacher = new ObservableAccumulator(set);
 * // every sampled frame of every replica: student.add(positionsA, cellOrNull), same for teacher
 * List<ObservableComparison> result =
 *         ObservableComparison.compareAll(student, teacher, DivergenceThresholds.defaults());
 * DistributionPlots.writePerKind(outDir, name, name + " NVT", result, "student", "GFN2-xTB");
 * }</pre>
 * Replicas run in parallel each fill their own accumulator and are pooled with
 * {@link org.molten.validation.observables.ObservableAccumulator#addAll}.
 */
package org.molten.validation.observables;
