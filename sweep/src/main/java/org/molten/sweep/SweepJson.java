package org.molten.sweep;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;

/**
 * The JSON of the sweep's own files (result.json, sweep-report.json): snake_case keys whose unit
 * tokens stay readable ({@code temperatureK} → {@code temperature_K}, {@code driftMeVPerAtomPerPs}
 * → {@code drift_meV_per_atom_per_ps}, {@code teacherForceMaeEvPerA} →
 * {@code teacher_force_mae_eV_per_A}), the convention of molten's reports; a non-finite number is
 * written as null. Unknown keys are ignored when reading, so newer files still read.
 */
final class SweepJson {
    private SweepJson() {}

    static ObjectMapper mapper() {
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
        return new ObjectMapper().setPropertyNamingStrategy(new org.molten.validation.reports.JsonReportWriter.UnitAwareSnakeCase()).registerModule(finite)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
