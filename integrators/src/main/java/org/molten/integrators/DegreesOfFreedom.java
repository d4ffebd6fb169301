package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.RandomStream;

/**
 * The constraints a {@link Simulation} removes from 3N degrees of freedom, derived from the
 * integrator and the state instead of given by the caller: 3 for the centre-of-mass momentum when
 * the integrator keeps it (and it is zero), and the rotation (3, or 2 for a linear molecule) of an
 * isolated system whose integrator conserves angular momentum (and it is zero).
 */
final class DegreesOfFreedom {
    /** A momentum counts as zero below this fraction of Σ m|v| (or Σ m|r−r_com||v|): rounding only. */
    private static final double ZERO_FRACTION = 1e-9;

    private DegreesOfFreedom() {}

    /**
     * Draws Maxwell–Boltzmann velocities at {@code temperatureK} (rescaled exactly), removing what
     * the integrator conserves.
     *
     * @return the number of constraints removed
     */
    static int draw(Atoms atoms, Integrator integrator, double temperatureK, RandomStream rng) {
        MaxwellBoltzmann mb = MaxwellBoltzmann.at(temperatureK).rescaledExactly();
        if (isolated(atoms) && integrator.conservesAngularMomentum() && atoms.size() > 1) {
            mb = mb.removingRotation();
        }
        int removed = mb.assign(atoms, rng);
        // A thermostat that adds momentum thermalises all 3N: the drawn start has none, but it is not kept.
        return integrator.conservesLinearMomentum() ? removed : 0;
    }

    /** The constraints the given velocities satisfy and the integrator keeps. */
    static int ofGivenVelocities(Atoms atoms, Integrator integrator) {
        if (!integrator.conservesLinearMomentum() || !isZero(Observables.linearMomentum(atoms), momentumScale(atoms))) {
            return 0;
        }
        int removed = 3;
        if (isolated(atoms) && integrator.conservesAngularMomentum() && atoms.size() > 1
                && isZero(Observables.angularMomentum(atoms), angularMomentumScale(atoms))) {
            removed += MaxwellBoltzmann.removeRotation(atoms.copy());
        }
        return removed;
    }

    private static boolean isolated(Atoms atoms) {
        return atoms.cell().map(c -> !c.anyPeriodic()).orElse(true);
    }

    private static boolean isZero(double[] vector, double scale) {
        double norm = Math.sqrt(vector[0] * vector[0] + vector[1] * vector[1] + vector[2] * vector[2]);
        return norm <= ZERO_FRACTION * scale;
    }

    private static double momentumScale(Atoms atoms) {
        double[] v = atoms.velocities();
        double sum = 0;
        for (int i = 0; i < atoms.size(); i++) {
            sum += atoms.massAmu(i) * Math.sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
        }
        return sum;
    }

    private static double angularMomentumScale(Atoms atoms) {
        double[] com = Observables.centreOfMass(atoms);
        double[] r = atoms.positions();
        double[] v = atoms.velocities();
        double sum = 0;
        for (int i = 0; i < atoms.size(); i++) {
            double dx = r[3 * i] - com[0], dy = r[3 * i + 1] - com[1], dz = r[3 * i + 2] - com[2];
            double speed = Math.sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
            sum += atoms.massAmu(i) * Math.sqrt(dx * dx + dy * dy + dz * dz) * speed;
        }
        return sum;
    }
}
