package org.molten.validation;

import java.util.List;
import org.molten.core.Checks;

/**
 * What a validation run does: which systems, at which temperature and timestep, for how many
 * steps, with which thermostat, device and baseline, from which seed. Every default is defined
 * here once; {@link #quickProtocol()} is what {@code molten validate} runs without options and
 * {@link #fullProtocol()} what {@code --full} runs.
 *
 * @param systems                  built-in system names, in order
 * @param temperatureK             target temperature (K) of the velocities, the equilibration and NVT
 * @param timestepFs               MD timestep (fs) of every run
 * @param equilibrationSteps       Langevin equilibration steps before production (optimised model)
 * @param nveSteps                 NVE production steps per model
 * @param nvtSteps                 NVT production steps per model
 * @param sampleIntervalSteps      steps between recorded samples (energies, temperature, frames)
 * @param thermostat               NVT thermostat
 * @param thermostatTimeConstantFs coupling time (fs): 1/friction for Langevin, τ for Bussi,
 *                                 Berendsen and the Nosé-Hoover chain
 * @param device                   where the optimised student runs
 * @param baseline                 the model it is compared with
 * @param seed                     seed of the velocities and every stochastic thermostat
 * @param full                     true for the long protocol ({@code --full})
 */
public record ValidationSettings(
        List<String> systems, double temperatureK, double timestepFs, long equilibrationSteps, long nveSteps,
        long nvtSteps, int sampleIntervalSteps, ThermostatKind thermostat, double thermostatTimeConstantFs,
        DeviceChoice device, BaselineKind baseline, long seed, boolean full) {

    /** The four systems of the default validation. */
    public static final List<String> DEFAULT_SYSTEMS = List.of("water", "ethanol", "benzene", "alanine-dipeptide");
    /** Every system a validation can run. */
    public static final List<String> ALL_SYSTEMS =
            List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme", "water-box");
    /** Default target temperature, K. */
    public static final double DEFAULT_TEMPERATURE_K = 300.0;
    /** Default timestep, fs. */
    public static final double DEFAULT_TIMESTEP_FS = 0.5;
    /** Default seed. */
    public static final long DEFAULT_SEED = 20261121L;
    /** Default thermostat. */
    public static final ThermostatKind DEFAULT_THERMOSTAT = ThermostatKind.LANGEVIN;
    /**
     * Default thermostat coupling time, fs (Langevin friction 0.02 1/fs). Short enough that the
     * temperature decorrelates ~100 times within the quick NVT run, which the block-averaged
     * error bars of the temperature criteria need (at 100 fs, 2 ps of NVT hold ~10 independent
     * temperatures and the error bars are themselves unreliable).
     */
    public static final double DEFAULT_THERMOSTAT_TIME_CONSTANT_FS = 50.0;
    /** Default device: the CPU, so the default report is the same on every machine. */
    public static final DeviceChoice DEFAULT_DEVICE = DeviceChoice.CPU;
    /** Default baseline. */
    public static final BaselineKind DEFAULT_BASELINE = BaselineKind.TORCHSCRIPT;
    /** Default steps between samples. */
    public static final int DEFAULT_SAMPLE_INTERVAL_STEPS = 5;
    /** Quick protocol: equilibration steps (0.5 ps at 0.5 fs). */
    public static final long QUICK_EQUILIBRATION_STEPS = 1000;
    /** Quick protocol: NVE steps per model (2 ps at 0.5 fs). */
    public static final long QUICK_NVE_STEPS = 4000;
    /**
     * Quick protocol: NVT steps per model (3 ps at 0.5 fs): about 60 temperature correlation
     * times at the default coupling, enough for block-averaged error bars that hold their
     * nominal false-alarm rate (measured: 0 of 40 seeds failed with a correct thermostat).
     */
    public static final long QUICK_NVT_STEPS = 6000;
    /** Full protocol: equilibration steps (2 ps at 0.5 fs). */
    public static final long FULL_EQUILIBRATION_STEPS = 4000;
    /** Full protocol: NVE and NVT steps per model (10 ps each at 0.5 fs). */
    public static final long FULL_PRODUCTION_STEPS = 20000;

    /** Checks every field. */
    public ValidationSettings {
        if (systems == null || systems.isEmpty()) {
            throw new IllegalArgumentException("no systems to validate");
        }
        for (String s : systems) {
            if (!ALL_SYSTEMS.contains(s)) {
                throw new IllegalArgumentException("unknown system '" + s + "'; choose from " + String.join(", ", ALL_SYSTEMS));
            }
        }
        if (new java.util.HashSet<>(systems).size() != systems.size()) {
            throw new IllegalArgumentException("a system is listed twice: " + String.join(", ", systems));
        }
        systems = List.copyOf(systems);
        Checks.requirePositive(temperatureK, "temperature (K)");
        Checks.requirePositive(timestepFs, "timestep (fs)");
        Checks.requireNonNegative(equilibrationSteps, "equilibration steps");
        Checks.requirePositive(nveSteps, "NVE steps");
        Checks.requirePositive(nvtSteps, "NVT steps");
        Checks.requirePositive(sampleIntervalSteps, "sample interval (steps)");
        Checks.requirePositive(thermostatTimeConstantFs, "thermostat time constant (fs)");
        long minSamples = 16;
        if (Math.min(nveSteps, nvtSteps) / sampleIntervalSteps < minSamples) {
            throw new IllegalArgumentException("too few samples: " + Math.min(nveSteps, nvtSteps) + " steps at one sample every "
                    + sampleIntervalSteps + " steps gives fewer than " + minSamples + " samples; raise --steps or lower --sample-interval");
        }
        if (thermostat == null || device == null || baseline == null) {
            throw new IllegalArgumentException("thermostat, device and baseline must be given");
        }
    }

    private static ValidationSettings protocol(long equilibration, long nve, long nvt, boolean full) {
        return new ValidationSettings(DEFAULT_SYSTEMS, DEFAULT_TEMPERATURE_K, DEFAULT_TIMESTEP_FS, equilibration, nve,
                nvt, DEFAULT_SAMPLE_INTERVAL_STEPS, DEFAULT_THERMOSTAT, DEFAULT_THERMOSTAT_TIME_CONSTANT_FS,
                DEFAULT_DEVICE, DEFAULT_BASELINE, DEFAULT_SEED, full);
    }

    /** The default, quick protocol. */
    public static ValidationSettings quickProtocol() {
        return protocol(QUICK_EQUILIBRATION_STEPS, QUICK_NVE_STEPS, QUICK_NVT_STEPS, false);
    }

    /** The long protocol: at least 10 ps of NVE and 10 ps of NVT per system at the default timestep. */
    public static ValidationSettings fullProtocol() {
        return protocol(FULL_EQUILIBRATION_STEPS, FULL_PRODUCTION_STEPS, FULL_PRODUCTION_STEPS, true);
    }

    /** NVE production length, ps. */
    public double nvePs() {
        return nveSteps * timestepFs / 1000.0;
    }

    /** NVT production length, ps. */
    public double nvtPs() {
        return nvtSteps * timestepFs / 1000.0;
    }
}
