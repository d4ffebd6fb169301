package org.molten.sweep;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A stand-in for the validation: sleeps, writes a small report.json with the keys the reader
 * reads (drift from the seed, a blow-up where asked) and counts how often each task started.
 */
final class FakeExecutor implements TaskExecutor {
    final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    final Map<String, String> startedOn = new ConcurrentHashMap<>();
    private final long sleepMs;
    private final Predicate<SweepTask> blowsUp;
    private final Map<String, Integer> throwsTimes;

    FakeExecutor(long sleepMs, Predicate<SweepTask> blowsUp, Map<String, Integer> throwsTimes) {
        this.sleepMs = sleepMs;
        this.blowsUp = blowsUp;
        this.throwsTimes = throwsTimes;
    }

    FakeExecutor(long sleepMs) {
        this(sleepMs, t -> false, Map.of());
    }

    int totalStarts() {
        return starts.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Override
    public TaskMetrics execute(SweepTask task, Path reportDir) throws Exception {
        int n = starts.computeIfAbsent(task.id(), k -> new AtomicInteger()).incrementAndGet();
        startedOn.put(task.id(), Thread.currentThread().getName());
        Thread.sleep(sleepMs);
        if (n <= throwsTimes.getOrDefault(task.system(), 0)) {
            throw new IllegalStateException("fake failure of " + task.id() + " on start " + n);
        }
        boolean blew = blowsUp.test(task);
        double drift = 0.001 * (task.seed() % 7) * (task.temperatureK() / 300.0);
        String json = String.format(Locale.ROOT, """
                {"tool": "fake", "summary": {"passed": %s},
                 "systems": [{"name": "%s", "runs": [
                   {"role": "OPTIMISED", "phase": "PRODUCTION", "ensemble": "NVE", "steps_requested": 100,
                    "steps_completed": %d, "blow_up": %s, "energy": {"drift_meV_per_atom_per_ps": %s}}],
                   "comparison": {"final_rmsd_A": 0.25, "forces": {"force_rmse_eV_per_A": 1e-4}}}]}
                """, !blew, task.systemLabel(), blew ? 40 : 100, blew ? "{\"step\": 40, \"cause\": \"non-finite force\"}" : "null",
                Double.toString(drift));
        Files.writeString(reportDir.resolve("report.json"), json);
        Files.writeString(reportDir.resolve("report.md"), "# fake report of " + task.id() + "\n");
        return TaskReportReader.read(reportDir.resolve("report.json"), task.systemLabel());
    }
}
