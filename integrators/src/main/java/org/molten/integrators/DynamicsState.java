package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.RandomStream;

/**
 * What an {@link Integrator} and a {@link Thermostat} act on during a step: the live state, the
 * forces at the current positions, the number of degrees of freedom and the simulation's random
 * stream. {@link Simulation} is the implementation; tests may supply their own.
 */
public interface DynamicsState {

    /** The atoms; positions (Å) and velocities (Å/fs) are live arrays updated in place. */
    Atoms atoms();

    /** Forces at the current positions, eV/Å, flat [3N], live. */
    double[] forces();

    /**
     * Degrees of freedom of the kinetic energy: 3N minus the constraints removed from the
     * velocities (3 for the centre-of-mass momentum, 6 when rotation is removed too, and one per
     * constrained distance). Every
     * thermostat targets ⟨KE⟩ = dof k_B T / 2 with this number.
     */
    int degreesOfFreedom();

    /**
     * The constraints the integrator holds (RATTLE and SETTLE); none by default. Their count is
     * already subtracted from {@link #degreesOfFreedom()}.
     */
    default org.molten.integrators.constraints.ConstraintSolver constraints() {
        return org.molten.integrators.constraints.ConstraintSolver.none();
    }

    /** The random stream of this simulation (checkpointed with it), or null if it was given no seed. */
    RandomStream random();

    /**
     * Evaluates the force field at the current positions into {@link #forces()}.
     *
     * @return the potential energy in eV
     */
    double computeForces();

    /**
     * The random stream of {@code s}.
     *
     * @throws IllegalStateException if the simulation was built without a seed
     */
    static RandomStream requireRandom(DynamicsState s) {
        RandomStream r = s.random();
        if (r == null) {
            throw new IllegalStateException("this integrator needs a random stream; give the simulation a seed");
        }
        return r;
    }
}
