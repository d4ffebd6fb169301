package org.molten.validation.runs;

import java.util.List;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;

/**
 * The production {@link ModelProvider}: the bundled student weights, the optimised student on
 * the chosen device, and the TorchScript or reference baseline.
 */
public final class BundledModels implements ModelProvider {
    @Override
    public Model optimised(DeviceChoice device, List<String> warnings) {
        throw new IllegalStateException("the optimised student and the bundled weights are not in this build yet");
    }

    @Override
    public Model baseline(BaselineKind kind, List<String> warnings) {
        throw new IllegalStateException("the bundled weights are not in this build yet");
    }
}
