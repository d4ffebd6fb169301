package org.molten.cli;

import org.molten.validation.DeviceChoice;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.ForceField;
import org.molten.core.dynamics.DevicePlatform;
import org.molten.integrators.BlowUpGuard;
import org.molten.integrators.Checkpoint;
import org.molten.integrators.FireMinimizer;
import org.molten.integrators.Integrator;
import org.molten.integrators.OutputMark;
import org.molten.integrators.ReplicaSet;
import org.molten.integrators.Simulation;
import org.molten.integrators.SimulationBlowUpException;
import org.molten.integrators.constraints.Constraints;
import org.molten.integrators.constraints.HydrogenMassRepartitioning;
import org.molten.integrators.reporters.CheckpointReporter;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.reporters.TrajectoryReporter;
import org.molten.validation.ValidationSettings;
import org.molten.validation.runs.ProgressLine;
import org.molten.validation.runs.SystemCatalog;
import org.molten.structures.io.StructureFiles;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten run}: molecular dynamics of a structure file or a built-in molecule with one of
 * the integrators, writing an energy log, an extended-XYZ trajectory and checkpoints, and
 * continuing bit-for-bit from a checkpoint. Initial velocities are drawn from Maxwell–Boltzmann
 * at --temperature (seeded), with the centre-of-mass motion removed, the rotation too for an
 * isolated system whose integrator conserves angular momentum, and rescaled to exactly
 * --temperature.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run molecular dynamics (units: Å, eV, fs, K).",
                "Example: molten run --system ethanol --integrator langevin --steps 2000 --log energy.csv"},
        footer = {"", "--steps counts from step 0 of the run: a restart continues up to it.",
                "On a restart the log and trajectory are cut back to where the checkpoint left them and continued."})
public final class RunCommand implements Callable<Integer> {
    static final String DEFAULT_TIMESTEP_FS = "0.5";
    static final String DEFAULT_TEMPERATURE_K = "300";
    /**
     * Thermostat coupling time when --tau is not given, fs: the same as {@code molten validate}'s
     * (ValidationSettings.DEFAULT_THERMOSTAT_TIME_CONSTANT_FS, where the choice is argued).
     */
    static final double DEFAULT_TAU_FS = ValidationSettings.DEFAULT_THERMOSTAT_TIME_CONSTANT_FS;
    /** Langevin friction when --friction is not given, 1/fs: the inverse of the same coupling time. */
    static final double DEFAULT_FRICTION_PER_FS = 1.0 / DEFAULT_TAU_FS;
    /** Seed of the water box's molecule orientations: validate's default seed, so both start alike. */
    static final long WATER_BOX_SEED = ValidationSettings.DEFAULT_SEED;

    /** Where the system comes from: exactly one of the two. */
    static final class SystemSource {
        @Option(names = "--structure", paramLabel = "FILE", required = true,
                description = "Starting structure file: XYZ, extended XYZ (with Lattice= for a periodic cell) or PDB (CRYST1 for a cell); positions in Å.")
        Path structure;

        @Option(names = "--system", paramLabel = "NAME", required = true,
                description = "A built-in system: water, ethanol, benzene, alanine-dipeptide, ace-ala5-nme, or water-box "
                        + "(" + SystemCatalog.WATER_BOX_MOLECULES + " waters at 1 g/cm³, periodic; as molten validate).")
        String system;

        /** The structure file's atoms or the built-in system; a file problem names the file. */
        Atoms load() throws IOException {
            if (system != null) {
                return SystemCatalog.load(SystemCatalog.canonicalName(system), WATER_BOX_SEED);
            }
            try {
                if (Files.isDirectory(structure)) {
                    throw new IOException("Is a directory"); // before the format is guessed from the name
                }
                return StructureFiles.read(structure);
            } catch (IOException e) {
                throw FileErrors.describe("read structure file", structure, e);
            }
        }
    }

    /** Dynamics settings. */
    static final class Dynamics {
        @Option(names = "--integrator", paramLabel = "NAME", defaultValue = "langevin",
                converter = IntegratorChoice.Converter.class, completionCandidates = IntegratorChoice.Names.class,
                description = "Integrator: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). verlet is NVE;"
                        + " berendsen is not canonical.")
        IntegratorChoice integrator = IntegratorChoice.LANGEVIN;

        @Option(names = "--timestep", paramLabel = "<fs>", defaultValue = DEFAULT_TIMESTEP_FS,
                description = "Timestep in fs (default: ${DEFAULT-VALUE}; 2 with --constraints h-bonds, 4 with "
                        + "--hydrogen-mass 3 as well).")
        double timestepFs = Double.parseDouble(DEFAULT_TIMESTEP_FS);

        @Option(names = "--constraints", paramLabel = "RULE", defaultValue = "none",
                description = "Bond lengths held fixed (RATTLE): none, h-bonds (bonds to hydrogen) or all-bonds; with "
                        + "h-bonds or all-bonds waters are rigid (SETTLE). Lengths are the start structure's (after "
                        + "--minimize). Default: ${DEFAULT-VALUE}.")
        String constraints = "none";

        @Option(names = "--constraint-tolerance", paramLabel = "TOL", defaultValue = "1e-10",
                description = "RATTLE's convergence bound: relative bond-length error (and relative bond rate, 1/fs) "
                        + "(default: ${DEFAULT-VALUE}).")
        double constraintTolerance = Constraints.DEFAULT_TOLERANCE;

        @Option(names = "--hydrogen-mass", paramLabel = "<amu>",
                description = "Hydrogen mass repartitioning: hydrogens bonded to heavier atoms weigh this (amu), the "
                        + "difference taken from their heavy atom (total mass unchanged; waters left alone). Default: "
                        + "standard masses.")
        Double hydrogenMassAmu;

        @Option(names = "--temperature", paramLabel = "<K>", defaultValue = DEFAULT_TEMPERATURE_K,
                description = "Temperature in K of the initial velocities and the thermostat (default: ${DEFAULT-VALUE}).")
        double temperatureK = Double.parseDouble(DEFAULT_TEMPERATURE_K);

        @Option(names = "--friction", paramLabel = "<1/fs>",
                description = "Langevin friction in 1/fs (default: " + DEFAULT_FRICTION_PER_FS + " = 1/--tau's default); "
                        + "langevin only.")
        Double frictionPerFs;

        @Option(names = "--tau", paramLabel = "<fs>",
                description = "Thermostat coupling time in fs (default: " + DEFAULT_TAU_FS
                        + "); nose-hoover, bussi and berendsen only.")
        Double tauFs;

        @Option(names = "--steps", paramLabel = "N", defaultValue = "1000",
                description = "Total number of steps of the run, counted from step 0 (default: ${DEFAULT-VALUE}).")
        long steps = 1000;

        @Option(names = "--force-field", paramLabel = "NAME", defaultValue = "student",
                converter = ForceFieldChoice.Converter.class, completionCandidates = ForceFieldChoice.Names.class,
                description = "Force field: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, the bundled "
                        + "GFN2-xTB distilled model; classical = harmonic bonds + Lennard-Jones).")
        ForceFieldChoice forceField = ForceFieldChoice.STUDENT;

        @Option(names = "--model", paramLabel = "FILE",
                description = "Student weights: a bundled version by name (student-gfn2-v5 or v5; molten info lists them) or a "
                        + "safetensors file (default: the bundled default version).")
        Path modelFile;

        @Option(names = "--minimize",
                description = "Relax the starting structure first with FIRE (fmax 0.05 eV/Å, at most 1000 steps; as molten "
                        + "minimize with its defaults), before the velocities are drawn. Not with --restart.")
        boolean minimize;
    }

    /** Output settings. */
    static final class Output {
        @Option(names = "--report-interval", paramLabel = "STEPS", defaultValue = "100",
                description = "Write the log and trajectory every this many steps (default: ${DEFAULT-VALUE}).")
        int reportInterval = 100;

        @Option(names = "--log", paramLabel = "FILE",
                description = "Energy log, CSV: Time[ps],Etot[eV],Epot[eV],Ekin[eV],T[K].")
        Path log;

        @Option(names = "--trajectory", paramLabel = "FILE",
                description = "Trajectory, extended XYZ (positions Å, velocities Å/fs, forces eV/Å, energy eV).")
        Path trajectory;

        @Option(names = "--checkpoint", paramLabel = "FILE",
                description = "Checkpoint file, rewritten atomically every --checkpoint-interval steps and at the end.")
        Path checkpoint;

        @Option(names = "--checkpoint-interval", paramLabel = "STEPS", defaultValue = "1000",
                description = "Steps between checkpoints (default: ${DEFAULT-VALUE}).")
        int checkpointInterval = 1000;
    }

    /** Reproducibility, restarts and execution. */
    static final class Execution {
        @Option(names = "--restart", paramLabel = "FILE",
                description = "Continue from this checkpoint (give the same structure and settings as the original run).")
        Path restart;

        @Option(names = "--seed", paramLabel = "S",
                description = "Random seed for the initial velocities and stochastic thermostats (default: drawn and printed).")
        Long seed;

        @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto",
                converter = DeviceChoiceConverter.class, completionCandidates = DeviceChoiceConverter.Names.class,
                description = "Device for the student's forces: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: "
                        + "the GPU if a CUDA device works, else the CPU; cuda without a GPU warns once and uses the CPU).")
        DeviceChoice device = DeviceChoice.AUTO;

        @Option(names = "--replicas", paramLabel = "N", defaultValue = "1",
                description = "Independent copies of the system run together (default: ${DEFAULT-VALUE}), seeds S ... S+N-1;"
                        + " each writes its own log, trajectory and checkpoint, named with .rK before the extension"
                        + " (energy.r0.csv); --restart run.chk continues run.r0.chk ... run.rN-1.chk.")
        int replicas = 1;

        @Option(names = "--max-force", paramLabel = "<eV/Å>",
                defaultValue = "" + BlowUpGuard.DEFAULT_MAX_FORCE_EV_PER_A,
                description = "Stop when any force exceeds this, in eV/Å (default: ${DEFAULT-VALUE}).")
        double maxForceEvPerA = BlowUpGuard.DEFAULT_MAX_FORCE_EV_PER_A;

        @Option(names = "--max-speed", paramLabel = "<Å/fs>",
                defaultValue = "" + BlowUpGuard.DEFAULT_MAX_SPEED_A_PER_FS,
                description = "Stop when any atom moves faster than this, in Å/fs (default: ${DEFAULT-VALUE}).")
        double maxSpeedAPerFs = BlowUpGuard.DEFAULT_MAX_SPEED_A_PER_FS;
    }

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "System (one of)%n")
    SystemSource source;

    @ArgGroup(validate = false, heading = "Dynamics%n")
    Dynamics dynamics = new Dynamics();

    @ArgGroup(validate = false, heading = "Output%n")
    Output output = new Output();

    @ArgGroup(validate = false, heading = "Restart, reproducibility and execution%n")
    Execution execution = new Execution();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Stops the run between steps; null: SIGINT and SIGTERM do (tests substitute a manual one). */
    StopRequest stopRequest;

    /** Called with the step count after every step (tests use it to request a stop mid-run). */
    LongConsumer afterStep = step -> { };

    @Override
    public Integer call() throws IOException {
        try (StopRequest stop = stopRequest != null ? stopRequest : StopRequest.onSignals(System.err)) {
            stopRequest = stop;
            return runWithStopRequest();
        }
    }

    private int runWithStopRequest() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Settings s = validatedSettings();
        Atoms start = source.load();
        DomainWarning.check("molten run", source, start, dynamics.forceField, dynamics.modelFile, err);
        int replicas = execution.replicas;
        List<Checkpoint> restarts = new ArrayList<>();
        if (execution.restart != null) {
            for (int k = 0; k < replicas; k++) {
                restarts.add(readCheckpoint(ReplicaFiles.of(execution.restart, k, replicas)));
            }
        }
        long seed = chooseSeed(restarts.isEmpty() ? null : restarts.get(0));
        // A device platform runs whole steps from the host student (its twin); without one installed the
        // student's own device choice evaluates the forces and the steps stay on the host.
        boolean devicePlatform = execution.device != DeviceChoice.CPU && DevicePlatform.named("cuda").isPresent();
        DeviceChoice forceDevice = devicePlatform ? DeviceChoice.CPU : execution.device;
        if (dynamics.minimize) {
            minimizeStart(start, out, err);
        }
        List<ForceField> forceFields = new ArrayList<>();
        try {
            List<Simulation.Builder> builders = new ArrayList<>();
            for (int k = 0; k < replicas; k++) {
                ForceField ff = dynamics.forceField.create(start.copy(), forceDevice, dynamics.modelFile, err);
                forceFields.add(ff);
                Atoms atoms = start.copy();
                if (!restarts.isEmpty()) {
                    Checkpoint c = restarts.get(k);
                    try {
                        c.requireSameSystem(dynamics.hydrogenMassAmu == null ? atoms
                                : HydrogenMassRepartitioning.apply(atoms, dynamics.hydrogenMassAmu));
                    } catch (IllegalArgumentException e) {
                        throw e.getMessage().contains("masses") ? new IllegalArgumentException(e.getMessage()
                                + ": give the --hydrogen-mass of the run that wrote it", e) : e;
                    }
                    if (c.seed().isPresent() && c.seed().get() != seed + k) {
                        throw new IllegalArgumentException("checkpoint " + c.sourceName() + " has seed " + c.seed().get()
                                + ", replica " + k + " of this run needs seed " + (seed + k)
                                + " (replica k runs with seed S+k): give the checkpoints of one replica run");
                    }
                }
                Integrator integrator = dynamics.integrator.create(dynamics.timestepFs, dynamics.temperatureK,
                        s.frictionPerFs, s.tauFs);
                Simulation.Builder builder = Simulation.builder(atoms, ff, integrator).constraints(s.constraints);
                if (dynamics.hydrogenMassAmu != null) {
                    builder.hydrogenMassAmu(dynamics.hydrogenMassAmu);
                }
                builders.add(builder.seed(seed + k).temperature(dynamics.temperatureK)
                        .guard(BlowUpGuard.of(execution.maxForceEvPerA, execution.maxSpeedAPerFs))
                        .platform(devicePlatform ? execution.device.id() : "cpu")
                        .warnings(w -> {
                            err.println("molten run: warning: " + w);
                            err.flush();
                        }));
            }
            try (ReplicaSet set = ReplicaSet.of(builders).build()) {
                describeConstraints(set.replica(0), out);
                if (execution.device == DeviceChoice.CUDA && !set.platformName().equals("cuda")) {
                    org.molten.forcefield.cuda.CudaPlatform.countHostFallback("molten run --device cuda ran on "
                            + set.platformName());
                }
                for (int k = 0; k < replicas; k++) {
                    Simulation sim = set.replica(k);
                    Checkpoint restart = restarts.isEmpty() ? null : restarts.get(k);
                    if (restart != null) {
                        sim.restore(restart);
                        if (sim.stepCount() > dynamics.steps) {
                            throw new IllegalArgumentException("checkpoint " + restart.sourceName() + " is at step "
                                    + sim.stepCount() + ", beyond --steps " + dynamics.steps
                                    + " (--steps counts from the start of the run)");
                        }
                    }
                    attachReporters(sim, restart, k, replicas);
                }
                return runAndSummarise(set, out, err, seed, start, !restarts.isEmpty());
            }
        } finally {
            for (ForceField ff : forceFields) {
                ff.close();
            }
        }
    }

    /** --minimize: FIRE with molten minimize's defaults on the start (changed in place); a step limit is said, not fatal. */
    private void minimizeStart(Atoms start, PrintWriter out, PrintWriter err) throws IOException {
        FireMinimizer.Options o = FireMinimizer.Options.DEFAULTS;
        try (ForceField ff = dynamics.forceField.create(start.copy(), execution.device, dynamics.modelFile, err)) {
            FireMinimizer.Result m = FireMinimizer.minimize(start, ff, o);
            out.printf(Locale.ROOT, "molten run: minimised the start in %d FIRE steps: Epot %.6f eV, largest force %.4g eV/Å%n",
                    m.steps(), m.energyEv(), m.maxForceEvPerA());
            if (!m.converged()) {
                err.printf(Locale.ROOT, "molten run: warning: the minimisation stopped after %d steps with a force of %.4g eV/Å "
                        + "(above %s); the run starts from there%n", m.steps(), m.maxForceEvPerA(), o.fmaxEvPerA());
            }
            out.flush();
            err.flush();
        }
    }

    /** Says what the constraints hold and the masses, once, before the run (the energy log's '#' line repeats the dof). */
    private void describeConstraints(Simulation sim, PrintWriter out) {
        org.molten.core.dynamics.ConstraintSet c = sim.constraintSet();
        if (!c.isEmpty()) {
            out.printf(Locale.ROOT, "molten run: constraints %s: %d pairs and %d rigid waters, lengths from the start "
                            + "structure%s, tolerance %s; %d degrees of freedom%n", c.rule(), c.pairCount(), c.waterCount(),
                    dynamics.minimize ? " after --minimize" : "", c.tolerance(), sim.degreesOfFreedom());
        }
        if (dynamics.hydrogenMassAmu != null) {
            out.printf(Locale.ROOT, "molten run: hydrogen mass %s amu, taken from the bonded heavy atoms (waters unchanged)%n",
                    dynamics.hydrogenMassAmu);
        }
        out.flush();
    }

    /** Options checked and combined: coupling constants chosen, values in range, the constraint rule. */
    private record Settings(double frictionPerFs, double tauFs, Constraints constraints) {
    }

    private Settings validatedSettings() {
        Checks.requirePositive(dynamics.timestepFs, "--timestep (fs)");
        Checks.requireNonNegative(dynamics.temperatureK, "--temperature (K)");
        if (dynamics.steps < 1) {
            throw new IllegalArgumentException("--steps must be at least 1 (the total steps of the run, counted from step 0): "
                    + dynamics.steps);
        }
        Checks.requirePositive(output.reportInterval, "--report-interval (steps)");
        Checks.requirePositive(output.checkpointInterval, "--checkpoint-interval (steps)");
        Checks.requirePositive(execution.replicas, "--replicas");
        if (dynamics.minimize && execution.restart != null) {
            throw new IllegalArgumentException("--minimize relaxes the start of a new run; a --restart continues from its "
                    + "checkpoint's positions");
        }
        IntegratorChoice choice = dynamics.integrator;
        if (dynamics.frictionPerFs != null && choice.coupling != IntegratorChoice.Coupling.FRICTION) {
            throw new IllegalArgumentException("--friction applies to langevin only, not " + choice
                    + (choice.coupling == IntegratorChoice.Coupling.TAU ? "; use --tau (fs)" : ""));
        }
        if (dynamics.tauFs != null && choice.coupling != IntegratorChoice.Coupling.TAU) {
            throw new IllegalArgumentException("--tau applies to nose-hoover, bussi and berendsen, not " + choice
                    + (choice.coupling == IntegratorChoice.Coupling.FRICTION ? "; use --friction (1/fs)" : ""));
        }
        double friction = dynamics.frictionPerFs == null ? DEFAULT_FRICTION_PER_FS : dynamics.frictionPerFs;
        double tau = dynamics.tauFs == null ? DEFAULT_TAU_FS : dynamics.tauFs;
        Checks.requirePositive(friction, "--friction (1/fs)");
        Checks.requirePositive(tau, "--tau (fs)");
        if (choice != IntegratorChoice.VERLET && choice != IntegratorChoice.LANGEVIN && !(dynamics.temperatureK > 0)) {
            throw new IllegalArgumentException("--temperature must be above 0 K for " + choice);
        }
        Checks.requirePositive(execution.maxForceEvPerA, "--max-force (eV/Å)");
        Checks.requirePositive(execution.maxSpeedAPerFs, "--max-speed (Å/fs)");
        Constraints constraints;
        try {
            constraints = Constraints.named(dynamics.constraints);
            if (!constraints.isNone()) {
                constraints = constraints.withTolerance(dynamics.constraintTolerance);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--constraints: " + e.getMessage()
                    + (e.getMessage().contains("tolerance") ? " (--constraint-tolerance)" : ""), e);
        }
        if (dynamics.hydrogenMassAmu != null) {
            Checks.requirePositive(dynamics.hydrogenMassAmu, "--hydrogen-mass (amu)");
        }
        return new Settings(friction, tau, constraints);
    }

    private static Checkpoint readCheckpoint(Path file) throws IOException {
        try {
            return Checkpoint.read(file);
        } catch (IOException e) {
            throw FileErrors.describe("read checkpoint", file, e);
        }
    }

    private long chooseSeed(Checkpoint restart) {
        if (restart != null) {
            Optional<Long> recorded = restart.seed();
            if (execution.seed != null && recorded.isPresent() && !execution.seed.equals(recorded.get())) {
                throw new IllegalArgumentException("--seed " + execution.seed + " differs from the seed " + recorded.get()
                        + " of checkpoint " + execution.restart + "; leave --seed out on a restart");
            }
            // The checkpoint carries the stream's state; the seed is only recorded.
            return recorded.orElse(execution.seed == null ? 0L : execution.seed);
        }
        return execution.seed != null ? execution.seed : new SecureRandom().nextLong();
    }

    private void attachReporters(Simulation sim, Checkpoint restart, int k, int replicas) throws IOException {
        Path log = ReplicaFiles.of(output.log, k, replicas);
        Path trajectory = ReplicaFiles.of(output.trajectory, k, replicas);
        Path checkpoint = ReplicaFiles.of(output.checkpoint, k, replicas);
        if (log != null) {
            try {
                sim.addReporter(prepareOutput(log, "--log", restart)
                        ? EnergyLogReporter.appending(log, output.reportInterval)
                        : EnergyLogReporter.create(log, output.reportInterval));
            } catch (java.io.UncheckedIOException e) {
                throw FileErrors.describe("write energy log", log, e.getCause());
            }
        }
        if (trajectory != null) {
            try {
                sim.addReporter(prepareOutput(trajectory, "--trajectory", restart)
                        ? TrajectoryReporter.appending(trajectory, output.reportInterval)
                        : TrajectoryReporter.create(trajectory, output.reportInterval));
            } catch (java.io.UncheckedIOException e) {
                throw FileErrors.describe("write trajectory", trajectory, e.getCause());
            }
        }
        if (checkpoint != null) {
            sim.addReporter(new CheckpointReporter(checkpoint, output.checkpointInterval));
        }
    }

    /**
     * On a restart, rewinds an output file the checkpoint recorded and says to append to it; a
     * different existing file is refused rather than overwritten.
     */
    private boolean prepareOutput(Path file, String option, Checkpoint restart) throws IOException {
        if (restart == null) {
            return false;
        }
        Optional<OutputMark> mark = restart.outputMark(file);
        if (mark.isPresent()) {
            mark.get().rewind();
            return true;
        }
        if (Files.exists(file) && Files.size(file) > 0 && TrajectoryReporter.isCompressed(file)) {
            throw new IllegalArgumentException(option + " " + file + " is compressed and cannot be continued after a"
                    + " restart; name a new file (nothing was overwritten)");
        }
        if (Files.exists(file) && Files.size(file) > 0) {
            throw new IllegalArgumentException(option + " " + file + " exists but checkpoint " + restart.sourceName()
                    + " did not record it; name a new file or remove it (nothing was overwritten)");
        }
        return false;
    }

    private int runAndSummarise(ReplicaSet set, PrintWriter out, PrintWriter err, long seed, Atoms start,
                                boolean restarted) throws IOException {
        long first = set.stepCount();
        long total = dynamics.steps;
        int chunk = (int) Math.min(output.reportInterval, 1000);
        long t0 = System.nanoTime();
        try (ProgressBar bar = System.console() == null ? null : new ProgressBarBuilder().setTaskName("molten run")
                .setInitialMax(total).startsFrom(first, java.time.Duration.ZERO).setRenderer(new ProgressLine("steps")).build()) {
            set.step(0); // reports the initial state of a fresh run
            // On the host one step at a time, so that Ctrl-C (or SIGTERM) stops at the next step boundary; on a
            // device a report interval at a time (its steps run in graph launches, the state comes back at reports).
            int stride = set.platformName().equals("cuda") ? chunk : 1;
            while (set.stepCount() < total && !stopRequest.requested()) {
                set.step((int) Math.min(stride, total - set.stepCount()));
                afterStep.accept(set.stepCount());
                if (bar != null && (set.stepCount() % chunk == 0 || set.stepCount() == total)) {
                    bar.stepTo(set.stepCount());
                }
            }
        } catch (SimulationBlowUpException e) {
            set.close();
            for (int k = 0; k < set.size(); k++) {
                Path checkpoint = ReplicaFiles.of(output.checkpoint, k, set.size());
                if (checkpoint != null && Files.exists(checkpoint)) {
                    err.println("molten run: the last good checkpoint is " + checkpoint + " (step "
                            + Checkpoint.read(checkpoint).step() + ")");
                }
            }
            throw e;
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        if (set.stepCount() < total) {
            if (set.size() == 1) {
                return new InterruptedRun(set.replica(0), output.checkpoint, output.log, output.trajectory,
                        output.reportInterval).finish(stopRequest.cause(), total, spec, err);
            }
            Path base = output.checkpoint != null ? output.checkpoint
                    : InterruptedRun.defaultCheckpoint(output.trajectory != null ? output.trajectory : output.log);
            for (int k = 0; k < set.size(); k++) {
                Simulation sim = set.replica(k);
                sim.flushReporters();
                sim.checkpoint().writeAtomically(ReplicaFiles.of(base, k, set.size()));
            }
            set.close();
            err.println(String.format(Locale.ROOT, "molten run: stopped by %s at step %d of %d; logs and trajectories of the "
                    + "%d replicas end at step %d; checkpoints %s at step %d; continue with: %s", stopRequest.cause(),
                    set.stepCount(), total, set.size(), set.stepCount() - set.stepCount() % output.reportInterval,
                    ReplicaFiles.of(base, 0, set.size()) + " ... " + ReplicaFiles.of(base, set.size() - 1, set.size()),
                    set.stepCount(), InterruptedRun.restartCommand(spec, base)));
            err.flush();
            return StopRequest.EXIT_STATUS;
        }
        for (int k = 0; k < set.size(); k++) {
            Path checkpoint = ReplicaFiles.of(output.checkpoint, k, set.size());
            if (checkpoint != null) {
                set.replica(k).checkpoint().writeAtomically(checkpoint); // the final state, whatever the interval
            }
        }
        set.close();
        long ran = set.stepCount() - first;
        for (int k = 0; k < set.size(); k++) {
            Simulation sim = set.replica(k);
            String platform = sim.forceField().name().endsWith("/cuda") ? "cuda forces" : sim.platformName();
            out.println(String.format(Locale.ROOT,
                    "molten run: %s%d steps (%s) to step %d, t = %.1f fs | %s, %d atoms | %s | %s | %s"
                            + " | Etot %.6f eV, T %.1f K | seed %d | %.0f steps/s",
                    set.size() > 1 ? "replica " + k + ": " : "",
                    ran, restarted ? "restarted at step " + first : "fresh start", sim.stepCount(), sim.timeFs(),
                    start.formula(), start.size(), sim.integrator().name(), sim.forceField().name(), platform,
                    sim.totalEnergyEv(), sim.temperatureK(), seed + k, seconds > 0 ? ran / seconds : 0.0));
        }
        if (set.size() > 1) {
            out.println(String.format(Locale.ROOT, "molten run: %d replicas on %s, %.0f replica-steps/s", set.size(),
                    set.platformName(), seconds > 0 ? set.size() * ran / seconds : 0.0));
        }
        out.flush();
        return 0;
    }
}
