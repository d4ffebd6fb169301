package org.molten.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import picocli.CommandLine;

/** Where {@code molten run} computes the student's forces. */
enum DeviceChoice {
    /** The GPU when the CUDA probe finds a working device, otherwise the CPU. */
    AUTO("auto"),
    /** The CPU. */
    CPU("cpu"),
    /** An NVIDIA GPU through CUDA; without one, one warning, then the CPU. */
    CUDA("cuda");

    final String cliName;

    DeviceChoice(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String toString() {
        return cliName;
    }

    /** Parses the command-line name. */
    static final class Converter implements CommandLine.ITypeConverter<DeviceChoice> {
        @Override
        public DeviceChoice convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (DeviceChoice c : values()) {
                if (c.cliName.equals(v)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("unknown device '" + value + "'; choose one of "
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
