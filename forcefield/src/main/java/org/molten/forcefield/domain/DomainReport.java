package org.molten.forcefield.domain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A structure checked against a {@link ModelDomain}: the atoms whose environment the model's training data never
 * contained, or held only in strained frames (typical of none of its molecules: a stretched bond, a collision). Such atoms are a warning, not an error: the model still computes their forces, but by extrapolation,
 * and nothing in its training vouches for them. When the domain is {@linkplain #known() unknown} nothing is named.
 *
 * <p>When the domain has bonded pairs ({@link ModelDomain#hasPairs()}), the report also names the bonds between two
 * atoms in known environments whose pair of environments the training data never held bonded: a bond whose chemistry
 * is new (ethylene's C=C to a model trained on alkanes and propene).
 *
 * @param known       false when the model's weight file has no domain entry
 * @param atoms       atoms of the structure
 * @param unseen      the atoms in environments absent from the training data, in atom order
 * @param unseenBonds the bonds whose pair of environments the training data never held bonded, ordered by atoms;
 *                    empty when the domain has no pairs
 */
public record DomainReport(boolean known, int atoms, List<UnseenAtom> unseen, List<UnseenBond> unseenBonds) {

    /** Atoms named per environment in {@link #describe()} before "and N more". */
    private static final int NAMED_PER_ENVIRONMENT = 8;

    /**
     * One atom outside the domain.
     *
     * @param index          the atom's index in the structure, from 0
     * @param environment    its environment
     * @param seenAtomFrames atoms over all training frames that had it: 0 when absent, else it was seen only in
     *                       strained or colliding frames (typical of no training molecule)
     */
    public record UnseenAtom(int index, AtomEnvironment environment, long seenAtomFrames) {
        /** An atom whose environment the training data never held. */
        public UnseenAtom(int index, AtomEnvironment environment) {
            this(index, environment, 0);
        }

        /** True when the training data never held its environment. */
        public boolean absent() {
            return seenAtomFrames == 0;
        }
    }

    /**
     * One bond between environments never bonded in the training data.
     *
     * @param i    the first atom's index, from 0 (i &lt; j)
     * @param j    the second atom's index
     * @param pair the two atoms' environments
     */
    public record UnseenBond(int i, int j, EnvironmentPair pair) {
    }

    public DomainReport {
        unseen = List.copyOf(unseen);
        unseenBonds = unseenBonds == null ? List.of() : List.copyOf(unseenBonds);
    }

    /** A report without bonds named (a domain without pairs). */
    public DomainReport(boolean known, int atoms, List<UnseenAtom> unseen) {
        this(known, atoms, unseen, List.of());
    }

    static DomainReport of(int atoms, List<UnseenAtom> unseen) {
        return new DomainReport(true, atoms, unseen);
    }

    static DomainReport of(int atoms, List<UnseenAtom> unseen, List<UnseenBond> unseenBonds) {
        return new DomainReport(true, atoms, unseen, unseenBonds);
    }

    static DomainReport unknown(int atoms) {
        return new DomainReport(false, atoms, List.of());
    }

    /** True when the domain is known, every atom's environment is in it and no bond's pair is new to it. */
    public boolean inside() {
        return known && unseen.isEmpty() && unseenBonds.isEmpty();
    }

    /** The unseen environments, each with the indices of its atoms, in order of first appearance. */
    public Map<AtomEnvironment, List<Integer>> byEnvironment() {
        Map<AtomEnvironment, List<Integer>> out = new LinkedHashMap<>();
        for (UnseenAtom a : unseen) {
            out.computeIfAbsent(a.environment(), k -> new ArrayList<>()).add(a.index());
        }
        return out;
    }

    /**
     * One line for a warning: "2 of 6 atoms in environments absent from the training data: C(C,N) (atom 1), N(C,O,O)
     * (atoms 1, 4)"; "domain unknown ..." for an unknown domain; "every atom's environment is in the training data"
     * when inside.
     */
    public String describe() {
        if (!known) {
            return "domain unknown: the model's weight file has no " + ModelDomain.METADATA_KEY
                    + " entry, so no atom can be checked against its training data";
        }
        if (unseen.isEmpty() && unseenBonds.isEmpty()) {
            return "every atom's environment is in the training data";
        }
        List<UnseenAtom> absent = unseen.stream().filter(UnseenAtom::absent).toList();
        List<UnseenAtom> strained = unseen.stream().filter(a -> !a.absent()).toList();
        List<String> lines = new ArrayList<>();
        if (!absent.isEmpty()) {
            lines.add(absent.size() + " of " + atoms + " atoms in environments absent from the training data: "
                    + listed(absent, false));
        }
        if (!strained.isEmpty()) {
            lines.add(strained.size() + (absent.isEmpty() ? " of " + atoms + " atoms" : "") + " in environments the training "
                    + "data held only in strained frames (typical of none of its molecules): " + listed(strained, true));
        }
        if (!unseenBonds.isEmpty()) {
            lines.add(unseenBonds.size() + (unseenBonds.size() == 1 ? " bond" : " bonds") + " between environments never "
                    + "bonded in the training data: " + listedBonds(unseenBonds));
        }
        return String.join("; ", lines);
    }

    /** "C(C,H,H)-C(C,H,H) (atoms 0-1), C(C,H)-O(C) (atoms 2-5, 7-8)". */
    private static String listedBonds(List<UnseenBond> bonds) {
        Map<EnvironmentPair, List<String>> by = new LinkedHashMap<>();
        for (UnseenBond b : bonds) {
            by.computeIfAbsent(b.pair(), k -> new ArrayList<>()).add(b.i() + "-" + b.j());
        }
        List<String> parts = new ArrayList<>();
        by.forEach((pair, idx) -> parts.add(pair.canonical() + " (atoms "
                + String.join(", ", idx.subList(0, Math.min(idx.size(), NAMED_PER_ENVIRONMENT)))
                + (idx.size() > NAMED_PER_ENVIRONMENT ? " and " + (idx.size() - NAMED_PER_ENVIRONMENT) + " more" : "") + ")"));
        return String.join(", ", parts);
    }

    /** "C(C,N) (atom 1), O(N) (atoms 2, 3)", with the training atom-frames when {@code counts}. */
    private static String listed(List<UnseenAtom> atoms, boolean counts) {
        Map<AtomEnvironment, List<Integer>> by = new LinkedHashMap<>();
        Map<AtomEnvironment, Long> seen = new LinkedHashMap<>();
        for (UnseenAtom a : atoms) {
            by.computeIfAbsent(a.environment(), k -> new ArrayList<>()).add(a.index());
            seen.put(a.environment(), a.seenAtomFrames());
        }
        List<String> parts = new ArrayList<>();
        by.forEach((env, idx) -> {
            List<String> shown = new ArrayList<>();
            for (int k = 0; k < Math.min(idx.size(), NAMED_PER_ENVIRONMENT); k++) {
                shown.add(String.valueOf(idx.get(k)));
            }
            parts.add(env.canonical() + " (atom" + (idx.size() > 1 ? "s " : " ") + String.join(", ", shown)
                    + (idx.size() > NAMED_PER_ENVIRONMENT ? " and " + (idx.size() - NAMED_PER_ENVIRONMENT) + " more" : "")
                    + (counts ? "; " + seen.get(env) + " training atom-frames" : "") + ")");
        });
        return String.join(", ", parts);
    }
}
