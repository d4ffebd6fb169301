package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.integrators.MaxwellBoltzmann;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.constraints.ConstraintSolver;
import org.molten.integrators.constraints.Constraints;
import org.molten.integrators.constraints.HydrogenMassRepartitioning;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.validation.BaselineKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.metrics.ForceAgreement;
import org.molten.validation.metrics.StructuralIntegrity;
import org.molten.validation.metrics.TeacherErrors;
import org.molten.validation.reports.Ensemble;
import org.molten.validation.reports.ModelRole;
import org.molten.validation.reports.Precision;
import org.molten.validation.reports.RunPhase;
import org.molten.validation.reports.Thresholds;

/**
 * One replica of one system, the unit of work a validation spreads over the cores:
 * <ol>
 *   <li>the start structure; Maxwell–Boltzmann velocities at T from {@code RandomStream(seed_k)}
 *       (seed_k = seed + k), centre-of-mass motion removed (dof = 3N − 3);</li>
 *   <li>Langevin equilibration with the student, continuing the same stream;</li>
 *   <li>from its final state ({@link #productionStarts}): student NVE (velocity Verlet) with the
 *       velocities rescaled to exactly the target temperature (one frame of a short equilibration
 *       can be far from it: ethanol once started NVE at 517 K, and the drift criterion compares
 *       runs at one energy), and NVT (the chosen thermostat, noise seeded by {@link #nvtSeed}) from
 *       the equilibrated velocities as they are, so that its temperature series is canonical from
 *       its first step; with {@code --baseline teacher} the same two runs driven by the teacher
 *       from the identical states and noise;</li>
 *   <li>the teacher on {@code teacherFramesPerRun} evenly spaced frames of each student
 *       production run;</li>
 *   <li>replica 0 only: the implementation baseline's forces on up to
 *       {@value #MAX_COMPARISON_FRAMES_PER_RUN} frames per production run and, in the full
 *       protocol, its own NVE and NVT runs from the same state.</li>
 * </ol>
 * Everything a replica does depends on its seed only, so replica k of a run equals replica 0 of
 * a run with seed + k, whatever the number of replicas or threads.
 */
final class ReplicaRun {
    /** Langevin friction of the equilibration, 1/fs (relaxation time 50 fs). */
    static final double EQUILIBRATION_FRICTION_PER_FS = 0.02;
    /** Most frames per production run on which the optimised and the baseline model are compared. */
    static final int MAX_COMPARISON_FRAMES_PER_RUN = 50;
    /** Constraints removed from the velocities: the centre-of-mass momentum. */
    static final int REMOVED_CONSTRAINTS = 3;

    private ReplicaRun() {}

    /**
     * The seed of a replica's NVT thermostat noise, derived from its own seed so that it never
     * equals another replica's velocity seed (seed + 1 would be replica 1's).
     */
    static long nvtSeed(long replicaSeed) {
        long z = replicaSeed + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The log-file prefix of a replica: "ethanol-r2". */
    static String prefix(SystemSource system, int replica) {
        return system.name() + "-r" + replica;
    }

    /**
     * A replica's start: its seed, the structure with Maxwell–Boltzmann velocities, and the state
     * of its stream after drawing them (the host equilibration continues that stream).
     */
    record Start(SystemSource system, int replica, long seed, Atoms atoms, long[] streamAfterVelocities) {
    }

    /** Replica k's start: velocities from {@code RandomStream(seed + k)}, centre-of-mass motion removed. */
    static Start start(SystemSource system, int k, ValidationSettings s) {
        long seed = s.replicaSeed(k);
        Atoms start = system.load(seed);
        if (s.repartitionsHydrogenMass()) {   // every run of the replica (the teacher's too) starts from these masses
            start = HydrogenMassRepartitioning.apply(start, s.hydrogenMassAmu());
        }
        RandomStream rng = new RandomStream(seed);
        int removed = MaxwellBoltzmann.at(s.temperatureK()).assign(start, rng);
        if (removed != REMOVED_CONSTRAINTS) {
            throw new IllegalStateException("Maxwell-Boltzmann velocities removed " + removed + " constraints, expected 3");
        }
        return new Start(system, k, seed, start, rng.state());
    }

    /** The student's Langevin equilibration of a replica: a fresh spec (integrator, integrity, stream) each call. */
    static RunSpec equilibrationSpec(Start st, ValidationSettings s, Thresholds t, ModelProvider.Model optimised, Path outDir) {
        double targetK = s.temperatureK();
        VelocityVerlet eq = new VelocityVerlet(s.timestepFs(), LangevinThermostat.of(targetK, EQUILIBRATION_FRICTION_PER_FS));
        return new RunSpec("replica " + st.replica() + " optimised equilibration", RunPhase.EQUILIBRATION,
                ModelRole.OPTIMISED, Ensemble.NVT, optimised.forceField(), optimised.info().precision(), eq, REMOVED_CONSTRAINTS,
                st.seed(), RandomStream.fromState(st.streamAfterVelocities()), s.equilibrationSteps(), s.sampleIntervalSteps(),
                integrity(st.atoms(), t), false, outDir.resolve(prefix(st.system(), st.replica()) + "-equilibration.csv"),
                s.constraintRule());
    }

    /** The student's NVE or NVT production run of a replica: a fresh spec each call. */
    static RunSpec studentProductionSpec(Start st, Ensemble ensemble, ValidationSettings s, Thresholds t,
                                         ModelProvider.Model optimised, Path outDir) {
        String who = prefix(st.system(), st.replica());
        return productionSpec("replica " + st.replica() + " optimised " + ensemble.name(), ModelRole.OPTIMISED, ensemble,
                optimised, s, t, ensemble == Ensemble.NVT ? nvtSeed(st.seed()) : null, st.atoms(),
                outDir.resolve(who + "-optimised-" + ensemble.name().toLowerCase(java.util.Locale.ROOT) + ".csv"));
    }

    /** Runs replica k on the host: equilibration, the student's production runs, then {@link #complete}. */
    static ReplicaOutcome run(SystemSource system, int k, ValidationSettings s, Thresholds t, WorkerModels models,
                              Path outDir, Progress progress) throws IOException {
        return run(start(system, k, s), s, t, models, outDir, progress);
    }

    /** Runs the replica started at {@code st} on the host, its logs in {@code outDir}. */
    static ReplicaOutcome run(Start st, ValidationSettings s, Thresholds t, WorkerModels models, Path outDir,
                              Progress progress) throws IOException {
        SystemSource system = st.system();
        int k = st.replica();
        ModelProvider.Model optimised = models.optimised();
        RunOutcome equilibration = null;
        Atoms state0 = st.atoms();
        if (s.equilibrationSteps() > 0) {
            progress.phase(system.name() + " r" + k + ": equilibration");
            equilibration = ProductionRun.run(equilibrationSpec(st, s, t, optimised, outDir), st.atoms(), progress);
            state0 = equilibration.finalState();
        }
        if (equilibration != null && equilibration.blowUp() != null) {
            return unequilibrated(st, s, equilibration, progress);
        }
        ProductionStarts p = productionStarts(state0, s.temperatureK(), s.constraintRule());
        RunOutcome nve = production(studentProductionSpec(st, Ensemble.NVE, s, t, optimised, outDir), p.nve(), progress, system);
        RunOutcome nvt = production(studentProductionSpec(st, Ensemble.NVT, s, t, optimised, outDir), p.nvt(), progress, system);
        return complete(st, s, t, models, outDir, progress, equilibration, p, nve, nvt);
    }

    /** A replica whose equilibration blew up: no production runs (their steps counted as done for the progress bar). */
    static ReplicaOutcome unequilibrated(Start st, ValidationSettings s, RunOutcome equilibration, Progress progress) {
        progress.advance(productionSteps(s, st.replica()));
        return new ReplicaOutcome(st.replica(), st.seed(), st.atoms(), equilibration.finalState(), equilibration.finalState(),
                equilibration, null, null,
                null, null, null, null, List.of(), null, null, new ArrayList<>());
    }

    /**
     * The rest of a replica once the student's production runs are done (on the host or in a
     * device batch): the teacher on their frames, the teacher's own runs with
     * {@code --baseline teacher}, and for replica 0 the implementation baseline.
     */
    static ReplicaOutcome complete(Start st, ValidationSettings s, Thresholds t, WorkerModels models, Path outDir,
                                   Progress progress, RunOutcome equilibration, ProductionStarts p, RunOutcome nve,
                                   RunOutcome nvt) throws IOException {
        Atoms state0 = p.nve();
        SystemSource system = st.system();
        int k = st.replica();
        long seed = st.seed();
        Atoms start = st.atoms();
        String who = prefix(system, k);
        String label = "replica " + k + " ";
        long nvtSeed = nvtSeed(seed);
        List<String> notes = new ArrayList<>();
        boolean periodic = start.cell().map(c -> c.anyPeriodic()).orElse(false);
        ModelProvider.Teacher teacher = s.teacherFramesPerRun() > 0 || s.baseline() == BaselineKind.TEACHER
                ? models.teacher(periodic) : ModelProvider.Teacher.unavailable("teacher checks switched off (0 frames per run)");
        List<FrameEval> evaluations = new ArrayList<>();
        if (teacher.available() && s.teacherFramesPerRun() > 0) {
            progress.phase(system.name() + " r" + k + ": teacher checks");
            evaluations.addAll(TeacherCheck.evaluate(teacher.model().forceField(), nve, s.teacherFramesPerRun(), start));
            evaluations.addAll(TeacherCheck.evaluate(teacher.model().forceField(), nvt, s.teacherFramesPerRun(), start));
        }
        RunOutcome teacherNve = null;
        RunOutcome teacherNvt = null;
        if (s.baseline() == BaselineKind.TEACHER) {
            if (teacher.available()) {
                ModelProvider.Model m = teacher.model();
                teacherNve = production(productionSpec(label + "teacher NVE", ModelRole.BASELINE, Ensemble.NVE, m, s, t, null,
                        start, outDir.resolve(who + "-teacher-nve.csv")), state0, progress, system);
                teacherNvt = production(productionSpec(label + "teacher NVT", ModelRole.BASELINE, Ensemble.NVT, m, s, t, nvtSeed,
                        start, outDir.resolve(who + "-teacher-nvt.csv")), p.nvt(), progress, system);
            } else {
                progress.advance(s.nveSteps() + s.nvtSteps());
            }
        }
        RunOutcome baseNve = null;
        RunOutcome baseNvt = null;
        ForceAgreement.Result agreement = null;
        String baselineName = null;
        int agreementSkipped = 0;
        String agreementSkip = null;
        if (k == 0 && s.baseline() != BaselineKind.TEACHER) {
            ModelProvider.Model base = models.baseline(periodic);
            baselineName = base.forceField().name();
            Comparison c = compareOnFrames(base, state0, nve, nvt);
            agreement = c.agreement;
            agreementSkipped = c.skipped;
            agreementSkip = c.reason;
            if (s.full()) {
                baseNve = production(productionSpec("replica 0 baseline NVE", ModelRole.BASELINE, Ensemble.NVE, base, s, t, null,
                        start, outDir.resolve(who + "-baseline-nve.csv")), state0, progress, system);
                baseNvt = production(productionSpec("replica 0 baseline NVT", ModelRole.BASELINE, Ensemble.NVT, base, s, t,
                        nvtSeed, start, outDir.resolve(who + "-baseline-nvt.csv")), p.nvt(), progress, system);
            }
        }
        return new ReplicaOutcome(k, seed, start, state0, p.nvt(), equilibration, nve, nvt, teacherNve, teacherNvt, baseNve, baseNvt,
                evaluations, teacher.available() ? null : teacher.skippedReason(),
                agreement == null ? null : new ReplicaOutcome.Agreement(baselineName, agreement, agreementSkipped, agreementSkip), notes);
    }

    /** Production steps a replica runs after equilibration (for the progress bar of a replica that stops early). */
    static long productionSteps(ValidationSettings s, int k) {
        long steps = 2 * (s.nveSteps() + s.nvtSteps());
        if (s.baseline() == BaselineKind.TEACHER) {
            return steps;
        }
        return (k == 0 && s.full() ? 2 : 1) * (s.nveSteps() + s.nvtSteps());
    }

    /** Steps a replica runs in all, for the progress bar. */
    static long totalSteps(ValidationSettings s, int k) {
        return s.equilibrationSteps() + productionSteps(s, k);
    }

    private static RunOutcome production(RunSpec spec, Atoms state0, Progress progress, SystemSource system)
            throws IOException {
        progress.phase(system.name() + ": " + spec.label());
        return ProductionRun.run(spec, state0, progress);
    }

    /** A production run's spec: velocity Verlet (NVE) or with the chosen thermostat (NVT, noise from {@code nvtSeed}). */
    static RunSpec productionSpec(String label, ModelRole role, Ensemble ensemble, ModelProvider.Model m, ValidationSettings s,
                                  Thresholds t, Long nvtSeed, Atoms start, Path log) {
        VelocityVerlet integrator = ensemble == Ensemble.NVE ? new VelocityVerlet(s.timestepFs())
                : new VelocityVerlet(s.timestepFs(), Thermostats.create(s.thermostat(), s.temperatureK(),
                s.thermostatTimeConstantFs()));
        long steps = ensemble == Ensemble.NVE ? s.nveSteps() : s.nvtSteps();
        Precision precision = m.info().precision();
        return new RunSpec(label, RunPhase.PRODUCTION, role, ensemble, m.forceField(), precision, integrator,
                REMOVED_CONSTRAINTS, nvtSeed, null, steps, s.sampleIntervalSteps(), integrity(start, t), true, log,
                s.constraintRule());
    }

    /** The production runs' start states: NVE at exactly the target temperature, NVT as equilibrated. */
    record ProductionStarts(Atoms nve, Atoms nvt) {
    }

    /**
     * The production runs' starts from an equilibrated state (or the Maxwell–Boltzmann start when there
     * is no equilibration), its centre-of-mass velocity zeroed so that both keep 3N − 3 degrees of
     * freedom (a device run returns it with float32 rounding). NVE's copy is rescaled to exactly
     * {@code targetK}; NVT's keeps the equilibrated velocities: a start at exactly the target holds the
     * first ~0.1 ps of the thermostat's series near it and biases the pooled σ_T low (ethanol, 4 × 0.75 ps:
     * 0.92 of the canonical value, 3.8 standard errors, for two different students alike).
     */
    static ProductionStarts productionStarts(Atoms equilibrated, double targetK) {
        return productionStarts(equilibrated, targetK, Constraints.none());
    }

    /**
     * The same with bond constraints: the velocities (tangent to them after a constrained equilibration)
     * are projected again, and NVE's rescaled over 3N − 3 − the constraints.
     */
    static ProductionStarts productionStarts(Atoms equilibrated, double targetK, Constraints constraints) {
        Atoms nve = equilibrated.copy();
        Atoms nvt = equilibrated.copy();
        ConstraintSolver solver = ConstraintSolver.of(constraints.resolve(nve), nve);
        MaxwellBoltzmann.removeCentreOfMassVelocity(nve);
        MaxwellBoltzmann.removeCentreOfMassVelocity(nvt);
        solver.constrainVelocities(nve);
        solver.constrainVelocities(nvt);
        rescaleTo(nve, targetK, solver.count());
        return new ProductionStarts(nve, nvt);
    }

    /** Scales the velocities so that the instantaneous temperature (3N − 3 dof) is exactly {@code targetK}. */
    static void rescaleTo(Atoms atoms, double targetK) {
        rescaleTo(atoms, targetK, 0);
    }

    /** The same over 3N − 3 − {@code constraints} degrees of freedom. */
    static void rescaleTo(Atoms atoms, double targetK, int constraints) {
        int dof = Observables.degreesOfFreedom(atoms.size(), REMOVED_CONSTRAINTS + constraints);
        double now = Observables.temperatureK(atoms, dof);
        if (now > 0 && Double.isFinite(now)) {
            double f = Math.sqrt(targetK / now);
            double[] v = atoms.velocities();
            for (int i = 0; i < v.length; i++) {
                v[i] *= f;
            }
        }
    }

    static StructuralIntegrity integrity(Atoms start, Thresholds t) {
        return StructuralIntegrity.of(start, t.maxBondStretchRatio(), t.escapeMarginA(), t.overlapLimitA());
    }

    private record Comparison(ForceAgreement.Result agreement, int skipped, String reason) {
    }

    /** The optimised model's forces on its own frames against the baseline's on the same frames. */
    private static Comparison compareOnFrames(ModelProvider.Model baseline, Atoms state0, RunOutcome... runs) {
        ForceAgreement agreement = new ForceAgreement();
        int skipped = 0;
        String reason = null;
        Atoms probe = state0.copy();
        double[] fb = new double[3 * probe.size()];
        for (RunOutcome o : runs) {
            List<double[]> frames = o.frames();
            int stride = Math.max(1, (frames.size() + MAX_COMPARISON_FRAMES_PER_RUN - 1) / MAX_COMPARISON_FRAMES_PER_RUN);
            for (int i = 0; i < frames.size(); i += stride) {
                System.arraycopy(frames.get(i), 0, probe.positions(), 0, fb.length);
                try {
                    double eb = baseline.forceField().energyAndForces(probe, fb);
                    agreement.add(o.frameEnergies().get(i), o.frameForces().get(i), eb, fb);
                } catch (IllegalArgumentException | IllegalStateException e) {
                    // A frame the baseline refuses (a broken structure late in a failing run) is counted and
                    // named, not fatal: the run's own criteria already fail.
                    if (skipped++ == 0) {
                        reason = o.spec().label() + " step " + o.frameSteps().get(i) + ": " + e.getMessage();
                    }
                }
            }
        }
        return new Comparison(agreement.result(), skipped, reason);
    }

    /** The frames of the teacher checks pooled into one accumulator. */
    static TeacherErrors pool(org.molten.core.Element[] elements, List<FrameEval> evaluations) {
        TeacherErrors errors = new TeacherErrors(elements);
        for (FrameEval e : evaluations) {
            if (e.failure() != null) {
                errors.failed(e.where(), e.failure());
            } else {
                errors.add(e.where(), e.studentEnergyEv(), e.studentForces(), e.teacherEnergyEv(), e.teacherForces());
            }
        }
        return errors;
    }
}
