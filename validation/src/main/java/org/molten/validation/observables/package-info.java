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
 */
package org.molten.validation.observables;
