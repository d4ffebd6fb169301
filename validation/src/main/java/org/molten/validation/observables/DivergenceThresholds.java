package org.molten.validation.observables;

import java.util.EnumMap;
import java.util.Map;

/**
 * The largest Jensen–Shannon divergence (base 2) and 1-Wasserstein distance (in the kind's unit)
 * at which a student distribution still counts as close to the teacher's; an observable passes
 * when both are at or below their limits. Immutable; {@code with...} returns a changed copy.
 *
 * <p><b>How the defaults were chosen.</b> Each is about three times the largest spread seen
 * between two independent sets of runs of the <em>same</em> model from the same start, so that
 * sampling noise alone does not fail a faithful student. Measured 2026-11-25 with
 * {@code SameModelSpreadMeasurement} (validation tests; bundled student, optimised CPU path,
 * float64; Langevin 300 K, friction 0.01/fs, 0.5 fs steps, 100 fs from the minimum, then a frame
 * every 10 steps): per side 4 replicas × 1000 steps (400 frames pooled) for alanine dipeptide and
 * ethanol, 2 replicas × 400 steps (80 frames, 62,400 O–O pairs) for a 40-water periodic box
 * ({@code WaterBox.build(40, 1)}), 939 s wall on a shared 2-core machine. Largest same-model
 * spreads: bond lengths JS 0.030, W1 0.0046 Å; bond angles JS 0.019, W1 0.56°; backbone
 * dihedrals JS 0.18, W1 9.2° (φ: half a picosecond per replica samples one basin unevenly);
 * O–O g(r) JS 0.0016, W1 0.020 Å.
 *
 * <p><b>What they catch.</b> A systematic bond-length error of ≥ 0.015 Å, a bond-angle error of
 * ≥ 2°, a backbone dihedral in another basin (β at φ ≈ −140° against αR at φ ≈ −65°: W1 ≈ 75°),
 * or any distribution of a different shape. For O–O the pairs beyond the first shell dominate
 * W1, so a displaced first peak shows first in JS (the g(r) shape). They do not catch smaller
 * shifts, which the on-trajectory force errors measure more directly.
 *
 * <p><b>Sample size.</b> JS is biased upwards by about (K − 1)/(4 N ln 2) for K occupied bins and
 * N independent values; the defaults assume a few hundred frames per side as above. With fewer
 * frames raise the JS limits (or run longer); W1 depends much less on N.
 */
public final class DivergenceThresholds {
    /** Default JS limit of bond lengths: 0.10 (same-model spread ≤ 0.030). */
    public static final double DEFAULT_MAX_JS_BOND = 0.10;
    /** Default JS limit of bond angles: 0.10 (same-model spread ≤ 0.019). */
    public static final double DEFAULT_MAX_JS_ANGLE = 0.10;
    /** Default JS limit of backbone dihedrals: 0.50 (same-model spread ≤ 0.18 on 4 × 0.5 ps). */
    public static final double DEFAULT_MAX_JS_DIHEDRAL = 0.50;
    /**
     * Default JS limit of O–O distributions (g(r) and clusters): 0.03 (same-model spread 0.0016
     * with 62,400 pairs; fewer frames raise the noise floor, hence the margin).
     */
    public static final double DEFAULT_MAX_JS_OO = 0.03;
    /** Default W1 limit of bond lengths, Å: 0.015 (same-model spread ≤ 0.0046 Å). */
    public static final double DEFAULT_MAX_W1_BOND_A = 0.015;
    /** Default W1 limit of bond angles, degrees: 2.0 (same-model spread ≤ 0.56°). */
    public static final double DEFAULT_MAX_W1_ANGLE_DEG = 2.0;
    /** Default W1 limit of backbone dihedrals (circular), degrees: 30 (same-model spread ≤ 9.2°). */
    public static final double DEFAULT_MAX_W1_DIHEDRAL_DEG = 30.0;
    /** Default W1 limit of O–O distances (g(r) range and clusters), Å: 0.06 (same-model spread 0.020 Å). */
    public static final double DEFAULT_MAX_W1_OO_A = 0.06;

    private final Map<ObservableKind, Double> maxJs;
    private final Map<ObservableKind, Double> maxW1;

    private DivergenceThresholds(Map<ObservableKind, Double> maxJs, Map<ObservableKind, Double> maxW1) {
        this.maxJs = new EnumMap<>(maxJs);
        this.maxW1 = new EnumMap<>(maxW1);
    }

    /** The defaults stated on the constants. */
    public static DivergenceThresholds defaults() {
        Map<ObservableKind, Double> js = new EnumMap<>(ObservableKind.class);
        Map<ObservableKind, Double> w1 = new EnumMap<>(ObservableKind.class);
        js.put(ObservableKind.BOND_LENGTH, DEFAULT_MAX_JS_BOND);
        js.put(ObservableKind.BOND_ANGLE, DEFAULT_MAX_JS_ANGLE);
        js.put(ObservableKind.BACKBONE_DIHEDRAL, DEFAULT_MAX_JS_DIHEDRAL);
        js.put(ObservableKind.OO_RADIAL_DISTRIBUTION, DEFAULT_MAX_JS_OO);
        js.put(ObservableKind.OO_DISTANCE, DEFAULT_MAX_JS_OO);
        w1.put(ObservableKind.BOND_LENGTH, DEFAULT_MAX_W1_BOND_A);
        w1.put(ObservableKind.BOND_ANGLE, DEFAULT_MAX_W1_ANGLE_DEG);
        w1.put(ObservableKind.BACKBONE_DIHEDRAL, DEFAULT_MAX_W1_DIHEDRAL_DEG);
        w1.put(ObservableKind.OO_RADIAL_DISTRIBUTION, DEFAULT_MAX_W1_OO_A);
        w1.put(ObservableKind.OO_DISTANCE, DEFAULT_MAX_W1_OO_A);
        return new DivergenceThresholds(js, w1);
    }

    /**
     * A copy with the JS limit of {@code kind} set.
     *
     * @throws IllegalArgumentException unless 0 ≤ limit ≤ 1
     */
    public DivergenceThresholds withMaxJensenShannon(ObservableKind kind, double limit) {
        if (!(limit >= 0 && limit <= 1)) {
            throw new IllegalArgumentException("max Jensen-Shannon divergence of " + kind.key() + " must be in [0, 1]: " + limit);
        }
        DivergenceThresholds t = new DivergenceThresholds(maxJs, maxW1);
        t.maxJs.put(kind, limit);
        return t;
    }

    /**
     * A copy with the W1 limit of {@code kind} set, in the kind's unit.
     *
     * @throws IllegalArgumentException for a negative or non-finite limit
     */
    public DivergenceThresholds withMaxWasserstein1(ObservableKind kind, double limit) {
        if (!(limit >= 0) || !Double.isFinite(limit)) {
            throw new IllegalArgumentException("max 1-Wasserstein distance of " + kind.key() + " must be finite and >= 0 ("
                    + kind.unit + "): " + limit);
        }
        DivergenceThresholds t = new DivergenceThresholds(maxJs, maxW1);
        t.maxW1.put(kind, limit);
        return t;
    }

    /** JS limit of {@code kind}, base 2. */
    public double maxJensenShannon(ObservableKind kind) {
        return maxJs.get(kind);
    }

    /** W1 limit of {@code kind}, in {@code kind.unit}. */
    public double maxWasserstein1(ObservableKind kind) {
        return maxW1.get(kind);
    }

    @Override
    public String toString() {
        return "DivergenceThresholds{js=" + maxJs + ", w1=" + maxW1 + "}";
    }
}
