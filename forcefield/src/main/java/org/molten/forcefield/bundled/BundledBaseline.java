package org.molten.forcefield.bundled;

import java.io.IOException;

import org.molten.core.ForceField;

/**
 * Service interface for the bundled model's baseline implementation, which lives in an optional
 * module so that forcefield itself needs no DJL/libtorch: forcefield-torchscript provides it
 * (META-INF/services) and {@link BundledModel#baseline()} finds it with {@link java.util.ServiceLoader}.
 */
public interface BundledBaseline {
    /**
     * Opens a new baseline force field for the bundled model.
     *
     * @return the baseline, to be closed by the caller
     * @throws IOException when the exported model cannot be read
     */
    ForceField open() throws IOException;
}
