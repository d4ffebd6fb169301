package org.molten.validation.metrics;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.Cell;

class ComparisonTest {

    @Test
    void rmsdOfAKnownDisplacement() {
        double[] a = {0, 0, 0, 1, 0, 0};
        double[] b = {0.3, 0, 0, 1, 0.4, 0};
        // (0.09 + 0.16) / 2 atoms
        assertEquals(Math.sqrt(0.125), TrajectoryRmsd.rmsdA(a, b, null), 1e-15);
        assertEquals(0, TrajectoryRmsd.rmsdA(a, a.clone(), null));
        assertThrows(IllegalArgumentException.class, () -> TrajectoryRmsd.rmsdA(a, new double[3], null));
    }

    @Test
    void rmsdUnderACellUsesTheMinimumImage() {
        Cell cell = Cell.orthorhombic(10, 10, 10);
        double[] a = {0.1, 5, 5};
        double[] b = {9.9, 5, 5};
        assertEquals(0.2, TrajectoryRmsd.rmsdA(a, b, cell), 1e-12);
        assertEquals(9.8, TrajectoryRmsd.rmsdA(a, b, null), 1e-12);
    }

    @Test
    void forceAgreementAccumulatesOverFrames() {
        ForceAgreement f = new ForceAgreement();
        f.add(-10.0, new double[] {1, 0, 0, -1, 0, 0}, -10.003, new double[] {1, 0, 0, -1, 0, 0});
        f.add(-10.0, new double[] {0.5, 0, 0, 0, 0, 0}, -10.0, new double[] {0.5, 0.02, 0, 0, 0, -0.01});
        ForceAgreement.Result r = f.result();
        assertEquals(2, r.frames());
        assertEquals(Math.sqrt((0.02 * 0.02 + 0.01 * 0.01) / 12), r.forceRmseEvPerA(), 1e-15);
        assertEquals(0.02, r.forceMaxAbsErrorEvPerA(), 1e-15);
        assertEquals(1.5, r.energyMaxAbsErrorMeVPerAtom(), 1e-9);   // 3 meV over 2 atoms
        double rmsB = Math.sqrt((1 + 1 + 0.25 + 0.0004 + 0.0001) / 12);
        assertEquals(r.forceRmseEvPerA() / rmsB, r.forceRelativeRmse(), 1e-12);
        assertTrue(Double.isNaN(new ForceAgreement().result().forceRmseEvPerA()));
    }
}
