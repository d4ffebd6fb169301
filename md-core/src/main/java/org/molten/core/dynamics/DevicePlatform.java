package org.molten.core.dynamics;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.molten.core.ForceField;

/**
 * A platform that runs whole MD steps itself (force field, integrator and thermostat), found
 * through {@link ServiceLoader} so that the module holding it (the CUDA student in
 * {@code platform-cuda}) need not be known to the simulation: OpenMM's Platform. The host platforms
 * (reference, cpu) are the integrators of the {@code integrators} module and need no provider.
 */
public interface DevicePlatform {

    /** The platform's name as chosen by {@code --device} ("cuda"). */
    String name();

    /** Empty when the platform can run here, else the reason it cannot (no GPU, no driver). */
    Optional<String> unavailableReason();

    /**
     * Binds replicas to the platform: uploads their states and evaluates their initial forces.
     *
     * @return the bound dynamics, or empty when this platform cannot run this force field or
     *         these dynamics (the caller then integrates on the host and says why, once)
     * @throws IllegalArgumentException for states the platform refuses (unsupported element, cell
     *                                  too small), naming the replica and the cause
     */
    Optional<DeviceDynamics> bind(ForceField forceField, List<ReplicaStart> replicas);

    /** Why {@link #bind} would return empty for this force field, or empty if it would not. */
    Optional<String> unsupportedReason(ForceField forceField, DynamicsSpec dynamics);

    /**
     * Why this platform cannot hold {@code constraints} ({@link ReplicaStart#constraints()}), or empty when it can;
     * by default a platform runs no constraints, and a constrained run stays on the host.
     */
    default Optional<String> unsupportedConstraints(ConstraintSet constraints) {
        return constraints.isEmpty() ? Optional.empty() : Optional.of(name() + " does not run constraints ("
                + constraints.rule() + ")");
    }

    /** The providers on the class path, in service-loader order. */
    static List<DevicePlatform> installed() {
        return ServiceLoader.load(DevicePlatform.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /** The provider named {@code name}, if installed. */
    static Optional<DevicePlatform> named(String name) {
        return installed().stream().filter(p -> p.name().equals(name)).findFirst();
    }
}
