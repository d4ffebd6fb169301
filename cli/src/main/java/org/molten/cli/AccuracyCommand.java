package org.molten.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.Accuracy;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.bundled.TestSet;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.forcefield.torchscript.TorchScriptForceField;
import org.molten.validation.DeviceChoice;
import org.molten.structures.io.Frame;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code molten accuracy}: energy and force errors of the student against the GFN2-xTB teacher's
 * labels on the shipped test set (per system), as a table and optionally JSON.
 */
@Command(name = "accuracy", mixinStandardHelpOptions = true,
        description = {"Accuracy of the student model against the GFN2-xTB teacher on the shipped test set "
                + "(independent 300 K GFN2-xTB MD frames, never used in training).",
                "Per system: energy MAE (meV/atom), force MAE and RMSE over all components (eV/Å)."})
public final class AccuracyCommand implements Callable<Integer> {

    /** Which implementation evaluates the model. */
    enum Backend { optimised, reference, torchscript }

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON to FILE")
    Path json;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "auto", converter = DeviceChoiceConverter.class,
            completionCandidates = DeviceChoiceConverter.Names.class,
            description = "where the optimised student runs: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}; auto: the GPU "
                    + "if a CUDA device works, else the CPU; cuda without a GPU warns once and uses the CPU); the reference "
                    + "and torchscript backends run on the CPU")
    DeviceChoice device = DeviceChoice.AUTO;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "optimised",
            description = "implementation: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}); torchscript = the "
                    + "bundled TorchScript baseline through DJL (bundled model only)")
    Backend backend;

    @Option(names = "--weights", paramLabel = "FILE", description = "a student weight file (.safetensors) instead of the bundled model")
    Path weights;

    @Option(names = "--testset", paramLabel = "DIR",
            description = "a folder of <system>.xyz.gz files with energy= (eV) and forces (eV/Å) instead of the shipped test set")
    Path testset;

    @Override
    public Integer call() throws IOException {
        Map<String, List<Frame>> data = testset == null ? TestSet.bundled() : TestSet.read(testset);
        String modelName;
        Map<String, Accuracy> result;
        try (ForceField ff = open()) {
            modelName = weights == null ? BundledModel.NAME : weights.getFileName().toString();
            result = Accuracy.evaluate(ff, data);
            print(System.out, modelName, ff.name(), result);
            if (json != null) {
                writeJson(json, modelName, ff.name(), result);
            }
        }
        return 0;
    }

    private ForceField open() throws IOException {
        if (backend != Backend.optimised && device == DeviceChoice.CUDA) {
            throw new IllegalArgumentException("--backend " + backend + " runs on the CPU only; use --backend optimised with --device cuda");
        }
        if (backend == Backend.torchscript) {
            if (weights != null) {
                throw new IllegalArgumentException("--backend torchscript evaluates the bundled baseline only; drop --weights");
            }
            return BundledModel.baseline();
        }
        StudentWeights w;
        try {
            w = weights == null ? BundledModel.weights() : StudentWeights.load(weights);
        } catch (IOException e) {
            throw weights == null ? e : FileErrors.describe("read student weights", weights, e);
        }
        return backend == Backend.reference ? new ReferenceStudent(w) : device.student(w);
    }

    static void print(PrintStream out, String model, String implementation, Map<String, Accuracy> result) {
        out.printf(Locale.ROOT, "model %s (%s) against GFN2-xTB, test set%n", model, implementation);
        out.printf(Locale.ROOT, "%-20s %7s %8s %16s %13s %14s%n", "system", "frames", "atoms", "E MAE[meV/atom]",
                "F MAE[eV/Å]", "F RMSE[eV/Å]");
        for (Accuracy a : result.values()) {
            out.printf(Locale.ROOT, "%-20s %7d %8d %16.2f %13.4f %14.4f%n", a.system(), a.frames(), a.atoms(),
                    a.energyMaeMevPerAtom(), a.forceMaeEvPerA(), a.forceRmseEvPerA());
        }
    }

    static void writeJson(Path file, String model, String implementation, Map<String, Accuracy> result) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("model", model);
        root.put("implementation", implementation);
        root.put("teacher", "GFN2-xTB (xtb 6.5.1)");
        ObjectNode systems = root.putObject("systems");
        for (Accuracy a : result.values()) {
            ObjectNode s = systems.putObject(a.system());
            s.put("frames", a.frames());
            s.put("atoms", a.atoms());
            s.put("energy_mae_mev_per_atom", a.energyMaeMevPerAtom());
            s.put("force_mae_ev_per_a", a.forceMaeEvPerA());
            s.put("force_rmse_ev_per_a", a.forceRmseEvPerA());
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        mapper.writeValue(file.toFile(), root);
    }
}
