package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.integrators.constraints.ConstraintSolver;

/**
 * The constraints a {@link Simulation} removes from 3N degrees of freedom, derived from the
 * integrator and the state instead of given by the caller: 3 for the centre-of-mass momentum when
 * the integrator keeps it (and it is zero), and the rotation (3, or 2 for a linear molecule) of an
 * isolated system whose integrator conserves angular momentum (and it is zero), and one for each
 * constrained distance (three per rigid water).
 */
final class DegreesOfFreedom {
    /** A momentum counts as zero below this fraction of Σ m|v| (or Σ m|r−r_com||v|): rounding only. */
    private static final double ZERO_FRACTION = 1e-9;

    private DegreesOfFreedom() {}

    /**
     * Draws Maxwell–Boltzmann velocities at {@code temperatureK} (rescaled exactly, over the degrees
     * of freedom left), removing what the integrator conserves and projecting them onto the
     * constraints.
     *
     * @return the number of degrees of freedom removed (momentum, rotation and the constraints)
     */
    static int draw(Atoms atoms, Integrator integrator, double temperatureK, RandomStream rng, ConstraintSolver constraints) {
        MaxwellBoltzmann mb = MaxwellBoltzmann.at(temperatureK);
        if (isolated(atoms) && integrator.conservesAngularMomentum() && atoms.size() > 1) {
            mb = mb.removingRotation();
        }
        int drawnWithout = mb.assign(atoms, rng);
        // The projection is by internal impulses along the bonds: momentum and angular momentum stay zero.
        constraints.constrainVelocities(atoms);
        int dof = Observables.degreesOfFreedom(atoms.size(), drawnWithout + constraints.count());
        double now = Observables.temperatureK(atoms, dof);
        if (temperatureK > 0 && now > 0) {
            double f = Math.sqrt(temperatureK / now);
            double[] v = atoms.velocities();
            for (int k = 0; k < v.length; k++) {
                v[k] *= f;
            }
        }
        // A thermostat that adds momentum thermalises all 3N: the drawn start has none, but it is not kept.
        return (integrator.conservesLinearMomentum() ? drawnWithout : 0) + constraints.count();
    }

    /** The constraints the given velocities satisfy (after projection onto the constraints) and the integrator keeps. */
    static int ofGivenVelocities(Atoms atoms, Integrator integrator, ConstraintSolver constraints) {
        constraints.constrainVelocities(atoms);
        int removed = constraints.count();
        if (!integrator.conservesLinearMomentum() || !isZero(Observables.linearMomentum(atoms), momentumScale(atoms))) {
            return removed;
        }
        removed += 3;
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
