package org.molten.validation.reports;

import org.molten.core.Checks;
import org.molten.validation.metrics.StructuralIntegrity;

/**
 * The pass/fail limits of a validation run; every default is defined here once and stated in
 * each report.
 *
 * @param maxDriftMeVPerAtomPerPs          NVE: largest allowed |drift| of the total energy,
 *                                         meV/atom/ps, for a model evaluated in float64
 * @param maxDriftFloat32MeVPerAtomPerPs   the same for a model evaluated in float32 (rounding of
 *                                         the forces adds a random walk to the energy)
 * @param maxDriftToKineticSigmaRatio      NVE: |drift × run length| / σ(K), both per atom, must be
 *                                         strictly below this pure number
 * @param maxTemperatureDeviationSigmas    NVT: |⟨T⟩ - T_target| must be at most this many
 *                                         standard errors of ⟨T⟩
 * @param maxFluctuationDeviationSigmas    NVT with a canonical thermostat: |σ_T - T sqrt(2/dof)|
 *                                         must be at most this many standard errors of σ_T
 * @param maxBondStretchRatio              integrity: no starting bond beyond this multiple of its
 *                                         starting length
 * @param escapeMarginA                    integrity (isolated molecules): no atom farther from the
 *                                         centre of mass than its starting extent plus this, Å
 * @param overlapLimitA                    integrity: no two atoms closer than this, Å
 * @param maxForceRmseEvPerA               baseline comparison: largest RMSE of the optimised
 *                                         model's forces against the baseline's on the same
 *                                         frames, eV/Å
 * @param maxTeacherForceMaeEvPerA         teacher checks: largest force MAE of the student
 *                                         against the teacher on frames of the student's own
 *                                         trajectories, eV/Å
 * @param minStableFraction                stability: smallest fraction of replicas whose runs
 *                                         all complete with the structure intact
 * @param maxObservableDivergence          teacher baseline: largest Jensen–Shannon divergence
 *                                         (bits, 0 to 1) between a structural distribution of the
 *                                         student's MD and the teacher's, for every kind; NaN for
 *                                         the per-kind defaults
 */
public record Thresholds(
        double maxDriftMeVPerAtomPerPs,
        double maxDriftFloat32MeVPerAtomPerPs,
        double maxDriftToKineticSigmaRatio,
        double maxTemperatureDeviationSigmas,
        double maxFluctuationDeviationSigmas,
        double maxBondStretchRatio,
        double escapeMarginA,
        double overlapLimitA,
        double maxForceRmseEvPerA,
        double maxTeacherForceMaeEvPerA,
        double minStableFraction,
        double maxObservableDivergence) {

    /** Default |drift| limit in float64, meV/atom/ps. */
    public static final double DEFAULT_MAX_DRIFT_MEV_PER_ATOM_PER_PS = 0.05;
    /** Default |drift| limit in float32, meV/atom/ps. */
    public static final double DEFAULT_MAX_DRIFT_FLOAT32_MEV_PER_ATOM_PER_PS = 0.5;
    /** Default limit on |drift over the run| / σ(K), pure number. */
    public static final double DEFAULT_MAX_DRIFT_TO_KINETIC_SIGMA_RATIO = 1.0;
    /** Default limit on the NVT mean temperature, in standard errors of the mean. */
    public static final double DEFAULT_MAX_TEMPERATURE_DEVIATION_SIGMAS = 3.0;
    /** Default limit on the NVT temperature fluctuation, in standard errors of σ_T. */
    public static final double DEFAULT_MAX_FLUCTUATION_DEVIATION_SIGMAS = 3.0;
    /** Default force RMSE limit against the baseline, eV/Å. */
    public static final double DEFAULT_MAX_FORCE_RMSE_EV_PER_A = 1e-3;

    /**
     * Default teacher force-MAE limit on the student's own trajectories, eV/Å: 0.03, about twice the
     * bundled model's test-set MAE (0.0135) — a student that holds up where its MD goes stays
     * within a small factor of its test error; 0.04-0.05 (seen on alanine dipeptide) means its MD
     * visits configurations it was not trained on.
     */
    public static final double DEFAULT_MAX_TEACHER_FORCE_MAE_EV_PER_A = 0.03;
    /** Default smallest fraction of stable replicas: all of them. */
    public static final double DEFAULT_MIN_STABLE_FRACTION = 1.0;
    /**
     * Default largest Jensen–Shannon divergence of a structural distribution: NaN, which means the
     * per-kind defaults of {@link org.molten.validation.observables.DivergenceThresholds} (set from
     * the spread between independent runs of one model: bonds and angles 0.1, backbone dihedrals
     * 0.5, O–O 0.03 bits).
     */
    public static final double DEFAULT_MAX_OBSERVABLE_DIVERGENCE = Double.NaN;

    /** Limits without the teacher and replica criteria (their defaults). */
    public Thresholds(double maxDriftMeVPerAtomPerPs, double maxDriftFloat32MeVPerAtomPerPs,
                      double maxDriftToKineticSigmaRatio, double maxTemperatureDeviationSigmas,
                      double maxFluctuationDeviationSigmas, double maxBondStretchRatio, double escapeMarginA,
                      double overlapLimitA, double maxForceRmseEvPerA) {
        this(maxDriftMeVPerAtomPerPs, maxDriftFloat32MeVPerAtomPerPs, maxDriftToKineticSigmaRatio,
                maxTemperatureDeviationSigmas, maxFluctuationDeviationSigmas, maxBondStretchRatio, escapeMarginA,
                overlapLimitA, maxForceRmseEvPerA, DEFAULT_MAX_TEACHER_FORCE_MAE_EV_PER_A, DEFAULT_MIN_STABLE_FRACTION,
                DEFAULT_MAX_OBSERVABLE_DIVERGENCE);
    }

    /** Checks every limit. */
    public Thresholds {
        Checks.requirePositive(maxDriftMeVPerAtomPerPs, "maxDriftMeVPerAtomPerPs");
        Checks.requirePositive(maxDriftFloat32MeVPerAtomPerPs, "maxDriftFloat32MeVPerAtomPerPs");
        Checks.requirePositive(maxDriftToKineticSigmaRatio, "maxDriftToKineticSigmaRatio");
        Checks.requirePositive(maxTemperatureDeviationSigmas, "maxTemperatureDeviationSigmas");
        Checks.requirePositive(maxFluctuationDeviationSigmas, "maxFluctuationDeviationSigmas");
        if (!(maxBondStretchRatio > 1) || Double.isInfinite(maxBondStretchRatio)) {
            throw new IllegalArgumentException("maxBondStretchRatio must be finite and above 1: " + maxBondStretchRatio);
        }
        Checks.requireNonNegative(escapeMarginA, "escapeMarginA");
        Checks.requireNonNegative(overlapLimitA, "overlapLimitA");
        Checks.requirePositive(maxForceRmseEvPerA, "maxForceRmseEvPerA");
        Checks.requirePositive(maxTeacherForceMaeEvPerA, "maxTeacherForceMaeEvPerA");
        if (!(minStableFraction >= 0 && minStableFraction <= 1)) {
            throw new IllegalArgumentException("minStableFraction must be within 0 to 1: " + minStableFraction);
        }
        if (!Double.isNaN(maxObservableDivergence) && !(maxObservableDivergence > 0 && maxObservableDivergence <= 1)) {
            throw new IllegalArgumentException("maxObservableDivergence must be above 0 and at most 1 bit: "
                    + maxObservableDivergence);
        }
    }

    /** The defaults. */
    public static Thresholds defaults() {
        return new Thresholds(DEFAULT_MAX_DRIFT_MEV_PER_ATOM_PER_PS, DEFAULT_MAX_DRIFT_FLOAT32_MEV_PER_ATOM_PER_PS,
                DEFAULT_MAX_DRIFT_TO_KINETIC_SIGMA_RATIO, DEFAULT_MAX_TEMPERATURE_DEVIATION_SIGMAS,
                DEFAULT_MAX_FLUCTUATION_DEVIATION_SIGMAS, StructuralIntegrity.DEFAULT_MAX_STRETCH_RATIO,
                StructuralIntegrity.DEFAULT_ESCAPE_MARGIN_A, StructuralIntegrity.DEFAULT_OVERLAP_LIMIT_A,
                DEFAULT_MAX_FORCE_RMSE_EV_PER_A);
    }

    /** The drift limit for a model evaluated at {@code precision}. */
    public double maxDriftFor(Precision precision) {
        return precision == Precision.FLOAT32 ? maxDriftFloat32MeVPerAtomPerPs : maxDriftMeVPerAtomPerPs;
    }
}
