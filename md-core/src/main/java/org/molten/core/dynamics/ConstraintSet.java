package org.molten.core.dynamics;

import java.util.Locale;

/**
 * Holonomic distance constraints of one system as plain data, resolved against its atoms: pairs
 * (i, j) held at a length (Å), solved by RATTLE, and rigid waters (O, H, H) held at their O–H and
 * H–H distances (Å), solved by SETTLE. Every platform (the host integrators, a device) reads the
 * same set, so both hold the same geometry. Immutable; the arrays are copied in and out.
 *
 * <p>{@code tolerance} is the convergence bound of the iterative (RATTLE) part: the largest
 * relative length error |d² − |r_ij|²| / (2 r_ij·r_ij⁰) of the positions (dimensionless), and the
 * largest relative rate |r_ij·v_ij| / d² of the velocities (1/fs), as ASE's FixBondLengths.
 */
public final class ConstraintSet {
    private static final ConstraintSet NONE = new ConstraintSet("none", new int[0], new int[0], new double[0],
            new int[0], new double[0], new double[0], 1e-10);

    private final String rule;
    private final int[] first;
    private final int[] second;
    private final double[] lengthsA;
    private final int[] waters;      // [O, H1, H2] per rigid water
    private final double[] waterOhA;
    private final double[] waterHhA;
    private final double tolerance;

    /**
     * @param rule      how the set was made ("h-bonds", "all-bonds", "pairs"), for logs and checkpoints
     * @param first     first atom of each pair
     * @param second    second atom of each pair
     * @param lengthsA  length of each pair, Å
     * @param waters    O, H1, H2 of each rigid water, flat [3W]
     * @param waterOhA  O–H distance of each rigid water, Å
     * @param waterHhA  H–H distance of each rigid water, Å
     * @param tolerance convergence bound of RATTLE (see the class comment), &gt; 0
     */
    public ConstraintSet(String rule, int[] first, int[] second, double[] lengthsA, int[] waters, double[] waterOhA,
                         double[] waterHhA, double tolerance) {
        if (first.length != second.length || first.length != lengthsA.length) {
            throw new IllegalArgumentException("constraint pairs: " + first.length + " first atoms, " + second.length
                    + " second atoms, " + lengthsA.length + " lengths");
        }
        if (waters.length != 3 * waterOhA.length || waterOhA.length != waterHhA.length) {
            throw new IllegalArgumentException("rigid waters: " + waters.length + " atoms for " + waterOhA.length
                    + " O-H and " + waterHhA.length + " H-H lengths");
        }
        if (!(tolerance > 0) || !(tolerance < 1)) {
            throw new IllegalArgumentException("constraint tolerance must be in (0, 1): " + tolerance);
        }
        for (int k = 0; k < lengthsA.length; k++) {
            if (!(lengthsA[k] > 0) || Double.isInfinite(lengthsA[k])) {
                throw new IllegalArgumentException("constraint between atoms " + first[k] + " and " + second[k]
                        + ": length must be positive and finite, got " + lengthsA[k] + " A");
            }
            if (first[k] == second[k]) {
                throw new IllegalArgumentException("constraint of atom " + first[k] + " with itself");
            }
        }
        this.rule = rule;
        this.first = first.clone();
        this.second = second.clone();
        this.lengthsA = lengthsA.clone();
        this.waters = waters.clone();
        this.waterOhA = waterOhA.clone();
        this.waterHhA = waterHhA.clone();
        this.tolerance = tolerance;
    }

    /** No constraints. */
    public static ConstraintSet none() {
        return NONE;
    }

    /** True when nothing is constrained. */
    public boolean isEmpty() {
        return first.length == 0 && waterOhA.length == 0;
    }

    /** The rule that made the set ("none", "h-bonds", "all-bonds", "pairs"). */
    public String rule() {
        return rule;
    }

    /** Number of RATTLE pairs. */
    public int pairCount() {
        return first.length;
    }

    /** Number of rigid (SETTLE) waters. */
    public int waterCount() {
        return waterOhA.length;
    }

    /** Degrees of freedom removed: one per pair, three per rigid water. */
    public int count() {
        return first.length + 3 * waterOhA.length;
    }

    /** First atom of pair k. */
    public int first(int k) {
        return first[k];
    }

    /** Second atom of pair k. */
    public int second(int k) {
        return second[k];
    }

    /** Length of pair k, Å. */
    public double lengthA(int k) {
        return lengthsA[k];
    }

    /** Atom {@code which} (0 = O, 1 = H1, 2 = H2) of rigid water w. */
    public int waterAtom(int w, int which) {
        return waters[3 * w + which];
    }

    /** O–H distance of rigid water w, Å. */
    public double waterOhA(int w) {
        return waterOhA[w];
    }

    /** H–H distance of rigid water w, Å. */
    public double waterHhA(int w) {
        return waterHhA[w];
    }

    /**
     * The same set with other lengths (pairs, then water O–H and H–H, Å), e.g. those a checkpoint
     * recorded, so that a restart holds the geometry of the run that wrote it.
     *
     * @throws IllegalArgumentException when the counts differ
     */
    public ConstraintSet withLengths(double[] pairLengthsA, double[] ohA, double[] hhA) {
        if (pairLengthsA.length != lengthsA.length || ohA.length != waterOhA.length || hhA.length != waterHhA.length) {
            throw new IllegalArgumentException("constraint lengths for " + pairLengthsA.length + " pairs and " + ohA.length
                    + " waters, this set has " + lengthsA.length + " pairs and " + waterOhA.length + " waters");
        }
        return new ConstraintSet(rule, first, second, pairLengthsA, waters, ohA, hhA, tolerance);
    }

    /** Pair lengths, Å, a copy. */
    public double[] lengthsA() {
        return lengthsA.clone();
    }

    /** O–H distances of the rigid waters, Å, a copy. */
    public double[] waterOhLengthsA() {
        return waterOhA.clone();
    }

    /** H–H distances of the rigid waters, Å, a copy. */
    public double[] waterHhLengthsA() {
        return waterHhA.clone();
    }

    /** Convergence bound of RATTLE (see the class comment). */
    public double tolerance() {
        return tolerance;
    }

    /**
     * One line for logs and checkpoints, e.g. {@code constraints(h-bonds: 12 pairs, 0 rigid waters,
     * tolerance 1e-10)}; a restart refuses a checkpoint whose line differs.
     */
    public String description() {
        if (isEmpty()) {
            return "constraints(none)";
        }
        return String.format(Locale.ROOT, "constraints(%s: %d pairs, %d rigid waters, tolerance %s)", rule,
                first.length, waterOhA.length, tolerance);
    }

    @Override
    public String toString() {
        return description();
    }
}
