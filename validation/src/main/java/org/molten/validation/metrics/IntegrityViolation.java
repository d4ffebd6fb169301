package org.molten.validation.metrics;

/**
 * The first frame at which a structure stopped being intact.
 *
 * @param kind        which rule broke
 * @param step        MD step of the frame
 * @param timeFs      simulation time of the frame (fs)
 * @param atom        the atom concerned (0-based)
 * @param description what happened, with element symbols and distances in Å
 */
public record IntegrityViolation(Kind kind, long step, double timeFs, int atom, String description) {

    /** The integrity rules. */
    public enum Kind {
        /** A coordinate became NaN or infinite. */
        NON_FINITE,
        /** A bond present at the start grew past the allowed multiple of its starting length. */
        BOND_STRETCHED,
        /** A hydrogen is no longer nearest to the heavy atom it was bonded to at the start. */
        HYDROGEN_DETACHED,
        /** A hydrogen farther than 2.5 Å from its bonded heavy atom. */
        HYDROGEN_FAR,
        /** An atom of an isolated molecule moved too far from the centre of mass. */
        ATOM_ESCAPED,
        /** Two atoms came closer than the overlap distance. */
        ATOMS_OVERLAP
    }
}
