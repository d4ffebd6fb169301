package org.molten.validation.runs;

import java.util.Arrays;

/**
 * Samples of one run: time (fs), total, potential and kinetic energy (eV), instantaneous
 * temperature (K) and the thermostat's bath energy (eV; 0 for NVE), so that
 * E_tot + E_bath is the conserved quantity of a thermostatted run. Grows as samples are added.
 */
public final class EnergySeries {
    private double[] timeFs = new double[256];
    private double[] potentialEv = new double[256];
    private double[] kineticEv = new double[256];
    private double[] temperatureK = new double[256];
    private double[] bathEv = new double[256];
    private long[] step = new long[256];
    private int size;

    /** Adds a sample. */
    public void add(long stepIndex, double tFs, double epotEv, double ekinEv, double tempK, double bathEnergyEv) {
        if (size == timeFs.length) {
            int n = 2 * size;
            timeFs = Arrays.copyOf(timeFs, n);
            potentialEv = Arrays.copyOf(potentialEv, n);
            kineticEv = Arrays.copyOf(kineticEv, n);
            temperatureK = Arrays.copyOf(temperatureK, n);
            bathEv = Arrays.copyOf(bathEv, n);
            step = Arrays.copyOf(step, n);
        }
        step[size] = stepIndex;
        timeFs[size] = tFs;
        potentialEv[size] = epotEv;
        kineticEv[size] = ekinEv;
        temperatureK[size] = tempK;
        bathEv[size] = bathEnergyEv;
        size++;
    }

    /** Number of samples. */
    public int size() {
        return size;
    }

    /** Sample times, fs (a copy). */
    public double[] timeFs() {
        return Arrays.copyOf(timeFs, size);
    }

    /** MD step of each sample (a copy). */
    public long[] steps() {
        return Arrays.copyOf(step, size);
    }

    /** Potential energies, eV (a copy). */
    public double[] potentialEv() {
        return Arrays.copyOf(potentialEv, size);
    }

    /** Kinetic energies, eV (a copy). */
    public double[] kineticEv() {
        return Arrays.copyOf(kineticEv, size);
    }

    /** Total energies E_pot + E_kin, eV. */
    public double[] totalEv() {
        double[] e = new double[size];
        for (int i = 0; i < size; i++) {
            e[i] = potentialEv[i] + kineticEv[i];
        }
        return e;
    }

    /** Conserved quantity of a thermostatted run, E_pot + E_kin + E_bath, eV. */
    public double[] conservedEv() {
        double[] e = new double[size];
        for (int i = 0; i < size; i++) {
            e[i] = potentialEv[i] + kineticEv[i] + bathEv[i];
        }
        return e;
    }

    /** Instantaneous temperatures, K (a copy). */
    public double[] temperatureK() {
        return Arrays.copyOf(temperatureK, size);
    }
}
