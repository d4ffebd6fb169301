package org.molten.forcefield.bundled;

import org.molten.core.ForceField;
import org.molten.forcefield.safetensors.SafetensorsFile;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

import java.io.IOException;
import java.io.InputStream;
import java.util.ServiceLoader;

/**
 * The model that ships with Molten and the library's default force field: a PaiNN student
 * (F = 128, T = 3, r_c = 5 Å) distilled from GFN2-xTB (xtb 6.5.1) on water, ethanol, benzene,
 * alanine dipeptide, Ace-(Ala)5-NMe and water clusters, for H, C, N, O. A fresh clone runs MD with
 * it without downloading anything. Data, training settings, accuracy and limits: docs/model-card.md;
 * recipe: forcefield/training.
 *
 * <p>The weights are read once from the class path and shared (they are immutable); each call to
 * {@link #forceField()} returns a new force field, since force fields hold per-instance scratch
 * state and are not thread-safe.
 */
public final class BundledModel {
    /** Name of the bundled model in logs and reports. */
    public static final String NAME = "student-gfn2";
    /** Class-path location of the weights (F32 safetensors, spec names). */
    public static final String WEIGHTS_RESOURCE = "/org/molten/forcefield/student/student-gfn2.safetensors";

    private static volatile StudentWeights weights;

    private BundledModel() {
    }

    /**
     * The shipped weights (loaded once).
     *
     * @throws IllegalStateException if this build does not contain them
     */
    public static StudentWeights weights() throws IOException {
        StudentWeights w = weights;
        if (w == null) {
            synchronized (BundledModel.class) {
                w = weights;
                if (w == null) {
                    w = loadResource();
                    weights = w;
                }
            }
        }
        return w;
    }

    private static StudentWeights loadResource() throws IOException {
        try (InputStream in = BundledModel.class.getResourceAsStream(WEIGHTS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("this build of Molten does not contain the bundled model " + WEIGHTS_RESOURCE);
            }
            String source = "bundled model " + WEIGHTS_RESOURCE;
            return StudentWeights.of(SafetensorsFile.parse(in.readAllBytes(), source), source);
        }
    }

    /** The default force field: the bundled weights on the optimised CPU path (float64). */
    public static ForceField forceField() throws IOException {
        return new OptimisedStudent(weights());
    }

    /** The bundled weights on the reference path (the oracle: float64, all pairs, plain loops). */
    public static ForceField reference() throws IOException {
        return new ReferenceStudent(weights());
    }

    /**
     * The baseline: the same model exported to TorchScript and run by libtorch through DJL. It lives in the optional
     * module forcefield-torchscript (DJL and ~110 MB of libtorch natives), found through {@link BundledBaseline}.
     *
     * @return a new baseline force field
     * @throws IOException           when the export cannot be read
     * @throws IllegalStateException when forcefield-torchscript is not on the class path
     */
    public static ForceField baseline() throws IOException {
        for (BundledBaseline b : ServiceLoader.load(BundledBaseline.class)) {
            return b.open();
        }
        throw new IllegalStateException("the TorchScript baseline is not on the class path: it needs the module "
                + "forcefield-torchscript (org.molten:forcefield-torchscript, DJL + libtorch)");
    }
}
