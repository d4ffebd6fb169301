package org.molten.integrators.thermostats;

import java.util.Locale;

/** The two operations every rescaling thermostat shares: refuse a system at rest, scale velocities. */
final class VelocityScaling {
    private VelocityScaling() {}

    /** Multiplies every velocity component by {@code factor}. */
    static void scale(double[] velocities, double factor) {
        for (int k = 0; k < velocities.length; k++) {
            velocities[k] *= factor;
        }
    }

    /**
     * @throws IllegalStateException when the kinetic energy is zero: a velocity-rescaling
     *                               thermostat cannot heat a system at rest
     */
    static void requireMoving(double kineticEnergyEv, String thermostat) {
        if (!(kineticEnergyEv > 0)) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                    "%s cannot thermostat a system at rest (kinetic energy %s eV): it only rescales velocities;"
                            + " assign Maxwell-Boltzmann velocities first, or use Langevin", thermostat, kineticEnergyEv));
        }
    }
}
