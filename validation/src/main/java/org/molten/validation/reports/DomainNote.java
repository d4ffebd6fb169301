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
 */
public record DomainNote(String system, boolean known, int atoms, List<Atom> unseen, String summary) {

    /**
     * One atom outside the domain.
     *
     * @param index          its index in the structure, from 0
     * @param environment    its environment, canonical ("C(C,N)")
     * @param seenAtomFrames training atom-frames with that environment: 0 when absent, else seen only in strained frames
     */
    public record Atom(int index, String environment, long seenAtomFrames) {
    }

    public DomainNote {
        unseen = List.copyOf(unseen);
    }

    /** True when the domain is known and every atom is inside it. */
    public boolean inside() {
        return known && unseen.isEmpty();
    }
}
