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
}
