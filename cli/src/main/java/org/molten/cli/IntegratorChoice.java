package org.molten.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import org.molten.integrators.Integrator;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;
import picocli.CommandLine;

/** The integrators {@code molten run --integrator} offers, by their command-line names. */
enum IntegratorChoice {
    /** NVE velocity Verlet. */
    VERLET("verlet", Coupling.NONE),
    /** Langevin, BAOAB splitting; takes --friction. */
    LANGEVIN("langevin", Coupling.FRICTION),
    /** Nosé–Hoover chain (length 3); takes --tau. */
    NOSE_HOOVER("nose-hoover", Coupling.TAU),
    /** Bussi stochastic velocity rescaling; takes --tau. */
    BUSSI("bussi", Coupling.TAU),
    /** Berendsen weak coupling (not canonical); takes --tau. */
    BERENDSEN("berendsen", Coupling.TAU);

    /** Which coupling parameter an integrator takes. */
    enum Coupling { NONE, FRICTION, TAU }

    final String cliName;
    final Coupling coupling;

    IntegratorChoice(String cliName, Coupling coupling) {
        this.cliName = cliName;
        this.coupling = coupling;
    }

    /**
     * The integrator.
     *
     * @param frictionPerFs Langevin friction γ in 1/fs (used by {@link #LANGEVIN} only)
     * @param tauFs         coupling time τ in fs (used by the rescaling thermostats only)
     */
    Integrator create(double timestepFs, double temperatureK, double frictionPerFs, double tauFs) {
        switch (this) {
            case VERLET:
                return new VelocityVerlet(timestepFs);
            case LANGEVIN:
                return new VelocityVerlet(timestepFs, LangevinThermostat.of(temperatureK, frictionPerFs));
            case NOSE_HOOVER:
                return new VelocityVerlet(timestepFs, new NoseHooverChain(temperatureK, tauFs));
            case BUSSI:
                return new VelocityVerlet(timestepFs, new BussiThermostat(temperatureK, tauFs));
            case BERENDSEN:
                return new VelocityVerlet(timestepFs, new BerendsenThermostat(temperatureK, tauFs));
            default:
                throw new AssertionError(this);
        }
    }

    @Override
    public String toString() {
        return cliName;
    }

    /** Parses the command-line name ("nose-hoover"); picocli reports the message on failure. */
    static final class Converter implements CommandLine.ITypeConverter<IntegratorChoice> {
        @Override
        public IntegratorChoice convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            for (IntegratorChoice c : values()) {
                if (c.cliName.equals(v)) {
                    return c;
                }
            }
            throw new CommandLine.TypeConversionException("unknown integrator '" + value + "'; choose one of "
                    + String.join(", ", new Names()));
        }
    }

    /** The names for help texts (${COMPLETION-CANDIDATES}). */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(values()).map(c -> c.cliName).iterator();
        }
    }
}
