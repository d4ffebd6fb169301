package org.molten.validation.runs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.structures.BuiltInMolecules;

/**
 * The production runs' starts: NVE rescaled to exactly the target temperature, NVT from the equilibrated
 * velocities as they are (a rescaled NVT start biased the pooled σ_T low), both without centre-of-mass motion.
 */
class ProductionStartsTest {
    @Test
    void nveIsRescaledAndNvtKeepsTheEquilibratedVelocities() {
        Atoms eq = BuiltInMolecules.load("ethanol");
        RandomStream rng = new RandomStream(99);
        double[] v = eq.velocities();
        for (int i = 0; i < v.length; i++) {
            v[i] = 0.01 * rng.nextGaussian();   // Å/fs, with some centre-of-mass drift, far from 300 K
        }
        double[] before = eq.velocities().clone();
        int dof = Observables.degreesOfFreedom(eq.size(), ReplicaRun.REMOVED_CONSTRAINTS);

        ReplicaRun.ProductionStarts p = ReplicaRun.productionStarts(eq, 300);

        assertArrayEquals(before, eq.velocities(), "the equilibrated state is not changed");
        assertEquals(300, Observables.temperatureK(p.nve(), dof), 1e-9);
        double tNvt = Observables.temperatureK(p.nvt(), dof);
        assertNotEquals(300, tNvt, 1.0);
        for (Atoms a : new Atoms[] {p.nve(), p.nvt()}) {
            double[] com = centreOfMassVelocity(a);
            for (double c : com) {
                assertEquals(0, c, 1e-15);
            }
            assertArrayEquals(eq.positions(), a.positions());
        }
        // NVT's velocities are the equilibrated ones less the centre-of-mass velocity, not rescaled.
        double[] com = centreOfMassVelocity(eq);
        double[] vn = p.nvt().velocities();
        for (int i = 0; i < vn.length; i++) {
            assertEquals(before[i] - com[i % 3], vn[i], 1e-15);
        }
    }

    private static double[] centreOfMassVelocity(Atoms a) {
        double[] p = new double[3];
        double m = 0;
        double[] v = a.velocities();
        for (int i = 0; i < a.size(); i++) {
            double mi = a.massesAmu()[i];
            m += mi;
            for (int k = 0; k < 3; k++) {
                p[k] += mi * v[3 * i + k];
            }
        }
        for (int k = 0; k < 3; k++) {
            p[k] /= m;
        }
        return p;
    }
}
