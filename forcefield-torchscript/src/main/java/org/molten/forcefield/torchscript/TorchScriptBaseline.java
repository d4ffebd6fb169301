package org.molten.forcefield.torchscript;

import java.io.IOException;

import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledBaseline;

/** Provides {@link org.molten.forcefield.bundled.BundledModel#baseline()}: the bundled TorchScript export. */
public final class TorchScriptBaseline implements BundledBaseline {
    /** Used by {@link java.util.ServiceLoader}. */
    public TorchScriptBaseline() {
    }

    @Override
    public ForceField open() throws IOException {
        return TorchScriptForceField.bundled();
    }
}
