package org.molten.forcefield.classical;

/** How Lennard-Jones parameters of two different elements are combined. */
public enum MixingRule {
    /** σ_ij = (σ_i + σ_j)/2, ε_ij = √(ε_i ε_j) (Lorentz 1881; Berthelot 1898; AMBER, CHARMM). */
    LORENTZ_BERTHELOT,
    /** σ_ij = √(σ_i σ_j), ε_ij = √(ε_i ε_j) (OPLS, UFF). */
    GEOMETRIC;

    /** Mixed σ in Å. */
    public double sigmaA(double sigmaIA, double sigmaJA) {
        return this == LORENTZ_BERTHELOT ? 0.5 * (sigmaIA + sigmaJA) : Math.sqrt(sigmaIA * sigmaJA);
    }

    /** Mixed ε in eV (geometric for both rules). */
    public double epsilonEv(double epsilonIEv, double epsilonJEv) {
        return Math.sqrt(epsilonIEv * epsilonJEv);
    }
}
