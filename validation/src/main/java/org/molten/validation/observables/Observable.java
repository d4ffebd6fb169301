package org.molten.validation.observables;

import java.util.Arrays;

/**
 * One structural observable: a name ("bond C-H", "angle H-C-H", "dihedral phi", "rdf O-O"), its
 * kind, the fixed histogram range, and the atom tuples whose values it pools (pairs for bonds
 * and O–O distances, triples for angles, quadruples for dihedrals). Immutable; equal when name,
 * kind, range and tuples are equal, which is what makes two accumulators comparable.
 */
public final class Observable {
    private final String name;
    private final ObservableKind kind;
    private final double lower;
    private final int bins;
    private final int[][] tuples;

    private Observable(String name, ObservableKind kind, double lower, int bins, int[][] tuples) {
        this.name = name;
        this.kind = kind;
        this.lower = lower;
        this.bins = bins;
        this.tuples = tuples;
    }

    /**
     * An observable of {@code kind} over {@code bins} bins of the kind's width from {@code lower}.
     *
     * @param tuples atom indices per measured value (2, 3 or 4 per tuple by kind), copied
     * @throws IllegalArgumentException for a tuple of the wrong size or no tuples
     */
    public static Observable of(String name, ObservableKind kind, double lower, int bins, int[][] tuples) {
        int arity = switch (kind) {
            case BOND_LENGTH, OO_RADIAL_DISTRIBUTION, OO_DISTANCE -> 2;
            case BOND_ANGLE -> 3;
            case BACKBONE_DIHEDRAL -> 4;
        };
        if (tuples.length == 0) {
            throw new IllegalArgumentException("observable " + name + " has no atom tuples");
        }
        int[][] copy = new int[tuples.length][];
        for (int t = 0; t < tuples.length; t++) {
            if (tuples[t].length != arity) {
                throw new IllegalArgumentException("observable " + name + " (" + kind.key() + ") needs " + arity
                        + " atoms per tuple, got " + Arrays.toString(tuples[t]));
            }
            copy[t] = tuples[t].clone();
        }
        Histogram.of(lower, kind.binWidth, bins, kind.periodic);    // validates the range
        return new Observable(name, kind, lower, bins, copy);
    }

    /** Name, unique within an {@link ObservableSet}: kind prefix and type ("bond C-H"). */
    public String name() {
        return name;
    }

    /** The kind, which fixes unit, bin width and periodicity. */
    public ObservableKind kind() {
        return kind;
    }

    /** Unit of the values ("Å", "deg"). */
    public String unit() {
        return kind.unit;
    }

    /** Lower edge of the histogram range, in {@link #unit()}. */
    public double lower() {
        return lower;
    }

    /** Upper edge of the histogram range, in {@link #unit()}. */
    public double upper() {
        return lower + bins * kind.binWidth;
    }

    /** Number of bins. */
    public int bins() {
        return bins;
    }

    /** Number of atom tuples (values per frame, except O–O pairs: one per pair of listed oxygens). */
    public int tupleCount() {
        return tuples.length;
    }

    /** Atom tuple {@code t}, a copy. */
    public int[] tuple(int t) {
        return tuples[t].clone();
    }

    int[][] tuplesUnsafe() {
        return tuples;
    }

    /** An empty histogram with this observable's binning. */
    public Histogram emptyHistogram() {
        return Histogram.of(lower, kind.binWidth, bins, kind.periodic);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Observable b && name.equals(b.name) && kind == b.kind && lower == b.lower && bins == b.bins
                && Arrays.deepEquals(tuples, b.tuples);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + kind.hashCode();
    }

    @Override
    public String toString() {
        return name + " [" + lower + ", " + upper() + ") " + kind.unit + ", " + tuples.length + " tuples";
    }
}
