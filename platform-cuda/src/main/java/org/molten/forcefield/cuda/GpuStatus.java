package org.molten.forcefield.cuda;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the GPU path has done in this JVM, for {@code molten info} and benchmark reports: the device
 * in use, whether graphs are on, and counters of graph captures, graph replays, eager (uncaptured)
 * launch sequences, kernels launched as programmatic dependents and the times that was not possible,
 * neighbour-list overflows (capacity grown and work redone), capture failures, and fallbacks to the
 * CPU path with the reason of the last one. Counters are process-wide and
 * thread-safe; {@link #snapshot()} reads them all.
 */
public final class GpuStatus {
    private static final AtomicReference<String> DEVICE = new AtomicReference<>("none");
    private static final AtomicReference<String> LAST_FALLBACK = new AtomicReference<>("");
    private static volatile boolean graphsEnabled = CudaOptions.DEFAULT_GRAPHS;
    private static final AtomicLong CAPTURES = new AtomicLong();
    private static final AtomicLong REPLAYS = new AtomicLong();
    private static final AtomicLong EAGER = new AtomicLong();
    private static final AtomicLong OVERFLOWS = new AtomicLong();
    private static final AtomicLong CAPTURE_FAILURES = new AtomicLong();
    private static final AtomicLong FALLBACKS = new AtomicLong();
    private static final AtomicLong PROGRAMMATIC = new AtomicLong();
    private static final AtomicLong PROGRAMMATIC_FALLBACKS = new AtomicLong();
    private static final AtomicReference<String> LAST_PROGRAMMATIC_FALLBACK = new AtomicReference<>("");
    private static final AtomicLong BINDINGS = new AtomicLong();
    private static final AtomicLong REPLICAS_BOUND = new AtomicLong();
    private static final AtomicLong GROUP_SYSTEMS = new AtomicLong();
    private static final AtomicLong STAGE_SYSTEMS = new AtomicLong();

    private GpuStatus() {
    }

    /**
     * A consistent-enough copy of the counters.
     *
     * @param device           the CUDA device in use, or "none"
     * @param graphs           whether CUDA graph capture is enabled
     * @param captures         graphs captured and instantiated
     * @param replays          graph launches
     * @param eagerLaunches    launch sequences issued kernel by kernel (a size seen once, or no graphs)
     * @param overflows        neighbour lists that outgrew their capacity (capacity grown, work redone)
     * @param captureFailures  captures that failed and fell back to eager launches
     * @param fallbacks        times the CPU path was used instead of the GPU
     * @param lastFallbackReason why, the last time ("" if never)
     * @param programmaticLaunches kernels launched as programmatic dependents of the kernel before them
     * @param programmaticFallbacks device systems that launched plainly instead (no cuLaunchKernelEx, or refused)
     * @param lastProgrammaticFallback why, the last time ("" if never)
     * @param dynamicsBindings  MD bindings made by the CUDA platform (CudaPlatform.bind)
     * @param replicasBound     replicas in them, all together
     * @param groupForces       replica device systems whose forces the group kernel evaluates (GroupPath)
     * @param stageForces       replica device systems whose forces the stage kernels evaluate
     */
    public record Snapshot(String device, boolean graphs, long captures, long replays, long eagerLaunches,
                           long overflows, long captureFailures, long fallbacks, String lastFallbackReason,
                           long programmaticLaunches, long programmaticFallbacks, String lastProgrammaticFallback,
                           long dynamicsBindings, long replicasBound, long groupForces, long stageForces) {
        /** Lines for {@code molten info}. */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format("gpu      %s%n", device));
            sb.append(String.format("graphs   %s (captures %d, replays %d, eager launches %d, capture failures %d)%n",
                    graphs ? "on" : "off", captures, replays, eagerLaunches, captureFailures));
            sb.append(String.format("programmatic dependent launches %d (plain instead %d%s)%n", programmaticLaunches,
                    programmaticFallbacks, programmaticFallbacks > 0 ? ", last: " + lastProgrammaticFallback : ""));
            sb.append(String.format("neighbour-list overflows %d%n", overflows));
            sb.append(String.format("device MD bindings %d (replicas %d)%n", dynamicsBindings, replicasBound));
            sb.append(String.format("replica forces: group kernel %d, stage kernels %d (device systems; %s)%n", groupForces,
                    stageForces, KernelChoices.REPLICA_FORCES_PROPERTY));
            sb.append(String.format("fallbacks to CPU %d%s%n", fallbacks,
                    fallbacks > 0 ? " (last: " + lastFallbackReason + ")" : ""));
            return sb.toString();
        }
    }

    public static Snapshot snapshot() {
        return new Snapshot(DEVICE.get(), graphsEnabled, CAPTURES.get(), REPLAYS.get(), EAGER.get(), OVERFLOWS.get(),
                CAPTURE_FAILURES.get(), FALLBACKS.get(), LAST_FALLBACK.get(), PROGRAMMATIC.get(),
                PROGRAMMATIC_FALLBACKS.get(), LAST_PROGRAMMATIC_FALLBACK.get(), BINDINGS.get(), REPLICAS_BOUND.get(),
                GROUP_SYSTEMS.get(), STAGE_SYSTEMS.get());
    }

    /** A replica device system was made: its forces by the group kernel or by the stage kernels. */
    static void replicaForces(boolean group) {
        (group ? GROUP_SYSTEMS : STAGE_SYSTEMS).incrementAndGet();
    }

    static void bound(int replicas) {
        BINDINGS.incrementAndGet();
        REPLICAS_BOUND.addAndGet(replicas);
    }

    static void device(String name) {
        DEVICE.set(name);
    }

    static void graphsEnabled(boolean on) {
        graphsEnabled = on;
    }

    static void captured() {
        CAPTURES.incrementAndGet();
    }

    static void replayed() {
        REPLAYS.incrementAndGet();
    }

    static void eager() {
        EAGER.incrementAndGet();
    }

    static void overflow() {
        OVERFLOWS.incrementAndGet();
    }

    static void captureFailed() {
        CAPTURE_FAILURES.incrementAndGet();
    }

    static void programmaticLaunch() {
        PROGRAMMATIC.incrementAndGet();
    }

    static void programmaticFallback(String reason) {
        PROGRAMMATIC_FALLBACKS.incrementAndGet();
        LAST_PROGRAMMATIC_FALLBACK.set(reason);
    }

    static void fallback(String reason) {
        FALLBACKS.incrementAndGet();
        LAST_FALLBACK.set(reason);
    }
}
