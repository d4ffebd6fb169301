package org.molten.validation.reports;

/**
 * Where and why a run stopped early.
 *
 * @param step   the MD step at which the problem was detected
 * @param timeFs simulation time of that step (fs)
 * @param atom   the atom concerned (0-based), or -1 when no single atom is to blame
 * @param cause  what happened, in words (non-finite force, atom escaped, ...)
 */
public record BlowUp(long step, double timeFs, int atom, String cause) {
}
