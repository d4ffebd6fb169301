package org.molten.validation.runs;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.cuda.CudaStudent;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.cuda.GpuStatus;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.forcefield.teacher.XtbTeacher;
import org.molten.forcefield.torchscript.TorchScriptForceField;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.reports.ModelInfo;
import org.molten.validation.reports.Precision;

/**
 * The production {@link ModelProvider}: the student weights (the bundled model,
 * {@link BundledModel}, unless a file is given), the optimised student on the chosen device, and
 * the TorchScript export of the bundled model or the reference student as the baseline.
 *
 * <p>On {@code cuda} or {@code auto} the CUDA student runs when a GPU can be used
 * ({@link GpuAvailability}); it computes in float32 whatever {@code --precision} says (that
 * option is the CPU path's), so the float32 drift limit applies to it.
 *
 * <p>Substitutions, each recorded as a warning in the report: a device without a usable GPU path
 * runs the optimised CPU student; GPU work the CUDA student handed to the CPU is counted; a TorchScript baseline that cannot be loaded, or a periodic
 * system (the scripted module has no minimum image), gets the reference student as its baseline.
 */
public final class BundledModels implements ModelProvider {
    /** A source of student weights that may fail with an I/O error. */
    @FunctionalInterface
    public interface WeightSource {
        StudentWeights load() throws IOException;
    }

    private final WeightSource weights;
    private final String source;
    private final boolean bundled;
    private final OptimisedStudent.Precision precision;
    private final java.nio.file.Path torchScript;
    private StudentWeights loaded;
    private boolean usedGpu;

    private BundledModels(WeightSource weights, String source, boolean bundled, OptimisedStudent.Precision precision,
                          java.nio.file.Path torchScript) {
        this.weights = weights;
        this.source = source;
        this.bundled = bundled;
        this.precision = precision;
        this.torchScript = torchScript;
    }

    /** The same models with the user's TorchScript export ({@code .pt}) as the torchscript baseline. */
    public BundledModels withTorchScript(java.nio.file.Path file) {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--torchscript " + file + ": no such file");
        }
        return new BundledModels(weights, source, bundled, precision, file);
    }

    /** The bundled model, optimised student in {@code precision}. */
    public static BundledModels bundled(OptimisedStudent.Precision precision) {
        return new BundledModels(BundledModel::weights, "bundled " + org.molten.forcefield.bundled.ModelRegistry.defaultVersion().name() + " ("
                + BundledModel.WEIGHTS_RESOURCE.substring(1) + ")", true, precision, null);
    }

    /**
     * Weights from {@code file}, or the bundled version a bare name means ({@code v5}, {@code student-gfn2-v5}:
     * {@link BundledModel#named}); the TorchScript baseline (the default version's export) is refused for any other.
     */
    public static BundledModels fromFile(java.nio.file.Path file, OptimisedStudent.Precision precision) {
        java.util.Optional<org.molten.forcefield.bundled.ModelRegistry.Version> v = BundledModel.named(file);
        if (v.isPresent()) {
            String name = v.get().name();
            return new BundledModels(() -> BundledModel.weights(name), "bundled " + name + " (" + v.get().resource().substring(1)
                    + ")", v.get() == org.molten.forcefield.bundled.ModelRegistry.defaultVersion(), precision, null);
        }
        return new BundledModels(() -> StudentWeights.load(file), file.toString(), false, precision, null);
    }

    private StudentWeights weights() {
        if (loaded == null) {
            try {
                loaded = weights.load();
            } catch (IOException e) {
                String problem = e.getMessage() == null ? e.toString() : e.getMessage();
                if (problem.startsWith(source + ": ")) { // the file is named once, in quotes
                    problem = problem.substring(source.length() + 2);
                }
                throw new IllegalArgumentException("cannot read the student weights '" + source + "': " + problem, e);
            }
        }
        return loaded;
    }

    @Override
    public Model optimised(DeviceChoice device, List<String> warnings) {
        return optimised(device, OptimisedStudent.Options.defaults().threads(), warnings);
    }

    @Override
    public synchronized Model optimised(DeviceChoice device, int threadsPerModel, List<String> warnings) {
        StudentWeights w = weights();
        if (device != DeviceChoice.CPU) {
            GpuAvailability.Probe probe = GpuAvailability.probe();
            String why = probe.available() ? null : probe.reason();
            if (why == null) {
                try {
                    CudaStudent ff = new CudaStudent(w);
                    usedGpu = true;
                    return new Model(new ModelInfo(ff.name(), "CUDA student (float32 model arithmetic, float64 displacements "
                            + "and energy sum, exact fused backward, CUDA graphs)", Precision.FLOAT32, "cuda: " + ff.deviceName(),
                            source, provenance(w)), ff);
                } catch (RuntimeException | LinkageError e) {
                    why = e.toString();
                }
            }
            warnings.add("device " + device.id() + ": no usable GPU (" + why + "); the optimised CPU student runs instead");
        }
        OptimisedStudent ff = new OptimisedStudent(w, OptimisedStudent.Options.defaults().withPrecision(precision)
                .withThreads(Math.max(1, threadsPerModel)));
        Precision p = precision == OptimisedStudent.Precision.FLOAT32 ? Precision.FLOAT32 : Precision.FLOAT64;
        return new Model(new ModelInfo(ff.name(), "optimised student (Java, CPU, " + ff.options().threads()
                + " threads, neighbour list with " + ff.options().skinA() + " Å skin)", p, "cpu", source, provenance(w)), ff);
    }

    @Override
    public synchronized Model baseline(BaselineKind kind, boolean periodic, List<String> warnings) {
        StudentWeights w = weights();
        if (kind == BaselineKind.TORCHSCRIPT) {
            if (!bundled && torchScript == null) {
                throw new IllegalArgumentException("--baseline torchscript is the bundled model's TorchScript export and cannot "
                        + "check the weights in " + source + "; give your export with --torchscript FILE, or use --baseline "
                        + "reference");
            }
            if (periodic) {
                warnings.add("periodic systems: the TorchScript baseline has no minimum image; the reference student is their "
                        + "baseline");
            } else {
                try {
                    TorchScriptForceField ts = torchScript != null ? TorchScriptForceField.load(torchScript)
                            : TorchScriptForceField.bundled();
                    return new Model(new ModelInfo(ts.name(), "TorchScript export (float64) run by libtorch " + libtorchVersion()
                            + " through DJL, forces by autograd", Precision.FLOAT64, "cpu",
                            torchScript != null ? torchScript.toString() : TorchScriptForceField.BUNDLED_RESOURCE.substring(1),
                            provenance(w)), ts);
                } catch (IOException | RuntimeException | LinkageError e) {
                    warnings.add("baseline torchscript could not be loaded (" + e.getMessage() + "); the reference student is "
                            + "the baseline instead");
                }
            }
        }
        ForceField ff = new ReferenceStudent(w);
        return new Model(new ModelInfo(ff.name(), "reference student (plain Java, float64, all pairs)", Precision.FLOAT64,
                "cpu", source, provenance(w)), ff);
    }

    /**
     * GFN2-xTB through libxtb, in-process ({@link XtbTeacher}), neutral and closed-shell at xtb's
     * default accuracy, as the bundled model's labels were computed. libxtb 6.5.1 has no periodic
     * GFN2-xTB, so periodic systems get no teacher (their teacher criteria are skipped, with that
     * reason).
     */
    @Override
    public Teacher teacher(boolean periodic, List<String> warnings) {
        if (periodic) {
            return Teacher.unavailable("GFN2-xTB through libxtb 6.5.1 has no periodic boundary conditions, so the teacher "
                    + "cannot evaluate periodic systems");
        }
        XtbTeacher.Availability a = XtbTeacher.availability();
        if (!a.available()) {
            return Teacher.unavailable(a.reason());
        }
        XtbTeacher t = XtbTeacher.gfn2().build();
        return Teacher.of(new Model(new ModelInfo(t.name(), "GFN2-xTB " + a.xtbVersion() + " through libxtb, in-process "
                + "(neutral, closed-shell, default accuracy)", Precision.FLOAT64, "cpu", "libxtb.so.6", Map.of()), t));
    }

    @Override
    public void requireSupported(org.molten.core.Atoms atoms) {
        weights().speciesIndices(atoms);
    }

    @Override
    public org.molten.forcefield.domain.DomainReport domain(org.molten.core.Atoms atoms) {
        return org.molten.forcefield.domain.ModelDomain.of(weights()).check(atoms);
    }

    @Override
    public void finish(List<String> warnings) {
        if (usedGpu) {
            GpuStatus.Snapshot s = GpuStatus.snapshot();
            if (s.fallbacks() > 0) {
                warnings.add("the CUDA student handed " + s.fallbacks() + " evaluations to the CPU path (last: "
                        + s.lastFallbackReason() + ")");
            }
        }
    }

    private static String libtorchVersion() {
        try {
            return ai.djl.engine.Engine.getEngine("PyTorch").getVersion();
        } catch (RuntimeException e) {
            return "(version unknown)";
        }
    }

    /** The weight file's metadata in file order (architecture, hyper-parameters, teacher, dataset, training commit, created). */
    static Map<String, String> provenance(StudentWeights w) {
        return new LinkedHashMap<>(w.metadata());
    }
}
