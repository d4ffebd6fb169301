package org.molten.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import picocli.CommandLine;

/**
 * The force fields {@code molten run --force-field} offers. The student model joins here as
 * {@code STUDENT} (and becomes the default) when it lands; each constant builds its force field
 * for the run's starting structure.
 */
enum ForceFieldChoice {
    /**
     * The classical reference potential: harmonic bonds inferred from the starting geometry plus
     * shifted-force Lennard-Jones (org.molten.forcefield.classical).
     */
    CLASSICAL("classical") {
        @Override
        ForceField create(Atoms startingStructure) {
            return ClassicalReferencePotential.inferredFrom(startingStructure);
        }
    };

    final String cliName;

    ForceFieldChoice(String cliName) {
        this.cliName = cliName;
    }

    /**
     * The force field for a run that started from {@code startingStructure} (on a restart, the
     * original structure, so that a force field inferred from it is the same as before).
     */
    abstract ForceField create(Atoms startingStructure);

    @Override
    public String toString() {
        return cliName;
    }

    /** Parses the command-line name. */
    static final class Converter implements CommandLine.ITypeConverter<ForceFieldChoice> {
        @Override
        public ForceFieldChoice convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (ForceFieldChoice c : values()) {
                if (c.cliName.equals(v)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("unknown force field '" + value + "'; choose one of "
                    + String.join(", ", new Names()));
        }
    }

    /** The names for help texts. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(c -> c.cliName).iterator();
        }
    }
}
