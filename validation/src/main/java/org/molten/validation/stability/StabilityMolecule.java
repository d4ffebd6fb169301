package org.molten.validation.stability;

import java.util.Objects;
import org.molten.core.Atoms;

/**
 * One molecule of the protocol: its name (the frame's {@code name=} key, else file and frame index), where it came
 * from ("starts.test.xyz.gz frame 12") and its starting structure (Å).
 */
public record StabilityMolecule(String name, String source, Atoms atoms) {
    public StabilityMolecule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(atoms, "atoms");
        if (atoms.cell().isPresent()) {
            throw new IllegalArgumentException(source + ": the stability protocol runs isolated molecules; this frame has"
                    + " a periodic cell");
        }
        if (atoms.size() < 2) {
            throw new IllegalArgumentException(source + ": a molecule needs at least 2 atoms, this frame has " + atoms.size());
        }
    }
}
