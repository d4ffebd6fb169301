package org.molten.bench;

import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.cuda.CudaOptions;
import org.molten.forcefield.cuda.CudaStudent;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.OptimisedStudent.DenseBackend;
import org.molten.forcefield.student.OptimisedStudent.Options;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

import java.util.ArrayList;
import java.util.List;

/**
 * A configuration of the benchmark suite: a device, a force-field path and how it is driven.
 * {@link Kind#FORCE_FIELD} configurations are timed per energy+forces call and per host-driven MD
 * step; {@link Kind#DEVICE_MD} ones (the CUDA device-resident integrator) per MD step only.
 *
 * @param id        name in tables and JSON
 * @param device    "cpu" or "cuda"
 * @param precision arithmetic precision (sets the accuracy bound)
 * @param kind      how it is driven
 * @param factory   makes the force field (FORCE_FIELD), or null
 * @param cuda      the CUDA options (DEVICE_MD), or null
 * @param periodicOk whether it supports periodic cells
 */
public record SuiteConfig(String id, String device, Precision precision, Kind kind, Factory factory, CudaOptions cuda,
                          boolean periodicOk) {

    /** How a configuration is driven. */
    public enum Kind { FORCE_FIELD, DEVICE_MD }

    /** Makes a fresh force field for given weights. */
    @FunctionalInterface
    public interface Factory {
        /** A new force field (the caller closes it). */
        ForceField create(StudentWeights weights) throws Exception;
    }

    /** A host-driven configuration. */
    public static SuiteConfig forceField(String id, String device, Precision p, boolean periodicOk, Factory f) {
        return new SuiteConfig(id, device, p, Kind.FORCE_FIELD, f, null, periodicOk);
    }

    /** The CPU configurations timed at {@code atoms} atoms (reference only up to {@code referenceMaxAtoms}). */
    public static List<SuiteConfig> cpuConfigs(int atoms, int referenceMaxAtoms) {
        Options d = Options.defaults();
        List<SuiteConfig> c = new ArrayList<>();
        if (atoms <= referenceMaxAtoms) {
            c.add(forceField("reference", "cpu", Precision.FLOAT64, true, ReferenceStudent::new));
        }
        c.add(forceField("optimised-f64", "cpu", Precision.FLOAT64, true, w -> new OptimisedStudent(w, d)));
        c.add(forceField("optimised-f32", "cpu", Precision.FLOAT32, true,
                w -> new OptimisedStudent(w, d.withPrecision(OptimisedStudent.Precision.FLOAT32))));
        if (atoms >= 50) {
            c.add(forceField("optimised-f64-loops", "cpu", Precision.FLOAT64, true,
                    w -> new OptimisedStudent(w, d.withDense(DenseBackend.LOOPS))));
            c.add(forceField("optimised-f64-nd4j", "cpu", Precision.FLOAT64, true,
                    w -> new OptimisedStudent(w, d.withDense(DenseBackend.ND4J))));
        }
        // The TorchScript export of the bundled model through DJL (libtorch on the CPU); its weights
        // are the bundled ones whatever the suite times (a float64 export: measured ~1e-15 eV/Å from the
        // reference), and it has no periodic support.
        c.add(forceField("torchscript-djl", "cpu", Precision.FLOAT64, false, w -> BundledModel.baseline()));
        return c;
    }

    /** The CUDA configurations. */
    public static List<SuiteConfig> cudaConfigs() {
        CudaOptions d = CudaOptions.fromSystemProperties();
        List<SuiteConfig> c = new ArrayList<>();
        c.add(forceField("cuda-student-graphs", "cuda", Precision.FLOAT32, true, w -> new CudaStudent(w, d.withGraphs(true))));
        c.add(forceField("cuda-student-eager", "cuda", Precision.FLOAT32, true, w -> new CudaStudent(w, d.withGraphs(false))));
        c.add(new SuiteConfig("cuda-md-graphs", "cuda", Precision.FLOAT32, Kind.DEVICE_MD, null, d.withGraphs(true), true));
        c.add(new SuiteConfig("cuda-md-eager", "cuda", Precision.FLOAT32, Kind.DEVICE_MD, null, d.withGraphs(false), true));
        return c;
    }
}
