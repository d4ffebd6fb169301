package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;

import java.util.logging.Level;
import java.util.logging.Logger;
import jcuda.CudaException;
import jcuda.Pointer;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.forcefield.neighbours.CellList;
import org.molten.forcefield.neighbours.EdgeList;
import org.molten.forcefield.neighbours.NeighbourSearch;
import org.molten.forcefield.student.StudentWeights;

/**
 * The student on one CUDA context: the context, the packed weights on the device, the graph
 * cache, and the rules that turn a system into a {@link DeviceSystem} (execution mode,
 * neighbour capacity). Shared by {@link CudaStudent} and {@link CudaMdEngine}; not thread-safe.
 */
final class CudaModel implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CudaModel.class.getName());

    final StudentWeights weights;
    final DeviceWeights dw;
    final CudaOptions options;
    final CudaContext cx;
    final CudaGraphCache graphs;
    private final DevicePointer weightBuffer;
    private GroupWeights groupWeights;            // the group kernel's order, made and uploaded once, on first need
    private DevicePointer groupWeightBuffer;
    private boolean moleculeFailed;

    CudaModel(StudentWeights weights, CudaOptions options) {
        this.weights = weights;
        this.dw = new DeviceWeights(weights);
        this.options = options;
        this.cx = new CudaContext();
        boolean ok = false;
        try {
            weightBuffer = cx.alloc(dw.bytes());
            cuMemcpyHtoD(weightBuffer, Pointer.to(dw.data), dw.bytes());
            graphs = new CudaGraphCache(options.graphCacheSize(), options.graphs());
            ok = true;
        } finally {
            if (!ok) {
                cx.close();
            }
        }
        GpuStatus.device(cx.deviceName());
        GpuStatus.graphsEnabled(options.graphs());
    }

    /** The execution mode for {@code atoms} atoms, given what the device and earlier attempts allow. */
    CudaOptions.Mode resolve(int atoms) {
        return resolve(atoms, 0, 0);
    }

    /** {@link #resolve(int)} for atoms holding {@code pairs} constrained pairs and {@code waters} rigid waters. */
    CudaOptions.Mode resolve(int atoms, int pairs, int waters) {
        CudaOptions.Mode m = options.mode();
        // the small-molecule kernel needs sm_90 (clusters, mbarriers: below it the fatbin holds a trap)
        boolean molecule = !moleculeFailed && cx.clusterLaunch() && cx.hopperInstructions()
                && atoms <= CudaOptions.MOLECULE_ATOMS
                && DeviceSystem.moleculeSupported(atoms, pairs, waters, dw, cx.maxSharedMemoryPerBlock());
        if (m == CudaOptions.Mode.AUTO || m == CudaOptions.Mode.MOLECULE) {
            return molecule ? CudaOptions.Mode.MOLECULE : CudaOptions.Mode.STAGES;
        }
        return m;
    }

    /**
     * Records that the small-molecule kernel could not be launched (e.g. no 16-block cluster can be scheduled);
     * returns true if the stage kernels remain to try.
     */
    boolean megakernelFailed(DeviceSystem sys, CudaException e) {
        LOG.log(Level.FINE, "megakernel launch failed in mode " + sys.mode, e);
        if (sys.mode == CudaOptions.Mode.MOLECULE) {
            moleculeFailed = true;
            return true;
        }
        return false;
    }

    /**
     * A device system for {@code atoms} with a neighbour capacity estimated from its current
     * geometry.
     *
     * @throws IllegalArgumentException if the cell is too small for the cutoff
     * @throws UnsupportedOnGpu if an atom has more neighbours than the kernels hold
     */
    DeviceSystem newSystem(Atoms atoms, CudaOptions.Mode forced) {
        Cell cell = atoms.cellOrNull();
        NeighbourSearch.requireCutoffFits(cell, dw.cutoffA);
        int cap = capacityFor(maxNeighbours(atoms));
        if (forced == CudaOptions.Mode.MOLECULE && !cx.hopperInstructions()) {
            // below sm_90 the fatbin's small-molecule kernel is a trap, which would kill the context
            throw new IllegalStateException("the small-molecule kernel needs an sm_90 GPU (Hopper); this one is "
                    + cx.architecture() + ": use the stage kernels");
        }
        CudaOptions.Mode mode = forced != null ? forced : resolve(atoms.size());
        return new DeviceSystem(cx, dw, weightBuffer, atoms.size(), cell, cap, mode, options, null);
    }

    /**
     * A device system holding the replicas {@code parts} (their atoms one after the other, sharing
     * {@code cell}), with a neighbour capacity from the largest count of any replica's own atoms;
     * {@code mode} null: the mode {@link #resolve} picks for that many atoms.
     */
    DeviceSystem newReplicaSystem(java.util.List<Atoms> parts, Cell cell, CudaOptions.Mode mode,
                                  ReplicaBuffers replicas) {
        int max = 0;
        int atoms = 0;
        for (Atoms a : parts) {
            NeighbourSearch.requireCutoffFits(a.cellOrNull(), dw.cutoffA);
            max = Math.max(max, maxNeighbours(a));
            atoms += a.size();
        }
        DeviceConstraints c = replicas == null ? null : replicas.constraints;
        CudaOptions.Mode resolved = mode != null ? mode : resolve(atoms, c == null ? 0 : c.pairs, c == null ? 0 : c.waters);
        if (groupWeights == null && replicas != null && GroupWeights.supports(dw)) {
            groupWeights = new GroupWeights(weights);
            groupWeightBuffer = cx.alloc(groupWeights.bytes());
            cuMemcpyHtoD(groupWeightBuffer, Pointer.to(groupWeights.data), groupWeights.bytes());
        }
        DeviceSystem sys = new DeviceSystem(cx, dw, weightBuffer, atoms, cell, capacityFor(max), resolved, options,
                replicas, groupWeights, groupWeightBuffer);
        if (resolved == CudaOptions.Mode.STAGES) {
            GpuStatus.replicaForces(sys.groupKernel != null);
        }
        return sys;
    }

    /** Largest neighbour count of any atom, from a CPU cell-list search. */
    int maxNeighbours(Atoms atoms) {
        if (atoms.size() < 2) {
            return 0;
        }
        EdgeList edges = new EdgeList();
        new CellList().search(atoms, dw.cutoffA, edges);
        int max = 0;
        for (int i = 0; i < atoms.size(); i++) {
            max = Math.max(max, edges.rowStart(i + 1) - edges.rowStart(i));
        }
        return max;
    }

    /** A capacity bucket with room to grow: multiples of 16, a quarter more than needed. */
    static int capacityFor(int maxCount) {
        int want = (int) Math.ceil(maxCount * 1.25) + 8;
        int cap = (want + 15) / 16 * 16;
        if (maxCount > DeviceSystem.MAXCAP) {
            throw new UnsupportedOnGpu("an atom has " + maxCount + " neighbours within the cutoff; the GPU kernels hold "
                    + DeviceSystem.MAXCAP);
        }
        return Math.min(cap, DeviceSystem.MAXCAP);
    }

    /** The graph key of a sequence on {@code sys}. */
    static CudaGraphCache.Key key(DeviceSystem sys, String purpose, int steps, byte[] net) {
        return new CudaGraphCache.Key(sys.n, sys.capacity(), purpose, steps, new CudaGraphCache.Bytes(net));
    }

    @Override
    public void close() {
        try {
            cx.makeCurrent();
            graphs.close();
        } finally {
            cx.close();
        }
    }

    /** A system the GPU kernels cannot hold (the CPU path takes it). */
    static final class UnsupportedOnGpu extends RuntimeException {
        UnsupportedOnGpu(String message) {
            super(message);
        }
    }
}
