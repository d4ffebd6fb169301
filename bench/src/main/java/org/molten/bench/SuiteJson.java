package org.molten.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The suite's JSON file: {@code {"format": "molten-bench/1", "date", "context": {...},
 * "configurations": [...]}} with snake_case fields of {@link ConfigResult} (times µs, memory MiB,
 * energies eV, forces eV/Å; null where a figure does not apply). Read back by {@code --compare}.
 *
 * @param format         {@value #FORMAT}
 * @param date           ISO-8601 instant of the run
 * @param context        machine, command, model, settings, load average
 * @param configurations one entry per configuration
 */
public record SuiteJson(String format, String date, Map<String, String> context, List<ConfigResult> configurations) {
    /** The format tag. */
    public static final String FORMAT = "molten-bench/1";

    private static ObjectMapper mapper() {
        return new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    /** Writes this result to {@code file} (parent folders created). */
    public void write(Path file) throws IOException {
        Path abs = file.toAbsolutePath();
        if (abs.getParent() != null) {
            Files.createDirectories(abs.getParent());
        }
        mapper().writeValue(abs.toFile(), this);
    }

    /**
     * Reads a result written by {@link #write}.
     *
     * @throws IOException naming the file when it is missing, not JSON, or not a suite result
     */
    public static SuiteJson read(Path file) throws IOException {
        SuiteJson j;
        try {
            j = mapper().readValue(file.toFile(), SuiteJson.class);
        } catch (IOException e) {
            throw new IOException(file + ": not a readable benchmark result (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
        }
        if (j == null || !FORMAT.equals(j.format()) || j.configurations() == null) {
            throw new IOException(file + ": not a molten bench result (format must be " + FORMAT + ")");
        }
        return j;
    }
}
