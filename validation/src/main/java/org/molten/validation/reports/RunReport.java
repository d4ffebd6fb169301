package org.molten.validation.reports;

import org.molten.validation.metrics.EnergyDrift;
import org.molten.validation.metrics.IntegrityResult;
import org.molten.validation.metrics.TemperatureStatistics;

/**
 * Metrics of one production run.
 *
 * @param label             "optimised NVE", "baseline NVT", ...
 * @param phase             equilibration or production
 * @param role              optimised model or baseline
 * @param ensemble          NVE or NVT
 * @param model             the force field's name
 * @param precision         arithmetic precision of the force field
 * @param integrator        integrator and thermostat with their parameters, in words
 * @param timestepFs        MD timestep, fs
 * @param stepsRequested    production steps asked for
 * @param stepsCompleted    production steps done (fewer when the run blew up)
 * @param sampleIntervalSteps steps between recorded samples
 * @param simulatedPs       simulated time of the production run, ps
 * @param degreesOfFreedom  dof of the instantaneous temperature
 * @param energy            total-energy drift metrics (NVE; for NVT the total energy is not
 *                          conserved and this is null)
 * @param conservedEnergy   NVT only, for information: drift metrics of E_tot + E_bath (the energy
 *                          the thermostat exchanged), which the integrator conserves up to its
 *                          discretisation error; null for NVE
 * @param temperature       temperature statistics against the target (the canonical comparison
 *                          applies to NVT only; for NVE it is informational)
 * @param integrity         structural integrity over the run
 * @param performance       speed
 * @param blowUp            why the run stopped early, or null when it completed
 * @param seriesFile        CSV file with the sampled series (ASE MDLogger columns), relative to the report
 * @param platform          where the steps ran: "cpu" (host integrator, whatever device the forces used) or a
 *                          device platform ("cuda": whole steps on the GPU)
 * @param batchedReplicas   replicas advanced together in one device binding, this run's replica among them
 *                          (1: alone)
 */
public record RunReport(
        String label, RunPhase phase, ModelRole role, Ensemble ensemble, String model, Precision precision, String integrator,
        double timestepFs, long stepsRequested, long stepsCompleted, int sampleIntervalSteps, double simulatedPs,
        int degreesOfFreedom, EnergyDrift energy, EnergyDrift conservedEnergy, TemperatureStatistics temperature, IntegrityResult integrity,
        Performance performance, BlowUp blowUp, String seriesFile, String platform, int batchedReplicas) {

    /** A run alone on the host platform. */
    public RunReport(String label, RunPhase phase, ModelRole role, Ensemble ensemble, String model, Precision precision,
                     String integrator, double timestepFs, long stepsRequested, long stepsCompleted, int sampleIntervalSteps,
                     double simulatedPs, int degreesOfFreedom, EnergyDrift energy, EnergyDrift conservedEnergy,
                     TemperatureStatistics temperature, IntegrityResult integrity, Performance performance, BlowUp blowUp,
                     String seriesFile) {
        this(label, phase, role, ensemble, model, precision, integrator, timestepFs, stepsRequested, stepsCompleted,
                sampleIntervalSteps, simulatedPs, degreesOfFreedom, energy, conservedEnergy, temperature, integrity, performance,
                blowUp, seriesFile, "cpu", 1);
    }

    /** True when the run did all its steps. */
    public boolean completed() {
        return blowUp == null && stepsCompleted == stepsRequested;
    }
}
