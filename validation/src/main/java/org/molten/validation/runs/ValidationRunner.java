package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.CriterionResult;
import org.molten.validation.reports.Environment;
import org.molten.validation.reports.JsonReportWriter;
import org.molten.validation.reports.MarkdownReportWriter;
import org.molten.validation.reports.Summary;
import org.molten.validation.reports.SystemReport;
import org.molten.validation.reports.Thresholds;
import org.molten.validation.reports.ValidationReport;

/**
 * Runs a whole validation ({@link SystemValidation} per system, in order) and writes
 * report.json, report.md, the plots and the energy logs into the output directory.
 */
public final class ValidationRunner {
    /** Name of the JSON report in the output directory. */
    public static final String JSON_REPORT = "report.json";
    /** Name of the Markdown report in the output directory. */
    public static final String MARKDOWN_REPORT = "report.md";

    private final ValidationSettings settings;
    private final Thresholds thresholds;
    private final ModelProvider models;
    private final Path outDir;
    private final String moltenVersion;
    private final String commandLine;

    /**
     * @param settings       the protocol
     * @param thresholds     the pass/fail limits
     * @param models         supplies the optimised model and the baseline
     * @param outDir         where the report goes (created if needed)
     * @param moltenVersion  recorded in the report
     * @param commandLine    the arguments as typed, recorded in the report
     */
    public ValidationRunner(ValidationSettings settings, Thresholds thresholds, ModelProvider models, Path outDir,
                            String moltenVersion, String commandLine) {
        this.settings = settings;
        this.thresholds = thresholds;
        this.models = models;
        this.outDir = outDir;
        this.moltenVersion = moltenVersion;
        this.commandLine = commandLine;
    }

    /** MD steps a full run takes (for a progress bar). */
    public long totalSteps() {
        return settings.systems().size() * (settings.equilibrationSteps() + 2 * (settings.nveSteps() + settings.nvtSteps()));
    }

    /**
     * Runs every system and writes the reports.
     *
     * @return the report (also on disk)
     * @throws IOException when the output directory or a report cannot be written
     * @throws IllegalStateException when a model cannot be provided
     */
    public ValidationReport run(Progress progress) throws IOException {
        long t0 = System.nanoTime();
        Files.createDirectories(outDir);
        List<String> warnings = new ArrayList<>();
        List<SystemReport> systems = new ArrayList<>();
        ModelProvider.Model periodicBaseline = null;
        try (ModelProvider.Model optimised = models.optimised(settings.device(), warnings);
             ModelProvider.Model baseline = models.baseline(settings.baseline(), false, warnings)) {
            for (String name : settings.systems()) {
                ModelProvider.Model b = baseline;
                if (SystemCatalog.isPeriodic(name)) {
                    if (periodicBaseline == null) {
                        periodicBaseline = models.baseline(settings.baseline(), true, warnings);
                    }
                    b = periodicBaseline;
                }
                systems.add(SystemValidation.run(name, settings, thresholds, optimised, b, outDir, progress, warnings));
            }
            models.finish(warnings);
            double wall = (System.nanoTime() - t0) * 1e-9;
            List<String> failures = new ArrayList<>();
            int count = 0;
            for (SystemReport s : systems) {
                for (CriterionResult c : s.criteria()) {
                    count++;
                    if (!c.passed()) {
                        failures.add(c.system() + " / " + c.run() + " / " + c.criterion().id() + ": " + c.detail());
                    }
                }
            }
            Summary summary = new Summary(failures.isEmpty(), count, failures.size(), failures, wall);
            ValidationReport report = new ValidationReport("molten validate",
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), commandLine, Environment.current(moltenVersion),
                    settings, thresholds, optimised.info(), baseline.info(), systems, summary, warnings);
            JsonReportWriter.write(report, outDir.resolve(JSON_REPORT));
            MarkdownReportWriter.write(report, outDir.resolve(MARKDOWN_REPORT));
            return report;
        } finally {
            if (periodicBaseline != null) {
                periodicBaseline.close();
            }
        }
    }
}
