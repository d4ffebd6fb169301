package org.molten.forcefield.bundled;

import org.molten.core.ForceField;
import org.molten.forcefield.domain.ModelDomain;
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
 * recipe: forcefield/training. Older versions stay loadable by name ({@link #weights(String)}, {@link ModelRegistry}).
 *
 * <p>The weights are read once from the class path and shared (they are immutable); each call to
 * {@link #forceField()} returns a new force field, since force fields hold per-instance scratch
 * state and are not thread-safe.
 */
public final class BundledModel {
    /** Name of the bundled model family in logs and reports; as a {@code --model} name it means the default version. */
    public static final String NAME = "student-gfn2";
    /**
     * Class-path location of the default version's weights (F32 safetensors, spec names), from {@link ModelRegistry}:
     * {@code /org/molten/forcefield/student/student-gfn2.safetensors} (v5's file) while v5 is the default.
     */
    public static final String WEIGHTS_RESOURCE = ModelRegistry.defaultVersion().resource();

    private static final java.util.concurrent.ConcurrentHashMap<String, StudentWeights> LOADED =
            new java.util.concurrent.ConcurrentHashMap<>();

    private BundledModel() {
    }

    /**
     * The default version's weights (loaded once).
     *
     * @throws IllegalStateException if this build does not contain them
     */
    public static StudentWeights weights() throws IOException {
        return weights(ModelRegistry.defaultVersion());
    }

    /**
     * The weights of a bundled version by name: {@code student-gfn2-v5}, {@code v5}, or {@value #NAME} for the
     * default (loaded once each).
     *
     * @throws IllegalArgumentException naming the bundled versions when {@code name} is none of them
     */
    public static StudentWeights weights(String name) throws IOException {
        return weights(version(name));
    }

    /** The bundled version {@code name} means ({@link ModelRegistry#find}), or an error listing them. */
    public static ModelRegistry.Version version(String name) {
        return ModelRegistry.find(name).orElseThrow(() -> new IllegalArgumentException("'" + name
                + "' is not a bundled model; bundled: " + String.join(", ", ModelRegistry.names())));
    }

    /**
     * The bundled version a {@code --model} value names, if it names one: a bare name without a path separator or a
     * {@code .safetensors} extension ({@code v5}, {@code student-gfn2-v5}); anything else is a file path
     * ({@code ./v5} is the file v5).
     */
    public static java.util.Optional<ModelRegistry.Version> named(java.nio.file.Path modelOption) {
        if (modelOption == null || modelOption.getNameCount() != 1 || modelOption.isAbsolute()
                || modelOption.toString().contains("/") || modelOption.toString().endsWith(".safetensors")) {
            return java.util.Optional.empty();
        }
        return ModelRegistry.find(modelOption.toString());
    }

    /**
     * The weights a {@code --model} value means: the default version when null, a bundled version when
     * {@link #named} finds one, else the safetensors file at that path.
     *
     * @throws IllegalArgumentException listing the bundled versions when a bare name is neither a file nor one of them
     */
    public static StudentWeights weights(java.nio.file.Path modelOption) throws IOException {
        if (modelOption == null) {
            return weights();
        }
        java.util.Optional<ModelRegistry.Version> v = named(modelOption);
        if (v.isPresent()) {
            return weights(v.get());
        }
        String text = modelOption.toString();
        if (!java.nio.file.Files.exists(modelOption) && !text.contains("/") && !text.endsWith(".safetensors")) {
            throw new IllegalArgumentException("'" + text + "' is neither a weight file nor a bundled model; bundled: "
                    + String.join(", ", ModelRegistry.names()));
        }
        return StudentWeights.load(modelOption);
    }

    private static StudentWeights weights(ModelRegistry.Version v) throws IOException {
        StudentWeights w = LOADED.get(v.name());
        if (w == null) {
            synchronized (BundledModel.class) {
                w = LOADED.get(v.name());
                if (w == null) {
                    w = loadResource(v.resource());
                    LOADED.put(v.name(), w);
                }
            }
        }
        return w;
    }

    private static StudentWeights loadResource(String resource) throws IOException {
        try (InputStream in = BundledModel.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("this build of Molten does not contain the bundled model " + resource);
            }
            String source = "bundled model " + resource;
            return StudentWeights.of(SafetensorsFile.parse(in.readAllBytes(), source), source);
        }
    }

    /** The default version's domain: the elements and atom environments of its training data. */
    public static ModelDomain domain() throws IOException {
        return ModelDomain.of(weights());
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
