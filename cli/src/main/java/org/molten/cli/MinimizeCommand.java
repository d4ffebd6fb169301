package org.molten.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.ForceField;
import org.molten.integrators.FireMinimizer;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;
import org.molten.validation.DeviceChoice;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten minimize}: relaxes the positions of a structure to a local minimum of the force field with
 * FIRE ({@link FireMinimizer}, ASE's rules and defaults) and writes the relaxed structure, with its energy and
 * forces, for {@code molten run --structure}. What to do before dynamics from a built or edited structure.
 * Exit status 0 when the largest force fell below --fmax, 3 when --max-steps ended it first, 130 when
 * interrupted; the structure reached is written in every case.
 */
@Command(name = "minimize", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Relax a structure to a local energy minimum with FIRE (units: Å, eV, eV/Å).",
                "Example: molten minimize --structure built.xyz --fmax 0.01 --out relaxed.xyz"},
        footer = {"", "Exit status: 0 converged, 3 not converged within --max-steps, 130 interrupted; the structure "
                + "reached is written in every case."})
public final class MinimizeCommand implements Callable<Integer> {
    /** Exit status when --max-steps ended the minimisation before it converged. */
    static final int NOT_CONVERGED = 3;

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "System (one of)%n")
    RunCommand.SystemSource source;

    @Option(names = "--out", paramLabel = "FILE", required = true,
            description = "The relaxed structure: extended XYZ (with the energy in eV and forces in eV/Å), XYZ or PDB, "
                    + "by its extension.")
    Path out;

    @Option(names = "--fmax", paramLabel = "<eV/Å>", defaultValue = "0.05",
            description = "Converged when the largest force on any atom is below this, eV/Å (default: ${DEFAULT-VALUE}, "
                    + "ASE's).")
    double fmaxEvPerA = 0.05;

    @Option(names = "--max-steps", paramLabel = "N", defaultValue = "1000",
            description = "At most this many FIRE steps, one force evaluation each (default: ${DEFAULT-VALUE}).")
    int maxSteps = 1000;

    @Option(names = "--max-step", paramLabel = "<Å>", defaultValue = "0.2",
            description = "Largest displacement of one step, Å, the norm over all atoms (default: ${DEFAULT-VALUE}, ASE's).")
    double maxStepA = 0.2;

    @Option(names = "--log", paramLabel = "FILE",
            description = "Log, CSV: step,Epot[eV],Fmax[eV/A], one row per step.")
    Path log;

    @Option(names = "--force-field", paramLabel = "NAME", defaultValue = "student",
            converter = ForceFieldChoice.Converter.class, completionCandidates = ForceFieldChoice.Names.class,
            description = "Force field: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, the bundled GFN2-xTB "
                    + "distilled model).")
    ForceFieldChoice forceField = ForceFieldChoice.STUDENT;

    @Option(names = "--model", paramLabel = "FILE", description = "Student weights: a bundled version by name (student-gfn2-v5 or "
            + "v5) or a safetensors file (default: the bundled default version).")
    Path modelFile;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto",
            converter = DeviceChoiceConverter.class, completionCandidates = DeviceChoiceConverter.Names.class,
            description = "Device for the student's forces: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    DeviceChoice device = DeviceChoice.AUTO;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Stops between steps; null: SIGINT and SIGTERM do (tests substitute a manual one). */
    StopRequest stopRequest;

    /** Called with the step after each one (tests use it to request a stop mid-run). */
    java.util.function.IntConsumer afterStep = step -> { };

    /** Thrown by the observer to leave the minimisation at a stop request. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter o = spec.commandLine().getOut();
        Checks.requirePositive(fmaxEvPerA, "--fmax (eV/Å)");
        Checks.requirePositive(maxStepA, "--max-step (Å)");
        if (maxSteps < 0) {
            throw new IllegalArgumentException("--max-steps must not be negative: " + maxSteps);
        }
        FireMinimizer.Options options = new FireMinimizer.Options(fmaxEvPerA, maxSteps, FireMinimizer.Options.DEFAULTS.dt(),
                FireMinimizer.Options.DEFAULTS.dtMax(), maxStepA);
        Atoms atoms = source.load();
        DomainWarning.check("molten minimize", source, atoms, forceField, modelFile, err);
        // the start goes to --out first, so that an output that cannot be written is refused before any work;
        // the structure reached replaces it
        writeStructure(Frame.of(atoms));
        try (StopRequest stop = stopRequest != null ? stopRequest : StopRequest.onSignals(System.err);
             ForceField ff = forceField.create(atoms.copy(), device, modelFile, err);
             PrintWriter logWriter = log == null ? null : openLog(log)) {
            return relax(atoms, ff, options, logWriter, stop, o);
        }
    }

    /** One evaluated step: its positions (Å), energy (eV), largest force (eV/Å) and forces (eV/Å). */
    private record Step(int step, double energyEv, double maxForceEvPerA, double[] positions, double[] forces) {
    }

    /**
     * Minimises {@code atoms} on {@code ff} and writes --out: the structure reached, or, when the minimisation
     * fails (a non-finite energy or force, the log cannot be written), the last step whose energy and forces were
     * finite, before the failure is reported.
     *
     * @return the exit status: 0 converged, {@link #NOT_CONVERGED}, or 130 when {@code stop} was requested
     */
    int relax(Atoms atoms, ForceField ff, FireMinimizer.Options options, PrintWriter logWriter, StopRequest stop,
              PrintWriter o) throws IOException {
        Step[] last = {null};
        FireMinimizer.Result res;
        boolean interrupted = false;
        try {
            res = FireMinimizer.minimize(atoms, ff, options, (step, e, fmax, a, f) -> {
                last[0] = new Step(step, e, fmax, a.positions().clone(), f.clone());
                if (logWriter != null) {
                    logWriter.printf(Locale.ROOT, "%d,%.10f,%.6e%n", step, e, fmax);
                    if (logWriter.checkError()) {
                        throw new UncheckedIOException(FileErrors.describe("write log", log, new IOException("write failed")));
                    }
                }
                afterStep.accept(step);
                if (stop.requested()) {
                    throw new Stopped();
                }
            });
        } catch (Stopped s) {
            interrupted = true;
            Step l = last[0];
            res = new FireMinimizer.Result(false, l.step(), l.energyEv(), l.maxForceEvPerA(), l.forces());
        } catch (IllegalStateException | UncheckedIOException e) {
            String why = e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage();
            Step l = last[0];
            if (l == null) {
                throw new IllegalStateException(why + "; " + out + " holds the starting structure", e);
            }
            System.arraycopy(l.positions(), 0, atoms.positions(), 0, l.positions().length);
            writeStructure(Frame.of(atoms, l.energyEv(), l.forces()));
            throw new IllegalStateException(why + "; wrote step " + l.step() + "'s structure to " + out, e);
        }
        writeStructure(Frame.of(atoms, res.energyEv(), res.forcesEvPerA()));
        String what = interrupted ? "interrupted at step " + res.steps()
                : res.converged() ? "converged in " + res.steps() + " steps"
                : "not converged within --max-steps " + options.maxSteps();
        o.printf(Locale.ROOT, "molten minimize: %s (%s, %d atoms): Epot %.6f eV, largest force %.4g eV/Å (--fmax %s); "
                + "wrote %s%n", what, ff.name(), atoms.size(), res.energyEv(), res.maxForceEvPerA(),
                options.fmaxEvPerA(), out);
        o.flush();
        return interrupted ? StopRequest.EXIT_STATUS : res.converged() ? 0 : NOT_CONVERGED;
    }

    private static PrintWriter openLog(Path log) throws IOException {
        try {
            PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
            w.println("step,Epot[eV],Fmax[eV/A]");
            return w;
        } catch (IOException e) {
            throw FileErrors.describe("write log", log, e);
        }
    }

    private void writeStructure(Frame frame) throws IOException {
        try {
            StructureFiles.write(out, frame);
        } catch (IOException e) {
            throw FileErrors.describe("write structure file", out, e);
        }
    }
}
