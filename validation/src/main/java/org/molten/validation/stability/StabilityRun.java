package org.molten.validation.stability;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.molten.core.ForceField;
import org.molten.core.dynamics.DeviceBlowUpException;
import org.molten.integrators.BlowUpGuard;
import org.molten.integrators.Checkpoint;
import org.molten.integrators.ReplicaSet;
import org.molten.integrators.Simulation;
import org.molten.integrators.SimulationBlowUpException;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.LangevinThermostat;

/**
 * Runs the stability protocol: every molecule × replica as one {@link ReplicaSet} (on a device platform one binding,
 * a mixed batch of molecules of different sizes), advanced one frame (T/N) at a time; after each frame every replica's
 * state is pulled and checked on the host ({@link ReplicaWatch}) and checkpointed.
 *
 * <p><b>An exploded replica leaves the batch.</b> A replica that meets the explosion rule at a frame, or whose state
 * the integrator's blow-up guard refuses within a frame (non-finite positions, velocities, forces or energy, |F| &gt;
 * 50 eV/Å or |v| &gt; 1 Å/fs: {@link BlowUpGuard#defaults()}; on the GPU non-finite forces), is scored at that frame
 * and dropped: the set is rebuilt from the others, each restored from its checkpoint of the previous frame, and that
 * frame is run again. A non-finite replica therefore never shares a step with the others, and each surviving
 * replica's trajectory is the one it has without the failed one (bit for bit on the host, where every replica has its
 * own force field and random stream; on a device to the batch's float32 rounding).
 *
 * <p>Replica j of molecule i starts from the molecule's structure with Maxwell–Boltzmann velocities at the target
 * temperature from seed + i·R + j (R replicas per molecule).
 */
public final class StabilityRun {
    /** Told of the figures after every {@code writeEveryFrames} frames and at the end (to write them progressively). */
    @FunctionalInterface
    public interface Listener {
        void progress(StabilityReport report) throws IOException;
    }

    private final List<StabilityMolecule> molecules;
    private final StabilitySettings settings;
    private final Supplier<ForceField> forceFields;
    private final String model;
    private final double minScore;
    private final Consumer<String> warnings;
    private final ReplicaWatch[] watch;
    private final Checkpoint[] saved;
    private final ForceField[] fields;
    private String platformUsed;

    /**
     * @param molecules   the molecules, in order
     * @param settings    the protocol's settings
     * @param forceFields a new force field per call (one per replica: host replicas run in parallel and share nothing)
     * @param model       the model's name for the report
     * @param minScore    the mean score the run must reach
     * @param warnings    where a platform fallback or a dropped replica is said
     */
    public StabilityRun(List<StabilityMolecule> molecules, StabilitySettings settings, Supplier<ForceField> forceFields,
                        String model, double minScore, Consumer<String> warnings) {
        this.molecules = List.copyOf(molecules);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.forceFields = Objects.requireNonNull(forceFields, "forceFields");
        this.model = model;
        this.minScore = minScore;
        this.warnings = Objects.requireNonNull(warnings, "warnings");
        int r = this.molecules.size() * settings.replicas();
        this.watch = new ReplicaWatch[r];
        this.saved = new Checkpoint[r];
        this.fields = new ForceField[r];
        this.platformUsed = settings.platform();
    }

    /**
     * Runs the protocol; {@code stop} is asked before every frame (true: the run ends there, status "interrupted").
     *
     * @param writeEveryFrames frames between two calls of {@code listener}
     * @return the final figures (also given to the listener)
     */
    public StabilityReport run(Listener listener, int writeEveryFrames, BooleanSupplier stop) throws IOException {
        long t0 = System.nanoTime();
        int n = settings.frames();
        List<Integer> live = new ArrayList<>();
        int frame = 0;
        String status = "complete";
        try {
            for (int i = 0; i < molecules.size(); i++) {
                String refused = refusedStart(i);
                for (int j = 0; j < settings.replicas(); j++) {
                    int k = i * settings.replicas() + j;
                    if (refused == null) {
                        live.add(k);
                    } else {
                        watch[k] = new ReplicaWatch(molecules.get(i).atoms(), settings.temperatureK(), Double.NaN,
                                settings.frames(), settings.frameFs());
                        watch[k].explode(0, refused);
                    }
                }
                if (refused != null) {
                    warnings.accept(molecules.get(i).name() + " is refused at its start and scores 0 (" + refused + ")");
                }
            }
            ReplicaSet set = live.isEmpty() ? null : start(live);
            try {
                while (frame < n && !live.isEmpty()) {
                    if (stop.getAsBoolean()) {
                        status = "interrupted";
                        break;
                    }
                    int f = frame + 1;
                    try {
                        set.step(settings.stepsPerFrame());
                    } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
                        // a SimulationBlowUpException (or a state the model refuses): drop that replica, run the frame again
                        java.util.Map<Integer, String> bad = failedReplicas(e, set);
                        if (bad.isEmpty()) {
                            throw e;
                        }
                        List<Integer> gone = new ArrayList<>();
                        for (var b : bad.entrySet()) {
                            int k = live.get(b.getKey());
                            gone.add(k);
                            watch[k].explode(f, "the integrator stopped it: " + b.getValue());
                            warnings.accept(label(k) + " exploded in frame " + f + " and leaves the batch (" + b.getValue() + ")");
                        }
                        live.removeAll(gone);
                        set = restart(set, live, f);
                        if (live.isEmpty()) {
                            frame = f;
                        }
                        continue;
                    }
                    List<Integer> dropped = new ArrayList<>();
                    for (int pos = 0; pos < live.size(); pos++) {
                        int k = live.get(pos);
                        Simulation sim = set.replica(pos);
                        if (watch[k].observe(f, sim.atoms(), sim.temperatureK())) {
                            dropped.add(k);
                        } else {
                            saved[k] = sim.checkpoint();
                        }
                    }
                    frame = f;
                    if (!dropped.isEmpty()) {
                        for (int k : dropped) {
                            warnings.accept(label(k) + " exploded at frame " + f + " and leaves the batch (" + watch[k].result().detail() + ")");
                        }
                        live.removeAll(dropped);
                        set = restart(set, live, f);
                    }
                    if (frame % writeEveryFrames == 0 && frame < n) {
                        listener.progress(report("running", frame, t0));
                    }
                }
            } finally {
                if (set != null) {
                    set.close();
                }
            }
        } finally {
            for (ForceField ff : fields) {
                closeQuietly(ff);
            }
        }
        StabilityReport done = report(status, frame, t0);
        listener.progress(done);
        return done;
    }

    /**
     * Why molecule {@code i}'s start cannot run (the guard refuses its forces or energy: overlapping atoms, a model
     * that gives non-finite numbers), or null. Checked alone on the host before the batch is bound, so that one such
     * start scores 0 (an explosion at frame 0) instead of stopping the others' binding.
     */
    private String refusedStart(int i) {
        int k = i * settings.replicas();
        fields[k] = forceFields.get();
        String why = refused(fields[k], molecules.get(i).atoms(), 0);
        return why == null ? null : "the start is refused: " + why;
    }

    /** The guard's objection to {@code ff}'s forces and energy at {@code atoms}' positions (velocities as given), or null. */
    private static String refused(ForceField ff, org.molten.core.Atoms atoms, long step) {
        org.molten.core.Atoms a = atoms.copy();
        double[] f = new double[3 * a.size()];
        try {
            double e = ff.energyAndForces(a, f);
            BlowUpGuard.defaults().check(step, 0.0, a, f, e);
            return null;
        } catch (SimulationBlowUpException e) {
            return e.getMessage();
        }
    }

    /** The set of the replicas in {@code live}, fresh: velocities drawn from each replica's seed; checkpoint 0 taken. */
    private ReplicaSet start(List<Integer> live) {
        ReplicaSet set = build(live);
        for (int pos = 0; pos < live.size(); pos++) {
            int k = live.get(pos);
            Simulation sim = set.replica(pos);
            StabilityMolecule m = molecules.get(k / settings.replicas());
            watch[k] = new ReplicaWatch(m.atoms(), settings.temperatureK(), sim.temperatureK(), settings.frames(),
                    settings.frameFs(), settings.hydrogenRule());
            saved[k] = sim.checkpoint();
        }
        return set;
    }

    /**
     * Closes {@code old} and binds {@code live} again, each replica restored from its last checkpoint; null if none is
     * left. A replica whose force field now refuses its start (the new binding evaluates every start) is dropped as
     * exploded in {@code frame}, found by evaluating each one's checkpoint alone on the host.
     */
    private ReplicaSet restart(ReplicaSet old, List<Integer> live, int frame) {
        closeQuietly(old);
        while (!live.isEmpty()) {
            ReplicaSet set;
            try {
                set = build(live);
            } catch (SimulationBlowUpException e) {
                List<Integer> gone = new ArrayList<>();
                for (int k : live) {
                    String why = refused(fields[k], saved[k].atoms(), 0);
                    if (why != null) {
                        gone.add(k);
                        watch[k].explode(frame, why);
                        warnings.accept(label(k) + " exploded in frame " + frame + " and leaves the batch (" + why + ")");
                    }
                }
                if (gone.isEmpty()) {
                    throw e;
                }
                live.removeAll(gone);
                continue;
            }
            for (int pos = 0; pos < live.size(); pos++) {
                set.replica(pos).restore(saved[live.get(pos)]);
            }
            return set;
        }
        return null;
    }

    private ReplicaSet build(List<Integer> live) {
        List<Simulation.Builder> builders = new ArrayList<>(live.size());
        for (int k : live) {
            StabilityMolecule m = molecules.get(k / settings.replicas());
            if (fields[k] == null) {
                fields[k] = forceFields.get();
            }
            VelocityVerlet integrator = new VelocityVerlet(settings.timestepFs(),
                    LangevinThermostat.of(settings.temperatureK(), settings.frictionPerFs()));
            builders.add(Simulation.builder(m.atoms().copy(), fields[k], integrator)
                    .seed(settings.seed() + k).temperature(settings.temperatureK()).platform(settings.platform())
                    // on a device the guard's pull at the frames only: every frame pulls the state anyway (the device
                    // itself stops on non-finite forces every launch)
                    .guardIntervalSteps(settings.stepsPerFrame())
                    .warnings(warnings));
        }
        ReplicaSet set = ReplicaSet.of(builders).platform(settings.platform()).warnings(warnings).build();
        platformUsed = set.platformName();
        return set;
    }

    /**
     * The positions in the set of the replicas that stopped it: the device names one; on the host they are those whose
     * state the guard refuses. Empty if none can be told (then the error is not a blow-up of a replica).
     */
    private static java.util.Map<Integer, String> failedReplicas(RuntimeException e, ReplicaSet set) {
        java.util.Map<Integer, String> bad = new java.util.TreeMap<>();
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof DeviceBlowUpException d) {
                bad.put(d.replica(), e.getMessage());
                return bad;
            }
        }
        // on the host every replica finished its part of the frame (or stopped where its guard tripped)
        BlowUpGuard guard = BlowUpGuard.defaults();
        for (int pos = 0; pos < set.size(); pos++) {
            Simulation sim = set.replica(pos);
            try {
                guard.check(sim.stepCount(), sim.timeFs(), sim.atoms(), sim.forces(), sim.potentialEnergyEv());
            } catch (SimulationBlowUpException refused) {
                bad.put(pos, refused.getMessage());
            }
        }
        return bad;
    }

    /** Replica {@code k}'s (molecule k / R, replica k % R) last checkpoint: at its last frame checked, else its start. */
    Checkpoint lastCheckpoint(int k) {
        return saved[k];
    }

    private StabilityReport report(String status, int framesDone, long t0) {
        List<MoleculeStability> out = new ArrayList<>(molecules.size());
        for (int i = 0; i < molecules.size(); i++) {
            StabilityMolecule m = molecules.get(i);
            List<ReplicaStability> reps = new ArrayList<>(settings.replicas());
            for (int j = 0; j < settings.replicas(); j++) {
                ReplicaWatch w = watch[i * settings.replicas() + j];
                reps.add(w == null ? new ReplicaStability(-1, -1, settings.frames(), 0, "") : w.result());
            }
            out.add(new MoleculeStability(m.name(), m.source(), m.atoms().size(), reps));
        }
        return new StabilityReport(model, settings, platformUsed, status, framesDone, (System.nanoTime() - t0) * 1e-9,
                out, minScore);
    }

    private String label(int k) {
        return molecules.get(k / settings.replicas()).name() + " replica " + k % settings.replicas();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // the run's figures are written; a force field that fails to free its buffers changes none of them
        }
    }
}
