package org.molten.validation.reports;

/** The pass/fail criteria of a validation run; the JSON names are the {@link #id()}s. */
public enum Criterion {
    /** The run did all its steps: no non-finite energy or force, nothing the integrator refused. */
    RUN_COMPLETED("run-completed", "run finished all steps"),
    /** NVE: |linear-fit total-energy drift| per atom. */
    ENERGY_DRIFT("energy-drift", "|total-energy drift|"),
    /** NVE: |drift over the run| / σ(K), both per atom. */
    DRIFT_TO_KINETIC_SIGMA("drift-to-kinetic-sigma", "|drift x run length| / sigma(K)"),
    /** NVT: |⟨T⟩ - T_target| in standard errors of ⟨T⟩ (block averaging or autocorrelation, the larger). */
    MEAN_TEMPERATURE("mean-temperature", "|<T> - T_target| / SE(<T>)"),
    /** NVT, canonical thermostats: |σ_T - T sqrt(2/dof)| in standard errors of σ_T. */
    TEMPERATURE_FLUCTUATION("temperature-fluctuation", "|sigma_T - T sqrt(2/dof)| / SE(sigma_T)"),
    /** Bonds, hydrogens, escapes and overlaps against the starting structure. */
    STRUCTURAL_INTEGRITY("structural-integrity", "structure intact"),
    /** Force RMSE of the optimised model against the baseline on the optimised run's frames. */
    BASELINE_FORCE_RMSE("baseline-force-rmse", "force RMSE optimised vs baseline"),
    /** Fraction of replicas whose student runs all completed with the structure intact. */
    STABLE_FRACTION("stable-fraction", "replicas stable for the whole run"),
    /** Force MAE of the student against the teacher on frames of the student's own runs. */
    TEACHER_FORCE_MAE("teacher-force-mae", "force MAE student vs teacher on the student's trajectories"),
    /** Divergence of a structural distribution between the student's and the teacher's MD. */
    OBSERVABLE_DIVERGENCE("observable-divergence", "distribution student vs teacher MD");

    private final String id;
    private final String description;

    Criterion(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** Stable identifier used in JSON and on the command line. */
    public String id() {
        return id;
    }

    /** What is compared, in words. */
    public String description() {
        return description;
    }

    @com.fasterxml.jackson.annotation.JsonValue
    @Override
    public String toString() {
        return id;
    }
}
