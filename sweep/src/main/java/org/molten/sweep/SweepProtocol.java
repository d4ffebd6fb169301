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
 * @param constraints         bond constraints (none, h-bonds, all-bonds), or null for none
 * @param hydrogenMassAmu     hydrogen mass repartitioning in amu, or null for standard masses
 */
public record SweepProtocol(Long equilibrationSteps, Long steps, Double timestepFs, Integer sampleIntervalSteps,
                            String thermostat, Double thermostatTimeFs, String baseline, String device, String precision,
                            boolean full, String constraints, Double hydrogenMassAmu) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** A protocol without constraints and with standard masses. */
    public SweepProtocol(Long equilibrationSteps, Long steps, Double timestepFs, Integer sampleIntervalSteps,
                         String thermostat, Double thermostatTimeFs, String baseline, String device, String precision,
                         boolean full) {
        this(equilibrationSteps, steps, timestepFs, sampleIntervalSteps, thermostat, thermostatTimeFs, baseline, device,
                precision, full, null, null);
    }

    /** Every field at the validation's default (the quick protocol). */
    public static SweepProtocol defaults() {
        return new SweepProtocol(null, null, null, null, null, null, null, null, null, false);
    }

    /**
     * The record's text, the constraint fields only when set: task ids digest it, so the ids of
     * sweeps without constraints stay what they were before those fields existed (resume).
     */
    @Override
    public String toString() {
        String base = "SweepProtocol[equilibrationSteps=" + equilibrationSteps + ", steps=" + steps + ", timestepFs="
                + timestepFs + ", sampleIntervalSteps=" + sampleIntervalSteps + ", thermostat=" + thermostat
                + ", thermostatTimeFs=" + thermostatTimeFs + ", baseline=" + baseline + ", device=" + device
                + ", precision=" + precision + ", full=" + full;
        if (constraints != null || hydrogenMassAmu != null) {
            base += ", constraints=" + constraints + ", hydrogenMassAmu=" + hydrogenMassAmu;
        }
        return base + "]";
    }

    /** True when a task of this protocol needs a GPU member. */
    public boolean wantsGpu() {
        return device != null && device.trim().equalsIgnoreCase("cuda");
    }
}
