package org.molten.validation.metrics;

import org.molten.core.Checks;
import org.molten.core.Units;

/**
 * What the canonical (NVT) ensemble predicts for the kinetic energy of {@code dof} quadratic
 * momentum degrees of freedom at temperature T: K follows a Gamma distribution with shape dof/2
 * and scale k_B T, so ⟨K⟩ = (dof/2) k_B T, σ_K = sqrt(dof/2) k_B T, and the instantaneous
 * temperature T_inst = 2K/(dof k_B) has mean T and standard deviation σ_T = T sqrt(2/dof).
 */
public final class CanonicalExpectation {
    private CanonicalExpectation() {}

    /** σ_T = T sqrt(2/dof) in K. */
    public static double temperatureSigmaK(double temperatureK, int degreesOfFreedom) {
        Checks.requirePositive(temperatureK, "temperatureK");
        Checks.requirePositive(degreesOfFreedom, "degreesOfFreedom");
        return temperatureK * Math.sqrt(2.0 / degreesOfFreedom);
    }

    /** ⟨K⟩ = (dof/2) k_B T in eV. */
    public static double kineticMeanEv(double temperatureK, int degreesOfFreedom) {
        Checks.requirePositive(temperatureK, "temperatureK");
        Checks.requirePositive(degreesOfFreedom, "degreesOfFreedom");
        return 0.5 * degreesOfFreedom * Units.BOLTZMANN_EV_PER_K * temperatureK;
    }

    /** σ_K = sqrt(dof/2) k_B T in eV. */
    public static double kineticSigmaEv(double temperatureK, int degreesOfFreedom) {
        Checks.requirePositive(temperatureK, "temperatureK");
        Checks.requirePositive(degreesOfFreedom, "degreesOfFreedom");
        return Math.sqrt(0.5 * degreesOfFreedom) * Units.BOLTZMANN_EV_PER_K * temperatureK;
    }
}
