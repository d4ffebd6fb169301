package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.molten.validation.BaselineKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.ModelInfo;
import org.molten.validation.reports.ValidationReport;

/**
 * Validations that differ only in their seed and system (one system, one replica each, the same model and
 * protocol), run together: the student's MD of all of them is one batch on the device per phase
 * ({@link DeviceReplicas}; the systems that share a cell, {@link DeviceReplicas#batches}, form one mixed batch), and
 * each validation gets its own report, logs and plots in its own directory, as if it had run alone. This is how a
 * GPU member of a sweep runs the seeds of one (model, system, temperature, protocol) it claimed together (issue 16),
 * and how it can run several systems' tasks together (issue 29).
 *
 * <p>Each validation's replica is replica 0 of its seed, as alone: the same start, equilibration
 * and thermostat seeds, the same teacher frames, and the comparison with the implementation
 * baseline that a validation makes for its replica 0 is made for every one. Only the student's MD
 * is shared; on the device a batch's kernels may round differently from one molecule's, so the
 * figures equal those of the validation alone to float32 rounding.
 */
public final class SeedBatch {
    private SeedBatch() {}

    /**
     * Runs {@code validations} (built with the same protocol, model provider and thresholds, one
     * system and one replica each, seeds and output directories their own) and writes each one's
     * report. Without a usable device they run one after the other, each exactly as alone.
     *
     * @return the reports, in the order of {@code validations}
     * @throws IllegalArgumentException when the validations differ in more than the seed and the system
     */
    public static List<ValidationReport> run(List<ValidationRunner> validations, Progress progress) throws IOException {
        check(validations);
        Optional<String> platform = DeviceReplicas.platformFor(validations.get(0).settings());
        if (platform.isEmpty() || validations.size() == 1) {
            List<ValidationReport> out = new ArrayList<>(validations.size());
            for (ValidationRunner v : validations) {
                out.add(v.run(progress));
            }
            return out;
        }
        return run(validations, platform.get(), progress);
    }

    /** The batch on {@code platform} (package-private: tests run it on the host's "cpu" platform). */
    static List<ValidationReport> run(List<ValidationRunner> validations, String platform, Progress progress) throws IOException {
        check(validations);
        long t0 = System.nanoTime();
        ValidationRunner first = validations.get(0);
        ValidationSettings s = first.settings();
        List<SystemSource> systems = new ArrayList<>(validations.size());
        for (ValidationRunner v : validations) {
            SystemSource system = v.systems().get(0);
            v.requireSupported(system);
            systems.add(system);
        }
        List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        ReplicaOutcome[] outcomes = new ReplicaOutcome[validations.size()];
        ModelInfo optimisedInfo;
        ModelInfo baselineInfo;
        // One worker, as a one-replica validation alone has: its models get all the validation's cores.
        try (WorkerModels models = new WorkerModels(first.models(), s, first.threadsPerModel(1), warnings)) {
            // one batch per cell (a binding holds one cell): all isolated molecules together
            for (List<Integer> group : DeviceReplicas.batches(systems, s)) {
                List<ReplicaRun.Start> starts = new ArrayList<>(group.size());
                List<Path> outDirs = new ArrayList<>(group.size());
                for (int i : group) {
                    ValidationRunner v = validations.get(i);
                    Files.createDirectories(v.outDir());
                    starts.add(ReplicaRun.start(systems.get(i), 0, v.settings()));
                    outDirs.add(v.outDir());
                }
                List<ReplicaOutcome> done = DeviceReplicas.run(starts, outDirs, platform, s, first.thresholds(), models,
                        progress, warnings::add);
                for (int j = 0; j < group.size(); j++) {
                    outcomes[group.get(j)] = done.get(j);
                }
            }
            optimisedInfo = models.firstOptimisedInfo();
            baselineInfo = s.baseline() == BaselineKind.TEACHER ? models.firstTeacherInfo() : models.firstBaselineInfo();
            first.models().finish(warnings);
        }
        List<ValidationReport> reports = new ArrayList<>(validations.size());
        for (int i = 0; i < validations.size(); i++) {
            ReplicaOutcome[][] one = {{outcomes[i]}};
            reports.add(validations.get(i).report(List.of(systems.get(i)), one, null, new ArrayList<>(warnings), t0, optimisedInfo,
                    baselineInfo));
        }
        return reports;
    }

    /** Whether {@code a} equals {@code b} but for the seed and the system (a built-in name or a structure file). */
    private static boolean sameButSeedAndSystem(ValidationSettings a, ValidationSettings b) {
        ValidationSettings x = a.withSeed(b.seed());
        return new ValidationSettings(b.systems(), x.temperatureK(), x.timestepFs(), x.equilibrationSteps(), x.nveSteps(),
                x.nvtSteps(), x.sampleIntervalSteps(), x.thermostat(), x.thermostatTimeConstantFs(), x.device(), x.baseline(),
                x.seed(), x.full(), x.replicas(), x.teacherFramesPerRun(), b.structures()).equals(b);
    }

    private static void check(List<ValidationRunner> validations) {
        if (validations.isEmpty()) {
            throw new IllegalArgumentException("no validations to run");
        }
        ValidationRunner first = validations.get(0);
        Set<Path> dirs = new HashSet<>();
        for (ValidationRunner v : validations) {
            ValidationSettings s = v.settings();
            if (s.replicas() != 1 || s.systemCount() != 1) {
                throw new IllegalArgumentException("a seed batch runs validations of one system and one replica each, got "
                        + s.systemCount() + " systems and " + s.replicas() + " replicas");
            }
            if (!sameButSeedAndSystem(s, first.settings())) {
                throw new IllegalArgumentException("a seed batch runs validations that differ only in their seed and"
                        + " system: " + s + " against " + first.settings());
            }
            if (v.models() != first.models() || !v.thresholds().equals(first.thresholds())) {
                throw new IllegalArgumentException("a seed batch runs one model provider with one set of thresholds");
            }
            if (!dirs.add(v.outDir().toAbsolutePath().normalize())) {
                throw new IllegalArgumentException("two validations of a seed batch write into " + v.outDir());
            }
        }
    }
}
