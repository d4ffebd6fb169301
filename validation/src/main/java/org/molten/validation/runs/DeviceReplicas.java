package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.Ensemble;
import org.molten.validation.reports.Thresholds;

/**
 * A system's R replicas as one batch on a device platform (issues 16, 18): each phase of the
 * student's MD (equilibration, NVE, NVT) is one {@link DeviceBatchRun} of all replicas still
 * running, instead of R host tasks that each send one force call per step to the GPU. What comes
 * before and after the student's MD is the host's, replica by replica ({@link ReplicaRun}): the
 * start (Maxwell–Boltzmann velocities from seed + k), the rescaling to the target temperature,
 * the teacher on the frames, the baselines. Replica k's seeds are those of the host run, and its
 * result does not depend on the batch (to float32 rounding); on the device the thermostat noise
 * comes from the device's generator seeded with the replica's seed, not from the host stream, so
 * a device run is not the host run's trajectory.
 */
final class DeviceReplicas {
    private DeviceReplicas() {}

    /** The device platform a validation on {@code settings} batches its replicas on, or empty (host tasks as before). */
    static Optional<String> platformFor(ValidationSettings settings) {
        if (settings.device() == org.molten.validation.DeviceChoice.CPU) {
            return Optional.empty();
        }
        return DevicePlatform.named("cuda").filter(p -> p.unavailableReason().isEmpty()).map(DevicePlatform::name);
    }

    /**
     * Runs every replica of {@code system}; when the platform cannot run the model under test (a
     * test double, a model without weights) the replicas run one after the other on the host.
     *
     * @return replica k's outcome at index k
     */
    static List<ReplicaOutcome> run(SystemSource system, String platform, ValidationSettings s, Thresholds t,
                                    WorkerModels models, Path outDir, Progress progress, Consumer<String> warnings)
            throws IOException {
        List<ReplicaRun.Start> starts = new ArrayList<>(s.replicas());
        for (int k = 0; k < s.replicas(); k++) {
            starts.add(ReplicaRun.start(system, k, s));
        }
        return run(starts, java.util.Collections.nCopies(starts.size(), outDir), platform, s, t, models, progress, warnings);
    }

    /**
     * Runs the replicas started at {@code starts} (of one system, each writing its logs into its
     * own entry of {@code outDirs}) as one batch per phase: replica k of a validation, or each
     * replica 0 of validations that differ only in their seed ({@link SeedBatch}). Each replica's
     * outcome is what it gives run alone on the platform: its start, seeds and completion depend on
     * its {@link ReplicaRun.Start} only.
     *
     * @return the outcome of {@code starts.get(i)} at index i
     */
    static List<ReplicaOutcome> run(List<ReplicaRun.Start> starts, List<Path> outDirs, String platform, ValidationSettings s,
                                    Thresholds t, WorkerModels models, Progress progress, Consumer<String> warnings)
            throws IOException {
        int r = starts.size();
        if (outDirs.size() != r) {
            throw new IllegalArgumentException(r + " replicas but " + outDirs.size() + " output directories");
        }
        SystemSource system = starts.get(0).system();
        ModelProvider.Model optimised = models.optimised();
        RunSpec probe = ReplicaRun.studentProductionSpec(starts.get(0), Ensemble.NVE, s, t, optimised, outDirs.get(0));
        Optional<String> unsupported = DevicePlatform.named(platform)
                .flatMap(p -> p.unsupportedReason(optimised.forceField(), probe.integrator().dynamicsSpec().orElseThrow()));
        if (unsupported.isPresent()) {
            List<ReplicaOutcome> out = new ArrayList<>(r);
            for (int i = 0; i < r; i++) {
                out.add(ReplicaRun.run(starts.get(i), s, t, models, outDirs.get(i), progress));
            }
            return out;
        }
        String batch = " (" + platform + ", " + (r == 1 ? "replica " + starts.get(0).replica() : r + " replicas in one batch") + ")";
        List<Integer> running = new ArrayList<>();
        for (int i = 0; i < r; i++) {
            running.add(i);
        }
        RunOutcome[] equilibration = new RunOutcome[r];
        Atoms[] state0 = new Atoms[r];
        for (int i = 0; i < r; i++) {
            state0[i] = starts.get(i).atoms();
        }
        if (s.equilibrationSteps() > 0) {
            progress.phase(system.name() + ": equilibration" + batch);
            List<RunOutcome> eq = phase(running,
                    i -> () -> ReplicaRun.equilibrationSpec(starts.get(i), s, t, optimised, outDirs.get(i)),
                    i -> starts.get(i).atoms(), platform, progress, warnings);
            for (int j = 0; j < running.size(); j++) {
                int i = running.get(j);
                equilibration[i] = eq.get(j);
                state0[i] = eq.get(j).finalState();
            }
            running.removeIf(i -> equilibration[i].blowUp() != null);
        }
        RunOutcome[] nve = new RunOutcome[r];
        RunOutcome[] nvt = new RunOutcome[r];
        ReplicaRun.ProductionStarts[] p = new ReplicaRun.ProductionStarts[r];
        if (!running.isEmpty()) {
            for (int i : running) {
                p[i] = ReplicaRun.productionStarts(state0[i], s.temperatureK(), s.constraintRule());
            }
            for (Ensemble e : List.of(Ensemble.NVE, Ensemble.NVT)) {
                progress.phase(system.name() + ": optimised " + e.name() + batch);
                List<RunOutcome> o = phase(running,
                        i -> () -> ReplicaRun.studentProductionSpec(starts.get(i), e, s, t, optimised, outDirs.get(i)),
                        i -> e == Ensemble.NVE ? p[i].nve() : p[i].nvt(), platform, progress, warnings);
                for (int j = 0; j < running.size(); j++) {
                    (e == Ensemble.NVE ? nve : nvt)[running.get(j)] = o.get(j);
                }
            }
        }
        List<ReplicaOutcome> out = new ArrayList<>(r);
        for (int i = 0; i < r; i++) {
            ReplicaRun.Start st = starts.get(i);
            out.add(equilibration[i] != null && equilibration[i].blowUp() != null
                    ? ReplicaRun.unequilibrated(st, s, equilibration[i], progress)
                    : ReplicaRun.complete(st, s, t, models, outDirs.get(i), progress, equilibration[i], p[i], nve[i], nvt[i]));
        }
        return out;
    }

    private static List<RunOutcome> phase(List<Integer> replicas, IntFunction<Supplier<RunSpec>> spec, IntFunction<Atoms> start,
                                          String platform, Progress progress, Consumer<String> warnings) throws IOException {
        List<Supplier<RunSpec>> specs = new ArrayList<>();
        List<Atoms> starts = new ArrayList<>();
        for (int k : replicas) {
            specs.add(spec.apply(k));
            starts.add(start.apply(k));
        }
        return DeviceBatchRun.run(specs, starts, platform, progress, warnings);
    }
}
