package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.integrators.thermostats.ChiSquared;

class MaxwellBoltzmannTest {

    @Test
    void drawsHaveZeroMomentumAndTheCanonicalTemperatureDistribution() {
        // Ethanol: masses from 1 to 16 amu, so a wrong mass scaling shows in the per-species check.
        Atoms eth = TestSystems.ethanol();
        double t = 300;
        double kT = Units.BOLTZMANN_EV_PER_K * t;
        RandomStream rng = new RandomStream(99);
        int draws = 20000;
        double sumKe = 0, sumKe2 = 0, mvxH = 0, mvxO = 0;
        int removed = 0;
        for (int d = 0; d < draws; d++) {
            removed = MaxwellBoltzmann.at(t).assign(eth, rng);
            double[] p = Observables.linearMomentum(eth);
            assertArrayEquals(new double[3], p, 1e-12);
            double ke = Observables.kineticEnergyEv(eth);
            sumKe += ke;
            sumKe2 += ke * ke;
            double[] v = eth.velocities();
            mvxH += eth.massAmu(3) * v[9] * v[9] * Units.MV2_TO_EV;
            mvxO += eth.massAmu(2) * v[6] * v[6] * Units.MV2_TO_EV;
        }
        assertEquals(3, removed);
        int dof = Observables.degreesOfFreedom(9, removed);
        double mean = sumKe / draws, var = sumKe2 / draws - mean * mean;
        // Independent draws: KE ~ Gamma(dof/2, kT); sd of the sample mean sqrt(dof/2) kT / sqrt(n),
        // of the sample variance ≈ Var·sqrt((2 + 6/(dof/2)) / n) (Gamma excess kurtosis 6/shape).
        double meanSd = Math.sqrt(0.5 * dof) * kT / Math.sqrt(draws);
        double varExpected = 0.5 * dof * kT * kT;
        double varSd = varExpected * Math.sqrt((2 + 6 / (0.5 * dof)) / draws);
        System.out.printf(Locale.ROOT, "Maxwell-Boltzmann ethanol 300 K, %d draws: <T> = %.2f K, Var(KE)/canonical = %.4f +- %.4f%n",
                draws, 2 * mean / (dof * Units.BOLTZMANN_EV_PER_K), var / varExpected, varSd / varExpected);
        assertEquals(0.5 * dof * kT, mean, 4 * meanSd);
        assertEquals(varExpected, var, 4 * varSd);
        // Equipartition per component, light and heavy atom alike: <m vx²> = kT (1 - m/M) after COM removal.
        double total = eth.totalMassAmu();
        assertEquals(kT * (1 - eth.massAmu(3) / total), mvxH / draws, 0.05 * kT);
        assertEquals(kT * (1 - eth.massAmu(2) / total), mvxO / draws, 0.05 * kT);
    }

    @Test
    void rotationRemovalAndExactRescaling() {
        Atoms eth = TestSystems.ethanol();
        int removed = MaxwellBoltzmann.at(300).removingRotation().rescaledExactly().assign(eth, new RandomStream(1));
        assertEquals(6, removed);
        assertArrayEquals(new double[3], Observables.linearMomentum(eth), 1e-12);
        assertArrayEquals(new double[3], Observables.angularMomentum(eth), 1e-11);
        assertEquals(300.0, Observables.temperatureK(eth, Observables.degreesOfFreedom(9, 6)), 1e-9);

        // A linear molecule has two rotational degrees of freedom.
        Atoms co2 = Atoms.of(new int[] {8, 6, 8}, new double[] {-1.16, 0, 0, 0, 0, 0, 1.16, 0, 0}, null);
        assertEquals(5, MaxwellBoltzmann.at(300).removingRotation().assign(co2, new RandomStream(2)));
        assertArrayEquals(new double[3], Observables.angularMomentum(co2), 1e-12);

        Atoms periodic = eth.withCell(Cell.orthorhombic(20, 20, 20));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MaxwellBoltzmann.at(300).removingRotation().assign(periodic, new RandomStream(3)));
        assertTrue(e.getMessage().contains("periodic"), e.getMessage());
    }

    @Test
    void sameSeedSameVelocities() {
        Atoms a = TestSystems.ethanol();
        Atoms b = TestSystems.ethanol();
        MaxwellBoltzmann.at(300).assign(a, new RandomStream(5));
        MaxwellBoltzmann.at(300).assign(b, new RandomStream(5));
        assertArrayEquals(a.velocities(), b.velocities(), 0.0);
        MaxwellBoltzmann.at(300).assign(b, new RandomStream(6));
        assertFalse(java.util.Arrays.equals(a.velocities(), b.velocities()));
    }

    @Test
    void chiSquaredDrawsHaveTheRightMoments() {
        RandomStream rng = new RandomStream(17);
        for (int k : new int[] {1, 2, 5, 32}) {
            int n = 40000;
            double s = 0, s2 = 0;
            for (int i = 0; i < n; i++) {
                double x = ChiSquared.sumOfSquaredGaussians(rng, k);
                assertTrue(x >= 0);
                s += x;
                s2 += x * x;
            }
            double mean = s / n, var = s2 / n - mean * mean;
            // Chi-squared(k): mean k, variance 2k; sample-mean sd sqrt(2k/n), sample-variance sd 2k·sqrt((2 + 12/k)/n).
            assertEquals(k, mean, 4 * Math.sqrt(2.0 * k / n), "mean of chi2(" + k + ")");
            assertEquals(2.0 * k, var, 4 * 2 * k * Math.sqrt((2 + 12.0 / k) / n), "variance of chi2(" + k + ")");
        }
        assertEquals(0.0, ChiSquared.sumOfSquaredGaussians(rng, 0));
    }
}
