package org.molten.validation.metrics;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.RandomStream;
import org.molten.core.Units;

class StatisticsTest {

    /** AR(1) series x_t = phi x_{t-1} + sqrt(1 - phi²) e_t with unit variance. */
    private static double[] ar1(int n, double phi, RandomStream rng) {
        double[] x = new double[n];
        double s = Math.sqrt(1 - phi * phi);
        x[0] = rng.nextGaussian();
        for (int i = 1; i < n; i++) {
            x[i] = phi * x[i - 1] + s * rng.nextGaussian();
        }
        return x;
    }

    @Test
    void independentSamplesGiveTheTextbookStandardError() {
        int n = 1 << 14;
        BlockAverage b = BlockAverage.of(ar1(n, 0, new RandomStream(11)));
        assertEquals(1 / Math.sqrt(n), b.standardError(), 0.15 / Math.sqrt(n));
        assertTrue(b.reliable());
        assertEquals(1.0, b.statisticalInefficiency(), 0.35);
    }

    /**
     * For AR(1) the variance of the mean is (1/n)(1 + phi)/(1 - phi): with phi = 0.9 the naive
     * error is 4.4 times too small. Blocking must find the correlated error.
     */
    @Test
    void correlatedSamplesGiveTheAr1StandardError() {
        int n = 1 << 16;
        double phi = 0.9;
        BlockAverage b = BlockAverage.of(ar1(n, phi, new RandomStream(5)));
        double exact = Math.sqrt((1 + phi) / (1 - phi) / n);
        assertEquals(exact, b.standardError(), 0.25 * exact);
        assertTrue(b.blockSize() >= 16, "block size " + b.blockSize());
        assertEquals((1 + phi) / (1 - phi), b.statisticalInefficiency(), 0.5 * (1 + phi) / (1 - phi));
    }

    /** Over many replicates the mean lies within 2 standard errors of the truth about 95 % of the time. */
    @Test
    void blockedErrorsHaveNominalCoverage() {
        RandomStream rng = new RandomStream(2024);
        int reps = 300;
        int inside = 0;
        for (int r = 0; r < reps; r++) {
            BlockAverage b = BlockAverage.of(ar1(4096, 0.8, rng));
            if (Math.abs(b.mean()) < 2 * b.standardError()) {
                inside++;
            }
        }
        double coverage = inside / (double) reps;
        // Binomial sd at 0.95 over 300 reps is 0.013; blocking is known to be slightly optimistic.
        assertTrue(coverage > 0.88 && coverage < 0.99, "coverage " + coverage);
    }

    /**
     * The false-alarm rate of a 3-sigma test on the mean of a correlated series (AR(1), integrated
     * correlation time 39 samples, 1600 samples) with the Student-t threshold for the blocks used:
     * nominally 0.27 %. Jonsson's level alone gives about 4 % here; the estimator must stay near
     * nominal.
     */
    @Test
    void aThreeSigmaTestOnCorrelatedDataRarelyFailsWhenTheMeanIsRight() {
        RandomStream rng = new RandomStream(99);
        int reps = 600;
        int alarms = 0;
        double z2 = 0;
        for (int r = 0; r < reps; r++) {
            BlockAverage b = BlockAverage.of(ar1(1600, 0.95, rng));
            double z = b.mean() / b.standardError();
            z2 += z * z;
            if (Math.abs(z) > BlockAverage.equivalentThreshold(3, b.blocks())) {
                alarms++;
            }
        }
        assertTrue(alarms <= 9, alarms + " false alarms of " + reps);
        assertTrue(z2 / reps < 1.6, "<z^2> = " + z2 / reps);
    }

    @Test
    void studentThresholdsWidenForFewBlocks() {
        assertEquals(3.0, BlockAverage.equivalentThreshold(3, 1_000_000), 1e-3);
        assertTrue(BlockAverage.equivalentThreshold(3, 16) > 3.4 && BlockAverage.equivalentThreshold(3, 16) < 3.7);
        assertTrue(BlockAverage.equivalentThreshold(3, 8) > BlockAverage.equivalentThreshold(3, 16));
    }

    @Test
    void constantAndShortSeries() {
        BlockAverage c = BlockAverage.of(new double[] {2, 2, 2, 2, 2});
        assertEquals(2, c.mean());
        assertEquals(0, c.standardError());
        assertThrows(IllegalArgumentException.class, () -> BlockAverage.of(new double[] {1, 2, 3}));
        assertThrows(IllegalArgumentException.class, () -> BlockAverage.of(new double[] {1, 2, Double.NaN, 3}));
        assertFalse(BlockAverage.of(ar1(40, 0.95, new RandomStream(1))).reliable());
    }

    @Test
    void canonicalExpectationsMatchTheGammaDistribution() {
        // dof = 6 at 300 K: sigma_T = 300 sqrt(1/3) = 173.2 K; <K> = 3 kT.
        assertEquals(300 / Math.sqrt(3), CanonicalExpectation.temperatureSigmaK(300, 6), 1e-9);
        assertEquals(3 * Units.BOLTZMANN_EV_PER_K * 300, CanonicalExpectation.kineticMeanEv(300, 6), 1e-15);
        assertEquals(Math.sqrt(3) * Units.BOLTZMANN_EV_PER_K * 300, CanonicalExpectation.kineticSigmaEv(300, 6), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> CanonicalExpectation.temperatureSigmaK(-1, 6));
        assertThrows(IllegalArgumentException.class, () -> CanonicalExpectation.temperatureSigmaK(300, 0));
    }

    /**
     * The case that failed good students at other seeds: four short replicas (300 samples each) of a
     * canonical temperature series correlated over ~10 samples, like validate's 4 × 0.75 ps NVT runs of
     * ethanol. Over 400 such sets the pooled σ_T and ⟨T⟩ z-scores must be calibrated: ⟨z²⟩ near 1 and
     * few beyond 3 (the block error of the concatenation alone gave ⟨z²⟩ ≈ 2 for σ_T).
     */
    @Test
    void pooledShortReplicasGiveCalibratedErrors() {
        int dof = 24;
        double target = 300;
        RandomStream rng = new RandomStream(4242);
        int sets = 400;
        double z2Sigma = 0;
        double z2Mean = 0;
        int beyond3 = 0;
        for (int set = 0; set < sets; set++) {
            java.util.List<double[]> runs = new java.util.ArrayList<>();
            for (int r = 0; r < 4; r++) {
                runs.add(correlatedCanonicalTemperatures(300, dof, target, 0.95, rng));
            }
            TemperatureStatistics s = TemperatureStatistics.ofRuns(runs, target, dof);
            z2Sigma += s.sigmaDeviationSigmas() * s.sigmaDeviationSigmas();
            z2Mean += s.meanDeviationSigmas() * s.meanDeviationSigmas();
            if (Math.abs(s.sigmaDeviationSigmas()) > 3) {
                beyond3++;
            }
        }
        z2Sigma /= sets;
        z2Mean /= sets;
        assertTrue(z2Sigma > 0.5 && z2Sigma < 1.4, "<z^2> of sigma_T " + z2Sigma);
        assertTrue(z2Mean > 0.5 && z2Mean < 1.4, "<z^2> of <T> " + z2Mean);
        assertTrue(beyond3 <= 0.02 * sets, beyond3 + " of " + sets + " canonical sets beyond 3 SE in sigma_T");
    }

    /**
     * What the quick protocol can still detect with the honest errors: four short replicas whose temperature
     * fluctuates 0.7 times as much as canonical (a thermostat that damps the kinetic energy, e.g. a weak
     * Berendsen coupling) fail the fluctuation criterion in most sets; 0.5 times in all of them.
     */
    @Test
    void aSuppressedFluctuationIsCaughtInShortReplicas() {
        int dof = 24;
        double target = 300;
        RandomStream rng = new RandomStream(777);
        int sets = 200;
        int[] caught = new int[2];
        double[] factors = {0.7, 0.5};
        for (int set = 0; set < sets; set++) {
            for (int f = 0; f < factors.length; f++) {
                java.util.List<double[]> runs = new java.util.ArrayList<>();
                for (int r = 0; r < 4; r++) {
                    double[] t = correlatedCanonicalTemperatures(300, dof, target, 0.95, rng);
                    for (int i = 0; i < t.length; i++) {
                        t[i] = target + factors[f] * (t[i] - target);
                    }
                    runs.add(t);
                }
                TemperatureStatistics s = TemperatureStatistics.ofRuns(runs, target, dof);
                if (Math.abs(s.sigmaDeviationSigmas()) > BlockAverage.equivalentThreshold(3, s.sigmaBlocks())) {
                    caught[f]++;
                }
            }
        }
        assertTrue(caught[0] >= 0.7 * sets, "sigma 0.7 x canonical caught in " + caught[0] + " of " + sets);
        assertTrue(caught[1] >= 0.99 * sets, "sigma 0.5 x canonical caught in " + caught[1] + " of " + sets);
    }

    /**
     * A canonical temperature series whose dof momentum components each follow an AR(1) process
     * with coefficient phi (stationary, unit variance): T has the canonical χ² marginal and the
     * autocorrelation phi^(2k).
     */
    private static double[] correlatedCanonicalTemperatures(int n, int dof, double targetK, double phi, RandomStream rng) {
        double[] g = new double[dof];
        for (int k = 0; k < dof; k++) {
            g[k] = rng.nextGaussian();
        }
        double c = Math.sqrt(1 - phi * phi);
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < dof; k++) {
                g[k] = phi * g[k] + c * rng.nextGaussian();
                s += g[k] * g[k];
            }
            t[i] = targetK * s / dof;
        }
        return t;
    }

    /** Samples T_inst = 2K/(dof k_B) with K the kinetic energy of dof Maxwell-Boltzmann momenta. */
    private static double[] canonicalTemperatures(int n, int dof, double targetK, RandomStream rng) {
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < dof; k++) {
                double g = rng.nextGaussian();
                s += g * g;
            }
            t[i] = targetK * s / dof;   // 2K/(dof kB) with K = (kT/2) Σ g²
        }
        return t;
    }

    @Test
    void aCanonicalTemperatureSeriesPassesAndASuppressedOneIsCaught() {
        int dof = 21;                  // ethanol, 9 atoms, momentum removed
        double target = 300;
        double[] t = canonicalTemperatures(20000, dof, target, new RandomStream(77));
        TemperatureStatistics s = TemperatureStatistics.of(t, target, dof);
        assertTrue(Math.abs(s.meanDeviationSigmas()) < 4, "mean off by " + s.meanDeviationSigmas() + " sigma");
        assertEquals(1.0, s.sigmaRatio(), 0.03);
        assertEquals(target * Math.sqrt(2.0 / dof), s.canonicalSigmaK(), 1e-9);
        assertTrue(Math.abs(s.sigmaDeviationSigmas()) < 4);

        // A Berendsen-like run: the right mean, half the canonical fluctuation.
        double[] weak = t.clone();
        for (int i = 0; i < weak.length; i++) {
            weak[i] = target + 0.5 * (weak[i] - target);
        }
        TemperatureStatistics w = TemperatureStatistics.of(weak, target, dof);
        assertEquals(0.5, w.sigmaRatio(), 0.02);
        assertTrue(w.sigmaDeviationSigmas() < -20);

        // 310 K instead of 300 K is many standard errors away.
        double[] hot = t.clone();
        for (int i = 0; i < hot.length; i++) {
            hot[i] *= 310.0 / 300.0;
        }
        assertTrue(TemperatureStatistics.of(hot, target, dof).meanDeviationSigmas() > 5);
    }
}
