package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import jcuda.CudaException;
import jcuda.driver.CUevent;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Checks;
import org.molten.core.Observables;
import org.molten.core.dynamics.DeviceBlowUpException;
import org.molten.core.dynamics.DeviceConstraintFailureException;
import org.molten.core.dynamics.DeviceDynamics;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.neighbours.NeighbourSearch;
import org.molten.forcefield.student.StudentWeights;

/**
 * Device-resident molecular dynamics with the student force field, for R replicas at once: the
 * one MD stack of the CUDA platform ({@link CudaPlatform}). Positions and velocities (float64),
 * forces, thermostat variables and the step counter (the counter of the random numbers) stay on
 * the GPU; a block of K steps of every replica (one batched force evaluation over all replicas'
 * atoms with no cross-replica neighbours, the integrator, the thermostat; see
 * {@link DeviceIntegrator}) is one CUDA graph launch with no host synchronisation inside.
 *
 * <p>Replica r's random numbers are keyed by its own seed and counted by (atom index within the
 * replica, step), so a replica of a batch follows the same trajectory as the same system run
 * alone with that seed, to float32 rounding of the batched force evaluation.
 *
 * <p>Kernel organisation: one replica of a small molecule runs in the small-molecule cluster kernel
 * (whole steps in one kernel), under NVE or any of the device's thermostats, which it runs inside its
 * step with the stage path's definitions, random streams and variables; every batch of more than one
 * replica runs the stage kernels, which hold the per-replica thermostat stages.
 *
 * <p>Constraints (each replica's {@link ReplicaStart#constraints()}): RATTLE and SETTLE in the stage path's K-step
 * graph, after each drift, after the closing kick and after Langevin's O step, as the host integrates
 * ({@link DeviceConstraints}, molten_constraints.cuh), and at the same points inside the small-molecule kernel's step
 * for one constrained molecule (molten_small_constraints.cuh, the same solver functions on its shared memory). A
 * constraint that cannot be met stops the run at the end of the launches it happened in.
 *
 * <p>Every {@link #advance} call is atomic with respect to neighbour-list overflow: the state at
 * its start is kept on the device, and if any atom outgrew the neighbour capacity, the state is
 * restored, the capacity grown and the steps run again. Periodic replicas must share one cell.
 *
 * <p>Owns its CUDA context; not thread-safe. Close it to free the device.
 */
public final class CudaMdEngine implements DeviceDynamics {
    private static final int STATE_MAGIC = 0x4D445631;  // "MDV1"
    private final CudaModel model;
    private final List<ReplicaStart> starts;
    private final DynamicsSpec dynamics;
    private final Cell cell;
    private ReplicaBuffers reps;
    private DeviceSystem sys;
    private DeviceSystem.Snapshot snapshot;
    private long steps;
    private long handovers;
    private boolean closed;

    /**
     * Uploads the replicas (positions Å, velocities Å/fs, masses amu, cell) and computes their
     * initial forces.
     *
     * @throws IllegalArgumentException naming the replica: an unsupported element, a cell too small
     *     for the cutoff or unlike replica 0's, dynamics of another kind or time step than replica
     *     0's, a rescaling thermostat on atoms at rest, a non-finite coordinate
     */
    public CudaMdEngine(StudentWeights weights, List<ReplicaStart> replicas, CudaOptions options) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("no replicas to bind");
        }
        this.starts = List.copyOf(replicas);
        this.dynamics = starts.get(0).dynamics();
        this.cell = starts.get(0).atoms().cellOrNull();
        int[] species = validate(weights);
        this.model = new CudaModel(weights, options);
        boolean ok = false;
        try {
            CudaOptions.Mode mode = starts.size() == 1
                    && DeviceIntegrator.megakernelCapable(dynamics, DeviceConstraints.any(starts))
                    ? null : CudaOptions.Mode.STAGES;
            build(species, mode);
            ok = true;
        } finally {
            if (!ok) {
                close();
            }
        }
    }

    /** One system with {@code seed} and 3N degrees of freedom (bench, GpuCheck). */
    public static CudaMdEngine single(StudentWeights weights, Atoms atoms, DynamicsSpec dynamics, long seed,
                                      CudaOptions options) {
        return new CudaMdEngine(weights, List.of(new ReplicaStart(atoms, dynamics, seed, 3 * atoms.size())), options);
    }

    private int[] validate(StudentWeights weights) {
        String why = DeviceIntegrator.unsupported(dynamics);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        List<int[]> parts = new ArrayList<>();
        int total = 0;
        for (int r = 0; r < starts.size(); r++) {
            ReplicaStart s = starts.get(r);
            Atoms a = s.atoms();
            if (s.dynamics().getClass() != dynamics.getClass() || s.dynamics().timestepFs() != dynamics.timestepFs()) {
                throw new IllegalArgumentException("replica " + r + " runs " + s.dynamics() + " but replica 0 runs "
                        + dynamics + ": the replicas of one binding share the integrator kind and the time step");
            }
            if (s.dynamics() instanceof DynamicsSpec.NoseHooverChain c
                    && !c.equals(new DynamicsSpec.NoseHooverChain(c.timestepFs(), c.temperatureK(), c.tauFs(),
                    ((DynamicsSpec.NoseHooverChain) dynamics).chainLength(),
                    ((DynamicsSpec.NoseHooverChain) dynamics).multipleTimeSteps(),
                    ((DynamicsSpec.NoseHooverChain) dynamics).suzukiYoshidaWeights()))) {
                throw new IllegalArgumentException("replica " + r + ": the replicas of one binding share the chain"
                        + " length, multiple time steps and Suzuki-Yoshida weights of the Nose-Hoover chain");
            }
            if (s.dynamics() instanceof DynamicsSpec.Langevin l
                    && l.removeCentreOfMassDrift() != ((DynamicsSpec.Langevin) dynamics).removeCentreOfMassDrift()) {
                throw new IllegalArgumentException("replica " + r + ": the replicas of one binding share the Langevin"
                        + " thermostat's centre-of-mass drift removal (replica 0 " + (l.removeCentreOfMassDrift() ? "keeps"
                        : "removes") + " it)");
            }
            if (!java.util.Objects.equals(a.cellOrNull(), cell)) {
                throw new IllegalArgumentException("replica " + r + " has cell " + a.cellOrNull() + " but replica 0 "
                        + cell + ": periodic replicas of one binding must share one cell (bind them separately)");
            }
            if (DeviceIntegrator.aroundVerlet(s.dynamics()) && !(Observables.kineticEnergyEv(a) > 0)) {
                throw new IllegalArgumentException("replica " + r + " is at rest (kinetic energy 0 eV): " + s.dynamics()
                        .name() + " only rescales velocities; assign Maxwell-Boltzmann velocities first");
            }
            try {
                NeighbourSearch.requireFinitePositions(a);
                parts.add(weights.speciesIndices(a));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("replica " + r + ": " + e.getMessage(), e);
            }
            total += a.size();
        }
        int[] species = new int[total];
        int at = 0;
        for (int[] p : parts) {
            System.arraycopy(p, 0, species, at, p.length);
            at += p.length;
        }
        return species;
    }

    private void build(int[] species, CudaOptions.Mode forced) {
        model.cx.makeCurrent();
        reps = new ReplicaBuffers(model.cx, starts);
        List<Atoms> parts = new ArrayList<>();
        for (ReplicaStart s : starts) {
            parts.add(s.atoms());
        }
        sys = model.newReplicaSystem(parts, cell, forced, reps);
        snapshot = sys.newSnapshot();
        sys.uploadSpecies(species);
        double[] masses = new double[sys.n];
        double[] r = new double[3 * sys.n];
        double[] v = new double[3 * sys.n];
        for (int k = 0; k < starts.size(); k++) {
            Atoms a = starts.get(k).atoms();
            int first = reps.first[k];
            System.arraycopy(a.massesAmu(), 0, masses, first, a.size());
            System.arraycopy(a.positions(), 0, r, 3 * first, 3 * a.size());
            System.arraycopy(a.velocities(), 0, v, 3 * first, 3 * a.size());
        }
        sys.uploadInverseMasses(masses);
        sys.uploadPositions(r);
        sys.uploadVelocities(v);
        sys.uploadStep(0);
        try {
            forceEvaluation();
        } catch (CudaException e) {
            if (sys.mode != CudaOptions.Mode.STAGES && model.megakernelFailed(sys, e)) {
                CudaOptions.Mode next = model.resolve(sys.n);
                model.graphs.clear();
                sys.close();
                reps.free(model.cx);
                build(species, next);
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

    @Override
    public String platformName() {
        return "cuda";
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%s, %s, forces %s, %d replica(s), %d atoms, %s", deviceName(), mode(),
                replicaForces(), replicas(), sys.n, dynamics.name());
    }

    /** The execution mode ("cluster", "stages", "molecule", ...). */
    public String mode() {
        return sys.mode.name().toLowerCase(Locale.ROOT) + (sys.large ? " (tiled)" : "");
    }

    /**
     * What evaluates the replicas' forces on the stage path: "group (k_group_n12)" / "group (k_group_n24)" (a block per
     * replica, GroupPath; "group (k_group_n12_tc)" etc. with the tensor-core dense products, "group (k_group_n12;
     * why not tc)" where tc was asked for but cannot run, "group (k_group_n24_tc; why not k_group_n22_tc)" where the
     * device lacks the pair-loop entry's shared memory), else "stages (why not the group kernel)"; "molecule" for the
     * small-molecule kernel.
     */
    public String replicaForces() {
        if (sys.megaKernel() != null) {
            return "molecule";
        }
        if (sys.groupKernel != null) {
            return "group (" + sys.groupKernel + (sys.groupWhyNot.isEmpty() ? "" : "; " + sys.groupWhyNot) + ")";
        }
        return "stages (" + sys.groupWhyNot + ")";
    }

    /** The kernel running whole MD steps (k_small_c16, or k_small_c16_cons with constraints), or "stages". */
    String kernel() {
        return sys.megaKernel() == null ? "stages" : sys.megaKernel();
    }

    /** The parameter block of a force evaluation (the device buffers' addresses; tests). */
    byte[] forceParameters() {
        return sys.net(null, false);
    }

    public String deviceName() {
        return model.cx.deviceName();
    }

    /** Neighbour slots per atom currently allocated. */
    public int neighbourCapacity() {
        return sys.capacity();
    }

    @Override
    public int replicas() {
        return starts.size();
    }

    @Override
    public long stepCount() {
        return steps;
    }

    /**
     * Constraint groups (of at most three pairs) whose direct solve did not end met and handed over to the Gauss-Seidel
     * sweeps, over the launches so far (a launch redone after a neighbour overflow counts again): 0 in a healthy run,
     * where every group of h-bonds is solved directly (molten_constraints.cuh).
     */
    public long constraintHandovers() {
        return handovers;
    }

    /** MD steps done so far (= {@link #stepCount()}). */
    public long stepsDone() {
        return steps;
    }

    /** {@link #advance}, for callers of one system. */
    public void runSteps(int n) {
        advance(n);
    }

    /**
     * Advances every replica {@code n} steps: {@code n / K} launches of the K-step graph and one of
     * the remainder, then one synchronisation to check the overflow and non-finite flags.
     *
     * @throws DeviceBlowUpException if a force became non-finite
     * @throws IllegalStateException if the neighbour list was asymmetric
     */
    @Override
    public void advance(int n) {
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
            handovers += flags[DeviceSystem.FLAG_CONSSWEEPS];
            if (flags[DeviceSystem.FLAG_OVERFLOW] > 0) {
                sys.restoreStateFrom(snapshot);
                grow(flags[DeviceSystem.FLAG_MAXCOUNT]);
                continue;
            }
            DeviceSystem.requirePairedSlots(flags);
            if (flags[DeviceSystem.FLAG_CONSTRAINT] != 0 && reps.constraints != null) {
                // checked at the end of the K-step launches: the run stops there, the state of their start kept
                long bad = flags[DeviceSystem.FLAG_CONSSTEP];
                DeviceConstraints.Failure f = reps.constraints.failure(flags[DeviceSystem.FLAG_CONSTRAINT],
                        flags[DeviceSystem.FLAG_CONSKIND], bad);
                sys.restoreStateFrom(snapshot);
                throw new DeviceConstraintFailureException(f.message() + "; the state of step " + steps + " can be read",
                        f.replica(), f.atom(), f.otherAtom(), bad);
            }
            if (flags[DeviceSystem.FLAG_NONFINITE] != 0) {
                int atom = flags[DeviceSystem.FLAG_NONFINITE] - 1;
                int r = reps.replicaOf(atom);
                int local = atom - reps.first[r];
                long bad = flags[DeviceSystem.FLAG_BADSTEP] + 1L;
                sys.restoreStateFrom(snapshot);
                throw new DeviceBlowUpException(String.format(Locale.ROOT,
                        "simulation blew up: non-finite force on atom %d (%s) of replica %d at step %d; the state of"
                                + " step %d can be read", local, starts.get(r).atoms().element(local), r, bad, steps),
                        r, local, bad);
            }
            steps += n;
            return;
        }
    }

    private void launchSteps(int n, int k) {
        byte[] net = sys.net(dynamics, model.options.fp32State());
        DeviceSystem s = sys;
        for (int done = 0; done < n; ) {
            int m = Math.min(k, n - done);
            model.graphs.run(CudaModel.key(s, "md", m, net), model.cx.stream(), () -> s.emitSteps(net, m));
            done += m;
        }
    }

    private int check(int replica) {
        if (replica < 0 || replica >= starts.size()) {
            throw new IndexOutOfBoundsException("replica " + replica + " of " + starts.size());
        }
        return replica;
    }

    @Override
    public double read(int replica, Atoms into, double[] forces) {
        int r = check(replica);
        int count = reps.atoms(r);
        if (into.size() != count) {
            throw new IllegalArgumentException("atoms has " + into.size() + " atoms, replica " + r + " " + count);
        }
        model.cx.makeCurrent();
        model.cx.synchronize();
        ReplicaBuffers.downloadRange(sys, reps.first[r], count, into.positions(), into.velocities(), forces);
        return reps.downloadEnergies(sys)[r];
    }

    /** Replica 0's state into {@code atoms}; its potential energy, eV. */
    public double fetchState(Atoms atoms) {
        return read(0, atoms, null);
    }

    /** Forces (eV/Å) of replica 0. */
    public double[] forces() {
        double[] f = new double[3 * reps.atoms(0)];
        model.cx.makeCurrent();
        ReplicaBuffers.downloadRange(sys, 0, reps.atoms(0), null, null, f);
        return f;
    }

    /** Potential energy (eV) of replica 0. */
    public double potentialEnergyEv() {
        model.cx.makeCurrent();
        model.cx.synchronize();
        return reps.downloadEnergies(sys)[0];
    }

    /** Kinetic energy (eV) of replica 0. */
    public double kineticEnergyEv() {
        Atoms a = starts.get(0).atoms().copy();
        fetchState(a);
        return Observables.kineticEnergyEv(a);
    }

    /**
     * Langevin: the kinetic energy just after the replica's last O step (the
     * kernel's rvar[MOLTEN_RVAR_MID_KE]), free of the full-step velocities' O(dt²) bias, as the host's
     * LangevinThermostat reports it; empty for the other dynamics and before the first step.
     */
    @Override
    public java.util.OptionalDouble reportedKineticEnergyEv(int replica) {
        int r = check(replica);
        if (!(starts.get(r).dynamics() instanceof DynamicsSpec.Langevin) || stepCount() == 0) {
            return java.util.OptionalDouble.empty();
        }
        model.cx.makeCurrent();
        model.cx.synchronize();
        double k = reps.downloadVariables(r)[ReplicaBuffers.MID_KE];
        return k > 0 ? java.util.OptionalDouble.of(k) : java.util.OptionalDouble.empty();   // 0: no O step yet
    }

    @Override
    public double bathEnergyEv(int replica) {
        int r = check(replica);
        model.cx.makeCurrent();
        model.cx.synchronize();
        double[] v = reps.downloadVariables(r);
        if (!(starts.get(r).dynamics() instanceof DynamicsSpec.NoseHooverChain c)) {
            return v[0];
        }
        // NoseHooverChain.bathEnergyEv: dof kT xi_1 + sum Q_k v_xi_k^2 / 2 + kT sum_{k>=2} xi_k
        double kT = org.molten.core.Units.BOLTZMANN_EV_PER_K * c.temperatureK();
        int dof = starts.get(r).degreesOfFreedom();
        double tau2 = c.tauFs() * c.tauFs();
        double e = dof * kT * v[1];
        for (int k = 0; k < c.chainLength(); k++) {
            double q = (k == 0 ? dof : 1) * kT * tau2;
            double vxi = v[1 + ReplicaBuffers.MAXCHAIN + k];
            e += 0.5 * q * vxi * vxi;
            if (k > 0) {
                e += kT * v[1 + k];
            }
        }
        return e;
    }

    @Override
    public byte[] integratorState(int replica) {
        int r = check(replica);
        model.cx.makeCurrent();
        model.cx.synchronize();
        double[] v = reps.downloadVariables(r);
        ByteBuffer b = ByteBuffer.allocate(12 + 8 * v.length);
        b.putInt(STATE_MAGIC).putInt(DeviceIntegrator.thermostat(dynamics)).putInt(v.length);
        for (double x : v) {
            b.putDouble(x);
        }
        return b.array();
    }

    @Override
    public void restore(int replica, Atoms state, double[] forces, double potentialEnergyEv, byte[] integratorState,
                        long step) {
        int r = check(replica);
        int count = reps.atoms(r);
        if (state.size() != count || forces.length != 3 * count) {
            throw new IllegalArgumentException("replica " + r + " has " + count + " atoms; the state has "
                    + state.size() + " and " + forces.length / 3 + " forces");
        }
        ByteBuffer b = ByteBuffer.wrap(integratorState);
        if (integratorState.length != 12 + 8 * ReplicaBuffers.RVAR || b.getInt() != STATE_MAGIC) {
            throw new IllegalArgumentException("replica " + r + ": not a CUDA integrator state (" + integratorState.length
                    + " bytes)");
        }
        int ts = b.getInt();
        if (ts != DeviceIntegrator.thermostat(dynamics) || b.getInt() != ReplicaBuffers.RVAR) {
            throw new IllegalArgumentException("replica " + r + ": the integrator state is of another thermostat than "
                    + dynamics.name());
        }
        double[] v = new double[ReplicaBuffers.RVAR];
        for (int k = 0; k < v.length; k++) {
            v[k] = b.getDouble();
        }
        Checks.requireNonNegative(step, "step");
        model.cx.makeCurrent();
        model.cx.synchronize();
        ReplicaBuffers.uploadRange(sys, reps.first[r], count, state.positions(), state.velocities(), forces);
        ReplicaBuffers.uploadEnergy(sys, r, potentialEnergyEv);
        reps.uploadVariables(r, v);
        sys.uploadStep(step);
        steps = step;
    }

    /**
     * FLOP of one MD step of every replica together ({@link ModelFlops}), with the neighbour pairs of
     * the start geometries.
     */
    public double flopsPerStep() {
        long atoms = 0;
        long edges = 0;
        for (ReplicaStart s : starts) {
            atoms += s.atoms().size();
            if (s.atoms().size() > 1) {
                org.molten.forcefield.neighbours.EdgeList e = new org.molten.forcefield.neighbours.EdgeList();
                new org.molten.forcefield.neighbours.CellList().search(s.atoms(), model.dw.cutoffA, e);
                edges += e.rowStart(s.atoms().size());
            }
        }
        return ModelFlops.perStep(model.dw, atoms, edges);
    }

    /** The card's FP32 rate without tensor cores, FLOP/s (NaN if the driver reports no clock). */
    public double fp32PeakFlops() {
        return model.cx.fp32PeakFlops();
    }

    /**
     * Times MD steps with device events: {@code repeats} samples of {@code launchesPerSample}
     * launches of the K-step graph each (after one warm-up sample that also captures the graph).
     * Advances the simulation.
     *
     * @return microseconds per MD step (of all replicas together), one value per sample, sorted
     */
    public double[] timeSteps(int repeats, int launchesPerSample) {
        Checks.requirePositive(repeats, "repeats");
        Checks.requirePositive(launchesPerSample, "launchesPerSample");
        model.cx.makeCurrent();
        int k = model.options.stepsPerLaunch();
        advance(2 * k);  // first sight (eager) and capture
        CUevent a = new CUevent();
        CUevent b = new CUevent();
        cuEventCreate(a, 0);
        cuEventCreate(b, 0);
        try {
            double[] us = new double[repeats];
            byte[] net = sys.net(dynamics, model.options.fp32State());
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
        if (model == null) {
            return;
        }
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
