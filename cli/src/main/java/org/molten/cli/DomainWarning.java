package org.molten.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.molten.core.Atoms;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.bundled.ModelRegistry;
import org.molten.forcefield.domain.DomainReport;
import org.molten.forcefield.domain.ModelDomain;
import org.molten.validation.reports.DomainNote;
import org.molten.validation.reports.ValidationReport;

/**
 * The warning {@code molten run}, {@code minimize} and {@code validate} give, once per structure, when a structure lies
 * outside what the student was distilled on: atoms whose environment (element and bonded neighbours' elements) its
 * training data never contained, by index and environment. A warning, not a refusal; an element the model lacks is
 * refused where the force field is built, as before. Weights without a domain entry: "domain unknown", once.
 */
final class DomainWarning {
    private DomainWarning() {
    }

    /**
     * Checks {@code atoms} against the student's domain and prints the warning on {@code err} when it lies outside;
     * nothing for the classical force field. Weights that cannot be read are left to the force field's own error.
     *
     * @param command   "molten run"
     * @param source    where the structure came from (its file or built-in name)
     * @param modelFile the {@code --model} value (null: the default bundled version)
     */
    static void check(String command, RunCommand.SystemSource source, Atoms atoms, ForceFieldChoice forceField,
                      Path modelFile, PrintWriter err) {
        if (forceField != ForceFieldChoice.STUDENT) {
            return;
        }
        DomainReport r;
        try {
            r = ModelDomain.of(BundledModel.weights(modelFile)).check(atoms);
        } catch (IOException | RuntimeException e) {
            return; // unreadable weights, coincident atoms, ...: the force field reports them
        }
        if (!r.inside()) {
            err.println(command + ": warning: " + message(source.structure != null ? source.structure.toString() : source.system,
                    modelName(modelFile), r));
            err.flush();
        }
    }

    /** "FILE lies outside the domain of MODEL: 1 of 6 atoms in environments ...: C(C,N) (atom 1); forces ..." */
    static String message(String structure, String model, DomainReport r) {
        if (!r.known()) {
            return "model " + model + ": " + r.describe();
        }
        return structure + " lies outside the domain of " + model + ": " + r.describe() + "; the forces on those atoms "
                + "are extrapolated (molten validate --structure checks them against the teacher; molten info lists the "
                + "domain)";
    }

    /** The name the model goes by: its bundled version's, or the weight file. */
    static String modelName(Path modelFile) {
        if (modelFile == null) {
            return ModelRegistry.defaultVersion().name();
        }
        return BundledModel.named(modelFile).map(ModelRegistry.Version::name).orElse(modelFile.toString());
    }

    /** validate's console lines: each system outside the domain, or "domain unknown" once. */
    static void print(ValidationReport report, PrintWriter out) {
        if (report.domain().stream().anyMatch(d -> !d.known())) {
            out.println("warning: domain unknown: the model's weight file has no domain entry, no atom environment was checked");
            return;
        }
        for (DomainNote d : report.domain()) {
            if (!d.inside()) {
                out.println("warning: " + d.system() + " lies outside the model's domain: " + d.summary()
                        + " (report.md: Model domain)");
            }
        }
    }
}
