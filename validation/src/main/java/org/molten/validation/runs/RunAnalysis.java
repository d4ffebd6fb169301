package org.molten.validation.runs;

import org.molten.core.Units;
import org.molten.validation.metrics.EnergyDrift;
import org.molten.validation.metrics.TemperatureStatistics;
import org.molten.validation.reports.Ensemble;
import org.molten.validation.reports.Performance;
import org.molten.validation.reports.RunPhase;
import org.molten.validation.reports.RunReport;

/** Turns a {@link RunOutcome} into the metrics of a {@link RunReport}. */
final class RunAnalysis {
    /** Samples needed before drifts and block averages mean anything. */
    static final int MIN_SAMPLES = 8;

    private RunAnalysis() {}

    static RunReport analyse(RunOutcome o, double targetK, int atomCount) {
        RunSpec s = o.spec();
        EnergySeries series = o.series();
        boolean enough = series.size() >= MIN_SAMPLES && o.degreesOfFreedom() > 0;
        EnergyDrift energy = null;
        EnergyDrift conserved = null;
        TemperatureStatistics temperature = null;
        if (enough) {
            if (s.ensemble() == Ensemble.NVE) {
                energy = EnergyDrift.of(series.timeFs(), series.totalEv(), series.kineticEv(), atomCount);
            } else if (s.phase() == RunPhase.PRODUCTION) {
                conserved = EnergyDrift.of(series.timeFs(), series.conservedEv(), series.kineticEv(), atomCount);
            }
            // The first sample is the starting state, shared by all runs; it stays in (its weight is 1/n).
            temperature = TemperatureStatistics.of(series.temperatureK(), targetK, o.degreesOfFreedom());
        }
        double dt = s.integrator().timestepFs();
        Performance perf = o.stepsCompleted() > 0 && o.wallSeconds() > 0
                ? new Performance(o.wallSeconds(), o.stepsCompleted() / o.wallSeconds(),
                Units.nsPerDay(dt, o.stepsCompleted() / o.wallSeconds()))
                : null;
        return new RunReport(s.label(), s.phase(), s.role(), s.ensemble(), s.forceField().name(), s.precision(),
                s.integrator().description(), dt, s.steps(), o.stepsCompleted(), s.sampleIntervalSteps(),
                o.stepsCompleted() * dt / 1000.0, o.degreesOfFreedom(), energy, conserved, temperature, o.integrity(), perf,
                o.blowUp(), s.energyLog().getFileName().toString(), o.platform(), o.batchedReplicas());
    }
}
