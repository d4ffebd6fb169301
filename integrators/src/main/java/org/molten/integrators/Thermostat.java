package org.molten.integrators;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A thermostat as a strategy of {@link VelocityVerlet}: an operator that acts on the velocities
 * for a given time interval, called at a fixed point of the step given by {@link #placement()}.
 * Thermostats that hold state (Nosé–Hoover chain positions and velocities, the energy exchanged
 * with the bath) write it to checkpoints; random numbers come from the simulation's stream so
 * that they are checkpointed with it.
 */
public interface Thermostat {

    /** Where in the velocity-Verlet step the thermostat acts. */
    enum Placement {
        /**
         * Half an interval before the first kick and half after the second,
         * T(dt/2) B(dt/2) A(dt) B(dt/2) T(dt/2): the Trotter factorisation of Martyna, Tuckerman,
         * Tobias and Klein (1996), used for Nosé–Hoover chains, Bussi and Berendsen.
         */
        AROUND_VERLET,
        /**
         * For a whole interval between two half drifts, B(dt/2) A(dt/2) O(dt) A(dt/2) B(dt/2):
         * the BAOAB splitting of Leimkuhler and Matthews (2013) for Langevin dynamics.
         */
        MID_DRIFT
    }

    /**
     * This thermostat with its exact parameters as plain data for a device platform, combined with
     * velocity Verlet at {@code timestepFs} (fs).
     */
    org.molten.core.dynamics.DynamicsSpec dynamicsSpec(double timestepFs);

    /** Where this thermostat acts. */
    Placement placement();

    /** A short name ("bussi", "nose-hoover-chain"). */
    String name();

    /** The name with its parameters and units, e.g. {@code bussi(T=300.0 K, tau=100.0 fs)}. */
    String description();

    /** The target temperature in K. */
    double targetTemperatureK();

    /**
     * Acts on the velocities for {@code intervalFs} (dt/2 for {@link Placement#AROUND_VERLET},
     * dt for {@link Placement#MID_DRIFT}).
     */
    void apply(DynamicsState s, double intervalFs);

    /**
     * The kinetic energy of the last step to report instead of that of the full-step velocities,
     * eV (see {@link Integrator#reportedKineticEnergyEv}); empty by default.
     */
    default java.util.OptionalDouble reportedKineticEnergyEv() {
        return java.util.OptionalDouble.empty();
    }

    /** Energy taken out of the system so far, eV (see {@link Integrator#bathEnergyEv}). */
    double bathEnergyEv(int degreesOfFreedom);

    /** True when a zero total linear momentum stays zero under this thermostat. */
    boolean conservesLinearMomentum();

    /** True when a zero angular momentum stays zero under this thermostat. */
    boolean conservesAngularMomentum();

    /** Writes the thermostat's state variables. */
    void writeState(DataOutput out) throws IOException;

    /** Restores what {@link #writeState} wrote. */
    void readState(DataInput in) throws IOException;
}
