package org.molten.sweep;

import java.io.Serializable;

/**
 * The validation protocol every task of a sweep runs with; a null field means "the validation's
 * default". Units as in {@code molten validate}: steps, fs, K.
 *
 * @param equilibrationSteps  Langevin equilibration steps, or null
 * @param steps               production steps of every NVE and NVT run, or null
 * @param timestepFs          MD timestep in fs, or null
 * @param sampleIntervalSteps steps between samples, or null
 * @param thermostat          NVT thermostat name (langevin, bussi, nose-hoover, berendsen), or null
 * @param thermostatTimeFs    thermostat coupling time in fs, or null
 * @param baseline            baseline model name (torchscript, reference, ...), or null
 * @param device              where the optimised model runs (cpu, cuda, auto), or null
 * @param precision           float64 or float32, or null
 * @param full                the long protocol ({@code validate --full})
 */
public record SweepProtocol(Long equilibrationSteps, Long steps, Double timestepFs, Integer sampleIntervalSteps,
                            String thermostat, Double thermostatTimeFs, String baseline, String device, String precision,
                            boolean full) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Every field at the validation's default (the quick protocol). */
    public static SweepProtocol defaults() {
        return new SweepProtocol(null, null, null, null, null, null, null, null, null, false);
    }

    /** True when a task of this protocol needs a GPU member. */
    public boolean wantsGpu() {
        return device != null && device.trim().equalsIgnoreCase("cuda");
    }
}
