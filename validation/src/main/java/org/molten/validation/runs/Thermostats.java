package org.molten.validation.runs;

import org.molten.integrators.Thermostat;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;
import org.molten.validation.ThermostatKind;

/** Builds the integrators package's thermostat for a {@link ThermostatKind}. */
final class Thermostats {
    private Thermostats() {}

    /**
     * A fresh thermostat at {@code temperatureK} (K) with coupling time {@code timeConstantFs}
     * (fs): friction 1/τ for Langevin, relaxation time τ for the others.
     */
    static Thermostat create(ThermostatKind kind, double temperatureK, double timeConstantFs) {
        return switch (kind) {
            case LANGEVIN -> LangevinThermostat.of(temperatureK, 1.0 / timeConstantFs);
            case BUSSI -> new BussiThermostat(temperatureK, timeConstantFs);
            case NOSE_HOOVER -> new NoseHooverChain(temperatureK, timeConstantFs);
            case BERENDSEN -> new BerendsenThermostat(temperatureK, timeConstantFs);
        };
    }
}
