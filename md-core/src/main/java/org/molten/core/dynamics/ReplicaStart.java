package org.molten.core.dynamics;

import java.util.Objects;
import org.molten.core.Atoms;

/**
 * The starting state of one replica handed to a {@link DevicePlatform}: the atoms (positions Å,
 * velocities Å/fs, masses amu, cell), the dynamics, the seed of its random numbers and the degrees
 * of freedom its thermostat targets (3N minus the constraints removed from the velocities).
 *
 * @param atoms             the start state (copied by the platform, not kept)
 * @param dynamics          integrator and thermostat; every replica of one binding has the same kind
 *                          and timestep, temperatures may differ
 * @param seed              seed of this replica's random numbers (thermostat noise)
 * @param degreesOfFreedom  degrees of freedom of the kinetic energy
 * @param constraints       the distances held (RATTLE pairs, SETTLE waters), atom indices within the replica;
 *                          {@link ConstraintSet#none()} for none; the atoms already satisfy them
 */
public record ReplicaStart(Atoms atoms, DynamicsSpec dynamics, long seed, int degreesOfFreedom, ConstraintSet constraints) {
    /** A replica without constraints. */
    public ReplicaStart(Atoms atoms, DynamicsSpec dynamics, long seed, int degreesOfFreedom) {
        this(atoms, dynamics, seed, degreesOfFreedom, ConstraintSet.none());
    }

    public ReplicaStart {
        Objects.requireNonNull(atoms, "atoms");
        Objects.requireNonNull(dynamics, "dynamics");
        Objects.requireNonNull(constraints, "constraints");
        if (degreesOfFreedom < 1 || degreesOfFreedom > 3 * atoms.size()) {
            throw new IllegalArgumentException("degrees of freedom must be 1 to 3N = " + 3 * atoms.size() + ": "
                    + degreesOfFreedom);
        }
    }
}
