package org.molten.integrators;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.molten.core.dynamics.DeviceDynamics;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;

/**
 * Chooses where a simulation (or a replica set) runs: the host, or a device platform found through
 * {@link DevicePlatform} to which all replicas are bound at once. A device that is missing,
 * unavailable or unable to run the force field or integrator leaves the run on the host, with one
 * warning when the device was asked for by name (none for {@code auto}).
 */
final class PlatformBinding {
    static final String AUTO = "auto";
    static final String REFERENCE = "reference";
    static final String CPU = "cpu";
    /** The device tried by {@code auto}. */
    static final String CUDA = "cuda";
    /** What a checkpoint records for the host platforms, which share one integration (see {@link Simulation}). */
    static final String HOST_KIND = "host";

    /** Where the run went: a platform's name and its binding (null on the host). */
    record Bound(String platformName, DeviceDynamics device) {
    }

    private PlatformBinding() {}

    static String requireKnown(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("platform must be named: reference, cpu, cuda or auto");
        }
        return name;
    }

    /** "host" for reference and cpu, else the device's name. */
    static String checkpointKind(String platformName) {
        return platformName.equals(REFERENCE) || platformName.equals(CPU) ? HOST_KIND : platformName;
    }

    /**
     * Binds the prepared replicas to the requested platform, or returns the host.
     *
     * @throws IllegalArgumentException for an unknown platform name, or a state the device refuses
     */
    static Bound bind(String requested, List<Simulation.Prepared> replicas, Consumer<String> warnings) {
        if (requested.equals(REFERENCE) || requested.equals(CPU)) {
            return new Bound(requested, null);
        }
        boolean auto = requested.equals(AUTO);
        String deviceName = auto ? CUDA : requested;
        Optional<DevicePlatform> platform = DevicePlatform.named(deviceName);
        if (platform.isEmpty()) {
            if (!auto && !deviceName.equals(CUDA)) {
                throw new IllegalArgumentException("unknown platform '" + requested + "': use reference, cpu, auto"
                        + " or an installed device platform " + DevicePlatform.installed().stream().map(DevicePlatform::name).toList());
            }
            return host(auto, warnings, deviceName + " is not installed (no " + deviceName + " platform on the class path)");
        }
        DevicePlatform p = platform.get();
        Optional<String> unavailable = p.unavailableReason();
        if (unavailable.isPresent()) {
            return host(auto, warnings, deviceName + " is not available: " + unavailable.get());
        }
        Simulation.Prepared first = replicas.get(0);
        for (Simulation.Prepared r : replicas) {   // a platform that cannot hold a replica's constraints leaves all on the host
            Optional<String> noConstraints = p.unsupportedConstraints(r.constraints().set());
            if (noConstraints.isPresent()) {
                return host(auto, warnings, noConstraints.get());
            }
        }
        Optional<DynamicsSpec> spec = first.integrator().dynamicsSpec();
        if (spec.isEmpty()) {
            return host(auto, warnings, first.integrator().name() + " has no description a device can run");
        }
        Optional<String> unsupported = p.unsupportedReason(first.forceField(), spec.get());
        if (unsupported.isPresent()) {
            return host(auto, warnings, deviceName + " cannot run this: " + unsupported.get());
        }
        List<ReplicaStart> starts = new ArrayList<>(replicas.size());
        for (int k = 0; k < replicas.size(); k++) {
            Simulation.Prepared r = replicas.get(k);
            Optional<DynamicsSpec> s = r.integrator().dynamicsSpec();
            if (s.isEmpty() || s.get().getClass() != spec.get().getClass()
                    || s.get().timestepFs() != spec.get().timestepFs()) {
                throw new IllegalArgumentException("replica " + k + " runs " + r.integrator().description()
                        + " but replica 0 runs " + first.integrator().description()
                        + ": one device binding needs the same integrator kind and timestep for every replica");
            }
            starts.add(new ReplicaStart(r.atoms(), s.get(), r.seed() == null ? 0L : r.seed(), r.degreesOfFreedom(),
                    r.constraints().set()));
        }
        Optional<DeviceDynamics> device = p.bind(first.forceField(), starts);
        if (device.isEmpty()) {
            return host(auto, warnings, deviceName + " declined to bind " + first.forceField().name());
        }
        return new Bound(device.get().platformName(), device.get());
    }

    private static Bound host(boolean auto, Consumer<String> warnings, String reason) {
        if (!auto) {
            warnings.accept(reason + "; running on the cpu platform instead");
        }
        return new Bound(CPU, null);
    }
}
