package org.molten.validation.reports;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link ValidationReport} as report.json with Jackson. Keys are snake_case with their
 * units spelled as in the docs ({@code drift_meV_per_atom_per_ps}, {@code temperature_K},
 * {@code force_rmse_eV_per_A}); a value that does not exist (NaN, infinite) is written as null.
 */
public final class JsonReportWriter {
    private JsonReportWriter() {}

    /** The mapper used for reports (also for reading them back in tests). */
    public static ObjectMapper mapper() {
        SimpleModule finite = new SimpleModule("finite-doubles");
        JsonSerializer<Double> nullIfNotFinite = new JsonSerializer<>() {
            @Override
            public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
                if (v == null || !Double.isFinite(v)) {
                    g.writeNull();
                } else {
                    g.writeNumber(v);
                }
            }
        };
        finite.addSerializer(Double.class, nullIfNotFinite);
        finite.addSerializer(double.class, nullIfNotFinite);
        return new ObjectMapper()
                .setPropertyNamingStrategy(new UnitAwareSnakeCase())
                .registerModule(finite)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }

    /** Writes {@code report} to {@code file}, replacing it. */
    public static void write(ValidationReport report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // atomically: a full disk leaves the previous report (or none), never half of one, and names the file
        org.molten.integrators.AtomicFileWrite.write(file, mapper().writeValueAsBytes(report), "report");
    }

    /**
     * camelCase to snake_case that keeps unit tokens readable: {@code driftMeVPerAtomPerPs} ->
     * {@code drift_meV_per_atom_per_ps}, {@code forceRmseEvPerA} -> {@code force_rmse_eV_per_A},
     * {@code meanK} -> {@code mean_K}, {@code timestepFs} -> {@code timestep_fs}.
     */
    public static final class UnitAwareSnakeCase extends PropertyNamingStrategies.NamingBase {
        private static final long serialVersionUID = 1L;

        @Override
        public String translate(String name) {
            return snake(name);
        }

        /** The translation, for use outside Jackson. */
        public static String snake(String name) {
            String[] raw = name.split("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])");
            List<String> out = new ArrayList<>();
            for (int i = 0; i < raw.length; i++) {
                String t = raw[i];
                if (t.equals("Me") && i + 1 < raw.length && raw[i + 1].equals("V")) {
                    out.add("meV");
                    i++;
                } else if (t.equals("Ev")) {
                    out.add("eV");
                } else if (t.equals("A") || t.equals("K")) {
                    out.add(t);
                } else {
                    out.add(t.toLowerCase(Locale.ROOT));
                }
            }
            return String.join("_", out);
        }
    }
}
