package org.molten.validation;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The NVT thermostats a validation can use, with their command-line names. */
public enum ThermostatKind {
    /** Langevin dynamics, BAOAB splitting (Leimkuhler and Matthews 2013): canonical. */
    LANGEVIN("langevin", true),
    /** Stochastic velocity rescaling (Bussi, Donadio and Parrinello 2007): canonical. */
    BUSSI("bussi", true),
    /** Nosé-Hoover chain (Martyna, Klein and Tuckerman 1992): canonical when ergodic. */
    NOSE_HOOVER("nose-hoover", true),
    /** Berendsen weak coupling (1984): right mean temperature, suppressed fluctuations (not canonical). */
    BERENDSEN("berendsen", false);

    private final String id;
    private final boolean canonical;

    ThermostatKind(String id, boolean canonical) {
        this.id = id;
        this.canonical = canonical;
    }

    /** Command-line and report name. */
    public String id() {
        return id;
    }

    /** True when the thermostat samples the canonical ensemble, so σ_T is checked against T sqrt(2/dof). */
    public boolean canonical() {
        return canonical;
    }

    /**
     * The thermostat named {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static ThermostatKind parse(String name) {
        for (ThermostatKind k : values()) {
            if (k.id.equalsIgnoreCase(name.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown thermostat '" + name + "'; choose one of " + ids());
    }

    /** The allowed names, comma-separated. */
    public static String ids() {
        return Arrays.stream(values()).map(ThermostatKind::id).collect(Collectors.joining(", "));
    }

    @com.fasterxml.jackson.annotation.JsonValue
    @Override
    public String toString() {
        return id;
    }
}
