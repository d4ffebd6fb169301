package org.molten.sweep.cli;

import com.hazelcast.core.HazelcastInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.molten.sweep.SweepMember;
import org.molten.sweep.TaskWorkers;
import org.molten.sweep.ValidationTaskExecutor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten worker}: a cluster member that runs sweep tasks until it is stopped (Ctrl-C or
 * the batch scheduler's signal); tasks it was running then go back to the queue.
 */
@Command(name = "worker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Join (or start) a sweep cluster and run validation tasks from every 'molten sweep --cluster' on it, "
                + "until stopped (Ctrl-C, SIGTERM); the tasks it was running are then run by other members.",
                "Weight and structure files named by a sweep must be readable at the same paths on every worker."})
public final class WorkerCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--join", paramLabel = "HOST:PORT", split = ",", order = 1,
            description = "A member of the cluster to join; without it this worker starts a new cluster.")
    List<String> join = new ArrayList<>();

    @Option(names = "--cluster-name", paramLabel = "NAME", order = 2, description = "Cluster name (default: ${DEFAULT-VALUE}).")
    String clusterName = SweepMember.DEFAULT_CLUSTER;

    @Option(names = "--bind", paramLabel = "ADDR", order = 3, description = "Address to listen on (default: ${DEFAULT-VALUE}; "
            + "give this machine's network address for a cluster over machines).")
    String bind = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", order = 4, description = "First port to listen on (default: ${DEFAULT-VALUE}).")
    int port = SweepMember.DEFAULT_PORT;

    @Option(names = "--slots", paramLabel = "N", order = 5, description = "Tasks run at once (default: the cores, ${DEFAULT-VALUE}).")
    int slots = Runtime.getRuntime().availableProcessors();

    @Option(names = "--gpu", order = 6, description = "Take the tasks that want a GPU (--device cuda) as well.")
    boolean gpu;

    @Option(names = "--gpu-batch", paramLabel = "N", order = 7, description = "With --gpu: most GPU tasks a slot takes at once, "
            + "those of one model, system, temperature and protocol, run as one batch of replicas on the device, each task's "
            + "result as alone (default: ${DEFAULT-VALUE}; 1: one task at a time).")
    int gpuBatch = TaskWorkers.DEFAULT_GPU_BATCH;

    @Override
    public Integer call() throws Exception {
        if (gpuBatch < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--gpu-batch must be at least 1, got " + gpuBatch);
        }
        HazelcastInstance hz = new SweepMember(clusterName, bind, port, join, false, false).start();
        TaskWorkers workers = new TaskWorkers(hz, new ValidationTaskExecutor(), slots, gpu, gpuBatch);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            workers.close();
            hz.shutdown();
            stopped.countDown();
        }, "molten-worker-stop"));
        spec.commandLine().getErr().printf("molten worker: member %s of cluster '%s', %d slots%s; stop with Ctrl-C%n",
                hz.getCluster().getLocalMember().getAddress(), clusterName, slots, gpu ? ", takes GPU tasks in batches of up to " + gpuBatch : "");
        stopped.await();
        return 0;
    }
}
