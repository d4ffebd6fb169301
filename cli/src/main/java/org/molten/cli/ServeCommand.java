package org.molten.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.molten.cli.ipi.IpiAddress;
import org.molten.cli.ipi.IpiClient;
import org.molten.cli.ipi.IpiWire;
import org.molten.cli.ipi.VirialMode;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.validation.DeviceChoice;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code molten serve}: Molten as the force engine of an i-PI driver (i-PI or ASE's {@code SocketIOCalculator}):
 * connects to the driver's socket and answers every structure it sends with the
 * energy, forces and virial of the student (or the classical potential) until the driver sends EXIT or
 * closes the connection. The protocol is {@link IpiClient}'s.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve energies and forces to an i-PI driver (i-PI, or ASE's SocketIOCalculator from Python).",
                "The structure gives the species and their order; the driver sends positions and cell,",
                "Molten returns energy, forces and virial (Bohr and Hartree on the wire; Å and eV inside).",
                "Example: molten serve --ipi localhost:31415 --structure water.xyz"},
        footer = {"", "Exit status: 0 when the driver sent EXIT or closed the connection between steps (as ASE does); "
                + "1 when it vanished inside a step, broke the protocol, or none answered within --wait."})
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--ipi", paramLabel = "ADDRESS", required = true,
            description = "The driver's socket: HOST:PORT (TCP, e.g. localhost:31415) or unix:NAME (the UNIX socket "
                    + IpiAddress.UNIX_SOCKET_PREFIX + "NAME, as i-PI and ASE name it).")
    String ipi;

    @ArgGroup(exclusive = true, multiplicity = "1", heading = "Species and their order (one of)%n")
    RunCommand.SystemSource source;

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

    @Option(names = "--precision", paramLabel = "P", defaultValue = "float64",
            description = "Arithmetic of the CPU student: float64 or float32 (default: ${DEFAULT-VALUE}); the GPU student "
                    + "computes in float32 with float64 sums either way.")
    String precision = "float64";

    @Option(names = "--virial", paramLabel = "MODE", defaultValue = "auto",
            description = "auto: Σ r⊗F for an isolated system, strain differences of the energy for a periodic one "
                    + "(12 extra evaluations per step, for constant-pressure drivers); none: zeros (default: ${DEFAULT-VALUE}).")
    String virial = "auto";

    @Option(names = "--wait", paramLabel = "<s>", defaultValue = "30",
            description = "Seconds to keep trying to connect while the driver is not listening yet (default: ${DEFAULT-VALUE}).")
    double waitSeconds = 30;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        IpiAddress address = IpiAddress.parse(ipi);
        VirialMode virialMode = parseVirial(virial);
        OptimisedStudent.Precision p = parsePrecision(precision);
        if (!(waitSeconds >= 0)) {
            throw new IllegalArgumentException("--wait must be zero or more seconds: " + waitSeconds);
        }
        Atoms atoms = source.load();
        try (ForceField ff = createForceField(atoms, p, err);
             SocketChannel channel = address.connect(waitSeconds)) {
            out.printf(Locale.ROOT, "molten serve: %s for %s (%d atoms%s) to the i-PI driver at %s%n", ff.name(),
                    atoms.formula(), atoms.size(), atoms.cellOrNull() != null && atoms.cellOrNull().anyPeriodic()
                            ? ", periodic" : "", address.text());
            out.flush();
            IpiWire wire = IpiWire.over(channel);
            // the domain check of run and minimize, on the first structure the driver sends (its geometry, the file's species)
            IpiClient.Result r = new IpiClient(ff, atoms, virialMode).observer((k, served, e, f) -> {
                if (k == 1) {
                    DomainWarning.check("molten serve", source, served, forceField, modelFile, err);
                }
            }).serve(wire);
            out.printf(Locale.ROOT, "molten serve: %d force evaluations; %s%n", r.evaluations(),
                    r.ending() == IpiClient.Ending.EXIT ? "the driver sent EXIT"
                            : "the driver closed the connection between steps (without EXIT, as ASE's SocketIOCalculator does)");
            out.flush();
            return 0;
        }
    }

    private ForceField createForceField(Atoms atoms, OptimisedStudent.Precision p, PrintWriter err) throws IOException {
        if (p == OptimisedStudent.Precision.FLOAT64 || forceField != ForceFieldChoice.STUDENT) {
            if (p != OptimisedStudent.Precision.FLOAT64) {
                throw new IllegalArgumentException("--precision applies to the student force field, not " + forceField);
            }
            return forceField.create(atoms.copy(), device, modelFile, err);
        }
        StudentWeights weights;
        try {
            weights = BundledModel.weights(modelFile); // null: the default; a bare name: a bundled version
        } catch (IOException e) {
            throw modelFile == null ? e : FileErrors.describe("read student weights", modelFile, e);
        }
        boolean gpu = device == DeviceChoice.CUDA || device == DeviceChoice.AUTO && GpuAvailability.available();
        return gpu ? device.student(weights)
                : new OptimisedStudent(weights, OptimisedStudent.Options.defaults().withPrecision(p));
    }

    static VirialMode parseVirial(String v) {
        for (VirialMode m : VirialMode.values()) {
            if (m.toString().equalsIgnoreCase(v.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("--virial: unknown mode '" + v + "'; choose auto or none");
    }

    static OptimisedStudent.Precision parsePrecision(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "float64" -> OptimisedStudent.Precision.FLOAT64;
            case "float32" -> OptimisedStudent.Precision.FLOAT32;
            default -> throw new IllegalArgumentException("--precision: unknown precision '" + v + "'; choose float64 or float32");
        };
    }
}
