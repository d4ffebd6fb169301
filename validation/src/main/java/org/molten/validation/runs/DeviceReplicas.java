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
        int r = s.replicas();
        ModelProvider.Model optimised = models.optimised();
        List<ReplicaRun.Start> starts = new ArrayList<>(r);
        for (int k = 0; k < r; k++) {
            starts.add(ReplicaRun.start(system, k, s));
        }
        RunSpec probe = ReplicaRun.studentProductionSpec(starts.get(0), Ensemble.NVE, s, t, optimised, outDir);
        Optional<String> unsupported = DevicePlatform.named(platform)
                .flatMap(p -> p.unsupportedReason(optimised.forceField(), probe.integrator().dynamicsSpec().orElseThrow()));
        if (unsupported.isPresent()) {
            List<ReplicaOutcome> out = new ArrayList<>(r);
            for (int k = 0; k < r; k++) {
                out.add(ReplicaRun.run(system, k, s, t, models, outDir, progress));
            }
            return out;
        }
        String batch = " (" + platform + ", " + (r == 1 ? "replica 0" : "replicas 0-" + (r - 1) + " in one batch") + ")";
        List<Integer> running = new ArrayList<>();
        for (int k = 0; k < r; k++) {
            running.add(k);
        }
        RunOutcome[] equilibration = new RunOutcome[r];
        Atoms[] state0 = new Atoms[r];
        for (int k = 0; k < r; k++) {
            state0[k] = starts.get(k).atoms();
        }
        if (s.equilibrationSteps() > 0) {
            progress.phase(system.name() + ": equilibration" + batch);
            List<RunOutcome> eq = phase(running, k -> () -> ReplicaRun.equilibrationSpec(starts.get(k), s, t, optimised, outDir),
                    k -> starts.get(k).atoms(), platform, progress, warnings);
            for (int i = 0; i < running.size(); i++) {
                int k = running.get(i);
                equilibration[k] = eq.get(i);
                state0[k] = eq.get(i).finalState();
            }
            running.removeIf(k -> equilibration[k].blowUp() != null);
        }
        RunOutcome[] nve = new RunOutcome[r];
        RunOutcome[] nvt = new RunOutcome[r];
        if (!running.isEmpty()) {
            for (int k : running) {
                // The device's state comes back with float32 rounding in the centre-of-mass momentum, which the host
                // keeps at zero to its own rounding: zeroed here, so the production runs keep 3N - 3 degrees of freedom.
                org.molten.integrators.MaxwellBoltzmann.removeCentreOfMassVelocity(state0[k]);
                ReplicaRun.rescaleTo(state0[k], s.temperatureK());
            }
            for (Ensemble e : List.of(Ensemble.NVE, Ensemble.NVT)) {
                progress.phase(system.name() + ": optimised " + e.name() + batch);
                List<RunOutcome> o = phase(running,
                        k -> () -> ReplicaRun.studentProductionSpec(starts.get(k), e, s, t, optimised, outDir),
                        k -> state0[k], platform, progress, warnings);
                for (int i = 0; i < running.size(); i++) {
                    (e == Ensemble.NVE ? nve : nvt)[running.get(i)] = o.get(i);
                }
            }
        }
        List<ReplicaOutcome> out = new ArrayList<>(r);
        for (int k = 0; k < r; k++) {
            ReplicaRun.Start st = starts.get(k);
            out.add(equilibration[k] != null && equilibration[k].blowUp() != null
                    ? ReplicaRun.unequilibrated(st, s, equilibration[k], progress)
                    : ReplicaRun.complete(st, s, t, models, outDir, progress, equilibration[k], state0[k], nve[k], nvt[k]));
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
