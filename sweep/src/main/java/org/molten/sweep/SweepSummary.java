package org.molten.sweep;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The figures of a whole sweep: one {@link Group} per (model, system, temperature) and a ranking
 * of the models. A figure no task carried is null ("n/a"); failed tasks are counted, never folded
 * into the figures.
 *
 * @param groups  per model, system and temperature, in grid order
 * @param ranking the models, best first
 * @param statisticalCriteria the statistical criteria's failures against those chance predicts
 */
public record SweepSummary(List<Group> groups, List<ModelRank> ranking, ChanceFailures statisticalCriteria) {

    /**
     * Distribution of a figure over tasks.
     *
     * @param n      tasks that carried it
     * @param mean   mean
     * @param median median
     * @param p90    90th percentile (nearest rank)
     * @param min    smallest
     * @param max    largest
     */
    public record Distribution(int n, double mean, double median, double p90, double min, double max) {
        static Distribution of(List<Double> values) {
            if (values.isEmpty()) {
                return null;
            }
            double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new Distribution(v.length, Arrays.stream(v).average().orElseThrow(), quantile(v, 0.5), quantile(v, 0.9),
                    v[0], v[v.length - 1]);
        }

        private static double quantile(double[] sorted, double q) {
            if (q == 0.5) {
                int m = sorted.length / 2;
                return sorted.length % 2 == 1 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
            }
            return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
        }
    }

    /**
     * One model on one system at one temperature, over its seeds.
     *
     * @param model                     model label
     * @param system                    system label
     * @param temperatureK              target temperature, K
     * @param tasks                     tasks in the grid
     * @param failed                    tasks that threw on every attempt
     * @param stableFraction            mean stable fraction over the tasks that ran and carried it
     * @param passedFraction            fraction of the tasks that ran whose validation passed
     * @param absDriftMeVPerAtomPerPs   distribution of |NVE drift|, meV/atom/ps
     * @param teacherForceMaeEvPerA     distribution of the on-trajectory teacher force MAE, eV/Å
     * @param forceRmseVsBaselineEvPerA distribution of the force RMSE against the baseline, eV/Å
     * @param divergences               mean of each named divergence over the tasks that carried it
     */
    public record Group(String model, String system, double temperatureK, int tasks, int failed, Double stableFraction,
                        Double passedFraction, Distribution absDriftMeVPerAtomPerPs, Distribution teacherForceMaeEvPerA,
                        Distribution forceRmseVsBaselineEvPerA, Map<String, Double> divergences) {
    }

    /**
     * A model over all its tasks.
     *
     * @param rank                        1 for the best
     * @param model                       model label
     * @param tasks                       tasks in the grid
     * @param failed                      tasks that threw on every attempt
     * @param stableFraction              mean stable fraction over its tasks that ran
     * @param medianAbsDriftMeVPerAtomPerPs median |NVE drift|, meV/atom/ps
     * @param meanTeacherForceMaeEvPerA   mean on-trajectory teacher force MAE, eV/Å
     */
    public record ModelRank(int rank, String model, int tasks, int failed, Double stableFraction,
                            Double medianAbsDriftMeVPerAtomPerPs, Double meanTeacherForceMaeEvPerA) {
    }

    /**
     * Summarises {@code results}. Models rank by stable fraction (higher first), then median
     * |drift| (lower first), then teacher error (lower first), then fewer failed tasks; a missing
     * figure ranks after any present one.
     */
    public static SweepSummary of(List<TaskResult> results) {
        Map<String, List<TaskResult>> byGroup = new LinkedHashMap<>();
        Map<String, List<TaskResult>> byModel = new LinkedHashMap<>();
        for (TaskResult r : results) {
            SweepTask t = r.task();
            byGroup.computeIfAbsent(t.modelLabel() + "\u0000" + t.systemLabel() + "\u0000" + t.temperatureK(), k -> new ArrayList<>())
                    .add(r);
            byModel.computeIfAbsent(t.modelLabel(), k -> new ArrayList<>()).add(r);
        }
        List<Group> groups = new ArrayList<>();
        for (List<TaskResult> g : byGroup.values()) {
            SweepTask t = g.get(0).task();
            List<TaskMetrics> ran = g.stream().filter(TaskResult::done).map(TaskResult::metrics).toList();
            Map<String, List<Double>> div = new TreeMap<>();
            for (TaskMetrics m : ran) {
                m.divergences().forEach((k, v) -> div.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            }
            Map<String, Double> divMeans = new TreeMap<>();
            div.forEach((k, v) -> divMeans.put(k, v.stream().mapToDouble(Double::doubleValue).average().orElseThrow()));
            List<Double> passed = ran.stream().filter(m -> m.passed() != null).map(m -> m.passed() ? 1.0 : 0.0).toList();
            groups.add(new Group(t.modelLabel(), t.systemLabel(), t.temperatureK(), g.size(), g.size() - ran.size(),
                    mean(values(ran, TaskMetrics::stableFraction)), mean(passed),
                    Distribution.of(values(ran, m -> m.driftMeVPerAtomPerPs() == null ? null : Math.abs(m.driftMeVPerAtomPerPs()))),
                    Distribution.of(values(ran, TaskMetrics::teacherForceMaeEvPerA)),
                    Distribution.of(values(ran, TaskMetrics::forceRmseVsBaselineEvPerA)), divMeans));
        }
        List<ModelRank> unranked = new ArrayList<>();
        for (Map.Entry<String, List<TaskResult>> e : byModel.entrySet()) {
            List<TaskMetrics> ran = e.getValue().stream().filter(TaskResult::done).map(TaskResult::metrics).toList();
            Distribution drift = Distribution.of(values(ran, m -> m.driftMeVPerAtomPerPs() == null ? null
                    : Math.abs(m.driftMeVPerAtomPerPs())));
            unranked.add(new ModelRank(0, e.getKey(), e.getValue().size(), e.getValue().size() - ran.size(),
                    mean(values(ran, TaskMetrics::stableFraction)), drift == null ? null : drift.median(),
                    mean(values(ran, TaskMetrics::teacherForceMaeEvPerA))));
        }
        Comparator<Double> lowFirst = Comparator.nullsLast(Comparator.naturalOrder());
        Comparator<Double> highFirst = Comparator.nullsLast(Comparator.reverseOrder());
        unranked.sort(Comparator.comparing(ModelRank::stableFraction, highFirst)
                .thenComparing(ModelRank::medianAbsDriftMeVPerAtomPerPs, lowFirst)
                .thenComparing(ModelRank::meanTeacherForceMaeEvPerA, lowFirst)
                .thenComparingInt(ModelRank::failed)
                .thenComparing(ModelRank::model));
        List<ModelRank> ranking = new ArrayList<>();
        for (int i = 0; i < unranked.size(); i++) {
            ModelRank m = unranked.get(i);
            ranking.add(new ModelRank(i + 1, m.model(), m.tasks(), m.failed(), m.stableFraction(),
                    m.medianAbsDriftMeVPerAtomPerPs(), m.meanTeacherForceMaeEvPerA()));
        }
        return new SweepSummary(groups, ranking, ChanceFailures.of(results));
    }

    private static List<Double> values(List<TaskMetrics> ms, Function<TaskMetrics, Double> f) {
        return ms.stream().map(f).filter(v -> v != null && Double.isFinite(v)).toList();
    }

    private static Double mean(List<Double> v) {
        return v.isEmpty() ? null : v.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }
}
