package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuGraphDestroy;
import static jcuda.driver.JCudaDriver.cuGraphExecDestroy;
import static jcuda.driver.JCudaDriver.cuGraphInstantiate;
import static jcuda.driver.JCudaDriver.cuGraphLaunch;
import static jcuda.driver.JCudaDriver.cuStreamBeginCapture;
import static jcuda.driver.JCudaDriver.cuStreamEndCapture;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD32;
import static jcuda.driver.JCudaDriver.cuMemsetD32Async;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUfunction;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUstreamCaptureMode;
import org.molten.core.Cell;

/**
 * The device buffers of one system (a size, a cell, a neighbour capacity) and the launch
 * sequences that evaluate forces or advance MD steps on them: in {@link CudaOptions.Mode#STAGES} each stage
 * is one kernel launch ({@link #emitStageStep}), in {@link CudaOptions.Mode#MOLECULE} the small-molecule
 * kernel (k_small_c16, sm_90) runs whole steps itself. In STAGES mode an eligible replica batch ({@link GroupPath}:
 * one atom count up to 24 a replica, no cell, the student's shape) has its forces evaluated by the group kernel, a
 * block per replica ({@link #groupKernel}), instead of the neighbour search and the force stages.
 *
 * <p>Positions and velocities live on the device in float64, forces in float32, the energy is
 * summed in float64. Not thread-safe; use with its context current.
 */
final class DeviceSystem implements AutoCloseable {
    static final int THREADS = 256;
    static final int WARPS = 8;
    static final int MAXCAP = 512;
    static final int MAXKW = 32;
    static final int MG_SMALL = 4;
    static final int SU_SMALL = 2;
    static final int RBS = 16;
    static final int NFLAGS = 9;
    static final int FLAG_OVERFLOW = 0;
    static final int FLAG_MAXCOUNT = 1;
    static final int FLAG_NONFINITE = 2;
    static final int FLAG_BADSTEP = 3;
    static final int FLAG_UNPAIRED = 4;
    /** First constraint not met (MOLTEN_FLAG_CONSTRAINT): pair k + 1, rigid water −(w + 1), global; 0 if none. */
    static final int FLAG_CONSTRAINT = 5;
    /** What failed: 1 RATTLE positions, 2 RATTLE velocities, 3 SETTLE. */
    static final int FLAG_CONSKIND = 6;
    /** The step it failed in. */
    static final int FLAG_CONSSTEP = 7;
    /**
     * Small constraint groups whose direct solve (molten_constraints.cuh: the velocity half exactly, positions by
     * Newton's method) did not end met and handed over to the Gauss-Seidel sweeps (MOLTEN_FLAG_CONSSWEEPS).
     */
    static final int FLAG_CONSSWEEPS = 8;
    /** k_constrain's stages (MOLTEN_CONS_*). */
    static final int CONS_FULL_DRIFT = 0;
    static final int CONS_FIRST_HALF = 1;
    static final int CONS_SECOND_HALF = 2;
    static final int CONS_VELOCITIES = 3;

    private final CudaContext cx;
    private final DeviceWeights dw;
    private final DevicePointer weights;
    final int n;
    private int cap;
    final CudaOptions.Mode mode;      // resolved: STAGES or MOLECULE
    private final String megaKernel;  // k_small_c16, k_small_c16_cons with constraints (null in STAGES)
    private final int megaGrid;
    final boolean large;              // tiled dense layers, warp-per-row message passes, one channel per lane
    final int mg;
    final int groups;
    private final KernelChoices choices;  // kernel variants named by system properties
    private final DenseSplit denseSplit;  // K splits of the tiled dense stages
    private final KernelLauncher launcher;  // stage kernels: programmatic dependent or plain launches
    private DevicePointer kpart, kcount;  // their scratch (large systems only)
    final int search;                 // 0 all pairs, 1 cell list
    private final int[] ncell = {1, 1, 1};
    private final Cell cell;
    private final ReplicaBuffers replicas;  // null: one system (force evaluations)
    final int replicaCount;
    /** The group kernel evaluating the replicas' forces (GroupPath), or null: the stage kernels. */
    final String groupKernel;
    /**
     * Why the group kernel does not evaluate the forces; where it does, "" or why it runs the SIMT entry although
     * {@value KernelChoices#GROUP_DENSE_PROPERTY}=tc asked for the tensor cores.
     */
    final String groupWhyNot;
    private final DevicePointer groupWeights;  // the model's weights in the group kernel's order (CudaModel)
    private final GroupWeights groupLayout;
    private final int groupAtoms, groupSmem;
    private DevicePointer groupScratch;
    private final List<DevicePointer> own = new ArrayList<>();

    // buffers; on the group path (groupKernel != null) the force stages' own are not allocated (null): the
    // activations (act, ~37 KB an atom), the neighbour slots (nbrIdx .. gacc) and the K-split scratch (kpart, kcount)
    final DevicePointer pos, vel, invMass, species, force, eAtom, energy, step, flags, nbrCount, order;
    private DevicePointer nbrIdx, geo, fc, kidx, rbf, gacc;
    private final DevicePointer cellCount, cellStart, cellAtoms, atomCell, act;
    private final NetLayout.Builder base = new NetLayout.Builder();

    /**
     * @param mode STAGES or MOLECULE (AUTO already resolved by the caller)
     */
    DeviceSystem(CudaContext cx, DeviceWeights dw, DevicePointer weights, int atoms, Cell cell, int cap,
                 CudaOptions.Mode mode, CudaOptions opt, ReplicaBuffers replicas) {
        this(cx, dw, weights, atoms, cell, cap, mode, opt, replicas, null, null);
    }

    /**
     * @param groupWeights the weights in the group kernel's order on the device ({@code groupLayout}'s), or null: the
     *                     stage kernels evaluate the forces whatever the batch
     */
    DeviceSystem(CudaContext cx, DeviceWeights dw, DevicePointer weights, int atoms, Cell cell, int cap,
                 CudaOptions.Mode mode, CudaOptions opt, ReplicaBuffers replicas, GroupWeights groupLayout,
                 DevicePointer groupWeights) {
        this.cx = cx;
        this.replicas = replicas;
        this.replicaCount = replicas == null ? 1 : replicas.count;
        this.dw = dw;
        this.weights = weights;
        this.n = atoms;
        this.cap = cap;
        this.cell = cell;
        this.mode = mode;
        this.choices = KernelChoices.fromProperties();
        if (mode == CudaOptions.Mode.MOLECULE) {
            // constrained: the kernel with the solves compiled in (molten_small_constraints.cuh)
            this.megaKernel = replicas != null && replicas.constraints != null ? "k_small_c16_cons" : "k_small_c16";
            this.megaGrid = 16;
        } else if (mode != CudaOptions.Mode.STAGES) {
            throw new IllegalArgumentException("a device system runs STAGES or MOLECULE, not " + mode);
        } else {
            this.megaKernel = null;
            this.megaGrid = 0;
        }
        this.large = mode == CudaOptions.Mode.STAGES && atoms >= opt.largeSystemAtoms();
        int lanesChannels = dw.f / 32;
        int small = 1;
        for (int d = 1; d <= Math.min(MG_SMALL, lanesChannels); d++) {
            if (lanesChannels % d == 0) {
                small = d;
            }
        }
        this.mg = large ? 1 : small;
        this.denseSplit = DenseSplit.fromProperty(cx.multiprocessors());
        this.launcher = new KernelLauncher(cx, mode == CudaOptions.Mode.STAGES ? choices.launch() : KernelChoices.Launch.PLAIN,
                THREADS);
        this.groups = lanesChannels / mg;
        // the cell list does not separate replicas: several replicas search their own atoms, all pairs
        this.search = replicaCount == 1 && useCellList(cell, atoms, dw.cutoffA, opt, mode) ? 1 : 0;
        String why = GroupPath.why(choices.replicaForces(), replicas, mode, cell, dw, choices.groupDense(),
                cx.computeMajor(), cx.maxSharedMemoryPerBlock());
        if (why == null && groupWeights == null) {
            why = "no weights in the group kernel's order were given";
        }
        // the dense products: auto's measured choice per entry, or the one asked for; tc where the device has no tf32
        // mma.sync (below sm_80) runs the SIMT entry with the reason in groupWhyNot (replicaForces() names both); where
        // the device lacks the pair-loop entry's shared memory its fallback runs (GroupPath.entry, which why checked)
        String denseWhyNot = why == null ? GroupPath.denseWhyNot(choices.groupDense(), cx.computeMajor()) : null;
        KernelChoices.GroupDense dense = why == null
                ? GroupPath.dense(choices.groupDense(), replicas.atoms(0), cx.computeMajor()) : null;
        this.groupKernel = why == null ? GroupPath.entry(replicas.atoms(0), dense, cx.maxSharedMemoryPerBlock()) : null;
        String fallbackWhy = why == null
                ? GroupPath.fallbackWhy(replicas.atoms(0), dense, cx.maxSharedMemoryPerBlock()) : null;
        this.groupWhyNot = why != null ? why : Stream.of(denseWhyNot, fallbackWhy)
                .filter(Objects::nonNull).collect(Collectors.joining("; "));
        this.groupWeights = groupKernel == null ? null : groupWeights;
        this.groupLayout = groupKernel == null ? null : groupLayout;
        this.groupAtoms = groupKernel == null ? 0 : replicas.atoms(0);
        this.groupSmem = groupKernel == null ? 0 : GroupPath.sharedBytes(groupKernel, groupAtoms);
        if (search == 1) {
            for (int k = 0; k < 3; k++) {
                ncell[k] = (int) Math.floor(cell.vector(k)[k] / dw.cutoffA);
            }
        }

        pos = alloc(24L * n);
        vel = alloc(24L * n);
        invMass = alloc(8L * n);
        species = alloc(4L * n);
        force = alloc(12L * n);
        eAtom = alloc(8L * n);
        energy = alloc(8L * replicaCount);
        step = alloc(8);
        flags = alloc(4L * NFLAGS);
        nbrCount = alloc(4L * n);
        order = alloc(4L * n);
        int ncells = ncell[0] * ncell[1] * ncell[2];
        cellCount = alloc(4L * ncells);
        cellStart = alloc(4L * (ncells + 1));
        cellAtoms = alloc(4L * n);
        atomCell = alloc(4L * n);
        // the group kernel evaluates the forces without the stages' activations, neighbour slots or K splits
        act = groupKernel == null ? alloc(4L * layoutActivations(null)) : null;
        if (groupKernel != null) {
            groupScratch = alloc(4L * GroupPath.scratchFloats(groupAtoms) * replicaCount);
        }
        if (large && groupKernel == null) {
            kpart = alloc(4L * denseSplit.scratchFloats());
            kcount = alloc(4L * denseSplit.counters());
            cuMemsetD32(kcount, 0, denseSplit.counters());  // dense_tile leaves them zero after each launch
        }
        cuMemsetD32(cellCount, 0, ncells);
        cuMemsetD32(step, 0, 2);
        cuMemsetD32(flags, 0, NFLAGS);
        cuMemsetD32(force, 0, 3L * n);
        cuMemsetD32(vel, 0, 6L * n);
        int[] identity = new int[n];
        for (int i = 0; i < n; i++) {
            identity[i] = i;
        }
        cuMemcpyHtoD(order, Pointer.to(identity), 4L * n);
        allocNeighbours();
        describe();
    }

    static boolean useCellList(Cell cell, int atoms, double cutoff, CudaOptions opt, CudaOptions.Mode mode) {
        if (cell == null || mode != CudaOptions.Mode.STAGES || atoms < opt.cellListAtoms() || !cell.isOrthorhombic()) {
            return false;
        }
        for (int k = 0; k < 3; k++) {
            if (!cell.periodic(k) || Math.floor(cell.vector(k)[k] / cutoff) < 3) {
                return false;
            }
        }
        return true;
    }

    private DevicePointer alloc(long bytes) {
        DevicePointer p = cx.alloc(bytes);
        own.add(p);
        return p;
    }

    private void release(DevicePointer p) {
        if (p != null && own.remove(p)) {
            cx.free(p);
        }
    }

    /** The neighbour slots of the stage path; none where the group kernel evaluates the forces. */
    private void allocNeighbours() {
        if (groupKernel != null) {
            return;
        }
        long slots = (long) n * cap;
        nbrIdx = alloc(4 * slots);
        geo = alloc(16 * slots);
        fc = alloc(8 * slots);
        kidx = alloc(4 * slots);
        rbf = alloc(4 * slots * dw.kw);
        gacc = alloc(16 * slots * groups);
    }

    int capacity() {
        return cap;
    }

    /** Reallocates the per-slot buffers for a new capacity (graphs holding the old addresses are stale). */
    void resizeCapacity(int newCap) {
        release(nbrIdx);
        release(geo);
        release(fc);
        release(kidx);
        release(rbf);
        release(gacc);
        cap = newCap;
        allocNeighbours();
        describe();
    }

    // ------------------------------------------------------------------ activation layout

    private static long al(long x) {
        return (x + 63) & ~63L;
    }

    /** Fills the activation offsets into {@code b} (if not null) and returns the floats needed. */
    private long layoutActivations(NetLayout.Builder b) {
        int f = dw.f, t = dw.layers;
        long at = 64;  // offset 0 is never a valid array
        for (int i = 1; i <= t; i++) {
            at = put(b, "o_s", i, at, (long) n * f);
        }
        for (int i = 1; i < t; i++) {
            at = put(b, "o_v", i, at, 3L * n * f);
            at = put(b, "o_q", i, at, (long) n * f);
            at = put(b, "o_phi", i, at, 3L * n * f);
        }
        for (int i = 0; i < t; i++) {
            at = put(b, "o_s1", i, at, (long) n * f);
            at = put(b, "o_v1", i, at, 3L * n * f);
            at = put(b, "o_uvv", i, at, 6L * n * f);
            at = put(b, "o_z3", i, at, (long) n * f);
            at = put(b, "o_a", i, at, 3L * n * f);
        }
        at = put(b, "o_z5", -1, at, (long) n * dw.fr);
        at = put(b, "o_gs", -1, at, (long) n * f);
        at = put(b, "o_gv", -1, at, 3L * n * f);
        at = put(b, "o_gz3", -1, at, (long) n * f);
        at = put(b, "o_gs1", -1, at, (long) n * f);
        at = put(b, "o_gn", -1, at, (long) n * f);
        at = put(b, "o_gv1", -1, at, 3L * n * f);
        at = put(b, "o_gphi", -1, at, 3L * n * f);
        at = put(b, "o_gq", -1, at, (long) n * f);
        return at;
    }

    private static long put(NetLayout.Builder b, String name, int index, long at, long size) {
        if (b != null) {
            if (index < 0) {
                b.set(name, at);
            } else {
                b.set(name, index, at);
            }
        }
        return al(at + size);
    }

    private void describe() {
        NetLayout.Builder b = base;
        b.set("n", n).set("cap", cap).set("mg", mg).set("search", search);
        dw.describe(b);
        int pbc = 0;
        double[][] h = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        double[][] hinv = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        boolean ortho = true;
        if (cell != null) {
            for (int k = 0; k < 3; k++) {
                pbc |= cell.periodic(k) ? 1 << k : 0;
            }
            h = cell.matrix();
            double[] row = new double[3];
            for (int k = 0; k < 3; k++) {
                cell.toFractional(k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2 ? 1 : 0, row);
                hinv[k] = row.clone();
            }
            ortho = cell.isOrthorhombic();
        }
        b.set("pbc", pbc).set("ortho", ortho ? 1 : 0);
        for (int i = 0; i < 3; i++) {
            b.set("ncell", i, ncell[i]);
            for (int j = 0; j < 3; j++) {
                b.set("h", 3 * i + j, h[i][j]);
                b.set("hinv", 3 * i + j, hinv[i][j]);
            }
        }
        b.set("w", weights.address());
        b.set("pos", ptr(pos)).set("vel", ptr(vel)).set("inv_mass", ptr(invMass)).set("species", ptr(species))
                .set("force", ptr(force)).set("e_atom", ptr(eAtom)).set("energy", ptr(energy))
                .set("step", ptr(step)).set("flags", ptr(flags)).set("nbr_count", ptr(nbrCount))
                .set("nbr_idx", ptr(nbrIdx)).set("geo", ptr(geo)).set("fc", ptr(fc)).set("kidx", ptr(kidx))
                .set("rbf", ptr(rbf)).set("gacc", ptr(gacc))
                .set("order", ptr(search == 1 ? cellAtoms : order))
                .set("cell_count", ptr(cellCount)).set("cell_start", ptr(cellStart))
                .set("cell_atoms", ptr(cellAtoms)).set("atom_cell", ptr(atomCell)).set("act", ptr(act))
                .set("kpart", ptr(kpart)).set("kcount", ptr(kcount));
        if (replicas != null) {
            replicas.describe(b);
        } else {
            b.set("replicas", 1);
        }
        if (groupKernel != null) {
            b.set("group_w", groupWeights.address()).set("group_ar", groupLayout.atomref)
                    .set("group_lay", groupLayout.layers).set("group_ro", groupLayout.readout)
                    .set("group_scr", ptr(groupScratch)).set("group_n", groupAtoms).set("group_smem", groupSmem);
        }
        layoutActivations(b);
    }

    /** A buffer's device address; 0 for one this system does not hold (the stage-only buffers on the group path). */
    private static long ptr(DevicePointer p) {
        return p == null ? 0 : p.address();
    }

    /**
     * The parameter block for a force evaluation ({@code integrator == null}) or for MD steps.
     */
    byte[] net(org.molten.core.dynamics.DynamicsSpec dynamics, boolean fp32State) {
        NetLayout.Builder b = base.copy();
        DeviceIntegrator.describe(dynamics, b);
        if (dynamics != null) {
            b.set("fp32_state", fp32State ? 1 : 0);
            b.set("cons_on", constrained() ? 1 : 0);
        }
        return b.bytes();
    }

    /** The kernel that runs whole steps (k_small_c16, k_small_c16_cons), or null: the stage kernels. */
    String megaKernel() {
        return megaKernel;
    }

    /** Whether the replicas hold constraints (the MD steps then run the k_constrain stages). */
    boolean constrained() {
        return replicas != null && replicas.constraints != null;
    }

    /** A k_constrain stage (MOLTEN_CONS_*), one block per replica. */
    private void constrain(byte[] net, int what) {
        launch("k_constrain", replicaCount, consSharedBytes(), new KernelArgs(net, what));
    }

    private int consSharedBytes() {
        return constrained() ? replicas.constraints.sharedBytes : 0;
    }

    // ------------------------------------------------------------------ data transfer

    void uploadSpecies(int[] s) {
        cuMemcpyHtoD(species, Pointer.to(s), 4L * n);
    }

    void uploadInverseMasses(double[] massesAmu) {
        double[] inv = new double[n];
        for (int i = 0; i < n; i++) {
            inv[i] = 1.0 / massesAmu[i];
        }
        cuMemcpyHtoD(invMass, Pointer.to(inv), 8L * n);
    }

    void uploadPositions(double[] r) {
        cuMemcpyHtoD(pos, Pointer.to(r), 24L * n);
    }

    void uploadVelocities(double[] v) {
        cuMemcpyHtoD(vel, Pointer.to(v), 24L * n);
    }

    void uploadStep(long s) {
        cuMemcpyHtoD(step, Pointer.to(new long[] {s}), 8);
    }

    void downloadPositions(double[] r) {
        cuMemcpyDtoH(Pointer.to(r), pos, 24L * n);
    }

    void downloadVelocities(double[] v) {
        cuMemcpyDtoH(Pointer.to(v), vel, 24L * n);
    }

    /** Forces (eV/Å) widened to float64. */
    void downloadForces(double[] out) {
        float[] f = new float[3 * n];
        cuMemcpyDtoH(Pointer.to(f), force, 12L * n);
        for (int i = 0; i < f.length; i++) {
            out[i] = f[i];
        }
    }

    double downloadEnergy() {
        double[] e = {0};
        cuMemcpyDtoH(Pointer.to(e), energy, 8);
        return e[0];
    }

    void downloadAtomEnergies(double[] out) {
        cuMemcpyDtoH(Pointer.to(out), eAtom, 8L * n);
    }

    long downloadStep() {
        long[] s = {0};
        cuMemcpyDtoH(Pointer.to(s), step, 8);
        return s[0];
    }

    int[] downloadFlags() {
        int[] f = new int[NFLAGS];
        cuMemcpyDtoH(Pointer.to(f), flags, 4L * NFLAGS);
        return f;
    }

    /**
     * Refuses forces that lost the reverse edge of a pair ({@link #FLAG_UNPAIRED}: with the source-edge backward pass,
     * row b of a pair held in row a lacked a). After a neighbour overflow that is expected (a row was cut; the caller
     * grows the capacity and redoes the work), so it is checked only without one; otherwise the neighbour list was
     * asymmetric and the forces are wrong: never passed on silently.
     *
     * @param flags the flags of the evaluation or steps just done ({@link #downloadFlags()})
     * @throws IllegalStateException if a slot was unpaired without an overflow
     */
    static void requirePairedSlots(int[] flags) {
        if (flags[FLAG_UNPAIRED] != 0 && flags[FLAG_OVERFLOW] == 0) {
            throw new IllegalStateException("GPU neighbour list is not symmetric: " + flags[FLAG_UNPAIRED]
                    + " neighbour slot(s) have no reverse slot in their partner's row, so forces would miss the"
                    + " partner's edge; refusing them");
        }
    }

    /** Clears the flags (overflow, maximum count, non-finite, unpaired) on the stream. */
    void clearFlags() {
        cuMemsetD32Async(flags, 0, NFLAGS, cx.stream());
    }

    /** Device-side copy of the integrator state into {@code into} (same size), for rolling back. */
    void copyStateTo(Snapshot into) {
        cuMemcpyDtoDAsync(into.pos, pos, 24L * n, cx.stream());
        cuMemcpyDtoDAsync(into.vel, vel, 24L * n, cx.stream());
        cuMemcpyDtoDAsync(into.force, force, 12L * n, cx.stream());
        cuMemcpyDtoDAsync(into.step, step, 8, cx.stream());
        if (replicas != null) {
            cuMemcpyDtoDAsync(into.rvar, replicas.var, 8L * ReplicaBuffers.RVAR * replicaCount, cx.stream());
        }
    }

    void restoreStateFrom(Snapshot from) {
        cuMemcpyDtoDAsync(pos, from.pos, 24L * n, cx.stream());
        cuMemcpyDtoDAsync(vel, from.vel, 24L * n, cx.stream());
        cuMemcpyDtoDAsync(force, from.force, 12L * n, cx.stream());
        cuMemcpyDtoDAsync(step, from.step, 8, cx.stream());
        if (replicas != null) {
            cuMemcpyDtoDAsync(replicas.var, from.rvar, 8L * ReplicaBuffers.RVAR * replicaCount, cx.stream());
        }
    }

    /** Device memory holding a copy of the integrator state. */
    final class Snapshot {
        final DevicePointer pos = alloc(24L * n);
        final DevicePointer vel = alloc(24L * n);
        final DevicePointer force = alloc(12L * n);
        final DevicePointer step = alloc(8);
        final DevicePointer rvar = alloc(8L * ReplicaBuffers.RVAR * replicaCount);
    }

    Snapshot newSnapshot() {
        return new Snapshot();
    }

    // ------------------------------------------------------------------ launch sequences

    /** A force evaluation on the stream: flags cleared, all stages, energy summed. */
    void emitForce(byte[] net) {
        clearFlags();
        if (megaKernel != null) {
            launchMega(net, 1);
            return;
        }
        emitStageStep(net);
        launchEnergies(net);
    }

    /** Potential energy per replica (k_energy_rep, one block per replica). */
    private void launchEnergies(byte[] net) {
        launch("k_energy_rep", replicaCount, THREADS * 8, new KernelArgs(net));
    }

    /** A per-replica thermostat stage (k_thermostat: 0 before the first kick, 1 after the second, 2 the O step). */
    private void thermostat(byte[] net, int stage) {
        // with constraints the O step projects its velocities, staged in shared memory after the reduction's
        launch("k_thermostat", replicaCount, (THREADS + 2) * 8 + consSharedBytes(), new KernelArgs(net, stage));
    }

    /** {@code steps} MD steps on the stream (no host synchronisation); the energy of the last one is summed. */
    void emitSteps(byte[] net, int steps) {
        if (megaKernel != null) {
            launchMega(net, steps);
            return;
        }
        for (int s = 0; s < steps; s++) {
            emitStageStep(net);
        }
        launchEnergies(net);
    }

    private void launchMega(byte[] net, int steps) {
        int smem = megaSharedMemory();
        cx.allowSharedMemory(megaKernel, smem);
        Pointer p = Pointer.to(Pointer.to(net), Pointer.to(new int[] {steps}), Pointer.to(new long[] {smem}));
        CUfunction f = cx.function(megaKernel);
        cx.allowNonPortableCluster(megaKernel);  // 16 blocks: above the portable 8
        cuLaunchKernel(f, megaGrid, 1, 1, THREADS, 1, 1, smem, cx.stream(), p, null);
    }

    /** Bytes of shared memory of the neighbour stage (MOLTEN_NB_SMEM). */
    int neighbourSharedMemory() {
        return WARPS * (6 * cap + 64) * 4;
    }

    /** Bytes of shared memory of a block-per-row message stage, _m4 (4 reduced quantities forward, 6 backward). */
    int messageSharedMemory(int quantities) {
        int windows = quantities == 4 ? WARPS * SU_SMALL * MAXKW : WARPS * 2 * SU_SMALL * MAXKW;
        return (WARPS * quantities * 32 * mg + windows) * 4;
    }

    int megaSharedMemory() {
        DeviceConstraints c = constrained() ? replicas.constraints : null;
        return moleculeSharedMemory(n, dw.f, dw.layers, dw.nRbf, dw.kw, c == null ? 0 : c.pairs, c == null ? 0 : c.waters);
    }

    /**
     * Whether the small-molecule kernel (k_small_c16) can run {@code atoms} atoms of this model holding {@code pairs}
     * constrained pairs and {@code waters} rigid waters.
     */
    static boolean moleculeSupported(int atoms, int pairs, int waters, DeviceWeights dw, int maxSharedBytes) {
        return (dw.f == 64 || dw.f == 128 || dw.f == 256) && dw.fr * 2 == dw.f && atoms >= 1
                && moleculeSharedMemory(atoms, dw.f, dw.layers, dw.nRbf, dw.kw, pairs, waters) <= maxSharedBytes;
    }

    /** {@link #moleculeSharedMemory(int, int, int, int, int, int, int)} without constraints. */
    static int moleculeSharedMemory(int atoms, int f, int t, int nRbf, int kw) {
        return moleculeSharedMemory(atoms, f, t, nRbf, kw, 0, 0);
    }

    /**
     * Bytes of shared memory of k_small_c16: the layout of {@code SmallLayout} in molten_small.cuh (the
     * kernel checks it and traps on a shortfall).
     */
    static int moleculeSharedMemory(int atoms, int f, int t, int nRbf, int kw, int pairs, int waters) {
        int cs = f / 16, ns = Math.max(atoms - 1, 1), e = atoms * ns, n = atoms;
        int[] parts = {8, 6 * n, 6 * n, 2 * n, 3 * n, n, n, e, e, 4 * e, 2 * e, kw * e, 4 * e, t * nRbf * 3 * cs,
            t * 3 * cs, t * 8 * cs + cs,
            t * 3 * cs * n, t * cs * n, t * 3 * cs * n, t * 6 * cs * n, t * cs * n, t * 3 * cs * n,
            cs * n, cs * n, 3 * cs * n, cs * n,
            cs * n, 3 * cs * n, cs * n, 3 * cs * n, cs * n, cs * n, 3 * cs * n, cs * n,
            6 * cs * (n + 1), 2 * 3 * f * (cs + 4)};
        long words = 0;
        for (int w : parts) {
            words += (w + 3) & ~3;
        }
        int eo = Math.max(3 * f * ((n + 3) & ~3), f * ((3 * n + 3) & ~3));  // widest layer's partial sums
        int rb = (eo + 16 * n + 3) & ~3;
        words += (2L * rb + 3) & ~3;
        // the thermostats' reduction (the power of two >= N doubles and a broadcast one) and variables (RVAR doubles)
        int p = Integer.highestOneBit(Math.max(1, n));
        p = p < n ? 2 * p : p;
        words += ((2L * p + 2 + 3) & ~3) + ((2L * ReplicaBuffers.RVAR + 3) & ~3);
        // constraints (molten_small_constraints.cuh): the drift's start (N x 3 doubles); per pair 2 ints and 5 doubles
        // (length^2, bond vector, lambda), the groups (P + P + 1 ints), per water 3 ints and 2 doubles
        int[] cons = {pairs + waters > 0 ? 6 * n : 0, 2 * pairs, 2 * pairs, 6 * pairs, 2 * pairs, pairs,
            pairs > 0 ? pairs + 1 : 0, 3 * waters, 4 * waters};
        for (int w : cons) {
            words += (w + 3) & ~3;
        }
        return (int) Math.min(Integer.MAX_VALUE, 4 * words);
    }

    private static int roundUp(int x, int m) {
        return (x + m - 1) / m * m;
    }

    private void emitStageStep(byte[] net) {
        stageNet = net;
        lastT = -1;
        KernelArgs pn = new KernelArgs(net);
        int f = dw.f, t = dw.layers;
        long ts = NetLayout.get(net, "thermostat");
        boolean around = ts == DeviceIntegrator.TS_BUSSI || ts == DeviceIntegrator.TS_NHC
                || ts == DeviceIntegrator.TS_BERENDSEN;
        if (around) {
            thermostat(net, 0);
        }
        // RATTLE / SETTLE after each drift and the closing kick; the O step projects its own velocities
        boolean cons = NetLayout.get(net, "cons_on") == 1;
        launch("k_integrate1", blocks(n, THREADS), 0, pn);
        if (NetLayout.get(net, "split_o") == 1) {
            if (cons) {
                constrain(net, CONS_FIRST_HALF);
            }
            thermostat(net, 2);
            launch("k_drift", blocks(n, THREADS), 0, pn);
            if (cons) {
                constrain(net, CONS_SECOND_HALF);
            }
        } else if (cons) {
            constrain(net, CONS_FULL_DRIFT);
        }
        if (groupKernel != null) {
            // the group kernel: every replica's energy and forces, a block each, and the closing half kick
            launch(groupKernel, replicaCount, GroupPath.threads(groupKernel), groupSmem, pn);
            closeStep(net, cons, around);
            return;
        }
        if (search == 1) {
            launch("k_cell_scan", 1, THREADS * 4, pn);
        }
        launch("k_neighbours", blocks(n, WARPS), neighbourSharedMemory(), pn);
        for (int i = 0; i < t; i++) {
            if (i > 0) {
                dense("phi1", i, n, f, f, 1);
                dense("phi2", i, n, f, 3 * f, 1);
            }
            message("k_msg_fwd", i, 4);
            dense("uv", i, 3 * n, f, f, 2);
            dense("mlp0", i, n, 2 * f, f, 1);
            dense("mlp2", i, n, f, f, 3);
        }
        dense("readout", -1, n, f, dw.fr, 1);
        dense("readout_bwd", -1, n, dw.fr, f, 1);
        for (int i = t - 1; i >= 0; i--) {
            dense("ub1", i, n, 3 * f, f, 1);
            dense("ub2", i, n, f, f, 2);
            dense("ub3", i, 3 * n, 2 * f, f, 1);
            message("k_msg_bwd", i, 6);
            if (i > 0) {
                dense("pb1", i, n, 3 * f, f, 1);
                dense("pb2", i, n, f, f, 1);
            }
        }
        lastT = -1;
        // the warp-per-row backward pass leaves each pair's second edge to the force stage (k_forces_rs)
        launch(large ? "k_forces_rs" : "k_forces", blocks(n, WARPS), 0, pn);
        closeStep(net, cons, around);
    }

    /** What follows the forces in a step: the velocity constraints, the thermostat's second half. */
    private void closeStep(byte[] net, boolean cons, boolean around) {
        if (cons) {
            constrain(net, CONS_VELOCITIES);
        }
        if (around) {
            thermostat(net, 1);
        }
    }

    private static int blocks(int items, int per) {
        return Math.max(1, (items + per - 1) / per);
    }

    private int maxGrid() {
        return 4 * cx.multiprocessors();
    }

    private void message(String kernel, int t, int quantities) {
        if (large) {
            // warp-per-row: SP warps per (channel group, atom); per warp the radial-basis windows of 4 slots,
            // two kinds (rbf_k, mu_k rbf_k) backward, and its partial sums (4 resp. 6 quantities x 32 lanes);
            // backward over source edges only (k_msg_bwd_rs)
            int sp = rowSplit();
            int smem = WARPS * ((quantities == 4 ? 1 : 2) * 4 * MAXKW + quantities * 32) * 4;
            String variant = quantities == 6 ? "_rs" : "_r";
            launch(kernel + variant + (sp == 2 ? "2" : ""), blocks(sp * groups * n, WARPS), smem, paramsT(t));
            return;
        }
        // block-per-row, up to four channels per lane (small systems)
        int smem = messageSharedMemory(quantities);
        launch(kernel + "_m4", groups * n, smem, paramsT(t));
    }

    /**
     * Warps per row of the warp-per-row message passes ({@link KernelChoices#ROW_SPLIT_PROPERTY}): 2 where one warp
     * per row would leave warp slots of the GPU empty (16 per multiprocessor at two blocks of 8 warps), else 1.
     */
    private int rowSplit() {
        if (choices.rowSplit() > 0) {
            return choices.rowSplit();
        }
        return 2L * groups * n <= 16L * cx.multiprocessors() ? 2 : 1;
    }

    /**
     * Whether a tiled dense stage of {@code items} wide tiles runs narrow tiles instead
     * ({@link KernelChoices#DENSE_TILES_PROPERTY}).
     */
    private boolean narrowTiles(int items) {
        return switch (choices.denseTiles()) {
            case NARROW -> true;
            case WIDE -> false;
            // measured on the H200: narrow at 201 atoms (7 wide tiles; 857 -> 607 us per step), wide at 3,000 (94)
            case AUTO -> 2 * items < cx.multiprocessors();
        };
    }

    // current parameter block for the stage launches of one emitStageStep call
    private byte[] stageNet;

    private KernelArgs paramsT(int t) {
        lastT = t;
        return new KernelArgs(stageNet, t);
    }

    /** A dense stage: rows R, inputs K, channels C per part, NP parts. */
    private void dense(String stage, int t, int rows, int k, int c, int np) {
        int items;
        int smem;
        String variant;
        if (large) {
            int mj = np == 1 ? 4 : (np == 2 ? 2 : 1);
            items = blocks(rows, 32) * blocks(c, 32 * mj);
            variant = "_t";
            if (mj > 1 && narrowTiles(items)) {
                mj = 1;  // tiles 32 channels wide: more work items (molten_layers.cuh)
                items = blocks(rows, 32) * blocks(c, 32);
                variant = "_n";
            }
            smem = (32 * 32 + 32 * np * 32 * mj) * 4;
        } else {
            items = blocks(rows, RBS) * blocks(c, WARPS);
            smem = RBS * roundUp(k, 32) * 4;
            variant = "_w";
        }
        int splits = large ? denseSplit.splits(items, k) : 1;
        int grid = Math.min(items * splits, maxGrid());
        String kernel = "k_" + stage + variant;
        KernelArgs p = t < 0 ? new KernelArgs(stageNet, splits) : new KernelArgs(stageNet, t, splits);
        lastT = t;
        lastSplits = splits;
        launch(kernel, grid, smem, p);
        lastSplits = 1;
    }

    private void launch(String kernel, int grid, int smem, KernelArgs params) {
        launch(kernel, grid, THREADS, smem, params);
    }

    private void launch(String kernel, int grid, int threads, int smem, KernelArgs params) {
        if (smem > 48 * 1024) {
            cx.allowSharedMemory(kernel, smem);
        }
        if (recording != null) {
            recording.add(new Launch(kernel + (lastT >= 0 ? " t=" + lastT : "") + (lastSplits > 1 ? " s=" + lastSplits : ""),
                    kernel, grid, threads, smem, params));
            return;
        }
        launcher.launch(kernel, grid, threads, smem, params);
    }

    /** One recorded kernel launch of the stage sequence. */
    private record Launch(String label, String kernel, int grid, int threads, int smem, KernelArgs params) {
    }

    private List<Launch> recording;
    private int lastT = -1;
    private int lastSplits = 1;  // K splits of the dense stage being launched (profile labels)

    /**
     * GPU time of each stage kernel of one force evaluation (STAGES mode, all-pairs search), in
     * microseconds per launch: each kernel of the sequence is captured 20 times into a graph of its
     * own and the graph replayed between two events; the time includes the graph's launch gap
     * between consecutive kernels. Returns "label \t us" lines in launch order.
     */
    List<String> profileStages(byte[] net, int repeats) {
        if (megaKernel != null || search == 1) {
            throw new IllegalStateException("stage profile needs STAGES mode with the all-pairs search");
        }
        recording = new ArrayList<>();
        emitStageStep(net);
        List<Launch> launches = recording;
        recording = null;
        CUevent a = new CUevent();
        CUevent b = new CUevent();
        cuEventCreate(a, 0);
        cuEventCreate(b, 0);
        List<String> out = new ArrayList<>();
        try {
            for (Launch l : launches) {
                CUgraph graph = new CUgraph();
                CUgraphExec exec = new CUgraphExec();
                cuStreamBeginCapture(cx.stream(), CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
                try {
                    for (int i = 0; i < 20; i++) {
                        launcher.launch(l.kernel(), l.grid(), l.threads(), l.smem(), l.params());
                    }
                } finally {
                    cuStreamEndCapture(cx.stream(), graph);
                }
                cuGraphInstantiate(exec, graph, 0);
                cuGraphLaunch(exec, cx.stream());
                cuEventRecord(a, cx.stream());
                for (int r = 0; r < repeats; r++) {
                    cuGraphLaunch(exec, cx.stream());
                }
                cuEventRecord(b, cx.stream());
                cuEventSynchronize(b);
                float[] ms = {0};
                cuEventElapsedTime(ms, a, b);
                out.add(l.label() + "\t" + String.format(java.util.Locale.ROOT, "%.2f", 1000.0 * ms[0] / (20.0 * repeats)));
                cuGraphExecDestroy(exec);
                cuGraphDestroy(graph);
            }
            return out;
        } finally {
            cuEventDestroy(a);
            cuEventDestroy(b);
        }
    }

    @Override
    public void close() {
        for (DevicePointer p : new ArrayList<>(own)) {
            cx.free(p);
        }
        own.clear();
    }
}
