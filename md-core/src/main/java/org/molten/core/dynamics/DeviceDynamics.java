package org.molten.core.dynamics;

import org.molten.core.Atoms;

/**
 * Molecular dynamics whose state lives on a platform other than the host (OpenMM's Context bound to
 * a Platform): R replicas, each with its positions, velocities, forces, potential energy,
 * thermostat variables and random-number state, advanced together by {@link #advance} without
 * host synchronisation inside. The host reads a replica's state only when asked ({@link #read}),
 * at reporter, checkpoint and guard intervals.
 *
 * <p>Units: Å, Å/fs, eV, eV/Å. Not thread-safe; {@link #close()} frees the device.
 */
public interface DeviceDynamics extends AutoCloseable {

    /** The platform's name ("cuda"). */
    String platformName();

    /** What runs, for logs and {@code molten info} (device name, execution mode). */
    String description();

    /** Number of replicas. */
    int replicas();

    /** Steps done since the start (or since the step restored last), the same for every replica. */
    long stepCount();

    /**
     * Advances every replica by {@code steps} steps.
     *
     * @throws DeviceBlowUpException if a replica's forces or positions became non-finite; the
     *                               state of the last good step can still be read
     */
    void advance(int steps);

    /**
     * Copies replica {@code replica}'s positions (Å) and velocities (Å/fs) into {@code into} (atoms
     * of the same system) and its forces (eV/Å) into {@code forces} (length 3N, or null).
     *
     * @return the potential energy of that state, eV
     */
    double read(int replica, Atoms into, double[] forces);

    /**
     * The kinetic energy to report for replica {@code replica}'s last step when the full-step
     * velocities carry a known bias (Langevin BAOAB: the kinetic energy just after the O step),
     * eV; empty to report that of the velocities (the default).
     */
    default java.util.OptionalDouble reportedKineticEnergyEv(int replica) {
        return java.util.OptionalDouble.empty();
    }

    /** Energy the thermostat has taken out of replica {@code replica} so far, eV (0 for NVE). */
    double bathEnergyEv(int replica);

    /**
     * The integrator state of a replica that positions, velocities and forces do not hold
     * (thermostat variables, bath energy, random-number counters), opaque bytes for a checkpoint;
     * the same bytes given to {@link #restore} continue the run bit for bit.
     */
    byte[] integratorState(int replica);

    /**
     * Replaces a replica's state: positions and velocities from {@code state}, the forces and the
     * potential energy of those positions, and the integrator state written by
     * {@link #integratorState}; {@code step} becomes the step count (every replica of a binding
     * is restored to the same step).
     */
    void restore(int replica, Atoms state, double[] forces, double potentialEnergyEv, byte[] integratorState, long step);

    /** Frees the device. */
    @Override
    void close();
}
