package org.molten.forcefield.safetensors;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file that is not a valid safetensors file (or not a valid weight file for the model that
 * reads it). The message starts with the file and names the problem.
 */
public final class SafetensorsFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** @param file the offending file; @param problem what is wrong, in words */
    public SafetensorsFormatException(Path file, String problem) {
        super(file + ": " + problem);
    }

    /** @param source where the bytes came from (a file or a class-path resource); @param problem what is wrong */
    public SafetensorsFormatException(String source, String problem) {
        super(source + ": " + problem);
    }
}
