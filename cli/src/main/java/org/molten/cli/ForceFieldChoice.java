package org.molten.cli;

import org.molten.validation.DeviceChoice;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.forcefield.student.StudentWeights;
import picocli.CommandLine;

/**
 * The force fields {@code molten run --force-field} offers; each constant builds its force field
 * for the run's starting structure on the requested device.
 */
enum ForceFieldChoice {
    /**
     * The student model (default: the bundled GFN2-xTB distillate, or {@code --model FILE}) on the
     * optimised CPU path or, where a CUDA device works, on the GPU.
     */
    STUDENT("student") {
        @Override
        ForceField create(Atoms startingStructure, DeviceChoice device, Path modelFile, PrintWriter err)
                throws IOException {
            StudentWeights weights;
            try {
                weights = BundledModel.weights(modelFile); // null: the default; a bare name: a bundled version
            } catch (IOException e) {
                throw modelFile == null ? e : FileErrors.describe("read student weights", modelFile, e);
            }
            return device.student(weights);
        }
    },
    /**
     * The classical reference potential: harmonic bonds inferred from the starting geometry plus
     * shifted-force Lennard-Jones (org.molten.forcefield.classical). CPU only.
     */
    CLASSICAL("classical") {
        @Override
        ForceField create(Atoms startingStructure, DeviceChoice device, Path modelFile, PrintWriter err) {
            if (modelFile != null) {
                throw new IllegalArgumentException("--model applies to the student force field, not classical");
            }
            if (device == DeviceChoice.CUDA) {
                err.println("molten run: warning: the classical potential runs on the CPU only");
                err.flush();
            }
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
    abstract ForceField create(Atoms startingStructure, DeviceChoice device, Path modelFile, PrintWriter err)
            throws IOException;

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
