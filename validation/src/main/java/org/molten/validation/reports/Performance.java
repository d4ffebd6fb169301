package org.molten.validation.reports;

/**
 * Speed of a production run (the equilibration is not counted).
 *
 * @param wallSeconds     wall-clock time of the MD loop, s
 * @param stepsPerSecond  MD steps per wall-clock second
 * @param nsPerDay        simulated ns per wall-clock day at the run's timestep
 */
public record Performance(double wallSeconds, double stepsPerSecond, double nsPerDay) {
}
