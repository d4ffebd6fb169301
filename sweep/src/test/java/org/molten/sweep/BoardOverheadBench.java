package org.molten.sweep;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Not a test: the sweep's own cost per task (board claim/complete/collect, payload transfer, the
 * atomic store) with tasks that do nothing, embedded, for docs/scaling.md. Usage:
 * {@code java -cp ... org.molten.sweep.BoardOverheadBench [TASKS] [SLOTS]}.
 */
public final class BoardOverheadBench {
    private BoardOverheadBench() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int slots = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        SweepSpec s = new SweepSpec();
        s.systems = List.of("water");
        s.replicas = n;
        s.steps = 80L;
        s.equilibrationSteps = 20L;
        List<SweepTask> tasks = new ArrayList<>(s.expand());
        Path out = Files.createTempDirectory("molten-board-bench");
        // Warm-up sweep (JIT, Hazelcast classes), then the measured one.
        SweepRun.run(tasks.subList(0, Math.min(50, n)), SweepRun.Options.embedded(Files.createTempDirectory("warm"), slots, 1)
                .withoutPlots(), new FakeExecutor(0), SweepProgress.quiet());
        long t0 = System.nanoTime();
        long cpu0 = java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime();
        SweepReport r = SweepRun.run(tasks, SweepRun.Options.embedded(out, slots, 1).withoutPlots(), new FakeExecutor(0),
                SweepProgress.quiet());
        double wall = (System.nanoTime() - t0) * 1e-9;
        double cpu = (java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime() - cpu0) * 1e-9;
        System.out.printf(Locale.ROOT, "{\"tasks\": %d, \"slots\": %d, \"wall_s\": %.2f, \"tasks_per_s\": %.1f, \"cpu_s\": %.2f, "
                + "\"cpu_ms_per_task\": %.2f, \"load_average_1min\": %.1f, \"done\": %d}%n", n, slots, wall, n / wall, cpu,
                cpu / n * 1000, java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                r.tasksDone());
        System.exit(0);
    }
}
