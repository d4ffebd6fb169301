package org.molten.validation.observables;

import static org.junit.jupiter.api.Assertions.*;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;

class DivergenceThresholdsTest {
    private static final long SEED = 4242L;

    /**
     * 400 frames of ethanol with every coordinate displaced by a Gaussian of 0.02 Å (a stand-in
     * for thermal motion), the C–H bonds first lengthened by {@code stretchA}.
     */
    private static ObservableAccumulator frames(Atoms start, ObservableSet set, long seed, double stretchA) {
        BondedTopology topo = BondedTopology.of(start);
        SplittableRandom r = new SplittableRandom(seed);
        ObservableAccumulator acc = new ObservableAccumulator(set);
        for (int f = 0; f < 400; f++) {
            double[] x = start.positions().clone();
            for (BondedTopology.Bond b : topo.bonds()) {
                if (b.type().equals("C-H")) {
                    int h = topo.symbol(b.i()).equals("H") ? b.i() : b.j();
                    int c = h == b.i() ? b.j() : b.i();
                    for (int k = 0; k < 3; k++) {
                        x[3 * h + k] += stretchA * (x[3 * h + k] - x[3 * c + k]) / b.startLengthA();
                    }
                }
            }
            for (int i = 0; i < x.length; i++) {
                double u1 = 1 - r.nextDouble();
                double u2 = r.nextDouble();
                x[i] += 0.02 * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            }
            acc.add(x, null);
        }
        return acc;
    }

    @Test
    void sameModelNoisePassesAndASystematicStretchOfOneBondTypeFails() {
        Atoms eth = BuiltInMolecules.load("ethanol");
        ObservableSet set = ObservableSet.of(eth);
        ObservableAccumulator a = frames(eth, set, SEED, 0);
        ObservableAccumulator b = frames(eth, set, SEED + 1, 0);
        ObservableAccumulator stretched = frames(eth, set, SEED + 1, 0.03);
        DivergenceThresholds t = DivergenceThresholds.defaults();
        for (ObservableComparison c : ObservableComparison.compareAll(a, b, t)) {
            assertTrue(c.passed(), "independent noise, seeds " + SEED + "/" + (SEED + 1) + ": " + c.name() + " " + c.reason());
        }
        Observable ch = set.find("bond C-H").orElseThrow();
        ObservableComparison c = ObservableComparison.compare(ch, a, stretched, t);
        assertFalse(c.passed(), "a 0.03 Å stretch of every C-H bond must fail: W1 " + c.wasserstein1());
        assertEquals(0.03, c.wasserstein1(), 0.005);
        assertTrue(ObservableComparison.compare(set.find("bond C-C").orElseThrow(), a, stretched, t).passed());
    }

    @Test
    void limitsAreSettableAndCheckedAndDefaultsAreThoseDocumented() {
        DivergenceThresholds d = DivergenceThresholds.defaults();
        assertEquals(DivergenceThresholds.DEFAULT_MAX_W1_BOND_A, d.maxWasserstein1(ObservableKind.BOND_LENGTH));
        assertEquals(DivergenceThresholds.DEFAULT_MAX_JS_DIHEDRAL, d.maxJensenShannon(ObservableKind.BACKBONE_DIHEDRAL));
        for (ObservableKind k : ObservableKind.values()) {
            assertTrue(d.maxJensenShannon(k) > 0 && d.maxWasserstein1(k) > 0, k.key());
        }
        DivergenceThresholds t = d.withMaxWasserstein1(ObservableKind.BOND_ANGLE, 5).withMaxJensenShannon(ObservableKind.BOND_ANGLE, 0.2);
        assertEquals(5.0, t.maxWasserstein1(ObservableKind.BOND_ANGLE));
        assertEquals(0.2, t.maxJensenShannon(ObservableKind.BOND_ANGLE));
        assertEquals(DivergenceThresholds.DEFAULT_MAX_W1_ANGLE_DEG, d.maxWasserstein1(ObservableKind.BOND_ANGLE), "immutable");
        var e = assertThrows(IllegalArgumentException.class, () -> d.withMaxJensenShannon(ObservableKind.BOND_LENGTH, 1.5));
        assertTrue(e.getMessage().contains("bond_length") && e.getMessage().contains("1.5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> d.withMaxWasserstein1(ObservableKind.BOND_LENGTH, Double.NaN));
    }
}
