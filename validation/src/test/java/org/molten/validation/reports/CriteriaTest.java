package org.molten.validation.reports;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.molten.validation.metrics.BlockAverage;
import org.molten.validation.metrics.EnergyDrift;
import org.molten.validation.metrics.IntegrityResult;
import org.molten.validation.metrics.IntegrityViolation;
import org.molten.validation.metrics.TemperatureStatistics;

class CriteriaTest {
    static final IntegrityResult INTACT = new IntegrityResult(true, 100, 2, 1.1, 1.5, "O0-H1", 2, 1.2, 6.0, 0.9, 0.5, null);

    static EnergyDrift drift(double meVPerAtomPerPs, double ratio) {
        return new EnergyDrift(meVPerAtomPerPs, 0.001, meVPerAtomPerPs * 2, Math.abs(meVPerAtomPerPs * 2) / ratio, ratio, 0.1, 0.01, 2.0, 400);
    }

    static RunReport nve(EnergyDrift d, Precision p, BlowUp b, long done) {
        return new RunReport("optimised NVE", RunPhase.PRODUCTION, ModelRole.OPTIMISED, Ensemble.NVE, "student", p, "velocity-verlet(dt=0.5 fs)",
                0.5, 4000, done, 5, done * 0.5e-3, 6, d, null, null, INTACT, new Performance(1, 4000, 172.8), b, "water-nve.log");
    }

    static RunReport nvt(TemperatureStatistics t) {
        return new RunReport("optimised NVT", RunPhase.PRODUCTION, ModelRole.OPTIMISED, Ensemble.NVT, "student", Precision.FLOAT64, "langevin",
                0.5, 4000, 4000, 5, 2, 6, null, null, t, INTACT, new Performance(1, 4000, 172.8), null, "water-nvt.log");
    }

    static CriterionResult find(List<CriterionResult> l, Criterion c) {
        return l.stream().filter(r -> r.criterion() == c).findFirst().orElseThrow(() -> new AssertionError("no " + c));
    }

    @Test
    void aStableNveRunPassesEveryCriterion() {
        List<CriterionResult> l = Criteria.forRun("water", nve(drift(0.01, 0.2), Precision.FLOAT64, null, 4000), Thresholds.defaults(), true);
        assertEquals(4, l.size());
        assertTrue(l.stream().allMatch(CriterionResult::passed), l.toString());
    }

    @Test
    void driftLimitsDependOnPrecisionAndRatioIsStrict() {
        Thresholds t = Thresholds.defaults();
        RunReport r64 = nve(drift(0.2, 0.5), Precision.FLOAT64, null, 4000);
        RunReport r32 = nve(drift(0.2, 0.5), Precision.FLOAT32, null, 4000);
        assertFalse(find(Criteria.forRun("w", r64, t, true), Criterion.ENERGY_DRIFT).passed());
        assertTrue(find(Criteria.forRun("w", r32, t, true), Criterion.ENERGY_DRIFT).passed());
        assertEquals(t.maxDriftFloat32MeVPerAtomPerPs(), find(Criteria.forRun("w", r32, t, true), Criterion.ENERGY_DRIFT).threshold());
        // A negative drift is judged by its magnitude.
        assertFalse(find(Criteria.forRun("w", nve(drift(-0.06, 0.5), Precision.FLOAT64, null, 4000), t, true),
                Criterion.ENERGY_DRIFT).passed());
        assertFalse(find(Criteria.forRun("w", nve(drift(0.01, 1.0), Precision.FLOAT64, null, 4000), t, true),
                Criterion.DRIFT_TO_KINETIC_SIGMA).passed());
    }

    @Test
    void aBlownUpRunFailsWithStepAtomAndCause() {
        RunReport r = nve(null, Precision.FLOAT64, new BlowUp(137, 68.5, 2, "non-finite force on atom 2 (H)"), 136);
        List<CriterionResult> l = Criteria.forRun("water", r, Thresholds.defaults(), true);
        CriterionResult c = find(l, Criterion.RUN_COMPLETED);
        assertFalse(c.passed());
        assertTrue(c.detail().contains("step 137") && c.detail().contains("atom 2") && c.detail().contains("non-finite force"), c.detail());
        assertFalse(find(l, Criterion.ENERGY_DRIFT).passed());
        assertNull(find(l, Criterion.ENERGY_DRIFT).value());
    }

    @Test
    void nvtChecksMeanAndOnlyCanonicalThermostatsCheckFluctuations() {
        TemperatureStatistics ok = new TemperatureStatistics(302, 3, 300, 0.67, 170, 10, 173.2, 0.98, -0.3, 6, 32, 32, true);
        List<CriterionResult> canonical = Criteria.forRun("water", nvt(ok), Thresholds.defaults(), true);
        assertTrue(find(canonical, Criterion.MEAN_TEMPERATURE).passed());
        assertTrue(find(canonical, Criterion.TEMPERATURE_FLUCTUATION).passed());
        List<CriterionResult> berendsen = Criteria.forRun("water", nvt(ok), Thresholds.defaults(), false);
        assertTrue(berendsen.stream().noneMatch(c -> c.criterion() == Criterion.TEMPERATURE_FLUCTUATION));

        TemperatureStatistics hot = new TemperatureStatistics(330, 3, 300, 10, 80, 10, 173.2, 0.46, -9.3, 6, 32, 32, true);
        List<CriterionResult> l = Criteria.forRun("water", nvt(hot), Thresholds.defaults(), true);
        assertFalse(find(l, Criterion.MEAN_TEMPERATURE).passed());
        assertFalse(find(l, Criterion.TEMPERATURE_FLUCTUATION).passed());

        // 3.2 standard errors: a failure with many blocks, within the Student-t limit with few.
        TemperatureStatistics many = new TemperatureStatistics(309.6, 3, 300, 3.2, 170, 10, 173.2, 0.98, -0.3, 6, 400, 400, true);
        TemperatureStatistics few = new TemperatureStatistics(309.6, 3, 300, 3.2, 170, 10, 173.2, 0.98, -0.3, 6, 12, 12, false);
        assertFalse(find(Criteria.forRun("w", nvt(many), Thresholds.defaults(), true), Criterion.MEAN_TEMPERATURE).passed());
        CriterionResult c = find(Criteria.forRun("w", nvt(few), Thresholds.defaults(), true), Criterion.MEAN_TEMPERATURE);
        assertTrue(c.passed());
        assertEquals(BlockAverage.equivalentThreshold(3, 12), c.threshold(), 1e-12);
        assertTrue(c.detail().contains("12 blocks"), c.detail());
    }

    @Test
    void aBrokenStructureNamesTheRuleAndAtom() {
        IntegrityResult broken = new IntegrityResult(false, 50, 2, 1.8, 1.5, "O0-H1", 2, 1.2, 6, 0.9, 0.5,
                new IntegrityViolation(IntegrityViolation.Kind.BOND_STRETCHED, 420, 210, 1, "bond O0-H1 stretched to 1.7 Å"));
        RunReport r = new RunReport("baseline NVE", RunPhase.PRODUCTION, ModelRole.BASELINE, Ensemble.NVE, "b", Precision.FLOAT64, "vv", 0.5, 4000, 4000, 5,
                2, 6, drift(0.01, 0.1), null, null, broken, null, null, "x.log");
        CriterionResult c = find(Criteria.forRun("water", r, Thresholds.defaults(), true), Criterion.STRUCTURAL_INTEGRITY);
        assertFalse(c.passed());
        assertTrue(c.detail().contains("BOND_STRETCHED") && c.detail().contains("step 420") && c.detail().contains("O0-H1"));
    }

    @Test
    void equilibrationIsJudgedOnCompletionAndIntegrityOnly() {
        RunReport eq = new RunReport("optimised equilibration", RunPhase.EQUILIBRATION, ModelRole.OPTIMISED, Ensemble.NVT, "s",
                Precision.FLOAT64, "langevin", 0.5, 1000, 1000, 5, 0.5, 6, null, null, null, INTACT, null, null, "eq.csv");
        List<CriterionResult> l = Criteria.forRun("water", eq, Thresholds.defaults(), true);
        assertEquals(List.of(Criterion.RUN_COMPLETED, Criterion.STRUCTURAL_INTEGRITY), l.stream().map(CriterionResult::criterion).toList());
        assertTrue(l.stream().allMatch(CriterionResult::passed));
    }

    @Test
    void thresholdsRefuseNonsense() {
        Thresholds d = Thresholds.defaults();
        assertThrows(IllegalArgumentException.class, () -> new Thresholds(-1, 1, 1, 3, 3, 1.5, 5, 0.5, 1e-3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Thresholds(0.05, 0.5, 1, 3, 3, 0.9, 5, 0.5, 1e-3));
        assertTrue(e.getMessage().contains("0.9"));
        assertEquals(0.05, d.maxDriftMeVPerAtomPerPs());
    }
}
