package org.molten.validation.runs;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.reports.ModelInfo;
import org.molten.validation.reports.Precision;

/**
 * The production {@link ModelProvider}: the student weights (the bundled model unless a file is
 * given), the optimised student on the chosen device, and the TorchScript or reference baseline.
 *
 * <p>Fallbacks, each recorded as a warning in the report: a device without a usable GPU path
 * runs the optimised CPU student; a TorchScript baseline that cannot be loaded is replaced by
 * the reference student.
 */
public final class BundledModels implements ModelProvider {
    private final Supplier<StudentWeights> weights;
    private final String source;
    private final OptimisedStudent.Precision precision;

    /**
     * @param weights   supplies the student weights (called once per model)
     * @param source    where they come from, for the report ("bundled", a file name)
     * @param precision arithmetic of the optimised student
     */
    public BundledModels(Supplier<StudentWeights> weights, String source, OptimisedStudent.Precision precision) {
        this.weights = weights;
        this.source = source;
        this.precision = precision;
    }

    /** The bundled weights in float64. */
    public BundledModels() {
        this(BundledModels::bundledWeights, "bundled", OptimisedStudent.Precision.FLOAT64);
    }

    /** The same models with the optimised student in {@code p}. */
    public BundledModels withPrecision(OptimisedStudent.Precision p) {
        return new BundledModels(weights, source, p);
    }

    private static StudentWeights bundledWeights() {
        throw new IllegalStateException("this build of Molten does not contain the bundled student weights yet");
    }

    @Override
    public Model optimised(DeviceChoice device, List<String> warnings) {
        StudentWeights w = weights.get();
        if (device != DeviceChoice.CPU) {
            warnings.add("device " + device.id() + " requested: the CUDA student is not in this build; the optimised CPU "
                    + "student runs instead");
        }
        OptimisedStudent ff = new OptimisedStudent(w, OptimisedStudent.Options.defaults().withPrecision(precision));
        Precision p = precision == OptimisedStudent.Precision.FLOAT32 ? Precision.FLOAT32 : Precision.FLOAT64;
        return new Model(new ModelInfo(ff.name(), "optimised student (Java, CPU, " + ff.options().threads() + " threads)", p,
                "cpu", source, provenance(w)), ff);
    }

    @Override
    public Model baseline(BaselineKind kind, List<String> warnings) {
        StudentWeights w = weights.get();
        if (kind == BaselineKind.TORCHSCRIPT) {
            warnings.add("baseline torchscript requested: the TorchScript baseline is not in this build; the reference "
                    + "student (plain Java, float64) is the baseline instead");
        }
        ReferenceStudent ff = new ReferenceStudent(w);
        return new Model(new ModelInfo(ff.name(), "reference student (plain Java, float64, all pairs)", Precision.FLOAT64,
                "cpu", source, provenance(w)), ff);
    }

    /** The weight file's metadata (architecture, hyper-parameters, teacher, dataset, training commit, created). */
    static Map<String, String> provenance(StudentWeights w) {
        return new java.util.LinkedHashMap<>(w.metadata());
    }
}
