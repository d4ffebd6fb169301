package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

import java.util.Arrays;
import java.util.Locale;
import jcuda.CudaException;
import jcuda.driver.CUevent;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Observables;
import org.molten.forcefield.neighbours.NeighbourSearch;
import org.molten.forcefield.student.StudentWeights;

/**
 * Device-resident molecular dynamics with the student force field: positions and velocities
 * (float64) stay on the GPU; a block of K steps (force evaluation and integrator update, for
 * velocity Verlet or Langevin BAOAB, see {@link CudaIntegrator}) is one CUDA graph launch with no
 * host synchronisation; the state comes back only when asked for ({@link #fetchState}).
 *
 * <p>Every {@link #runSteps} call is atomic with respect to neighbour-list overflow: the state at
 * its start is kept on the device, and if any atom outgrew the neighbour capacity during the call,
 * the state is restored, the capacity grown and the steps run again; no neighbour is ever dropped.
 * A non-finite force stops the run with an {@link IllegalStateException} naming the step and atom.
 *
 * <p>Owns its CUDA context; not thread-safe. Close it to free the device.
 */
public final class CudaMdEngine implements AutoCloseable {
    private final CudaModel model;
    private final CudaIntegrator integrator;
    private final Atoms initial;
    private DeviceSystem sys;
    private DeviceSystem.Snapshot snapshot;
    private long steps;
    private boolean closed;

    /**
     * Uploads {@code atoms} (positions Å, velocities Å/fs, masses amu, cell) and computes the
     * initial forces.
     *
     * @throws IllegalArgumentException for an unsupported element, a cell too small for the cutoff,
     *                                  or a non-finite coordinate
     */
    public CudaMdEngine(StudentWeights weights, Atoms atoms, CudaIntegrator integrator, CudaOptions options) {
        this.integrator = integrator;
        this.initial = atoms.copy();
        int[] species = weights.speciesIndices(atoms);
        NeighbourSearch.requireFinitePositions(atoms);
        this.model = new CudaModel(weights, options);
        boolean ok = false;
        try {
            build(species, null);
            ok = true;
        } finally {
            if (!ok) {
                close();
            }
        }
    }

    private void build(int[] species, CudaOptions.Mode forced) {
        model.cx.makeCurrent();
        sys = model.newSystem(initial, forced);
        snapshot = sys.newSnapshot();
        sys.uploadSpecies(species);
        sys.uploadInverseMasses(initial.massesAmu());
        sys.uploadPositions(initial.positions());
        sys.uploadVelocities(initial.velocities());
        sys.uploadStep(0);
        try {
            forceEvaluation();
        } catch (CudaException e) {
            if (sys.mode != CudaOptions.Mode.STAGES && model.megakernelFailed(sys, e)) {
                CudaOptions.Mode next = model.resolve(initial.size());
                model.graphs.clear();
                sys.close();
                build(species, next == CudaOptions.Mode.GRID ? CudaOptions.Mode.STAGES : next);
                return;
            }
            throw e;
        }
    }

    private void forceEvaluation() {
        while (true) {
            byte[] net = sys.net(null, false);
            DeviceSystem s = sys;
            model.graphs.run(CudaModel.key(s, "force", 1, net), model.cx.stream(), () -> s.emitForce(net));
            model.cx.synchronize();
            int[] flags = sys.downloadFlags();
            if (flags[DeviceSystem.FLAG_OVERFLOW] > 0) {
                grow(flags[DeviceSystem.FLAG_MAXCOUNT]);
                continue;
            }
            DeviceSystem.requirePairedSlots(flags);
            return;
        }
    }

    private void grow(int maxCount) {
        GpuStatus.overflow();
        sys.resizeCapacity(CudaModel.capacityFor(maxCount));
        model.graphs.clear();
    }

    /** The execution mode ("cluster", "stages", "grid"). */
    public String mode() {
        return sys.mode.name().toLowerCase(Locale.ROOT) + (sys.large ? " (tiled)" : "");
    }

    public String deviceName() {
        return model.cx.deviceName();
    }

    /** Neighbour slots per atom currently allocated. */
    public int neighbourCapacity() {
        return sys.capacity();
    }

    /** MD steps done so far. */
    public long stepsDone() {
        return steps;
    }

    /**
     * Advances {@code n} steps on the device: {@code n / K} launches of the K-step graph and one of
     * the remainder, then one synchronisation to check the overflow and non-finite flags.
     *
     * @throws IllegalStateException if a force became non-finite (the simulation blew up), or a neighbour slot had no
     *     reverse slot in its partner's row (an asymmetric neighbour list)
     */
    public void runSteps(int n) {
        Checks.requireNonNegative(n, "steps");
        if (closed) {
            throw new IllegalStateException("CudaMdEngine already closed");
        }
        if (n == 0) {
            return;
        }
        model.cx.makeCurrent();
        int k = model.options.stepsPerLaunch();
        while (true) {
            sys.copyStateTo(snapshot);
            sys.clearFlags();
            launchSteps(n, k);
            model.cx.synchronize();
            int[] flags = sys.downloadFlags();
            if (flags[DeviceSystem.FLAG_OVERFLOW] > 0) {
                sys.restoreStateFrom(snapshot);
                grow(flags[DeviceSystem.FLAG_MAXCOUNT]);
                continue;
            }
            DeviceSystem.requirePairedSlots(flags);
            if (flags[DeviceSystem.FLAG_NONFINITE] != 0) {
                int atom = flags[DeviceSystem.FLAG_NONFINITE] - 1;
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "simulation blew up: non-finite force on atom %d (%s) at step %d; the state before step %d "
                                + "can be fetched", atom, initial.element(atom), flags[DeviceSystem.FLAG_BADSTEP] + 1,
                        steps + 1));
            }
            steps += n;
            return;
        }
    }

    private void launchSteps(int n, int k) {
        byte[] net = sys.net(integrator, model.options.fp32State());
        DeviceSystem s = sys;
        for (int done = 0; done < n; ) {
            int m = Math.min(k, n - done);
            model.graphs.run(CudaModel.key(s, "md", m, net), model.cx.stream(), () -> s.emitSteps(net, m));
            done += m;
        }
    }

    /**
     * Copies the device state into {@code atoms} (positions Å, velocities Å/fs; same atoms as at
     * construction) and returns the potential energy (eV) of that state.
     */
    public double fetchState(Atoms atoms) {
        if (atoms.size() != sys.n) {
            throw new IllegalArgumentException("atoms has " + atoms.size() + " atoms, the engine " + sys.n);
        }
        model.cx.makeCurrent();
        model.cx.synchronize();
        sys.downloadPositions(atoms.positions());
        sys.downloadVelocities(atoms.velocities());
        return sys.downloadEnergy();
    }

    /** Forces (eV/Å) of the current state. */
    public double[] forces() {
        model.cx.makeCurrent();
        double[] f = new double[3 * sys.n];
        sys.downloadForces(f);
        return f;
    }

    /** Potential energy (eV) of the current state. */
    public double potentialEnergyEv() {
        model.cx.makeCurrent();
        model.cx.synchronize();
        return sys.downloadEnergy();
    }

    /** Kinetic energy (eV) of the current state (velocities fetched). */
    public double kineticEnergyEv() {
        Atoms a = initial.copy();
        fetchState(a);
        return Observables.kineticEnergyEv(a);
    }

    /**
     * Times MD steps with device events: {@code repeats} samples of {@code launchesPerSample}
     * launches of the K-step graph each (after one warm-up sample that also captures the graph).
     * Advances the simulation.
     *
     * @return microseconds per MD step, one value per sample, sorted
     */
    public double[] timeSteps(int repeats, int launchesPerSample) {
        Checks.requirePositive(repeats, "repeats");
        Checks.requirePositive(launchesPerSample, "launchesPerSample");
        model.cx.makeCurrent();
        int k = model.options.stepsPerLaunch();
        runSteps(2 * k);  // first sight (eager) and capture
        CUevent a = new CUevent();
        CUevent b = new CUevent();
        cuEventCreate(a, 0);
        cuEventCreate(b, 0);
        try {
            double[] us = new double[repeats];
            byte[] net = sys.net(integrator, model.options.fp32State());
            DeviceSystem s = sys;
            CudaGraphCache.Key key = CudaModel.key(s, "md", k, net);
            for (int r = 0; r < repeats; r++) {
                sys.clearFlags();
                cuEventRecord(a, model.cx.stream());
                for (int l = 0; l < launchesPerSample; l++) {
                    model.graphs.run(key, model.cx.stream(), () -> s.emitSteps(net, k));
                }
                cuEventRecord(b, model.cx.stream());
                cuEventSynchronize(b);
                float[] ms = {0};
                cuEventElapsedTime(ms, a, b);
                us[r] = 1000.0 * ms[0] / ((double) launchesPerSample * k);
                int[] flags = sys.downloadFlags();
                if (flags[DeviceSystem.FLAG_OVERFLOW] > 0 || flags[DeviceSystem.FLAG_NONFINITE] != 0) {
                    throw new IllegalStateException("benchmark trajectory overflowed its neighbour capacity or blew up;"
                            + " use a smaller time step or an equilibrated structure");
                }
                DeviceSystem.requirePairedSlots(flags);
                steps += (long) launchesPerSample * k;
            }
            Arrays.sort(us);
            return us;
        } finally {
            cuEventDestroy(a);
            cuEventDestroy(b);
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
            model.graphs.clear();
            if (sys != null) {
                sys.close();
            }
        } finally {
            model.close();
        }
    }
}
