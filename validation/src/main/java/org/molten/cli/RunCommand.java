package org.molten.cli;

import org.molten.validation.DeviceChoice;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.integrators.BlowUpGuard;
import org.molten.integrators.Checkpoint;
import org.molten.integrators.Integrator;
import org.molten.integrators.MaxwellBoltzmann;
import org.molten.integrators.OutputMark;
import org.molten.integrators.Simulation;
import org.molten.integrators.SimulationBlowUpException;
import org.molten.integrators.reporters.CheckpointReporter;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.reporters.TrajectoryReporter;
import org.molten.structures.BuiltInMolecules;
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
    /** Langevin friction when --friction is not given, 1/fs (10/ps). */
    static final double DEFAULT_FRICTION_PER_FS = 0.01;
    /** Thermostat coupling time when --tau is not given, fs. */
    static final double DEFAULT_TAU_FS = 100.0;

    /** Where the system comes from: exactly one of the two. */
    static final class SystemSource {
        @Option(names = "--structure", paramLabel = "FILE", required = true,
                description = "Starting structure file: XYZ, extended XYZ (with Lattice= for a periodic cell) or PDB (CRYST1 for a cell); positions in Å.")
        Path structure;

        @Option(names = "--system", paramLabel = "NAME", required = true,
                description = "A built-in molecule: water, ethanol, benzene, alanine-dipeptide, ace-ala5-nme.")
        String system;
    }

    /** Dynamics settings. */
    static final class Dynamics {
        @Option(names = "--integrator", paramLabel = "NAME", defaultValue = "langevin",
                converter = IntegratorChoice.Converter.class, completionCandidates = IntegratorChoice.Names.class,
                description = "Integrator: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). verlet is NVE;"
                        + " berendsen is not canonical.")
        IntegratorChoice integrator = IntegratorChoice.LANGEVIN;

        @Option(names = "--timestep", paramLabel = "FS", defaultValue = DEFAULT_TIMESTEP_FS,
                description = "Timestep in fs (default: ${DEFAULT-VALUE}).")
        double timestepFs = Double.parseDouble(DEFAULT_TIMESTEP_FS);

        @Option(names = "--temperature", paramLabel = "K", defaultValue = DEFAULT_TEMPERATURE_K,
                description = "Temperature in K of the initial velocities and the thermostat (default: ${DEFAULT-VALUE}).")
        double temperatureK = Double.parseDouble(DEFAULT_TEMPERATURE_K);

        @Option(names = "--friction", paramLabel = "PER_FS",
                description = "Langevin friction in 1/fs (default: " + DEFAULT_FRICTION_PER_FS + " = 10/ps); langevin only.")
        Double frictionPerFs;

        @Option(names = "--tau", paramLabel = "FS",
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
                description = "Student weights, safetensors (default: the bundled model student-gfn2).")
        Path modelFile;
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

        @Option(names = "--max-force", paramLabel = "EV_PER_A",
                defaultValue = "" + BlowUpGuard.DEFAULT_MAX_FORCE_EV_PER_A,
                description = "Stop when any force exceeds this, in eV/Å (default: ${DEFAULT-VALUE}).")
        double maxForceEvPerA = BlowUpGuard.DEFAULT_MAX_FORCE_EV_PER_A;

        @Option(names = "--max-speed", paramLabel = "A_PER_FS",
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
        Atoms start = loadSystem();
        Checkpoint restart = execution.restart == null ? null : Checkpoint.read(execution.restart);
        long seed = chooseSeed(restart);
        Integrator integrator = dynamics.integrator.create(dynamics.timestepFs, dynamics.temperatureK, s.frictionPerFs,
                s.tauFs);
        try (ForceField ff = dynamics.forceField.create(start.copy(), execution.device, dynamics.modelFile, err)) {
            Atoms atoms = start.copy();
            RandomStream rng = new RandomStream(seed);
            int removed;
            if (restart == null) {
                boolean isolated = atoms.cell().map(c -> !c.anyPeriodic()).orElse(true);
                MaxwellBoltzmann mb = MaxwellBoltzmann.at(dynamics.temperatureK).rescaledExactly();
                if (isolated && integrator.conservesAngularMomentum() && atoms.size() > 1) {
                    mb = mb.removingRotation();
                }
                removed = mb.assign(atoms, rng);
            } else {
                restart.requireSameSystem(atoms);
                removed = 3 * atoms.size() - restart.degreesOfFreedom();
            }
            Simulation sim = Simulation.builder(atoms, ff, integrator).random(rng, seed).removedConstraints(removed)
                    .guard(BlowUpGuard.of(execution.maxForceEvPerA, execution.maxSpeedAPerFs)).build();
            if (restart != null) {
                sim.restore(restart);
                if (sim.stepCount() > dynamics.steps) {
                    throw new IllegalArgumentException("checkpoint " + execution.restart + " is at step " + sim.stepCount()
                            + ", beyond --steps " + dynamics.steps + " (--steps counts from the start of the run)");
                }
            }
            attachReporters(sim, restart);
            return runAndSummarise(sim, out, err, seed, start, restart != null);
        }
    }

    /** Options checked and combined: coupling constants chosen, values in range. */
    private record Settings(double frictionPerFs, double tauFs) {
    }

    private Settings validatedSettings() {
        Checks.requirePositive(dynamics.timestepFs, "--timestep (fs)");
        Checks.requireNonNegative(dynamics.temperatureK, "--temperature (K)");
        Checks.requireNonNegative(dynamics.steps, "--steps");
        Checks.requirePositive(output.reportInterval, "--report-interval (steps)");
        Checks.requirePositive(output.checkpointInterval, "--checkpoint-interval (steps)");
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
        return new Settings(friction, tau);
    }

    private Atoms loadSystem() throws IOException {
        if (source.system != null) {
            return BuiltInMolecules.load(source.system);
        }
        return StructureFiles.read(source.structure);
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

    private void attachReporters(Simulation sim, Checkpoint restart) throws IOException {
        if (output.log != null) {
            sim.addReporter(prepareOutput(output.log, "--log", restart)
                    ? EnergyLogReporter.appending(output.log, output.reportInterval)
                    : EnergyLogReporter.create(output.log, output.reportInterval));
        }
        if (output.trajectory != null) {
            sim.addReporter(prepareOutput(output.trajectory, "--trajectory", restart)
                    ? TrajectoryReporter.appending(output.trajectory, output.reportInterval)
                    : TrajectoryReporter.create(output.trajectory, output.reportInterval));
        }
        if (output.checkpoint != null) {
            sim.addReporter(new CheckpointReporter(output.checkpoint, output.checkpointInterval));
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
            throw new IllegalArgumentException(option + " " + file + " exists but checkpoint " + execution.restart
                    + " did not record it; name a new file or remove it (nothing was overwritten)");
        }
        return false;
    }

    private int runAndSummarise(Simulation sim, PrintWriter out, PrintWriter err, long seed, Atoms start,
                                boolean restarted) throws IOException {
        long first = sim.stepCount();
        long total = dynamics.steps;
        int chunk = (int) Math.min(output.reportInterval, 1000);
        long t0 = System.nanoTime();
        try (ProgressBar bar = System.console() == null ? null : new ProgressBarBuilder().setTaskName("molten run")
                .setInitialMax(total).startsFrom(first, java.time.Duration.ZERO).setUnit(" steps", 1).build()) {
            sim.step(0); // reports the initial state of a fresh run
            // One step at a time, so that Ctrl-C (or SIGTERM) stops at the next step boundary.
            while (sim.stepCount() < total && !stopRequest.requested()) {
                sim.step(1);
                afterStep.accept(sim.stepCount());
                if (bar != null && (sim.stepCount() % chunk == 0 || sim.stepCount() == total)) {
                    bar.stepTo(sim.stepCount());
                }
            }
        } catch (SimulationBlowUpException e) {
            sim.close();
            if (output.checkpoint != null && Files.exists(output.checkpoint)) {
                err.println("molten run: the last good checkpoint is " + output.checkpoint + " (step "
                        + Checkpoint.read(output.checkpoint).step() + ")");
            }
            throw e;
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        if (sim.stepCount() < total) {
            return new InterruptedRun(sim, output.checkpoint, output.log, output.trajectory, output.reportInterval)
                    .finish(stopRequest.cause(), total, spec, err);
        }
        if (output.checkpoint != null) {
            sim.checkpoint().writeAtomically(output.checkpoint); // the final state, whatever the interval
        }
        sim.close();
        long ran = sim.stepCount() - first;
        out.println(String.format(Locale.ROOT,
                "molten run: %d steps (%s) to step %d, t = %.1f fs | %s, %d atoms | %s | %s | %s"
                        + " | Etot %.6f eV, T %.1f K | seed %d | %.0f steps/s",
                ran, restarted ? "restarted at step " + first : "fresh start", sim.stepCount(), sim.timeFs(),
                start.formula(), start.size(), sim.integrator().name(), sim.forceField().name(),
                sim.forceField().name().endsWith("/cuda") ? "cuda" : "cpu",
                sim.totalEnergyEv(), sim.temperatureK(), seed, seconds > 0 ? ran / seconds : 0.0));
        out.flush();
        return 0;
    }
}
