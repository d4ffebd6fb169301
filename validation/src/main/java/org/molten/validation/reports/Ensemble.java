package org.molten.validation.reports;

/** Thermodynamic ensemble of a production run. */
public enum Ensemble {
    /** Constant energy: Velocity Verlet, no thermostat. */
    NVE,
    /** Constant temperature: a thermostat at the target temperature. */
    NVT
}
