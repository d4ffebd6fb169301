package org.molten.validation.observables;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

class AccumulatorAndRdfTest {
    private static final long SEED = 17L;

    /** N rigid waters (O, H, H) at uniformly random oxygen positions: an ideal gas of oxygens. */
    private static double[] randomWaters(int n, double edge, SplittableRandom r) {
        double[] x = new double[9 * n];
        for (int m = 0; m < n; m++) {
            double ox = r.nextDouble() * edge;
            double oy = r.nextDouble() * edge;
            double oz = r.nextDouble() * edge;
            double[] w = {ox, oy, oz, ox + 0.9572, oy, oz, ox - 0.2399, oy + 0.9266, oz};
            System.arraycopy(w, 0, x, 9 * m, 9);
        }
        return x;
    }

    private static int[] waterNumbers(int n) {
        int[] z = new int[3 * n];
        for (int m = 0; m < n; m++) {
            z[3 * m] = 8;
            z[3 * m + 1] = 1;
            z[3 * m + 2] = 1;
        }
        return z;
    }

    /** N waters on a simple cubic grid of spacing {@code a} Å, 4 per row and column. */
    private static double[] gridOfWaters(int n, double a) {
        double[] x = new double[9 * n];
        for (int m = 0; m < n; m++) {
            double[] w = {(m % 4) * a, ((m / 4) % 4) * a, (m / 16) * a};
            double[] mol = {w[0], w[1], w[2], w[0] + 0.9572, w[1], w[2], w[0] - 0.2399, w[1] + 0.9266, w[2]};
            System.arraycopy(mol, 0, x, 9 * m, 9);
        }
        return x;
    }

    @Test
    void rdfOfAUniformRandomBoxTendsToOne() {
        int n = 40;
        double edge = 20.0;
        Cell cell = Cell.orthorhombic(edge, edge, edge);
        SplittableRandom r = new SplittableRandom(SEED);
        // The start must be a proper set of waters for the topology; its oxygens are far apart.
        ObservableSet set = ObservableSet.of(Atoms.of(waterNumbers(n), gridOfWaters(n, 5.0), cell));
        Observable rdf = set.find("rdf O-O").orElseThrow();
        assertEquals(ObservableKind.OO_RADIAL_DISTRIBUTION, rdf.kind());
        assertEquals(ObservableSet.RDF_MAX_A, rdf.upper(), 1e-9);
        ObservableAccumulator acc = new ObservableAccumulator(set);
        int frames = 2000;
        for (int f = 0; f < frames; f++) {
            acc.add(randomWaters(n, edge, r), cell);
        }
        double[] g = acc.radialDistribution(rdf);
        // Average over shells from 2 Å to 10 Å: expected 1; statistical error well below 1 %.
        Histogram h = acc.histogram(rdf);
        double sumG = 0;
        int count = 0;
        for (int k = 0; k < g.length; k++) {
            if (h.centre(k) > 2.0) {
                sumG += g[k];
                count++;
            }
        }
        assertEquals(1.0, sumG / count, 0.01, "mean g(r) over 2-10 Å, seed " + SEED);
        // Each outer shell on its own is within a few per cent of 1.
        for (int k = g.length - 20; k < g.length; k++) {
            assertEquals(1.0, g[k], 0.05, "g at r = " + h.centre(k) + " Å, seed " + SEED);
        }
    }

    @Test
    void aWaterClusterGetsANormalisedOoDistanceHistogramNotAnRdf() {
        Atoms cluster = Atoms.of(waterNumbers(8), gridOfWaters(8, 3.0), null);
        ObservableSet set = ObservableSet.of(cluster);
        Observable oo = set.find("distance O-O").orElseThrow();
        assertEquals(ObservableKind.OO_DISTANCE, oo.kind());
        assertEquals(28, oo.tupleCount());
        assertFalse(set.needsPeriodicCell());
        ObservableAccumulator acc = new ObservableAccumulator(set);
        acc.add(cluster);
        HistogramData d = HistogramData.of(acc, oo);
        double integral = 0;
        for (double v : d.values()) {
            integral += v * d.binWidth();
        }
        assertEquals(1.0, integral, 1e-12, "every start O-O distance lies inside the range");
        assertThrows(IllegalArgumentException.class, () -> acc.radialDistribution(oo));
    }

    @Test
    void bondHistogramsHoldTheStartLengthsAndFramesPool() {
        Atoms eth = BuiltInMolecules.load("ethanol");
        ObservableSet set = ObservableSet.of(eth);
        Observable ch = set.find("bond C-H").orElseThrow();
        assertTrue(ch.lower() < 1.09 - 0.4 && ch.upper() > 1.10 + 0.4, ch.toString());
        ObservableAccumulator a = new ObservableAccumulator(set);
        ObservableAccumulator b = new ObservableAccumulator(set);
        a.add(eth);
        b.add(eth);
        b.add(eth);
        a.addAll(b);
        assertEquals(3, a.frames());
        assertEquals(15, a.sampleCount(ch));
        assertEquals(15, a.histogram(ch).total());
        assertTrue(a.exactSamples(ch));
        // Identical frames: every comparison is at zero distance and passes.
        List<ObservableComparison> cmp = ObservableComparison.compareAll(a, b, DivergenceThresholds.defaults());
        assertEquals(set.size(), cmp.size());
        for (ObservableComparison c : cmp) {
            assertEquals(0.0, c.jensenShannon(), 0.0, c.name());
            assertEquals(0.0, c.wasserstein1(), 1e-12, c.name());
            assertTrue(c.passed(), c.name() + ": " + c.reason());
        }
    }

    @Test
    void aStretchedBondFailsTheComparisonAndAnEmptySideIsAFailNotAPass() {
        Atoms start = BuiltInMolecules.load("water");
        ObservableSet set = ObservableSet.of(start);
        ObservableAccumulator teacher = new ObservableAccumulator(set);
        ObservableAccumulator student = new ObservableAccumulator(set);
        teacher.add(start);
        double[] x = start.positions().clone();
        double oh1 = start.distance(0, 1);
        // Move H1 5 % further from O along the bond.
        for (int k = 0; k < 3; k++) {
            x[3 + k] = x[k] + 1.05 * (x[3 + k] - x[k]);
        }
        student.add(x, null);
        ObservableComparison oh = ObservableComparison.compare(set.find("bond H-O").orElseThrow(), student, teacher,
                DivergenceThresholds.defaults());
        assertFalse(oh.passed());
        assertTrue(oh.reason().contains("W1"), oh.reason());
        assertEquals(0.5 * 0.05 * oh1, oh.wasserstein1(), 1e-9);
        ObservableComparison empty = ObservableComparison.compare(set.find("bond H-O").orElseThrow(),
                new ObservableAccumulator(set), teacher, DivergenceThresholds.defaults());
        assertFalse(empty.passed());
        assertTrue(empty.reason().contains("no samples from the student"), empty.reason());
    }

    @Test
    void aBadFrameIsRefusedWithItsNumberAndLeavesTheAccumulatorUntouched() {
        Atoms eth = BuiltInMolecules.load("ethanol");
        ObservableAccumulator acc = new ObservableAccumulator(ObservableSet.of(eth));
        acc.add(eth);
        double[] bad = eth.positions().clone();
        bad[7] = Double.NaN;
        var e = assertThrows(IllegalArgumentException.class, () -> acc.add(bad, null));
        assertTrue(e.getMessage().contains("frame 1") && e.getMessage().contains("atom 2"), e.getMessage());
        assertEquals(1, acc.frames());
        var e2 = assertThrows(IllegalArgumentException.class, () -> acc.add(new double[6], null));
        assertTrue(e2.getMessage().contains("the observables need 9"), e2.getMessage());
        Atoms box = WaterBox.build(8, SEED);
        ObservableAccumulator periodic = new ObservableAccumulator(ObservableSet.of(box));
        var e3 = assertThrows(IllegalArgumentException.class, () -> periodic.add(box.positions(), null));
        assertTrue(e3.getMessage().contains("periodic along a, b and c"), e3.getMessage());
    }
}
