package org.molten.cli;

import java.util.Arrays;
import java.util.Iterator;
import org.molten.validation.DeviceChoice;
import picocli.CommandLine;

/** Reads {@code --device auto|cpu|cuda} into the one {@link DeviceChoice} that run and validate share. */
final class DeviceChoiceConverter implements CommandLine.ITypeConverter<DeviceChoice> {
    @Override
    public DeviceChoice convert(String value) {
        try {
            return DeviceChoice.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** The names for help texts and completion. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(DeviceChoice.values()).map(DeviceChoice::id).iterator();
        }
    }
}
