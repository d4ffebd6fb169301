package org.molten.validation.metrics;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.RandomStream;

class DriftAndFitTest {

    @Test
    void linearFitRecoversAnExactLine() {
        double[] x = {0, 1, 2, 3, 4};
        double[] y = {1.5, 3.5, 5.5, 7.5, 9.5};
        LinearFit f = LinearFit.of(x, y);
        assertEquals(2.0, f.slope(), 1e-12);
        assertEquals(1.5, f.intercept(), 1e-12);
        assertEquals(1.0, f.rSquared(), 1e-12);
        assertEquals(0.0, f.slopeStandardError(), 1e-12);
    }

    @Test
    void linearFitRefusesBadInput() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LinearFit.of(new double[] {1, 1}, new double[] {1, 2}))
                .getMessage().contains("constant"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LinearFit.of(new double[] {0, 1, 2}, new double[] {1, Double.NaN, 2}))
                .getMessage().contains("point 1"));
        assertThrows(IllegalArgumentException.class, () -> LinearFit.of(new double[] {0, 1}, new double[] {1}));
    }

    /**
     * A total energy with a known linear drift of 0.02 meV/atom/ps on top of a large offset and a
     * fast oscillation (the Verlet shadow-energy wiggle); the kinetic energy oscillates with a known
     * standard deviation. Every derived number has a closed form.
     */
    @Test
    void energyDriftOfASyntheticSeriesHasTheKnownSlopeAndRatio() {
        int atoms = 9;
        double slopeMeVPerAtomPerPs = 0.02;
        double dtFs = 0.5;
        int n = 20001;                       // 10 ps
        double[] t = new double[n];
        double[] e = new double[n];
        double[] k = new double[n];
        double kAmpEv = 0.05;                // KE = K0 + A sin(w t): sigma = A / sqrt(2)
        for (int i = 0; i < n; i++) {
            t[i] = i * dtFs;
            double tPs = t[i] / 1000;
            // 200 full periods of the wiggle over the run, so it averages out of the fit.
            double wiggle = 1e-5 * Math.sin(2 * Math.PI * i / 100.0);
            e[i] = -1234.5 + slopeMeVPerAtomPerPs * 1e-3 * atoms * tPs + wiggle;
            k[i] = 0.3 + kAmpEv * Math.sin(2 * Math.PI * i / 250.0);
        }
        EnergyDrift d = EnergyDrift.of(t, e, k, atoms);
        assertEquals(slopeMeVPerAtomPerPs, d.driftMeVPerAtomPerPs(), 1e-5);
        assertEquals(10.0, d.runLengthPs(), 1e-12);
        assertEquals(0.2, d.driftOverRunMeVPerAtom(), 1e-4);
        double sigmaK = kAmpEv / Math.sqrt(2) * 1000 / atoms;
        assertEquals(sigmaK, d.kineticSigmaMeVPerAtom(), 1e-3 * sigmaK);
        assertEquals(0.2 / sigmaK, d.driftToKineticSigmaRatio(), 1e-3);
        // Largest excursion from E(0): the drift over the run plus at most one wiggle amplitude.
        assertEquals(0.2, d.maxExcursionMeVPerAtom(), 1e-5 * 1000 / atoms + 1e-6);
        assertEquals(1e-5 / Math.sqrt(2) * 1000 / atoms, d.residualRmsMeVPerAtom(), 1e-5);
    }

    @Test
    void aNegativeDriftKeepsItsSignAndAConstantEnergyHasNone() {
        int n = 1000;
        double[] t = new double[n];
        double[] e = new double[n];
        double[] e0 = new double[n];
        double[] k = new double[n];
        RandomStream rng = new RandomStream(3);
        for (int i = 0; i < n; i++) {
            t[i] = i;
            e[i] = -2e-3 * t[i] / 1000;      // -2 meV/ps over 2 atoms = -1 meV/atom/ps
            e0[i] = 5.0;
            k[i] = 0.1 + 0.01 * rng.nextGaussian();
        }
        assertEquals(-1.0, EnergyDrift.of(t, e, k, 2).driftMeVPerAtomPerPs(), 1e-9);
        EnergyDrift flat = EnergyDrift.of(t, e0, k, 2);
        assertEquals(0.0, flat.driftMeVPerAtomPerPs(), 1e-9);
        assertEquals(0.0, flat.maxExcursionMeVPerAtom(), 1e-12);
        assertEquals(0.0, flat.driftToKineticSigmaRatio(), 1e-9);
    }

    @Test
    void driftRefusesTooShortSeries() {
        assertThrows(IllegalArgumentException.class,
                () -> EnergyDrift.of(new double[] {0, 1}, new double[] {0, 0}, new double[] {1, 1}, 3));
    }
}
