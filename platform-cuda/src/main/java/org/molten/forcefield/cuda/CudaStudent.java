package org.molten.forcefield.cuda;

import java.util.Arrays;
import jcuda.CudaException;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.forcefield.neighbours.NeighbourSearch;
import org.molten.forcefield.student.StudentWeights;

/**
 * The student force field on an NVIDIA GPU (docs/model.md; kernels in
 * {@code platform-cuda/src/main/cuda}): float32 model arithmetic, float64 displacements and energy
 * sum, exact forces from the fused backward pass. Each instance owns its CUDA context, so
 * instances on different threads share no mutable device state.
 *
 * <p>A system the kernels cannot hold (more than {@value DeviceSystem#MAXCAP} neighbours per atom)
 * and any driver error after construction are handed to the CPU path, counted in {@link GpuStatus}
 * (with one logged warning per JVM). Prefer {@link GpuAvailability#studentForceField} to
 * constructing this directly: it falls back to the CPU when there is no usable GPU at all.
 *
 * <p>Not thread-safe (as every {@link ForceField}).
 */
public final class CudaStudent implements ForceField {
    private final CudaModel model;
    private final String weightsFingerprint;
    private DeviceSystem sys;
    private Cell sysCell;
    private int[] sysSpecies;
    private ForceField cpu;
    private boolean broken;
    private boolean closed;

    /**
     * @throws RuntimeException when no CUDA device can be used ({@code jcuda.CudaException},
     *         {@code UnsatisfiedLinkError}, {@code IllegalStateException}), or when the weights exceed
     *         the kernels' limits ({@code IllegalArgumentException}, see {@code DeviceWeights.unsupportedReason})
     */
    public CudaStudent(StudentWeights weights, CudaOptions options) {
        this.model = new CudaModel(weights, options);
        this.weightsFingerprint = weights.fingerprint();
    }

    public CudaStudent(StudentWeights weights) {
        this(weights, CudaOptions.fromSystemProperties());
    }

    @Override
    public String name() {
        return "student/cuda";
    }

    /** The weights' SHA-256 (StudentWeights#fingerprint): a restart with other weights is refused. */
    @Override
    public String parametersFingerprint() {
        return "student-weights sha256:" + weightsFingerprint;
    }

    /** The weights this instance evaluates (what {@link CudaPlatform} binds). */
    public StudentWeights weights() {
        return model.weights;
    }

    /** The options it runs with. */
    public CudaOptions options() {
        return model.options;
    }

    /** The device this instance runs on. */
    public String deviceName() {
        return model.cx.deviceName();
    }

    /** The execution mode used for the last system evaluated ("none" before the first). */
    public String mode() {
        return sys == null ? "none" : sys.mode.name().toLowerCase(java.util.Locale.ROOT)
                + (sys.large ? " (tiled)" : "");
    }

    @Override
    public boolean providesPerAtomEnergies() {
        return true;
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        return energyAndForces(atoms, forces, null);
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        if (closed) {
            throw new IllegalStateException("CudaStudent already closed");
        }
        int n = atoms.size();
        ForceField.requireOutputLengths(atoms, forces, perAtomEnergiesEv);
        int[] species = model.weights.speciesIndices(atoms);
        NeighbourSearch.requireFinitePositions(atoms);
        NeighbourSearch.requireCutoffFits(atoms.cellOrNull(), model.dw.cutoffA);
        if (broken) {
            return cpu().energyAndForces(atoms, forces, perAtomEnergiesEv);
        }
        try {
            model.cx.makeCurrent();
            return evaluate(atoms, species, forces, perAtomEnergiesEv, null);
        } catch (CudaModel.UnsupportedOnGpu e) {
            GpuAvailability.fallback(e.getMessage());
            return cpu().energyAndForces(atoms, forces, perAtomEnergiesEv);
        } catch (CudaException e) {
            broken = true;
            GpuAvailability.fallback("CUDA error: " + e.getMessage());
            return cpu().energyAndForces(atoms, forces, perAtomEnergiesEv);
        }
    }

    private double evaluate(Atoms atoms, int[] species, double[] forces, double[] perAtom, CudaOptions.Mode forced) {
        int n = atoms.size();
        if (sys == null || sys.n != n || !java.util.Objects.equals(sysCell, atoms.cellOrNull())
                || (forced != null && sys.mode != forced)) {
            closeSystem();
            sys = model.newSystem(atoms, forced);
            sysCell = atoms.cellOrNull();
            sysSpecies = null;
        }
        if (!Arrays.equals(species, sysSpecies)) {
            sys.uploadSpecies(species);
            sysSpecies = species.clone();
        }
        sys.uploadPositions(atoms.positions());
        while (true) {
            byte[] net = sys.net(null, false);
            try {
                DeviceSystem s = sys;
                model.graphs.run(CudaModel.key(s, "force", 1, net), model.cx.stream(), () -> s.emitForce(net));
                model.cx.synchronize();
            } catch (CudaException e) {
                if (sys.mode != CudaOptions.Mode.STAGES && model.megakernelFailed(sys, e)) {
                    CudaOptions.Mode next = model.resolve(n);
                    closeSystem();
                    return evaluate(atoms, species, forces, perAtom, next);
                }
                throw e;
            }
            int[] flags = sys.downloadFlags();
            if (flags[DeviceSystem.FLAG_OVERFLOW] > 0) {
                GpuStatus.overflow();
                sys.resizeCapacity(CudaModel.capacityFor(flags[DeviceSystem.FLAG_MAXCOUNT]));
                model.graphs.clear();
                continue;
            }
            DeviceSystem.requirePairedSlots(flags);
            break;
        }
        sys.downloadForces(forces);
        if (perAtom != null) {
            sys.downloadAtomEnergies(perAtom);
        }
        return sys.downloadEnergy();
    }

    /** Forces and energy with an explicit execution mode (tests and benchmarks compare modes). */
    double energyAndForcesInMode(Atoms atoms, double[] forces, CudaOptions.Mode mode) {
        int[] species = model.weights.speciesIndices(atoms);
        model.cx.makeCurrent();
        return evaluate(atoms, species, forces, null, mode);
    }

    /** Per-stage GPU times of one force evaluation of {@code atoms} in STAGES mode (see DeviceSystem). */
    java.util.List<String> profileStages(Atoms atoms, int repeats) {
        double[] f = new double[3 * atoms.size()];
        energyAndForcesInMode(atoms, f, CudaOptions.Mode.STAGES);
        return sys.profileStages(sys.net(null, false), repeats);
    }

    private ForceField cpu() {
        if (cpu == null) {
            cpu = GpuAvailability.cpuForceField(model.weights);
        }
        return cpu;
    }

    private void closeSystem() {
        if (sys != null) {
            model.graphs.clear();
            sys.close();
            sys = null;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            model.cx.makeCurrent();
            closeSystem();
        } finally {
            model.close();
            if (cpu != null) {
                cpu.close();
            }
        }
    }
}
