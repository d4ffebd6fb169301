package org.molten.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reader takes what a report carries and says n/a (null) for the rest. */
class TaskReportReaderTest {
    private static TaskMetrics read(String json, String system) throws Exception {
        return TaskReportReader.fromTree(new ObjectMapper().readTree(json), system);
    }

    @Test
    void todaysKeys() throws Exception {
        TaskMetrics m = read("""
                {"summary": {"passed": false}, "systems": [
                  {"name": "benzene", "runs": []},
                  {"name": "water", "runs": [
                    {"role": "OPTIMISED", "phase": "EQUILIBRATION", "ensemble": "NVT", "steps_requested": 20, "steps_completed": 20, "blow_up": null},
                    {"role": "OPTIMISED", "phase": "PRODUCTION", "ensemble": "NVE", "steps_requested": 80, "steps_completed": 33,
                     "blow_up": {"step": 33}, "energy": {"drift_meV_per_atom_per_ps": 0.5}},
                    {"role": "BASELINE", "phase": "PRODUCTION", "ensemble": "NVE", "steps_requested": 80, "steps_completed": 80}],
                   "comparison": {"optimised_drift_meV_per_atom_per_ps": -0.25, "final_rmsd_A": 0.3, "divergence_time_fs": null,
                     "forces": {"force_rmse_eV_per_A": 0.002}}}]}
                """, "water");
        assertEquals(0.0, m.stableFraction());
        assertEquals(-0.25, m.driftMeVPerAtomPerPs());
        assertEquals(0.002, m.forceRmseVsBaselineEvPerA());
        assertEquals(Boolean.FALSE, m.passed());
        assertNull(m.teacherForceMaeEvPerA());
        assertEquals(Map.of("final_rmsd_A", 0.3), m.divergences());
    }

    @Test
    void keysOfTheTeacherValidationAndMissingOnes() throws Exception {
        TaskMetrics m = read("""
                {"systems": [{"name": "ethanol", "stable_fraction": 0.75, "teacher_force_mae_ev_per_a": 0.04,
                  "divergences": {"rdf_OH": 0.1, "bond_length_A": 0.02, "note": "text"},
                  "runs": [{"role": "OPTIMISED", "ensemble": "NVE", "energy": {"drift_meV_per_atom_per_ps": [0.1, 0.3]}}]}]}
                """, "ethanol");
        assertEquals(0.75, m.stableFraction());
        assertEquals(0.04, m.teacherForceMaeEvPerA());
        assertEquals(0.2, m.driftMeVPerAtomPerPs(), 1e-12);
        assertEquals(Map.of("rdf_OH", 0.1, "bond_length_A", 0.02), m.divergences());
        assertNull(m.passed());
        TaskMetrics none = read("{}", "water");
        assertEquals(TaskMetrics.unknown(), none);
    }

    @Test
    void theStatisticalCriteriaOfAShippedReportWithTheirNominalLimit() throws Exception {
        java.nio.file.Path shipped = java.nio.file.Path.of("../docs/reports/validate-default-2026-11-26/report.json");
        TaskMetrics m = TaskReportReader.read(shipped, "water");
        assertEquals(2, m.statisticalChecks().size(), m.statisticalChecks().toString());
        StatisticalCheck mean = m.statisticalChecks().get(0);
        assertEquals("mean-temperature", mean.criterion());
        assertEquals(1.6966133802483725, mean.valueSe());
        assertEquals(3.0, mean.limitSe(), 0.0, "the nominal 3 SE, not the Student-t threshold 4.28 written for 9 blocks");
        assertEquals(0.0027, mean.falsePositiveRate(), 1e-4);
        assertEquals("temperature-fluctuation", m.statisticalChecks().get(1).criterion());
        assertEquals(0, m.failedCriteria());
    }
}
