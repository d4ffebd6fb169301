package org.molten.core;

/**
 * Potential energy (eV) and forces (eV/Å, flat [3N]) of one evaluation.
 *
 * @param energyEv potential energy in eV
 * @param forcesEvPerA forces in eV/Å, flat [x0, y0, z0, x1, ...]
 */
public record ForceResult(double energyEv, double[] forcesEvPerA) {
}
