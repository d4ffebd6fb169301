package org.molten.validation.runs;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

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

    /**
     * Writes the samples as whitespace-separated columns with ASE MDLogger headers:
     * {@code Step Time[ps] Etot[eV] Epot[eV] Ekin[eV] T[K] Ebath[eV]}.
     */
    public void writeCsv(Path file) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(String.format(Locale.ROOT, "%10s %12s %18s %18s %14s %10s %14s%n",
                    "Step", "Time[ps]", "Etot[eV]", "Epot[eV]", "Ekin[eV]", "T[K]", "Ebath[eV]"));
            for (int i = 0; i < size; i++) {
                w.write(String.format(Locale.ROOT, "%10d %12.5f %18.10f %18.10f %14.10f %10.3f %14.10f%n", step[i],
                        timeFs[i] / 1000.0, potentialEv[i] + kineticEv[i], potentialEv[i], kineticEv[i], temperatureK[i], bathEv[i]));
            }
        }
    }
}
