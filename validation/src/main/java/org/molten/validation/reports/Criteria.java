package org.molten.validation.reports;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.molten.validation.metrics.BlockAverage;
import org.molten.validation.metrics.EnergyDrift;
import org.molten.validation.metrics.IntegrityResult;
import org.molten.validation.metrics.TemperatureStatistics;

/**
 * Turns measured metrics into pass/fail verdicts against {@link Thresholds}. A run that blew up
 * fails {@link Criterion#RUN_COMPLETED} with its step, atom and cause; its other metrics are
 * still evaluated over the part that ran, and any metric that could not be measured fails.
 */
public final class Criteria {
    private Criteria() {}

    /**
     * Verdicts for one run.
     *
     * @param canonicalThermostat true when the NVT thermostat samples the canonical ensemble
     *                            (Langevin, Bussi, Nosé-Hoover chain), so that the temperature
     *                            fluctuation is checked; false for Berendsen
     */
    public static List<CriterionResult> forRun(String system, RunReport run, Thresholds t, boolean canonicalThermostat) {
        List<CriterionResult> out = new ArrayList<>();
        out.add(completion(system, run));
        if (run.phase() == RunPhase.EQUILIBRATION) {
            // Equilibration starts from the minimum with fresh velocities: only completion and integrity count.
        } else if (run.ensemble() == Ensemble.NVE) {
            out.addAll(drift(system, run.label(), run.energy(), run.precision(), t, partial(run)));
        } else {
            out.addAll(temperature(system, run.label(), run.temperature(), t, canonicalThermostat, partial(run)));
        }
        out.add(integrity(system, run));
        return out;
    }

    private static String partial(RunReport run) {
        return run.completed() ? "" : " (over the steps before the run stopped)";
    }

    /** Whether the run did all its steps, with the step, atom and cause of a blow-up. */
    public static CriterionResult completion(String system, RunReport run) {
        String label = run.label();
        BlowUp b = run.blowUp();
        if (b == null && run.stepsCompleted() == run.stepsRequested()) {
            return new CriterionResult(system, label, Criterion.RUN_COMPLETED, (double) run.stepsCompleted(), ">=",
                    run.stepsRequested(), "steps", true, run.stepsCompleted() + " of " + run.stepsRequested() + " steps");
        }
        String why = b == null ? "stopped early" : String.format(Locale.ROOT, "blew up at step %d (t = %.1f fs)%s: %s",
                b.step(), b.timeFs(), b.atom() >= 0 ? ", atom " + b.atom() : "", b.cause());
        return new CriterionResult(system, label, Criterion.RUN_COMPLETED, (double) run.stepsCompleted(), ">=",
                run.stepsRequested(), "steps", false, run.stepsCompleted() + " of " + run.stepsRequested() + " steps; " + why);
    }

    /** A drift over the run below this, meV/atom, is rounding (a rigid body's constant energy), not a trend. */
    static final double ROUNDING_DRIFT_MEV_PER_ATOM = 1e-6;

    /** NVE drift and drift-to-fluctuation verdicts for {@code e} (null: not measured). */
    public static List<CriterionResult> drift(String system, String label, EnergyDrift e, Precision precision, Thresholds t,
                                              String note) {
        List<CriterionResult> out = new ArrayList<>();
        double limit = t.maxDriftFor(precision);
        if (e == null) {
            out.add(unmeasured(system, label, Criterion.ENERGY_DRIFT, "<=", limit, "meV/atom/ps"));
            out.add(unmeasured(system, label, Criterion.DRIFT_TO_KINETIC_SIGMA, "<", t.maxDriftToKineticSigmaRatio(), "1"));
            return out;
        }
        double d = Math.abs(e.driftMeVPerAtomPerPs());
        out.add(new CriterionResult(system, label, Criterion.ENERGY_DRIFT, d, "<=", limit, "meV/atom/ps", d <= limit,
                String.format(Locale.ROOT, "drift %+.4g meV/atom/ps over %.3g ps (%s limit %.3g)%s",
                        e.driftMeVPerAtomPerPs(), e.runLengthPs(), precision.name().toLowerCase(Locale.ROOT), limit, note)));
        double r = e.driftToKineticSigmaRatio();
        // A rigid body (one rigid water under NVE) has a constant kinetic energy: no fluctuation to compare with,
        // and an energy constant to rounding passes whatever the ratio of two rounding errors.
        boolean rounding = Math.abs(e.driftOverRunMeVPerAtom()) < ROUNDING_DRIFT_MEV_PER_ATOM;
        out.add(new CriterionResult(system, label, Criterion.DRIFT_TO_KINETIC_SIGMA, r, "<", t.maxDriftToKineticSigmaRatio(),
                "1", r < t.maxDriftToKineticSigmaRatio() || rounding, String.format(Locale.ROOT,
                "|drift x %.3g ps| = %.3g meV/atom vs sigma(K) = %.3g meV/atom%s%s",
                e.runLengthPs(), Math.abs(e.driftOverRunMeVPerAtom()), e.kineticSigmaMeVPerAtom(),
                rounding ? " (the energy is constant to rounding)" : "", note)));
        return out;
    }

    /** NVT mean-temperature and (canonical thermostats) fluctuation verdicts for {@code s} (null: not measured). */
    public static List<CriterionResult> temperature(String system, String label, TemperatureStatistics s, Thresholds t,
                                                    boolean canonicalThermostat, String note) {
        List<CriterionResult> out = new ArrayList<>();
        if (s == null) {
            out.add(unmeasured(system, label, Criterion.MEAN_TEMPERATURE, "<=", t.maxTemperatureDeviationSigmas(), "SE"));
            return out;
        }
        double z = Math.abs(s.meanDeviationSigmas());
        double limit = BlockAverage.equivalentThreshold(t.maxTemperatureDeviationSigmas(), s.meanBlocks());
        out.add(new CriterionResult(system, label, Criterion.MEAN_TEMPERATURE, z, "<=", limit, "SE", z <= limit,
                String.format(Locale.ROOT, "<T> = %.1f +- %.1f K (SE: the larger of block averaging over %d blocks and the autocorrelation%s) vs target %.1f K; "
                        + "limit %s SE as Student t for %d blocks%s", s.meanK(), s.meanStandardErrorK(), s.meanBlocks(),
                        s.errorReliable() ? "" : ", series short for its correlation time", s.targetK(),
                        trim(t.maxTemperatureDeviationSigmas()), s.meanBlocks(), note)));
        if (canonicalThermostat) {
            double zf = Math.abs(s.sigmaDeviationSigmas());
            double flimit = BlockAverage.equivalentThreshold(t.maxFluctuationDeviationSigmas(), s.sigmaBlocks());
            out.add(new CriterionResult(system, label, Criterion.TEMPERATURE_FLUCTUATION, zf, "<=", flimit, "SE",
                    zf <= flimit, String.format(Locale.ROOT,
                    "sigma_T = %.1f +- %.1f K vs canonical %.1f K (dof %d), ratio %.3f; limit %s SE as Student t for "
                            + "%d blocks%s", s.sigmaK(), s.sigmaStandardErrorK(), s.canonicalSigmaK(),
                    s.degreesOfFreedom(), s.sigmaRatio(), trim(t.maxFluctuationDeviationSigmas()), s.sigmaBlocks(), note)));
        }
        return out;
    }

    /** Structural-integrity verdict of a run. */
    public static CriterionResult integrity(String system, RunReport run) {
        IntegrityResult i = run.integrity();
        String label = run.label();
        if (i == null) {
            return unmeasured(system, label, Criterion.STRUCTURAL_INTEGRITY, "<=", Double.NaN, "r/r0");
        }
        String detail = i.intact()
                ? String.format(Locale.ROOT, "%d bonds, %d hydrogens, %d frames: largest stretch %.3f x (%s)",
                i.bonds(), i.hydrogensChecked(), i.framesChecked(), i.maxBondStretchRatio(), i.worstBond())
                : String.format(Locale.ROOT, "%s at step %d (t = %.1f fs), atom %d: %s", i.firstViolation().kind(),
                i.firstViolation().step(), i.firstViolation().timeFs(), i.firstViolation().atom(),
                i.firstViolation().description());
        return new CriterionResult(system, label, Criterion.STRUCTURAL_INTEGRITY, i.maxBondStretchRatio(), "<=",
                i.maxBondStretchAllowed(), "r/r0", i.intact(), detail);
    }

    /** Verdict on the optimised model's forces against the baseline's. */
    public static CriterionResult forComparison(String system, BaselineComparison c, Thresholds t) {
        double rmse = c.forces().forceRmseEvPerA();
        boolean measured = c.forces().frames() > 0 && Double.isFinite(rmse);
        String skipped = c.framesSkipped() == 0 ? "" : "; " + c.framesSkipped() + " frames could not be evaluated (first: "
                + c.skipReason() + ")";
        return new CriterionResult(system, "comparison", Criterion.BASELINE_FORCE_RMSE, measured ? rmse : null, "<=",
                t.maxForceRmseEvPerA(), "eV/A", measured && rmse <= t.maxForceRmseEvPerA(), measured
                ? String.format(Locale.ROOT, "%s vs %s on %d frames: force RMSE %.3g eV/A (max |dF| %.3g, relative %.3g), "
                        + "max |dE| %.3g meV/atom", c.optimisedModel(), c.baselineModel(), c.forces().frames(), rmse,
                c.forces().forceMaxAbsErrorEvPerA(), c.forces().forceRelativeRmse(), c.forces().energyMaxAbsErrorMeVPerAtom())
                + skipped : "no finite forces to compare (" + c.forces().frames() + " frames)" + skipped);
    }

    private static String trim(double x) {
        return java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }

    private static CriterionResult unmeasured(String system, String run, Criterion c, String cmp, double limit, String unit) {
        return new CriterionResult(system, run, c, null, cmp, limit, unit, false,
                "not measured: the run stopped before enough samples were recorded");
    }
}
