package org.molten.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.domain.DomainReport;
import org.molten.forcefield.domain.ModelDomain;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.validation.stability.MoleculeStability;
import org.molten.validation.stability.ReplicaStability;
import org.molten.validation.stability.StabilityFiles;
import org.molten.validation.stability.StabilityMolecule;
import org.molten.validation.stability.StabilityMolecules;
import org.molten.validation.stability.StabilityReport;
import org.molten.validation.stability.StabilityRun;
import org.molten.validation.stability.StabilitySettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten stability}: MLIPAudit's stability protocol over the molecules of one or more structure files, all
 * molecules and replicas as one batch of replicas ({@link StabilityRun}). Exit 0 when the mean score reaches
 * {@code --min-score}, 3 when not, 2 for bad input, 130 when interrupted (the figures so far written).
 */
@Command(name = "stability", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"MLIPAudit's stability protocol over many molecules as one batch of replicas: a score per molecule "
                + "and their mean.",
                "Every molecule (each frame of the --structure files) x --replicas "
                + "runs Langevin NVT (BAOAB) for --ps ps, all as one batch of replicas on --device; the state of every "
                + "replica is checked at --frames frames. Score per replica: 1/2 f/N when it explodes at frame f (kinetic "
                + "temperature more than 10,000 K above the target or 100x the previous frame's, a non-finite state, or "
                + "the integrator's blow-up guard), 1/2 + 1/2 f/N when a hydrogen first moves more than 2.5 Å from the "
                + "heavy atom it was bonded to at the start, 1 when stable; per molecule the mean over its replicas.",
                "Writes stability.json and stability.csv to --out as the run goes (so an interrupted run keeps what it "
                + "measured) and a table on standard output. Exit status: 0 mean score >= --min-score, "
                + StabilityCommand.EXIT_FAILED + " below it, " + StabilityCommand.EXIT_BAD_INPUT + " bad input, 130 "
                + "interrupted (Ctrl-C, SIGTERM). docs/validation.md, \"MLIPAudit stability protocol\"."})
public final class StabilityCommand implements Callable<Integer> {
    /** Exit status when the mean score is below --min-score (as validate's FAIL). */
    public static final int EXIT_FAILED = 3;
    /** Exit status for bad input: an unreadable file, an element the model lacks, a value out of range. */
    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--structure", paramLabel = "FILE", required = true, arity = "1..*", order = 1,
            description = "Structure files (XYZ, extended XYZ or PDB; .gz read too; positions in Å): each frame one "
                    + "molecule, named by its name= key, else FILE#index. Repeat or list several.")
    List<Path> structures = new ArrayList<>();

    @Option(names = "--select", paramLabel = "KEY=VALUE", order = 2,
            description = "Only frames whose comment line carries KEY=VALUE (repeatable; all must match), e.g. "
                    + "--select conformer=0 for the first conformer of each molecule of organic/starts.test.xyz.gz.")
    Map<String, String> select = new LinkedHashMap<>();

    @Option(names = {"--model", "--weights"}, paramLabel = "FILE", order = 3,
            description = "Student weights: a bundled version by name (v5, preview; molten info lists them) or a "
                    + "safetensors file (default: the bundled default).")
    Path model;

    @Option(names = "--device", paramLabel = "NAME", defaultValue = "auto", order = 4,
            description = "Where the batch runs: reference (the reference student on the host), cpu (the optimised "
                    + "student, replicas on all cores), cuda (one GPU binding; the host, with a warning, when no GPU "
                    + "can be used) or auto (cuda where a GPU can run it, else cpu, silently) (default: ${DEFAULT-VALUE}).")
    String device;

    @Option(names = "--temperature", paramLabel = "<K>", defaultValue = "300", order = 5,
            description = "Temperature of the starting velocities and the thermostat, K (default: ${DEFAULT-VALUE}).")
    double temperatureK;

    @Option(names = "--ps", paramLabel = "<ps>", defaultValue = "100", order = 6,
            description = "Length of each replica's run, ps (default: ${DEFAULT-VALUE}, MLIPAudit's).")
    double lengthPs;

    @Option(names = "--timestep", paramLabel = "<fs>", defaultValue = "0.5", order = 7,
            description = "Timestep, fs (default: ${DEFAULT-VALUE}; MLIPAudit runs 1 fs in JAX-MD).")
    double timestepFs;

    @Option(names = "--friction", paramLabel = "<1/fs>", defaultValue = "0.01", order = 8,
            description = "Langevin friction, 1/fs (default: ${DEFAULT-VALUE}, Molten's; JAX-MD's Langevin default is "
                    + "0.1 per ASE time unit, about 0.0098 1/fs).")
    double frictionPerFs;

    @Option(names = "--replicas", paramLabel = "N", defaultValue = "1", order = 9,
            description = "Replicas per molecule (seeds --seed + i*N + j) (default: ${DEFAULT-VALUE}).")
    int replicas;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "20261128", order = 10,
            description = "Seed of replica 0 of molecule 0: velocities and thermostat noise (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--frames", paramLabel = "N", defaultValue = "1000", order = 11,
            description = "Frames N at which every replica is checked and scored, evenly over the run; must divide the "
                    + "steps (default: ${DEFAULT-VALUE}, MLIPAudit's: one every 100 fs over 100 ps).")
    int frames;

    @Option(names = "--hydrogen-rule", paramLabel = "RULE", defaultValue = "bonded", order = 12,
            description = "The hydrogen event scored: bonded (a hydrogen first farther than 2.5 Å from the heavy atom "
                    + "it was bonded to at the start: MLIPAudit's documentation, issue 27) or drift (farther than 2.5 Å "
                    + "from every heavy atom from some frame to the end: MLIPAudit's code) (default: ${DEFAULT-VALUE}).")
    String hydrogenRule;

    @Option(names = "--min-score", paramLabel = "S", defaultValue = "0.95", order = 13,
            description = "Mean score (0 to 1) the run must reach for exit status 0 (default: ${DEFAULT-VALUE}).")
    double minScore;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "stability-report", order = 14,
            description = "Folder for stability.json and stability.csv (default: ${DEFAULT-VALUE}).")
    Path out;

    /** Stops the run before its next frame; null: SIGINT and SIGTERM do (tests substitute their own). */
    StopRequest stopRequest;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        StabilitySettings settings;
        List<StabilityMolecule> molecules;
        StudentWeights weights;
        try {
            settings = new StabilitySettings(temperatureK, lengthPs, timestepFs, frictionPerFs, replicas, seed, frames,
                    device.trim().toLowerCase(Locale.ROOT),
                    org.molten.validation.stability.HydrogenRule.parse(hydrogenRule));
            if (!(minScore >= 0 && minScore <= 1)) {
                throw new IllegalArgumentException("--min-score must lie between 0 and 1: " + minScore);
            }
            for (Path p : structures) {
                if (!java.nio.file.Files.isRegularFile(p)) {
                    throw new IllegalArgumentException("--structure " + p + ": no such file");
                }
            }
            molecules = StabilityMolecules.read(structures, select);
            try {
                weights = BundledModel.weights(model);
            } catch (IOException e) {
                throw model == null ? e : FileErrors.describe("read student weights", model, e);
            }
            for (StabilityMolecule m : molecules) {
                try {
                    weights.speciesIndices(m.atoms());   // an element the model lacks is refused before anything runs
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(m.source() + " (" + m.name() + "): " + e.getMessage(), e);
                }
            }
            if (java.nio.file.Files.isRegularFile(out)) {
                throw new IllegalArgumentException("--out " + out + " is a file, not a folder");
            }
            org.molten.integrators.AtomicFileWrite.requireWritableFolder(out, "the output folder --out");
        } catch (IllegalArgumentException | IOException e) {
            String fileProblem = FileErrors.message(e);
            err.println("molten stability: " + (fileProblem != null ? fileProblem : e.getMessage()));
            err.flush();
            return EXIT_BAD_INPUT;
        }
        warnOutsideDomain(molecules, weights, err);
        String modelName = DomainWarning.modelName(model);
        Supplier<ForceField> forceFields = settings.platform().equals("reference")
                ? () -> new ReferenceStudent(weights) : () -> new OptimisedStudent(weights);
        // the platform asked for: a fallback is warned when the run binds one, and the summary names the one used
        long atoms = molecules.stream().mapToLong(m -> m.atoms().size()).sum() * settings.replicas();
        err.println(String.format(Locale.ROOT, "molten stability: %d molecules x %d replicas (%d atoms), --device %s, %s ps at "
                        + "%s K, %d steps of %s fs, %d frames", molecules.size(), settings.replicas(), atoms,
                settings.platform(), fmt(settings.ps()), fmt(settings.temperatureK()), settings.totalSteps(),
                fmt(settings.timestepFs()), settings.frames()));
        err.flush();
        StabilityRun run = new StabilityRun(molecules, settings, forceFields, modelName, minScore, w -> {
            err.println("molten stability: warning: " + w);
            err.flush();
        });
        int writeEvery = Math.max(1, settings.frames() / 100);
        StabilityReport report;
        try (StopRequest stop = stopRequest != null ? stopRequest : StopRequest.onSignals(System.err)) {
            report = run.run(r -> StabilityFiles.write(r, out), writeEvery, stop::requested);
        }
        printTable(report, stdout);
        stdout.flush();
        if ("interrupted".equals(report.status())) {
            err.println("molten stability: interrupted after " + report.framesDone() + " of " + settings.frames()
                    + " frames; the figures so far are in " + out.resolve(StabilityFiles.JSON));
            err.flush();
            return StopRequest.EXIT_STATUS;
        }
        return report.passed() ? 0 : EXIT_FAILED;
    }

    /** validate's domain warning, once per molecule outside the model's domain ("domain unknown" once). */
    private void warnOutsideDomain(List<StabilityMolecule> molecules, StudentWeights weights, PrintWriter err) {
        ModelDomain domain;
        try {
            domain = ModelDomain.of(weights);
        } catch (RuntimeException e) {
            return;
        }
        String name = DomainWarning.modelName(model);
        for (StabilityMolecule m : molecules) {
            DomainReport r;
            try {
                r = domain.check(m.atoms());
            } catch (RuntimeException e) {
                continue;   // coincident atoms and the like: the run's start check reports them
            }
            if (!r.known()) {
                err.println("molten stability: warning: " + DomainWarning.message(m.source(), name, r));
                break;
            }
            if (!r.inside()) {
                err.println("molten stability: warning: " + DomainWarning.message(m.name() + " (" + m.source() + ")", name, r));
            }
        }
        err.flush();
    }

    static void printTable(StabilityReport report, PrintWriter out) {
        int width = Math.max(8, report.molecules().stream().mapToInt(m -> m.name().length()).max().orElse(8));
        String row = "%-" + width + "s %6s %8s %7s  %-17s %6s %9s%n";
        out.printf(Locale.ROOT, row, "molecule", "atoms", "replicas", "score", "event", "frame", "time[ps]");
        for (MoleculeStability m : report.molecules()) {
            ReplicaStability w = m.worst();
            out.printf(Locale.ROOT, row, m.name(), m.atoms(), m.replicas().size(),
                    Double.isFinite(m.score()) ? String.format(Locale.ROOT, "%.4f", m.score()) : "-", w.event().id(),
                    w.eventFrame() < 0 ? "-" : Integer.toString(w.eventFrame()),
                    w.eventFrame() < 0 ? "-" : String.format(Locale.ROOT, "%.2f", report.timePs(w.eventFrame())));
        }
        out.println(report.summary());
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
