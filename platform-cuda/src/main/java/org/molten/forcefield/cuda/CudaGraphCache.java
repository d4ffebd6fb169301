package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuGraphDestroy;
import static jcuda.driver.JCudaDriver.cuGraphExecDestroy;
import static jcuda.driver.JCudaDriver.cuGraphInstantiate;
import static jcuda.driver.JCudaDriver.cuGraphLaunch;
import static jcuda.driver.JCudaDriver.cuStreamBeginCapture;
import static jcuda.driver.JCudaDriver.cuStreamEndCapture;

import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import jcuda.CudaException;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCaptureMode;

/**
 * CUDA graphs of launch sequences (one force evaluation, or K MD steps), keyed by system size,
 * neighbour capacity, what the sequence does and the exact kernel parameter block (which holds
 * every buffer address and the cell). A key seen for the first time runs eagerly (a size used
 * once is not worth a capture); the second time it is captured from the stream, instantiated and
 * replayed from then on. A failed capture falls back to eager launches for that key, counted in
 * {@link GpuStatus}. At most {@code capacity} graphs are kept, least recently used evicted.
 *
 * <p>Belongs to one {@link CudaContext}; not thread-safe; call with that context current.
 */
public final class CudaGraphCache implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(CudaGraphCache.class.getName());

    /**
     * What a graph does.
     *
     * @param atoms    system size
     * @param capacity neighbour slots per atom
     * @param purpose  "force", "md", ...
     * @param steps    MD steps in the sequence (1 for a force evaluation)
     * @param net      the parameter block
     */
    public record Key(int atoms, int capacity, String purpose, int steps, Bytes net) {
    }

    /** Bytes with value equality. */
    public static final class Bytes {
        private final byte[] b;
        private final int hash;

        public Bytes(byte[] b) {
            this.b = b.clone();
            this.hash = Arrays.hashCode(b);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes x && x.hash == hash && Arrays.equals(x.b, b);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final int capacity;
    private final LinkedHashMap<Key, CUgraphExec> graphs;   // null value: capture failed, run eagerly
    private final LinkedHashMap<Key, Boolean> seen;
    private boolean enabled;

    /** A cache of at most {@code capacity} graphs; {@code enabled == false} launches everything eagerly. */
    public CudaGraphCache(int capacity, boolean enabled) {
        this.capacity = capacity;
        this.enabled = enabled;
        this.graphs = new LinkedHashMap<>(16, 0.75f, true);
        this.seen = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** Number of graphs held. */
    public int size() {
        int n = 0;
        for (CUgraphExec e : graphs.values()) {
            n += e != null ? 1 : 0;
        }
        return n;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * Runs {@code sequence} (which issues launches on {@code stream}) for {@code key}: replay,
     * capture-and-replay, or eager, as described in the class comment.
     */
    public void run(Key key, CUstream stream, Runnable sequence) {
        if (!enabled) {
            sequence.run();
            GpuStatus.eager();
            return;
        }
        if (graphs.containsKey(key)) {
            CUgraphExec exec = graphs.get(key);
            if (exec != null) {
                cuGraphLaunch(exec, stream);
                GpuStatus.replayed();
            } else {
                sequence.run();
                GpuStatus.eager();
            }
            return;
        }
        if (seen.putIfAbsent(key, Boolean.TRUE) == null) {
            trimSeen();
            sequence.run();
            GpuStatus.eager();
            return;
        }
        CUgraphExec exec = capture(key, stream, sequence);
        put(key, exec);
        if (exec != null) {
            cuGraphLaunch(exec, stream);
            GpuStatus.replayed();
        } else {
            sequence.run();
            GpuStatus.eager();
        }
    }

    private CUgraphExec capture(Key key, CUstream stream, Runnable sequence) {
        CUgraph graph = new CUgraph();
        boolean capturing = false;
        try {
            cuStreamBeginCapture(stream, CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
            capturing = true;
            try {
                sequence.run();
            } finally {
                capturing = false;
                cuStreamEndCapture(stream, graph);
            }
            CUgraphExec exec = new CUgraphExec();
            cuGraphInstantiate(exec, graph, 0);
            cuGraphDestroy(graph);
            GpuStatus.captured();
            return exec;
        } catch (CudaException e) {
            if (capturing) {
                try {
                    cuStreamEndCapture(stream, graph);
                } catch (CudaException ignored) {
                    // already out of capture mode
                }
            }
            GpuStatus.captureFailed();
            LOG.log(Level.FINE, "graph capture failed for " + key.purpose() + " of " + key.atoms()
                    + " atoms; launching eagerly", e);
            return null;
        }
    }

    private void put(Key key, CUgraphExec exec) {
        graphs.put(key, exec);
        while (graphs.size() > capacity) {
            Iterator<Map.Entry<Key, CUgraphExec>> it = graphs.entrySet().iterator();
            Map.Entry<Key, CUgraphExec> eldest = it.next();
            if (eldest.getValue() != null) {
                cuGraphExecDestroy(eldest.getValue());
            }
            it.remove();
        }
    }

    private void trimSeen() {
        while (seen.size() > 4 * capacity) {
            Iterator<Key> it = seen.keySet().iterator();
            it.next();
            it.remove();
        }
    }

    /** Destroys every graph (after buffers were reallocated, addresses in the graphs are stale). */
    public void clear() {
        for (CUgraphExec e : graphs.values()) {
            if (e != null) {
                cuGraphExecDestroy(e);
            }
        }
        graphs.clear();
        seen.clear();
    }

    @Override
    public void close() {
        clear();
    }
}
