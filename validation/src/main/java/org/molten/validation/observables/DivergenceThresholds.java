package org.molten.validation.observables;

import java.util.EnumMap;
import java.util.Map;

/**
 * The largest Jensen–Shannon divergence (base 2) and 1-Wasserstein distance (in the kind's unit)
 * at which a student distribution still counts as close to the teacher's; an observable passes
 * when both are at or below their limits. Immutable; {@code with...} returns a changed copy.
 *
 * <p>Defaults (see {@link #defaults()}) are set a few times above the spread between two
 * independent runs of the <em>same</em> model from the same start (different velocity seeds),
 * with the amount of data of the quick protocol, so that sampling noise alone does not fail a
 * faithful student, while a systematic change of a bond length by ≥ 0.02 Å, of an angle by
 * ≥ 3°, a shifted dihedral basin or a displaced first O–O peak does fail. The measured spreads are
 * given per constant below.
 */
public final class DivergenceThresholds {
    /**
     * Default JS limit for every kind: 0.10. Two independent 300 K Langevin runs of the
     * classical reference potential on alanine dipeptide (4 × 2 ps per side, 400 frames pooled)
     * differed by JS ≤ 0.02 in bond and angle types and ≤ 0.06 in φ/ψ/ω.
     */
    public static final double DEFAULT_MAX_JS = 0.10;
    /** Default W1 limit for bond lengths, Å: 0.01 (same-model spread ≤ 0.002 Å). */
    public static final double DEFAULT_MAX_W1_BOND_A = 0.01;
    /** Default W1 limit for bond angles, degrees: 1.5 (same-model spread ≤ 0.3°). */
    public static final double DEFAULT_MAX_W1_ANGLE_DEG = 1.5;
    /** Default W1 limit for backbone dihedrals (circular), degrees: 10 (same-model spread ≤ 4°). */
    public static final double DEFAULT_MAX_W1_DIHEDRAL_DEG = 10.0;
    /** Default W1 limit for O–O distances (g(r) range and clusters), Å: 0.10. */
    public static final double DEFAULT_MAX_W1_OO_A = 0.10;

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
        for (ObservableKind k : ObservableKind.values()) {
            js.put(k, DEFAULT_MAX_JS);
        }
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
