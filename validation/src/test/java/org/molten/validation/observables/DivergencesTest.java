package org.molten.validation.observables;

import static org.junit.jupiter.api.Assertions.*;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DivergencesTest {
    private static final long SEED = 20261125L;

    private static double[] gaussian(int n, double mean, double sigma, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i += 2) {
            double u1 = 1 - r.nextDouble();
            double u2 = r.nextDouble();
            double rad = Math.sqrt(-2 * Math.log(u1));
            v[i] = mean + sigma * rad * Math.cos(2 * Math.PI * u2);
            if (i + 1 < n) {
                v[i + 1] = mean + sigma * rad * Math.sin(2 * Math.PI * u2);
            }
        }
        return v;
    }

    private static double[] shifted(double[] v, double d) {
        double[] s = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            s[i] = v[i] + d;
        }
        return s;
    }

    private static Histogram histogram(double[] v, double lower, double width, int bins) {
        Histogram h = Histogram.of(lower, width, bins, false);
        for (double x : v) {
            h.add(x);
        }
        return h;
    }

    @Test
    void aDistributionIsAtZeroDistanceFromItself() {
        double[] v = gaussian(5000, 1.1, 0.03, SEED);
        Histogram h = histogram(v, 0.6, 0.01, 100);
        assertEquals(0.0, Divergences.jensenShannon(h, h.copy()), 0.0, "seed " + SEED);
        assertEquals(0.0, Divergences.wasserstein1(v, v.clone()), 0.0);
        assertEquals(0.0, Divergences.circularWasserstein1(v, v.clone(), -180, 360), 0.0);
    }

    @Test
    void bothGrowMonotonicallyWithAShiftAndJsIsSymmetricAndBounded() {
        double[] v = gaussian(20000, 1.1, 0.03, SEED);
        Histogram h0 = histogram(v, 0.6, 0.01, 100);
        double lastJs = 0;
        double lastW = 0;
        for (double d = 0.01; d <= 0.2001; d += 0.01) {
            double[] s = shifted(v, d);
            Histogram h = histogram(s, 0.6, 0.01, 100);
            double js = Divergences.jensenShannon(h0, h);
            double w = Divergences.wasserstein1(v, s);
            assertTrue(js > lastJs, "JS not increasing at shift " + d + ": " + js + " <= " + lastJs + " (seed " + SEED + ")");
            assertTrue(w > lastW, "W1 not increasing at shift " + d);
            assertTrue(js <= 1.0, "JS above 1: " + js);
            assertEquals(js, Divergences.jensenShannon(h, h0), 1e-15, "JS not symmetric at shift " + d);
            assertEquals(d, w, 1e-9, "W1 of a shift by d must be d");
            lastJs = js;
            lastW = w;
        }
        // Far apart: no common bin, JS = 1 exactly.
        assertEquals(1.0, Divergences.jensenShannon(new double[] {3, 1, 0, 0}, new double[] {0, 0, 2, 5}), 1e-15);
    }

    @Test
    void jsOfTwoKnownDistributionsMatchesTheDefinition() {
        // P = (1/2, 1/2, 0), Q = (0, 1/2, 1/2): M = (1/4, 1/2, 1/4);
        // KL(P||M) = 1/2 log2 2 + 1/2 log2 1 = 1/2 = KL(Q||M), so JS = 1/2.
        assertEquals(0.5, Divergences.jensenShannon(new double[] {1, 1, 0}, new double[] {0, 1, 1}), 1e-15);
        // Unnormalised counts give the same value.
        assertEquals(0.5, Divergences.jensenShannon(new double[] {7, 7, 0}, new double[] {0, 3, 3}), 1e-15);
    }

    @Test
    void w1OfUnequalSamplesMatchesTheQuantileIntegral() {
        // F from {0, 1}, G from {0.5}: ∫|F - G| = 0.5 × 0.5 + 0.5 × 0.5 = 0.5.
        assertEquals(0.5, Divergences.wasserstein1(new double[] {1, 0}, new double[] {0.5}), 1e-15);
        // Point masses: W1 is the distance.
        assertEquals(2.5, Divergences.wasserstein1(new double[] {1, 1, 1}, new double[] {3.5, 3.5}), 1e-15);
    }

    @Test
    void circularW1TakesTheShortArcAcrossPlusMinus180() {
        // 175° and -175° are 10° apart on the circle, 350° apart on the line.
        assertEquals(10.0, Divergences.circularWasserstein1(new double[] {175}, new double[] {-175}, -180, 360), 1e-12);
        assertEquals(350.0, Divergences.wasserstein1(new double[] {175}, new double[] {-175}), 1e-12);
        // A basin around 180 shifted by d across the boundary: W1 = d.
        double[] v = gaussian(4000, 178, 8, SEED + 1);
        for (int i = 0; i < v.length; i++) {
            v[i] = v[i] > 180 ? v[i] - 360 : v[i];
        }
        double[] s = shifted(v, 5);
        assertEquals(5.0, Divergences.circularWasserstein1(v, s, -180, 360), 1e-6, "seed " + (SEED + 1));
        // Uniform against a point: mean arc distance to a point is a quarter of the period.
        double[] uniform = new double[3600];
        for (int i = 0; i < uniform.length; i++) {
            uniform[i] = -180 + (i + 0.5) * 0.1;
        }
        assertEquals(90.0, Divergences.circularWasserstein1(uniform, new double[] {37}, -180, 360), 1e-6);
    }

    @Test
    void badInputIsRefusedWithItsReason() {
        var e = assertThrows(IllegalArgumentException.class, () -> Divergences.wasserstein1(new double[0], new double[] {1}));
        assertTrue(e.getMessage().contains("first sample is empty"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Divergences.jensenShannon(new double[] {1, 0}, new double[] {0, 0}));
        assertTrue(e.getMessage().contains("second distribution is empty"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Divergences.jensenShannon(new double[] {1}, new double[] {1, 2}));
        assertTrue(e.getMessage().contains("same bins"), e.getMessage());
    }

    @Test
    void reservoirKeepsEverythingBelowCapacityAndAnUnbiasedSubsetAbove() {
        SampleReservoir r = new SampleReservoir(1000, SEED);
        for (int i = 0; i < 1000; i++) {
            r.add(i);
        }
        assertTrue(r.exact());
        for (int i = 1000; i < 100000; i++) {
            r.add(i);
        }
        assertFalse(r.exact());
        assertEquals(100000, r.seen());
        double mean = java.util.Arrays.stream(r.values()).average().orElseThrow();
        // Uniform subset of 0..99999: mean 49999.5 ± 28868/sqrt(1000) ≈ ± 913 (1 σ).
        assertEquals(49999.5, mean, 4 * 913, "seed " + SEED);
    }

    @Test
    void mergedReservoirsKeepEveryValueBelowCapacityAndProportionalSharesAbove() {
        SampleReservoir a = new SampleReservoir(100, SEED);
        SampleReservoir b = new SampleReservoir(100, SEED + 1);
        for (int i = 0; i < 30; i++) {
            a.add(0.0);
            b.add(1.0);
        }
        a.addAll(b);
        assertTrue(a.exact());
        assertEquals(60, a.values().length);
        // 300 zeros against 100 ones, capacity 100: three quarters of the kept values are zeros.
        SampleReservoir c = new SampleReservoir(100, SEED);
        SampleReservoir d = new SampleReservoir(100, SEED + 1);
        for (int i = 0; i < 300; i++) {
            c.add(0.0);
        }
        for (int i = 0; i < 100; i++) {
            d.add(1.0);
        }
        c.addAll(d);
        assertEquals(400, c.seen());
        assertEquals(100, c.values().length);
        assertEquals(25.0, java.util.Arrays.stream(c.values()).sum(), 0.0);
    }
}
