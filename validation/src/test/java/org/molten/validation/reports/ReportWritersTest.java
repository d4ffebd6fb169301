package org.molten.validation.reports;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.validation.ValidationSettings;
import org.molten.validation.metrics.ForceAgreement;
import org.molten.validation.metrics.TemperatureStatistics;
import org.molten.validation.plots.EnergyPlots;
import org.molten.validation.runs.EnergySeries;

class ReportWritersTest {

    static ValidationReport sample() {
        TemperatureStatistics t = new TemperatureStatistics(301, 2, 300, 0.5, 170, 9, 173.2, 0.98, -0.35, 6, 32, 32, true);
        RunReport nve = CriteriaTest.nve(CriteriaTest.drift(0.012, 0.3), Precision.FLOAT64, null, 4000);
        RunReport nvt = CriteriaTest.nvt(t);
        ForceAgreement fa = new ForceAgreement();
        fa.add(-1, new double[] {1, 0, 0}, -1, new double[] {1, 1e-6, 0});
        BaselineComparison cmp = new BaselineComparison("student", "reference", fa.result(), 0, null,
                List.of(new BaselineComparison.RmsdPoint(0, 0), new BaselineComparison.RmsdPoint(5, 1e-9)), 1e-9, 1e-9, null, 0.012, 0.011);
        List<CriterionResult> crit = new ArrayList<>(Criteria.forRun("water", nve, Thresholds.defaults(), true));
        crit.addAll(Criteria.forRun("water", nvt, Thresholds.defaults(), true));
        crit.add(Criteria.forComparison("water", cmp, Thresholds.defaults()));
        // One failing criterion so that the failure list is exercised.
        crit.add(new CriterionResult("water", "baseline NVE", Criterion.ENERGY_DRIFT, 0.2, "<=", 0.05, "meV/atom/ps", false, "drift +0.2"));
        SystemReport sys = new SystemReport("water", "H2O", 3, false, List.of(nve, nvt), cmp, crit, List.of("water-nve.png"), false);
        Summary sum = new Summary(false, crit.size(), 1, List.of("water / baseline NVE / energy-drift: drift +0.2"), 12.5);
        ModelInfo m = new ModelInfo("student/optimised", "optimised student", Precision.FLOAT64, "cpu", "bundled",
                Map.of("teacher", "GFN2-xTB", "created", "2026-11-21"));
        return new ValidationReport("molten validate", "2026-11-21T12:00:00Z", "validate --steps 400",
                Environment.current("molten 0.1.0"), ValidationSettings.quickProtocol(), Thresholds.defaults(), m, m,
                List.of(sys), sum, List.of("baseline torchscript unavailable: using reference"));
    }

    @Test
    void jsonHasUnitNamedKeysEveryDriftUnderADriftKeyAndNullForNaN(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("report.json");
        JsonReportWriter.write(sample(), f);
        JsonNode root = JsonReportWriter.mapper().readTree(f.toFile());
        for (String k : List.of("tool", "created_utc", "command", "environment", "settings", "thresholds", "optimised", "baseline",
                "systems", "summary", "warnings")) {
            assertTrue(root.has(k), "missing " + k);
        }
        assertEquals(System.getProperty("java.version"), root.path("environment").path("java_version").asText());
        assertTrue(root.path("environment").has("os_name") && root.path("environment").has("molten_version"));
        assertEquals(300.0, root.path("settings").path("temperature_K").asDouble());
        assertEquals("langevin", root.path("settings").path("thermostat").asText());
        assertEquals(0.05, root.path("thresholds").path("max_drift_meV_per_atom_per_ps").asDouble());
        JsonNode run = root.path("systems").get(0).path("runs").get(0);
        assertEquals(0.012, run.path("energy").path("drift_meV_per_atom_per_ps").asDouble(), 1e-15);
        assertTrue(run.path("energy").has("drift_to_kinetic_sigma_ratio"));
        assertEquals("OPTIMISED", run.path("role").asText());
        assertTrue(run.path("performance").has("ns_per_day"));
        JsonNode cmp = root.path("systems").get(0).path("comparison");
        assertTrue(cmp.path("forces").has("force_rmse_eV_per_A"));
        assertTrue(cmp.path("divergence_time_fs").isNull());
        assertTrue(cmp.path("forces").path("force_relative_rmse").isNumber());
        assertEquals("GFN2-xTB", root.path("optimised").path("provenance").path("teacher").asText());
        // Every number whose key mentions drift is under a key containing "drift", and every
        // drift figure of the model (energy block, comparison) is found that way.
        List<String> driftKeys = new ArrayList<>();
        collectKeys(root, "", driftKeys);
        assertTrue(driftKeys.contains("systems.runs.energy.drift_meV_per_atom_per_ps"), driftKeys.toString());
        assertTrue(driftKeys.contains("systems.comparison.optimised_drift_meV_per_atom_per_ps"));
        assertTrue(driftKeys.contains("systems.comparison.baseline_drift_meV_per_atom_per_ps"));
        JsonNode crit = root.path("systems").get(0).path("criteria").get(0);
        assertEquals("run-completed", crit.path("criterion").asText());
        assertFalse(root.path("summary").path("passed").asBoolean());
    }

    private static void collectKeys(JsonNode n, String path, List<String> out) {
        if (n.isArray()) {
            for (JsonNode c : n) {
                collectKeys(c, path, out);
            }
        } else if (n.isObject()) {
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                String p = path.isEmpty() ? k : path + "." + k;
                if (k.contains("drift") && n.get(k).isNumber()) {
                    out.add(p);
                }
                collectKeys(n.get(k), p, out);
            }
        }
    }

    @Test
    void unitAwareSnakeCase() {
        assertEquals("drift_meV_per_atom_per_ps", JsonReportWriter.UnitAwareSnakeCase.snake("driftMeVPerAtomPerPs"));
        assertEquals("force_rmse_eV_per_A", JsonReportWriter.UnitAwareSnakeCase.snake("forceRmseEvPerA"));
        assertEquals("mean_K", JsonReportWriter.UnitAwareSnakeCase.snake("meanK"));
        assertEquals("timestep_fs", JsonReportWriter.UnitAwareSnakeCase.snake("timestepFs"));
        assertEquals("max_drift_float32_meV_per_atom_per_ps", JsonReportWriter.UnitAwareSnakeCase.snake("maxDriftFloat32MeVPerAtomPerPs"));
        assertEquals("force_evaluations", JsonReportWriter.UnitAwareSnakeCase.snake("forceEvaluations"));
        assertEquals("ns_per_day", JsonReportWriter.UnitAwareSnakeCase.snake("nsPerDay"));
    }

    @Test
    void markdownLeadsWithTheVerdictAndListsFailures(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("report.md");
        MarkdownReportWriter.write(sample(), f);
        String md = Files.readString(f);
        assertTrue(md.startsWith("# Molten validation report\n\n**Verdict: FAIL**"), md.substring(0, 80));
        assertTrue(md.contains("water / baseline NVE / energy-drift"));
        assertTrue(md.contains("| water | 3 | optimised NVE | student | 0.012 ± 0.001 |"), md);
        assertTrue(md.contains("![water water-nve.png](water-nve.png)"));
        assertTrue(md.contains("baseline torchscript unavailable"));
        assertTrue(md.contains("| never |"));
        assertTrue(md.contains("teacher = GFN2-xTB"), md);
        assertTrue(md.contains("| <= 0.05 meV/atom/ps |"), md);
    }

    @Test
    void numberFormatting() {
        assertEquals("0.0123", MarkdownReportWriter.sig(0.012345, 3));
        assertEquals("-1.23e-05", MarkdownReportWriter.sig(-1.2345e-5, 3));
        assertEquals("1230", MarkdownReportWriter.sig(1234.5, 3));
        assertEquals("–", MarkdownReportWriter.sig(Double.NaN, 3));
        assertEquals("0.5", MarkdownReportWriter.num(0.5));
    }

    @Test
    void plotsArePngsOfTheExpectedSize(@TempDir Path dir) throws Exception {
        EnergySeries a = new EnergySeries();
        EnergySeries b = new EnergySeries();
        for (int i = 0; i < 5000; i++) {
            a.add(i, i * 0.5, -10 + 0.01 * Math.sin(i / 30.0), 0.1 - 0.01 * Math.sin(i / 30.0), 300 + 20 * Math.sin(i / 30.0), 0);
            b.add(i, i * 0.5, -10 + 0.01 * Math.sin(i / 31.0), 0.1 - 0.01 * Math.sin(i / 31.0), 300 + 20 * Math.sin(i / 31.0), 0);
        }
        Path png = dir.resolve("water-nvt.png");
        EnergyPlots.writeEnergies(png, "water NVT", List.of(new EnergyPlots.Curve("optimised", a), new EnergyPlots.Curve("baseline", b)), 3, 300);
        BufferedImage img = ImageIO.read(png.toFile());
        assertNotNull(img);
        assertEquals(1280, img.getWidth());
        assertEquals(720, img.getHeight());
        Path div = dir.resolve("water-divergence.png");
        EnergyPlots.writeDivergence(div, "water", List.of(new BaselineComparison.RmsdPoint(0, 0),
                new BaselineComparison.RmsdPoint(50, 1e-10), new BaselineComparison.RmsdPoint(100, 1e-6)));
        assertNotNull(ImageIO.read(div.toFile()));
    }

    @Test
    void protocolLineSaysCustomWhenTheStepsAreNotAPreset() {
        ValidationSettings q = ValidationSettings.quickProtocol();
        ValidationSettings f = ValidationSettings.fullProtocol();
        assertEquals("quick", MarkdownReportWriter.protocolName(q));
        assertEquals("full", MarkdownReportWriter.protocolName(f));
        ValidationSettings longer = new ValidationSettings(q.systems(), q.temperatureK(), 0.25, 8000, 40000, 40000,
                q.sampleIntervalSteps(), q.thermostat(), q.thermostatTimeConstantFs(), q.device(), q.baseline(), q.seed(), false);
        assertEquals("custom", MarkdownReportWriter.protocolName(longer));
    }
}
