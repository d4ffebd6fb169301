package org.molten.validation.reports;

import java.util.List;

/**
 * One system checked against the domain of the model under test (the atom environments of its training data,
 * org.molten.forcefield.domain): the atoms whose environment the training data never contained. A warning for the
 * reader, not a criterion: the verdict does not depend on it.
 *
 * @param system  the system's name in the report
 * @param known   false when the model's weight file carries no domain (then nothing is named)
 * @param atoms   atoms of the system
 * @param unseen  the atoms outside the domain, in atom order
 * @param summary one line: "2 of 6 atoms in environments absent from the training data: C(C,N) (atom 1), ..."
 * @param unseenBonds the bonds between environments never bonded in the training data (empty when the model's domain
 *                    has no bonded pairs)
 */
public record DomainNote(String system, boolean known, int atoms, List<Atom> unseen, String summary, List<Bond> unseenBonds) {

    /**
     * One atom outside the domain.
     *
     * @param index          its index in the structure, from 0
     * @param environment    its environment, canonical ("C(C,N)")
     * @param seenAtomFrames training atom-frames with that environment: 0 when absent, else seen only in strained frames
     */
    public record Atom(int index, String environment, long seenAtomFrames) {
    }

    /**
     * One bond between two environments the training data never held bonded.
     *
     * @param i    the first atom's index, from 0 (i &lt; j)
     * @param j    the second atom's index
     * @param pair the two environments, canonical ("C(C,H,H)-C(C,H,H)")
     */
    public record Bond(int i, int j, String pair) {
    }

    public DomainNote {
        unseen = List.copyOf(unseen);
        unseenBonds = unseenBonds == null ? List.of() : List.copyOf(unseenBonds);
    }

    /** A note without bonds named. */
    public DomainNote(String system, boolean known, int atoms, List<Atom> unseen, String summary) {
        this(system, known, atoms, unseen, summary, List.of());
    }

    /** True when the domain is known, every atom is inside it and no bond is new to it. */
    public boolean inside() {
        return known && unseen.isEmpty() && unseenBonds.isEmpty();
    }
}
