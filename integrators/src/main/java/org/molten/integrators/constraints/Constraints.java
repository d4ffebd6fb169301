package org.molten.integrators.constraints;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Element;
import org.molten.core.dynamics.ConstraintSet;

/**
 * Which distances a simulation holds fixed, as a rule to apply to its starting structure (OpenMM's
 * {@code constraints=HBonds/AllBonds} with {@code rigidWater}): none, every bond to a hydrogen,
 * every bond, or a given list of bonded pairs. Bonds are those {@link Bonds#perceive} finds in
 * the start; lengths are the start's distances unless given. With h-bonds or all-bonds, each
 * water molecule (an O bonded to exactly two H, nothing else) is made rigid, its O–H (the mean of
 * its two) and H–H distances held by SETTLE. Immutable.
 */
public final class Constraints {
    /** Default RATTLE tolerance (see {@link ConstraintSet}): relative length error, and relative rate in 1/fs. */
    public static final double DEFAULT_TOLERANCE = 1e-10;

    /** The rule. */
    public enum Rule {
        NONE("none"), H_BONDS("h-bonds"), ALL_BONDS("all-bonds"), PAIRS("pairs");

        private final String id;

        Rule(String id) {
            this.id = id;
        }

        /** The name on the command line ("h-bonds"). */
        public String id() {
            return id;
        }
    }

    /** A pair of atoms held at {@code lengthA} (Å), or at their starting distance when it is NaN. */
    public record Pair(int i, int j, double lengthA) {
        /** A pair held at its starting distance. */
        public Pair(int i, int j) {
            this(i, j, Double.NaN);
        }
    }

    private static final Constraints NONE = new Constraints(Rule.NONE, List.of(), DEFAULT_TOLERANCE, true);

    private final Rule rule;
    private final List<Pair> pairs;
    private final double tolerance;
    private final boolean rigidWater;

    private Constraints(Rule rule, List<Pair> pairs, double tolerance, boolean rigidWater) {
        if (!(tolerance > 0) || !(tolerance < 1)) {
            throw new IllegalArgumentException("constraint tolerance must be in (0, 1): " + tolerance);
        }
        this.rule = rule;
        this.pairs = List.copyOf(pairs);
        this.tolerance = tolerance;
        this.rigidWater = rigidWater;
    }

    /** Nothing constrained. */
    public static Constraints none() {
        return NONE;
    }

    /** Every bond to a hydrogen, and rigid water. */
    public static Constraints hBonds() {
        return new Constraints(Rule.H_BONDS, List.of(), DEFAULT_TOLERANCE, true);
    }

    /** Every bond, and rigid water. */
    public static Constraints allBonds() {
        return new Constraints(Rule.ALL_BONDS, List.of(), DEFAULT_TOLERANCE, true);
    }

    /** Exactly these pairs (each must be bonded in the start), nothing else. */
    public static Constraints pairs(List<Pair> pairs) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("an explicit constraint set needs at least one pair (or use none())");
        }
        return new Constraints(Rule.PAIRS, pairs, DEFAULT_TOLERANCE, false);
    }

    /**
     * The rule named on the command line: none, h-bonds or all-bonds.
     *
     * @throws IllegalArgumentException for another name
     */
    public static Constraints named(String name) {
        return switch (Objects.requireNonNull(name, "name").trim().toLowerCase(Locale.ROOT)) {
            case "none" -> none();
            case "h-bonds", "hbonds" -> hBonds();
            case "all-bonds", "allbonds" -> allBonds();
            default -> throw new IllegalArgumentException("unknown constraints '" + name + "': use none, h-bonds or all-bonds");
        };
    }

    /** The same rule with another RATTLE tolerance. */
    public Constraints withTolerance(double tolerance) {
        return new Constraints(rule, pairs, tolerance, rigidWater);
    }

    /** The same rule with waters flexible (their bonds then follow the rule like any other). */
    public Constraints withFlexibleWater() {
        return new Constraints(rule, pairs, tolerance, false);
    }

    /** The rule. */
    public Rule rule() {
        return rule;
    }

    /** True when nothing is constrained. */
    public boolean isNone() {
        return rule == Rule.NONE;
    }

    /** The RATTLE tolerance. */
    public double tolerance() {
        return tolerance;
    }

    /** True when waters are rigid (h-bonds and all-bonds unless {@link #withFlexibleWater}). */
    public boolean rigidWater() {
        return rigidWater && (rule == Rule.H_BONDS || rule == Rule.ALL_BONDS);
    }

    /**
     * The constraints of {@code atoms}, lengths from their positions (Å) unless a pair gives one.
     *
     * @throws IllegalArgumentException naming the atoms for a pair out of range, repeated, or not bonded
     */
    public ConstraintSet resolve(Atoms atoms) {
        if (rule == Rule.NONE) {
            return ConstraintSet.none();
        }
        int n = atoms.size();
        List<Bonds.Bond> bonds = Bonds.perceive(atoms);
        int[] waterOf = new int[n];
        java.util.Arrays.fill(waterOf, -1);
        List<int[]> waters = rigidWater() ? waters(atoms, bonds, waterOf) : List.of();
        List<Integer> first = new ArrayList<>(), second = new ArrayList<>();
        List<Double> lengths = new ArrayList<>();
        if (rule == Rule.PAIRS) {
            Set<Long> bonded = new HashSet<>();
            for (Bonds.Bond b : bonds) {
                bonded.add(key(b.i(), b.j(), n));
            }
            Set<Long> seen = new HashSet<>();
            for (Pair p : pairs) {
                if (p.i() < 0 || p.i() >= n || p.j() < 0 || p.j() >= n || p.i() == p.j()) {
                    throw new IllegalArgumentException("constraint between atoms " + p.i() + " and " + p.j()
                            + ": atoms must be two different indices from 0 to " + (n - 1));
                }
                if (!seen.add(key(p.i(), p.j(), n))) {
                    throw new IllegalArgumentException("constraint between atoms " + p.i() + " and " + p.j() + " given twice");
                }
                if (!bonded.contains(key(p.i(), p.j(), n))) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT,
                            "constraint between atoms %d (%s) and %d (%s): they are not bonded in the start (%.3f A apart, "
                                    + "beyond %.2f x the sum of their covalent radii, %.3f A)", p.i(), atoms.element(p.i()),
                            p.j(), atoms.element(p.j()), atoms.distance(p.i(), p.j()), Bonds.DEFAULT_FACTOR,
                            Bonds.DEFAULT_FACTOR * (atoms.element(p.i()).covalentRadiusA + atoms.element(p.j()).covalentRadiusA)));
                }
                first.add(p.i());
                second.add(p.j());
                lengths.add(Double.isNaN(p.lengthA()) ? atoms.distance(p.i(), p.j()) : p.lengthA());
            }
        } else {
            for (Bonds.Bond b : bonds) {
                if (waterOf[b.i()] >= 0 || waterOf[b.j()] >= 0) {
                    continue;
                }
                boolean hydrogen = atoms.element(b.i()) == Element.H || atoms.element(b.j()) == Element.H;
                if (rule == Rule.ALL_BONDS || hydrogen) {
                    first.add(b.i());
                    second.add(b.j());
                    lengths.add(b.lengthA());
                }
            }
        }
        int[] wa = new int[3 * waters.size()];
        double[] oh = new double[waters.size()], hh = new double[waters.size()];
        for (int w = 0; w < waters.size(); w++) {
            int[] t = waters.get(w);
            System.arraycopy(t, 0, wa, 3 * w, 3);
            oh[w] = 0.5 * (atoms.distance(t[0], t[1]) + atoms.distance(t[0], t[2]));
            hh[w] = atoms.distance(t[1], t[2]);
        }
        return new ConstraintSet(rule.id(), first.stream().mapToInt(Integer::intValue).toArray(),
                second.stream().mapToInt(Integer::intValue).toArray(), lengths.stream().mapToDouble(Double::doubleValue).toArray(),
                wa, oh, hh, tolerance);
    }

    /** Water molecules: an O bonded to exactly two H, each H bonded to that O only. Marks their atoms in {@code waterOf}. */
    static List<int[]> waters(Atoms atoms, List<Bonds.Bond> bonds, int[] waterOf) {
        int n = atoms.size();
        List<List<Integer>> neighbours = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            neighbours.add(new ArrayList<>(4));
        }
        for (Bonds.Bond b : bonds) {
            neighbours.get(b.i()).add(b.j());
            neighbours.get(b.j()).add(b.i());
        }
        List<int[]> waters = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            List<Integer> nb = neighbours.get(o);
            if (atoms.element(o) != Element.O || nb.size() != 2) {
                continue;
            }
            int h1 = nb.get(0), h2 = nb.get(1);
            if (atoms.element(h1) == Element.H && atoms.element(h2) == Element.H && neighbours.get(h1).size() == 1
                    && neighbours.get(h2).size() == 1) {
                waters.add(new int[] {o, Math.min(h1, h2), Math.max(h1, h2)});
                waterOf[o] = waters.size() - 1;
                waterOf[h1] = waters.size() - 1;
                waterOf[h2] = waters.size() - 1;
            }
        }
        return waters;
    }

    private static long key(int i, int j, int n) {
        return (long) Math.min(i, j) * n + Math.max(i, j);
    }

    /** e.g. "h-bonds (rigid water, tolerance 1e-10)". */
    public String description() {
        if (rule == Rule.NONE) {
            return "none";
        }
        return String.format(Locale.ROOT, "%s (%s, tolerance %s)", rule.id(), rigidWater() ? "rigid water" : "no rigid water",
                tolerance);
    }

    @Override
    public String toString() {
        return description();
    }
}
