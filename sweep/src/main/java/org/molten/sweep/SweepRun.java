package org.molten.sweep;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.NoDataMemberInClusterException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One sweep from start to report: starts (or joins) the cluster, runs the coordinator until
 * every task is stored, leaves the cluster, and writes the aggregated report from every task's
 * stored outcome (resumed ones included).
 */
public final class SweepRun {

    /**
     * Where and how the sweep runs.
     *
     * @param outDir      output directory (tasks/, sweep-report.json, sweep-report.md, plots/)
     * @param command     the command line as typed, for the report
     * @param join        addresses (HOST:PORT) of a running cluster; empty for an embedded one
     * @param clusterName cluster to join (with {@code join}); an embedded cluster gets a unique name
     * @param bindAddress interface this JVM's member listens on
     * @param port        first port to try
     * @param slots       tasks this JVM runs at once (0 with {@code join}: coordinate only)
     * @param gpu         this JVM's member takes GPU tasks
     * @param maxAttempts attempts a throwing task gets
     * @param plots       draw PNG plots (where fonts exist)
     * @param gpuBatch    with {@code gpu}: most GPU tasks a slot runs as one batch of replicas
     * @param taskTimeoutS longest time (s) a member may hold a task without progress before it runs elsewhere;
     *                    null: {@link TaskTimeout#defaultMs(List)} of the tasks
     */
    public record Options(Path outDir, String command, List<String> join, String clusterName, String bindAddress, int port,
                          int slots, boolean gpu, int maxAttempts, boolean plots, int gpuBatch, Double taskTimeoutS) {
        /** Checks the fields. */
        public Options {
            join = List.copyOf(join);
            if (taskTimeoutS != null) {
                TaskTimeout.fromSeconds(taskTimeoutS, "--task-timeout-s");
            }
            if (gpuBatch < 1) {
                throw new IllegalArgumentException("--gpu-batch must be at least 1, got " + gpuBatch);
            }
            if (slots < 0 || (join.isEmpty() && slots == 0)) {
                throw new IllegalArgumentException("--slots must be at least 1 for an embedded sweep (0 only with --cluster), got "
                        + slots);
            }
        }

        /** The default task timeout. */
        public Options(Path outDir, String command, List<String> join, String clusterName, String bindAddress, int port,
                       int slots, boolean gpu, int maxAttempts, boolean plots, int gpuBatch) {
            this(outDir, command, join, clusterName, bindAddress, port, slots, gpu, maxAttempts, plots, gpuBatch, null);
        }

        /** GPU batches of the default size ({@link TaskWorkers#DEFAULT_GPU_BATCH}). */
        public Options(Path outDir, String command, List<String> join, String clusterName, String bindAddress, int port,
                       int slots, boolean gpu, int maxAttempts, boolean plots) {
            this(outDir, command, join, clusterName, bindAddress, port, slots, gpu, maxAttempts, plots,
                    TaskWorkers.DEFAULT_GPU_BATCH);
        }

        /** The same without plots. */
        public Options withoutPlots() {
            return new Options(outDir, command, join, clusterName, bindAddress, port, slots, gpu, maxAttempts, false, gpuBatch,
                    taskTimeoutS);
        }

        /** The same with a task timeout of {@code seconds}. */
        public Options withTaskTimeout(double seconds) {
            return new Options(outDir, command, join, clusterName, bindAddress, port, slots, gpu, maxAttempts, plots, gpuBatch,
                    seconds);
        }

        /** The task timeout of {@code tasks}, ms: the one given, else their default. */
        public long taskTimeoutMs(List<SweepTask> tasks) {
            return taskTimeoutS != null ? TaskTimeout.fromSeconds(taskTimeoutS, "--task-timeout-s") : TaskTimeout.defaultMs(tasks);
        }

        /** Embedded on loopback with {@code slots} slots. */
        public static Options embedded(Path outDir, int slots, int maxAttempts) {
            return new Options(outDir, "sweep", List.of(), SweepMember.DEFAULT_CLUSTER, "127.0.0.1", SweepMember.DEFAULT_PORT, slots,
                    false, maxAttempts, true);
        }
    }

    private SweepRun() {}

    /** Runs {@code tasks} and returns the aggregated report (also on disk). */
    public static SweepReport run(List<SweepTask> tasks, Options o, TaskExecutor executor, SweepProgress progress)
            throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        // an unwritable folder or a full disk is refused before any task runs, not when the first result comes back
        org.molten.integrators.AtomicFileWrite.requireWritableFolder(o.outDir(), "the sweep's output folder --out");
        ResultStore store = new ResultStore(o.outDir());
        SweepMember member = o.join().isEmpty()
                ? SweepMember.embedded(o.clusterName() + "-embedded-" + UUID.randomUUID(), o.port())
                : new SweepMember(o.clusterName(), o.bindAddress(), o.port(), o.join(), o.slots() == 0, false);
        HazelcastInstance hz = member.start();
        SweepCoordinator.Counts counts;
        // This JVM's slots start once every task is on the board, so that a GPU slot's first batch is whole.
        java.util.concurrent.atomic.AtomicReference<TaskWorkers> workers = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            counts = new SweepCoordinator(hz, store, o.maxAttempts(), o.taskTimeoutMs(tasks), progress).run(tasks, () -> {
                if (o.slots() > 0) {
                    workers.set(new TaskWorkers(hz, executor, o.slots(), o.gpu(), o.gpuBatch()));
                }
            });
        } catch (NoDataMemberInClusterException e) {
            throw new IllegalStateException("no molten worker in cluster '" + o.clusterName() + "' at " + String.join(",", o.join())
                    + ": start one there with 'molten worker', or give this sweep --slots N to run tasks itself");
        } finally {
            if (workers.get() != null) {
                workers.get().close();
            }
            progress.close();
            hz.shutdown();
        }
        List<TaskResult> results = new ArrayList<>();
        for (SweepTask t : tasks) {
            results.add(store.read(t.id()));
        }
        return report(results, counts.resumed(), o, (System.nanoTime() - t0) * 1e-9);
    }

    /** Aggregates stored results into the report files in {@code o.outDir()}. */
    static SweepReport report(List<TaskResult> results, int resumed, Options o, double wallSeconds) throws IOException {
        SweepSummary summary = SweepSummary.of(results);
        List<String> warnings = new ArrayList<>();
        List<String> plots = o.plots() ? SweepPlots.draw(summary, results, o.outDir(), warnings) : List.of();
        int failed = (int) results.stream().filter(r -> !r.done()).count();
        SweepReport report = new SweepReport("molten sweep", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), o.command(),
                results.size(), results.size() - failed, failed, resumed, wallSeconds, summary, plots, warnings, results);
        SweepReportWriter.write(report, o.outDir());
        return report;
    }
}
