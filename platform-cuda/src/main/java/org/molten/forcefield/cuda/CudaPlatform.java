package org.molten.forcefield.cuda;

import java.util.List;
import java.util.Optional;
import org.molten.core.ForceField;
import org.molten.core.dynamics.DeviceDynamics;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * The CUDA platform (OpenMM's Platform): binds replicas of a student force field to the GPU, where
 * {@link CudaMdEngine} runs whole MD steps (force evaluation, integrator, thermostat). Found by
 * {@link DevicePlatform#installed()} through META-INF/services.
 *
 * <p>It runs the student force fields that carry their weights ({@link CudaStudent},
 * {@link OptimisedStudent}, {@link ReferenceStudent}); anything else (a classical potential, a
 * TorchScript model, the xtb teacher) is refused with a reason and integrated on the host.
 */
public final class CudaPlatform implements DevicePlatform {

    /** Public for {@link java.util.ServiceLoader}. */
    public CudaPlatform() {
    }

    @Override
    public String name() {
        return "cuda";
    }

    /**
     * Counts, for {@code molten info}, a run that asked for this platform and ran on the host
     * instead (the simulation has already said why, once).
     */
    public static void countHostFallback(String reason) {
        GpuStatus.fallback(reason);
    }

    @Override
    public Optional<String> unavailableReason() {
        GpuAvailability.Probe p = GpuAvailability.probe();
        return p.available() ? Optional.empty() : Optional.of(p.reason());
    }

    @Override
    public Optional<DeviceDynamics> bind(ForceField forceField, List<ReplicaStart> replicas) {
        StudentWeights w = weightsOf(forceField);
        if (w == null || replicas.isEmpty() || DeviceIntegrator.unsupported(replicas.get(0).dynamics()) != null
                || unavailableReason().isPresent()) {
            return Optional.empty();
        }
        CudaOptions options = forceField instanceof CudaStudent c ? c.options() : CudaOptions.fromSystemProperties();
        CudaMdEngine engine = new CudaMdEngine(w, replicas, options);
        GpuStatus.bound(replicas.size());
        return Optional.of(engine);
    }

    @Override
    public Optional<String> unsupportedReason(ForceField forceField, DynamicsSpec dynamics) {
        if (weightsOf(forceField) == null) {
            return Optional.of("the CUDA platform runs the student force field only, not " + forceField.name());
        }
        String why = DeviceIntegrator.unsupported(dynamics);
        if (why != null) {
            return Optional.of(why);
        }
        return unavailableReason();
    }

    /**
     * RATTLE and SETTLE run in the stage path's K-step graph (molten_constraints.cuh) and inside the small-molecule
     * kernel's step (molten_small_constraints.cuh): every constraint set.
     */
    @Override
    public Optional<String> unsupportedConstraints(org.molten.core.dynamics.ConstraintSet constraints) {
        return Optional.empty();
    }

        /** The student weights a force field carries, or null. */
    static StudentWeights weightsOf(ForceField ff) {
        if (ff instanceof CudaStudent c) {
            return c.weights();
        } else if (ff instanceof OptimisedStudent o) {
            return o.weights();
        } else if (ff instanceof ReferenceStudent r) {
            return r.weights();
        }
        return null;
    }
}
