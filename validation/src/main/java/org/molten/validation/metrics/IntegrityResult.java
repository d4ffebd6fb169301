package org.molten.validation.metrics;

/**
 * Summary of the structural-integrity checks over a run ({@link StructuralIntegrity}).
 *
 * @param intact                 true when no rule was broken in any checked frame
 * @param framesChecked          how many frames were checked
 * @param bonds                  bonds perceived in the starting structure
 * @param maxBondStretchRatio    largest r/r_start over all bonds and frames
 * @param maxBondStretchAllowed  the limit on r/r_start
 * @param worstBond              the bond that reached maxBondStretchRatio, e.g. "O0-H1"
 * @param hydrogensChecked       hydrogens with a heavy-atom partner at the start
 * @param maxDistanceFromComA    largest atom distance from the centre of mass (Å); NaN when periodic
 * @param escapeLimitA           the distance from the centre of mass that counts as escaped (Å);
 *                               NaN when periodic (not checked)
 * @param minDistanceA           smallest interatomic distance seen (Å)
 * @param overlapLimitA          the distance below which two atoms count as overlapping (Å)
 * @param firstViolation         the first broken rule, or null when intact
 */
public record IntegrityResult(
        boolean intact, long framesChecked, int bonds, double maxBondStretchRatio, double maxBondStretchAllowed,
        String worstBond, int hydrogensChecked, double maxDistanceFromComA, double escapeLimitA,
        double minDistanceA, double overlapLimitA, IntegrityViolation firstViolation) {
}
