package org.molten.validation.reports;

import java.util.List;
import org.molten.validation.ValidationSettings;

/**
 * A whole validation: how it was run, with what, and what came out. Written as report.json
 * ({@link JsonReportWriter}) and report.md ({@link MarkdownReportWriter}).
 *
 * @param tool         "molten validate"
 * @param createdUtc   ISO-8601 time the report was written
 * @param command      the command line as typed (arguments after {@code molten})
 * @param environment  Molten, Java and OS versions, cores
 * @param settings     the protocol (systems, temperature, timestep, steps, thermostat, device, seed, ...)
 * @param thresholds   the pass/fail limits
 * @param optimised    the model under test and its provenance
 * @param baseline     the baseline model and its provenance
 * @param systems      one entry per system
 * @param summary      the overall verdict
 * @param warnings     fallbacks and other things a reviewer must know (device or baseline substituted, ...)
 * @param domain       each system against the domain of the model under test (empty when the provider knows none)
 */
public record ValidationReport(String tool, String createdUtc, String command, Environment environment,
                               ValidationSettings settings, Thresholds thresholds, ModelInfo optimised, ModelInfo baseline,
                               List<SystemReport> systems, Summary summary, List<String> warnings, List<DomainNote> domain) {

    /** A report without domain notes. */
    public ValidationReport(String tool, String createdUtc, String command, Environment environment,
                            ValidationSettings settings, Thresholds thresholds, ModelInfo optimised, ModelInfo baseline,
                            List<SystemReport> systems, Summary summary, List<String> warnings) {
        this(tool, createdUtc, command, environment, settings, thresholds, optimised, baseline, systems, summary, warnings,
                List.of());
    }
}
