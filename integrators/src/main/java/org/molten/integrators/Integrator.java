package org.molten.integrators;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Advances a {@link DynamicsState} by one timestep with exactly one force evaluation (OpenMM's
 * Integrator, ASE's dynamics classes). An integrator holds its parameters, precomputed
 * coefficients, scratch arrays and the state variables of its thermostat, nothing else: the
 * atoms, forces and step counter live in the {@link Simulation}. It never looks at which force
 * field or backend computes the forces.
 */
public interface Integrator {

    /** A short name ("velocity-verlet", "velocity-verlet + bussi"). */
    String name();

    /**
     * The name with every parameter that changes the trajectory, e.g.
     * {@code velocity-verlet(dt=0.5 fs) + bussi(T=300.0 K, tau=100.0 fs)}. A restart refuses a
     * checkpoint whose description differs.
     */
    String description();

    /**
     * This integrator and its thermostat as plain data, so that a device platform runs the same
     * equations of motion ({@link org.molten.core.dynamics.DynamicsSpec}); empty when it has no
     * such description (the simulation then stays on the host).
     */
    default java.util.Optional<org.molten.core.dynamics.DynamicsSpec> dynamicsSpec() {
        return java.util.Optional.empty();
    }

    /** The timestep in fs. */
    double timestepFs();

    /**
     * One step. On entry {@code s.forces()} holds the forces at the current positions; on exit,
     * the forces at the new positions, and positions and velocities refer to the same time.
     *
     * @return the potential energy at the new positions, eV
     */
    double step(DynamicsState s);

    /**
     * The kinetic energy of the last step to report (energy log, temperature) when the full-step
     * velocities carry a known O(dt²) bias that other velocities of the step do not: for Langevin
     * BAOAB the kinetic energy just after the O step, exact for harmonic modes where the full-step
     * one is low by ω²dt²/4 (LangevinThermostat); OpenMM's LangevinMiddleIntegrator reports its
     * mid-step velocities likewise. Empty when the
     * velocities' own kinetic energy is the one to report (and before the first step after a start
     * or restart), eV.
     */
    default java.util.OptionalDouble reportedKineticEnergyEv() {
        return java.util.OptionalDouble.empty();
    }

    /**
     * Energy that the thermostat has taken out of the system so far (its reservoir, or the
     * Nosé–Hoover chain's own energy), eV, so that E_kin + E_pot + this is conserved (exactly in
     * the continuous-time limit). Zero for NVE.
     */
    double bathEnergyEv(int degreesOfFreedom);

    /**
     * True when a zero total linear momentum stays zero (given forces that sum to zero), so the
     * 3 centre-of-mass degrees of freedom may be removed from the count.
     */
    boolean conservesLinearMomentum();

    /**
     * True when a zero angular momentum of an isolated system stays zero (given torque-free
     * forces), so the 3 rotational degrees of freedom may be removed from the count.
     */
    boolean conservesAngularMomentum();

    /** Writes every state variable (thermostat variables, accumulated bath energy) for a checkpoint. */
    void writeState(DataOutput out) throws IOException;

    /** Restores what {@link #writeState} wrote. */
    void readState(DataInput in) throws IOException;
}
