package org.molten.validation.runs;

import java.util.List;
import org.molten.core.ForceField;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.reports.ModelInfo;

/**
 * Supplies the two models of a validation. The production implementation is
 * {@link BundledModels}; tests may supply doubles.
 */
public interface ModelProvider {

    /**
     * The model under test on {@code device}. When the device cannot be used the provider falls
     * back (CUDA to CPU) and adds a warning that the report shows.
     */
    Model optimised(DeviceChoice device, List<String> warnings);

    /**
     * The baseline of kind {@code kind} for isolated molecules ({@code periodic} false) or for
     * periodic systems; when it is unavailable the provider either fails with an
     * {@link IllegalStateException} that says why, or substitutes another baseline and adds a
     * warning naming both.
     */
    Model baseline(BaselineKind kind, boolean periodic, List<String> warnings);

    /**
     * The model under test on {@code device} for one worker thread of a validation that runs
     * {@code workers} threads at once: a fresh instance (force fields are not thread-safe), using
     * at most its share of the cores. The default ignores the share.
     */
    default Model optimised(DeviceChoice device, int threadsPerModel, List<String> warnings) {
        return optimised(device, warnings);
    }

    /**
     * The teacher (GFN2-xTB) for the on-trajectory checks and the teacher baseline, a fresh instance
     * for the calling worker thread; {@link Teacher#unavailable} with the reason when it cannot run
     * here (library missing, periodic systems unsupported). The default has no teacher.
     */
    default Teacher teacher(boolean periodic, List<String> warnings) {
        return Teacher.unavailable("no teacher is configured for this validation");
    }

    /**
     * Refuses a structure the model under test cannot evaluate (an element it has no parameters
     * for), naming the atom and the element; the default accepts everything.
     *
     * @throws IllegalArgumentException naming the atom, its element and what the model supports
     */
    default void requireSupported(org.molten.core.Atoms atoms) {
    }

    /**
     * The structure checked against the domain of the model under test (the atom environments of its training data);
     * null when the provider knows no domain (the report then has no domain notes). The default knows none.
     */
    default org.molten.forcefield.domain.DomainReport domain(org.molten.core.Atoms atoms) {
        return null;
    }

    /**
     * Called once after all systems ran, before the report is written: adds whatever the
     * reviewer must know about how the models actually ran (GPU work handed to the CPU, ...).
     */
    default void finish(List<String> warnings) {
    }

    /**
     * A model ready to evaluate: its description for the report and the force field (one
     * instance for the whole validation, closed by the caller).
     */
    record Model(ModelInfo info, ForceField forceField) implements AutoCloseable {
        @Override
        public void close() {
            forceField.close();
        }
    }

    /**
     * The teacher, or why there is none: exactly one of {@code model} and {@code skippedReason} is
     * non-null. A skipped teacher makes the teacher criteria "skipped", never "passed".
     */
    record Teacher(Model model, String skippedReason) implements AutoCloseable {
        /** A teacher that runs. */
        public static Teacher of(Model model) {
            return new Teacher(java.util.Objects.requireNonNull(model, "model"), null);
        }

        /** No teacher, with the reason the report states. */
        public static Teacher unavailable(String reason) {
            return new Teacher(null, java.util.Objects.requireNonNull(reason, "reason"));
        }

        /** True when the teacher runs. */
        public boolean available() {
            return model != null;
        }

        @Override
        public void close() {
            if (model != null) {
                model.close();
            }
        }
    }
}
