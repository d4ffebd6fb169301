package org.molten.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.ThermostatKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.CriterionResult;
import org.molten.validation.reports.SystemReport;
import org.molten.validation.reports.Thresholds;
import org.molten.validation.reports.ValidationReport;
import org.molten.validation.runs.BundledModels;
import org.molten.validation.runs.ModelProvider;
import org.molten.validation.runs.SystemCatalog;
import org.molten.validation.runs.TerminalProgress;
import org.molten.validation.runs.ValidationRunner;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten validate}: MD stability of the student model and agreement of the optimised path
 * with the baseline, as report.json, report.md and PNG plots. Exit status 0 when every criterion
 * passes, 3 when any fails, 1 for bad input (MoltenCli), 2 for a usage error (picocli).
 */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Validate MD with the student force field: for each system, Langevin equilibration, then NVE "
                + "(Velocity Verlet) and NVT runs with the optimised student and with a baseline model from the same state; "
                + "energy drift, temperature statistics, structural integrity, speed, and force agreement with the baseline.",
                "Every system runs as independent replicas spread over the cores; the teacher (GFN2-xTB through libxtb) "
                + "evaluates frames of the student's own trajectories; --baseline teacher also runs the teacher's MD and "
                + "compares structural distributions.",
                "Writes report.json, report.md and PNG plots to --out. Exit status: 0 all criteria pass, "
                + ValidateCommand.EXIT_FAILED + " a criterion failed, " + ValidateCommand.EXIT_INCOMPLETE + " none failed but "
                + "some could not be evaluated (e.g. libxtb missing), 1 bad input, 2 usage error.",
                "Definitions of every metric and threshold: docs/validation.md."})
public final class ValidateCommand implements Callable<Integer> {
    /** Exit status when the validation ran and a criterion failed. */
    public static final int EXIT_FAILED = 3;
    /** Exit status when nothing failed but a criterion could not be evaluated (the teacher is missing, say). */
    public static final int EXIT_INCOMPLETE = 4;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @ArgGroup(validate = false, heading = "%nProtocol%n", order = 1)
    ProtocolOptions protocol = new ProtocolOptions();

    @ArgGroup(validate = false, heading = "%nModels%n", order = 2)
    ModelOptions models = new ModelOptions();

    @ArgGroup(validate = false, heading = "%nPass/fail thresholds%n", order = 3)
    ThresholdOptions thresholds = new ThresholdOptions();

    @Option(names = "--export-hard-frames", paramLabel = "FILE", order = 41, description = "Write the frames of the "
            + "student's runs with the largest force error against the teacher, labelled with the teacher's energy (eV) and "
            + "forces (eV/Å), as extended XYZ (ASE reads it; the training recipe takes it as extra data; .gz compresses).")
    Path hardFrames;

    @Option(names = "--hard-frames", paramLabel = "N", order = 42, description = "Frames per system for --export-hard-frames "
            + "(default: 20).")
    int hardFramesPerSystem = 20;

    @Option(names = "--out", paramLabel = "DIR", order = 40,
            description = "Directory for report.json, report.md, plots and energy logs (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("validation-report");

    /** Where the models come from; null for {@link BundledModels} per the options; tests substitute their own. */
    ModelProvider modelProvider;

    /** Stops the validation at its next progress update; null: SIGINT and SIGTERM do (tests substitute their own). */
    StopRequest stopRequest;

    static final class ProtocolOptions {
        @Option(names = "--systems", paramLabel = "LIST", split = ",", order = 1,
                description = "Comma-separated systems: water, ethanol, benzene, alanine-dipeptide, ace-ala5-nme, water-box "
                        + "(64 waters, periodic). Default: water,ethanol,benzene,alanine-dipeptide.")
        List<String> systems;

        @Option(names = "--full", order = 2, description = "Long protocol: "
                + ValidationSettings.FULL_EQUILIBRATION_STEPS + " equilibration steps, " + ValidationSettings.FULL_PRODUCTION_STEPS
                + " NVE and " + ValidationSettings.FULL_PRODUCTION_STEPS + " NVT steps per model (10 ps each at 0.5 fs).")
        boolean full;

        @Option(names = "--steps", paramLabel = "N", order = 3, description = "Production steps of every NVE and every NVT run "
                + "(default " + ValidationSettings.QUICK_NVE_STEPS + " NVE and " + ValidationSettings.QUICK_NVT_STEPS + " NVT, "
                + ValidationSettings.FULL_PRODUCTION_STEPS + " each with --full).")
        Long steps;

        @Option(names = "--equilibration-steps", paramLabel = "N", order = 4, description = "Langevin equilibration steps "
                + "(default " + ValidationSettings.QUICK_EQUILIBRATION_STEPS + ", " + ValidationSettings.FULL_EQUILIBRATION_STEPS
                + " with --full).")
        Long equilibrationSteps;

        @Option(names = "--timestep", paramLabel = "<fs>", order = 5, description = "MD timestep in fs (default: ${DEFAULT-VALUE}).")
        double timestepFs = ValidationSettings.DEFAULT_TIMESTEP_FS;

        @Option(names = "--constraints", paramLabel = "RULE", order = 5,
                description = "Bond lengths held fixed in every run, the teacher's own MD included: none, h-bonds or "
                        + "all-bonds (waters rigid with either); the degrees of freedom and the temperature criteria count "
                        + "them (default: none).")
        String constraints = "none";

        @Option(names = "--hydrogen-mass", paramLabel = "<amu>", order = 5,
                description = "Hydrogen mass repartitioning in amu for every run, the teacher's too (default: standard masses).")
        Double hydrogenMassAmu;

        @Option(names = "--temperature", paramLabel = "<K>", order = 6,
                description = "Target temperature in K of the velocities, equilibration and NVT (default: ${DEFAULT-VALUE}).")
        double temperatureK = ValidationSettings.DEFAULT_TEMPERATURE_K;

        @Option(names = "--thermostat", paramLabel = "NAME", order = 7,
                description = "NVT thermostat: langevin, bussi, nose-hoover or berendsen (default: ${DEFAULT-VALUE}).")
        String thermostat = ValidationSettings.DEFAULT_THERMOSTAT.id();

        @Option(names = "--thermostat-time", paramLabel = "<fs>", order = 8, description = "Thermostat coupling time in fs: "
                + "1/friction for Langevin, tau for Bussi, Nose-Hoover and Berendsen (default: ${DEFAULT-VALUE}).")
        double thermostatTimeFs = ValidationSettings.DEFAULT_THERMOSTAT_TIME_CONSTANT_FS;

        @Option(names = "--sample-interval", paramLabel = "STEPS", order = 9,
                description = "Steps between recorded samples (default: ${DEFAULT-VALUE}).")
        int sampleInterval = ValidationSettings.DEFAULT_SAMPLE_INTERVAL_STEPS;

        @Option(names = "--seed", paramLabel = "N", order = 10,
                description = "Seed of replica 0's velocities and thermostat noise (replica k uses seed + k); the same seed "
                        + "repeats a run exactly (default: ${DEFAULT-VALUE}).")
        long seed = ValidationSettings.DEFAULT_SEED;

        @Option(names = "--replicas", paramLabel = "N", order = 11, description = "Independent starts per system, run on all "
                + "cores (default: " + ValidationSettings.DEFAULT_REPLICAS + ").")
        Integer replicas;

        @Option(names = "--structure", paramLabel = "FILE", arity = "1..*", order = 12, description = "Your own structures "
                + "(XYZ, extended XYZ, PDB; the first frame; Å) to validate next to --systems; each is named by its file name. "
                + "With --structure and no --systems only the files are validated.")
        List<Path> structures;

        @Option(names = "--teacher-frames", paramLabel = "N", order = 13, description = "Frames of every production run "
                + "evaluated by the teacher (default: " + ValidationSettings.DEFAULT_TEACHER_FRAMES_PER_RUN + "; 0 switches the "
                + "teacher checks off, which the report counts as skipped).")
        Integer teacherFrames;

        @Option(names = "--threads", paramLabel = "N", order = 14, description = "Replicas run at once (default: the cores).")
        Integer threads;
    }

    static final class ModelOptions {
        @Option(names = "--device", paramLabel = "DEVICE", order = 20, converter = DeviceChoiceConverter.class,
                completionCandidates = DeviceChoiceConverter.Names.class, description = "Where the optimised student runs: "
                + "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: the GPU if a CUDA device works, else the CPU; cuda without a "
                + "usable GPU falls back to cpu with a warning in the report, which names the device used).")
        DeviceChoice device = DeviceChoice.AUTO;

        /**
         * The device the report records: auto resolves here, to cpu where no CUDA device works, so
         * that the default report of a machine without a GPU is the CPU report, the same everywhere.
         */
        DeviceChoice resolvedDevice() {
            if (device != DeviceChoice.AUTO) {
                return device;
            }
            return org.molten.forcefield.cuda.GpuAvailability.available() ? DeviceChoice.CUDA : DeviceChoice.CPU;
        }

        @Option(names = "--precision", paramLabel = "P", order = 22, description = "Arithmetic of the optimised student: "
                + "float64 or float32 (default: ${DEFAULT-VALUE}); the NVE drift limit follows it.")
        String precision = "float64";

        @Option(names = "--weights", paramLabel = "FILE", order = 23, description = "Student weights to validate "
                + "instead of the bundled default: a bundled version by name (v5) or a safetensors file; the reference baseline "
                + "then uses the same weights.")
        Path weights;

        @Option(names = "--baseline", paramLabel = "NAME", order = 21, description = "Baseline (default: ${DEFAULT-VALUE}): "
                + "torchscript (the TorchScript export run by libtorch) or reference (the plain Java float64 student), which "
                + "check that the optimised code computes the same forces; or teacher (GFN2-xTB MD from the same states, its "
                + "bond, angle, dihedral and O-O distributions compared with the student's; slow: ~1-60 ms per step).")
        String baseline = ValidationSettings.DEFAULT_BASELINE.id();

        @Option(names = "--torchscript", paramLabel = "FILE", order = 24, description = "Your TorchScript export (.pt) as the "
                + "torchscript baseline, for weights given with --weights.")
        Path torchscript;

        ModelProvider provider() {
            OptimisedStudent.Precision p = switch (precision.trim().toLowerCase(Locale.ROOT)) {
                case "float64" -> OptimisedStudent.Precision.FLOAT64;
                case "float32" -> OptimisedStudent.Precision.FLOAT32;
                default -> throw new IllegalArgumentException("unknown precision '" + precision + "'; choose float64 or float32");
            };
            BundledModels m = weights == null ? BundledModels.bundled(p) : BundledModels.fromFile(weights, p);
            return torchscript == null ? m : m.withTorchScript(torchscript);
        }
    }

    static final class ThresholdOptions {
        @Option(names = "--max-drift", paramLabel = "<meV/atom/ps>", order = 30,
                description = "Largest |NVE total-energy drift| in meV/atom/ps for a float64 model (default: ${DEFAULT-VALUE}).")
        double maxDrift = Thresholds.DEFAULT_MAX_DRIFT_MEV_PER_ATOM_PER_PS;

        @Option(names = "--max-drift-float32", paramLabel = "<meV/atom/ps>", order = 31,
                description = "Largest |NVE drift| in meV/atom/ps for a float32 model (default: ${DEFAULT-VALUE}).")
        double maxDriftFloat32 = Thresholds.DEFAULT_MAX_DRIFT_FLOAT32_MEV_PER_ATOM_PER_PS;

        @Option(names = "--max-drift-ratio", paramLabel = "RATIO", order = 32, description = "|drift x run length| / sigma(kinetic "
                + "energy), both in meV/atom, must stay below this pure number (default: ${DEFAULT-VALUE}).")
        double maxDriftRatio = Thresholds.DEFAULT_MAX_DRIFT_TO_KINETIC_SIGMA_RATIO;

        @Option(names = "--max-temperature-sigmas", paramLabel = "SIGMAS", order = 33, description = "NVT mean temperature within this "
                + "many block-averaged standard errors of the target (default: ${DEFAULT-VALUE}).")
        double maxTemperatureSigmas = Thresholds.DEFAULT_MAX_TEMPERATURE_DEVIATION_SIGMAS;

        @Option(names = "--max-fluctuation-sigmas", paramLabel = "SIGMAS", order = 34, description = "NVT temperature fluctuation within "
                + "this many standard errors of T*sqrt(2/dof) (canonical thermostats only; default: ${DEFAULT-VALUE}).")
        double maxFluctuationSigmas = Thresholds.DEFAULT_MAX_FLUCTUATION_DEVIATION_SIGMAS;

        @Option(names = "--max-bond-stretch", paramLabel = "RATIO", order = 35,
                description = "No bond longer than this multiple of its starting length (default: ${DEFAULT-VALUE}).")
        double maxBondStretch = org.molten.validation.metrics.StructuralIntegrity.DEFAULT_MAX_STRETCH_RATIO;

        @Option(names = "--escape-margin", paramLabel = "<Å>", order = 36, description = "Isolated molecules: no atom farther "
                + "from the centre of mass than its starting extent plus this many Å (default: ${DEFAULT-VALUE}).")
        double escapeMarginA = org.molten.validation.metrics.StructuralIntegrity.DEFAULT_ESCAPE_MARGIN_A;

        @Option(names = "--overlap-limit", paramLabel = "<Å>", order = 37,
                description = "No two atoms closer than this many Å (default: ${DEFAULT-VALUE}).")
        double overlapLimitA = org.molten.validation.metrics.StructuralIntegrity.DEFAULT_OVERLAP_LIMIT_A;

        @Option(names = "--max-force-rmse", paramLabel = "<eV/Å>", order = 38, description = "Largest RMSE in eV/Å of the optimised "
                + "model's forces against the baseline's on the same frames (default: ${DEFAULT-VALUE}).")
        double maxForceRmse = Thresholds.DEFAULT_MAX_FORCE_RMSE_EV_PER_A;

        @Option(names = "--max-teacher-force-mae", paramLabel = "<eV/Å>", order = 39, description = "Largest force MAE in "
                + "eV/Å of the student against the teacher on frames of the student's own runs (default: ${DEFAULT-VALUE}).")
        double maxTeacherForceMae = Thresholds.DEFAULT_MAX_TEACHER_FORCE_MAE_EV_PER_A;

        @Option(names = "--min-stable-fraction", paramLabel = "FRACTION", order = 40, description = "Smallest fraction (0 to 1) "
                + "of replicas that must complete with the structure intact (default: ${DEFAULT-VALUE}).")
        double minStableFraction = Thresholds.DEFAULT_MIN_STABLE_FRACTION;

        @Option(names = "--max-observable-divergence", paramLabel = "<bits>", order = 41, description = "With --baseline teacher: "
                + "largest Jensen-Shannon divergence (bits, 0 to 1) of every structural distribution of the student's MD from "
                + "the teacher's (default: per kind, bonds and angles 0.1, backbone dihedrals 0.5, O-O 0.03).")
        double maxObservableDivergence = Thresholds.DEFAULT_MAX_OBSERVABLE_DIVERGENCE;

        Thresholds toThresholds() {
            return new Thresholds(maxDrift, maxDriftFloat32, maxDriftRatio, maxTemperatureSigmas, maxFluctuationSigmas,
                    maxBondStretch, escapeMarginA, overlapLimitA, maxForceRmse, maxTeacherForceMae, minStableFraction,
                    maxObservableDivergence);
        }
    }

    /** The settings the options describe. */
    ValidationSettings settings() {
        ValidationSettings base = protocol.full ? ValidationSettings.fullProtocol() : ValidationSettings.quickProtocol();
        List<Path> structures = protocol.structures == null ? List.of() : List.copyOf(protocol.structures);
        for (Path p : structures) {
            if (!java.nio.file.Files.isRegularFile(p)) {
                throw new IllegalArgumentException("--structure " + p + ": " + (java.nio.file.Files.isDirectory(p)
                        ? "is a directory, not a structure file" : "no such file"));
            }
        }
        List<String> systems = protocol.systems == null ? (structures.isEmpty() ? base.systems() : List.of())
                : protocol.systems.stream().map(String::trim).filter(s -> !s.isEmpty()).map(SystemCatalog::canonicalName).toList();
        long nve = protocol.steps != null ? protocol.steps : base.nveSteps();
        long nvt = protocol.steps != null ? protocol.steps : base.nvtSteps();
        long eq = protocol.equilibrationSteps != null ? protocol.equilibrationSteps : base.equilibrationSteps();
        return new ValidationSettings(systems, protocol.temperatureK, protocol.timestepFs, eq, nve, nvt,
                protocol.sampleInterval, ThermostatKind.parse(protocol.thermostat), protocol.thermostatTimeFs,
                models.resolvedDevice(), BaselineKind.parse(models.baseline), protocol.seed, protocol.full,
                protocol.replicas != null ? protocol.replicas : base.replicas(),
                protocol.teacherFrames != null ? protocol.teacherFrames : base.teacherFramesPerRun(), structures)
                .withConstraints(constraintsOption(protocol.constraints),
                        protocol.hydrogenMassAmu == null ? Double.NaN : hydrogenMassOption(protocol.hydrogenMassAmu));
    }

    private static String constraintsOption(String rule) {
        try {
            return org.molten.integrators.constraints.Constraints.named(rule).rule().id();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--constraints: " + e.getMessage(), e);
        }
    }

    private static double hydrogenMassOption(double amu) {
        if (!(amu > 0) || Double.isInfinite(amu)) {
            throw new IllegalArgumentException("--hydrogen-mass must be positive and finite, amu: " + amu);
        }
        return amu;
    }

    @Override
    public Integer call() throws Exception {
        if (java.nio.file.Files.exists(out) && !java.nio.file.Files.isDirectory(out)) {
            // checked before hours of MD, not when the first report is written
            throw new java.io.IOException("cannot write the report to --out '" + out + "': it is a file, not a directory");
        }
        ValidationSettings settings = settings();
        Thresholds limits = thresholds.toThresholds();
        String version = MoltenCli.class.getAnnotation(Command.class).version()[0];
        // The arguments as typed after "molten" (the root's parse result holds them all).
        String commandLine = String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
        ValidationRunner runner = new ValidationRunner(settings, limits, modelProvider != null ? modelProvider : models.provider(),
                out, version, commandLine);
        if (protocol.threads != null) {
            runner.threads(protocol.threads);
        }
        if (hardFrames != null) {
            runner.exportHardFrames(hardFrames, hardFramesPerSystem);
        }
        ValidationReport report;
        StoppableProgress progress = null;
        try (StopRequest stop = stopRequest != null ? stopRequest : StopRequest.onSignals(System.err);
             StoppableProgress p = new StoppableProgress(TerminalProgress.create(runner.totalSteps()), stop)) {
            progress = p;
            report = runner.run(p);
        } catch (StopRequest.Stopped e) {
            ValidationReport partial = e.partialReport();
            if (partial == null) {
                spec.commandLine().getErr().println("molten validate: " + e.getMessage() + " during " + progress.phase()
                        + "; the energy logs written so far are in " + out + " (flushed); no report was written, the"
                        + " validation did not finish");
            } else {
                int replicas = settings.replicas() * settings.systemCount();
                int finished = partial.systems().stream().mapToInt(s -> s.replicas().size()).sum();
                spec.commandLine().getErr().println("molten validate: " + e.getMessage() + " during " + progress.phase()
                        + "; partial report (verdict " + partial.summary().verdict() + ", " + finished + " of " + replicas
                        + " replicas finished) in " + out.resolve(ValidationRunner.MARKDOWN_REPORT) + "; energy logs flushed");
            }
            spec.commandLine().getErr().flush();
            return StopRequest.EXIT_STATUS;
        }
        printSummary(report);
        return switch (report.summary().verdict()) {
            case "PASS" -> 0;
            case "INCOMPLETE" -> EXIT_INCOMPLETE;
            default -> EXIT_FAILED;
        };
    }

    private void printSummary(ValidationReport r) {
        var o = spec.commandLine().getOut();
        for (SystemReport s : r.systems()) {
            long failed = s.criteria().stream().filter(c -> !c.passed()).count();
            long skipped = s.criteria().stream().filter(CriterionResult::skipped).count();
            failed -= skipped;
            o.printf(Locale.ROOT, "%-18s %3d atoms  %s  (%d criteria, %d failed%s)%n", s.name(), s.atoms(),
                    failed > 0 ? "FAIL" : skipped > 0 ? "INCOMPLETE" : "PASS", s.criteria().size(), failed,
                    skipped > 0 ? ", " + skipped + " skipped" : "");
            for (CriterionResult c : s.criteria()) {
                if (!c.passed()) {
                    o.printf(Locale.ROOT, "    %s / %s: %s%n", c.run(), c.criterion().id(), c.detail());
                }
            }
        }
        for (String w : r.warnings()) {
            o.println("warning: " + w);
        }
        DomainWarning.print(r, o);
        // prefixed with the command, so that it cannot be taken for a test framework's or a build's verdict
        o.printf(Locale.ROOT, "molten validate: %s, %d of %d criteria passed%s in %.1f s; report in %s%n",
                r.summary().verdict(),
                r.summary().criteria() - r.summary().failed() - r.summary().skipped(), r.summary().criteria(),
                r.summary().skipped() > 0 ? " (" + r.summary().skipped() + " skipped)" : "", r.summary().wallSeconds(),
                out.resolve(ValidationRunner.MARKDOWN_REPORT));
    }
}
