package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.forcefield.classical.HarmonicBonds;

class VelocityVerletTest {

    /** Standard deviation of the total energy (eV) of an NVE run of the argon cluster for 20 ps. */
    private static double energyFluctuation(double dtFs) throws IOException {
        Atoms a = TestSystems.argon13(1);
        Simulation sim = Simulation.builder(a, TestSystems.argonLj(), new VelocityVerlet(dtFs)).seed(5).temperature(20)
                .build();
        int n = (int) Math.round(20000 / dtFs);
        double s = 0, s2 = 0;
        for (int k = 0; k < n; k++) {
            sim.step(1);
            double e = sim.totalEnergyEv();
            s += e;
            s2 += e * e;
        }
        double mean = s / n;
        return Math.sqrt(Math.max(0, s2 / n - mean * mean));
    }

    @Test
    void nveConservesEnergyWithAnErrorThatScalesAsDtSquared() throws IOException {
        double kT = Units.BOLTZMANN_EV_PER_K * 20;
        double e20 = energyFluctuation(20), e10 = energyFluctuation(10), e5 = energyFluctuation(5);
        System.out.printf(Locale.ROOT, "NVE Ar13 at 20 K, 20 ps: sd(Etot) = %.4e / %.4e / %.4e eV at dt = 20/10/5 fs;"
                + " ratios %.3f, %.3f%n", e20, e10, e5, e20 / e10, e10 / e5);
        assertTrue(e10 < 2e-3 * kT, "energy fluctuation at dt = 10 fs " + e10 + " eV, k_B T = " + kT + " eV");
        assertTrue(e10 / e5 > 3.2 && e10 / e5 < 4.8, "halving dt should divide the fluctuation by ~4: " + e10 / e5);
        assertTrue(e20 / e10 > 3.2 && e20 / e10 < 4.8, "halving dt should divide the fluctuation by ~4: " + e20 / e10);
    }

    @Test
    void nveHasNoSecularDriftForAMoleculeWithStiffBonds() throws IOException {
        Atoms eth = TestSystems.ethanol();
        ForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        Simulation sim = Simulation.builder(eth, ff, new VelocityVerlet(0.25)).seed(11).temperature(300).build();
        int n = 20000;
        double e0 = sim.totalEnergyEv();
        double firstHalf = 0, secondHalf = 0, maxDev = 0;
        for (int k = 0; k < n; k++) {
            sim.step(1);
            double e = sim.totalEnergyEv();
            maxDev = Math.max(maxDev, Math.abs(e - e0));
            if (k < n / 2) {
                firstHalf += e;
            } else {
                secondHalf += e;
            }
        }
        double drift = (secondHalf - firstHalf) / (n / 2);
        double kT = Units.BOLTZMANN_EV_PER_K * 300;
        System.out.printf(Locale.ROOT, "NVE ethanol (classical) dt=0.25 fs, 5 ps: max |Etot - E0| = %.3e eV,"
                + " mean shift between halves = %.3e eV (k_B T = %.4f eV)%n", maxDev, drift, kT);
        assertTrue(maxDev < 0.05 * kT, "max deviation " + maxDev);
        assertTrue(Math.abs(drift) < 0.005 * kT, "drift " + drift);
    }

    @Test
    void harmonicDimerFollowsTheAnalyticSolution() throws IOException {
        // Two hydrogens on a spring: reduced mass m/2, ω = sqrt(k ACCEL / μ). Stretched by 0.1 Å at rest.
        double k = 30, r0 = 0.74, a = 0.1;
        Atoms h2 = Atoms.of(new int[] {1, 1}, new double[] {0, 0, 0, r0 + a, 0, 0}, null);
        HarmonicBonds spring = HarmonicBonds.of(java.util.List.of(new HarmonicBonds.Bond(0, 1, k, r0)));
        double mu = h2.massAmu(0) / 2;
        double omega = Math.sqrt(k * Units.ACCEL_A_PER_FS2 / mu);
        double dt = 0.05;
        Simulation sim = Simulation.builder(h2, spring, new VelocityVerlet(dt)).build();
        double maxErr = 0;
        for (int s = 1; s <= 400; s++) {
            sim.step(1);
            double exact = a * Math.cos(omega * s * dt);
            maxErr = Math.max(maxErr, Math.abs(h2.distance(0, 1) - r0 - exact));
        }
        // Verlet's phase error after t is ~ ω³ dt² t / 24 times the amplitude.
        double bound = 2 * a * Math.pow(omega, 3) * dt * dt * 400 * dt / 24;
        assertTrue(maxErr < bound, "max error " + maxErr + " Å, bound " + bound);
        assertTrue(maxErr > 0.05 * bound, "the error bound is meaningful (error " + maxErr + ")");
    }

    @Test
    void nveIsTimeReversible() throws IOException {
        Atoms a = TestSystems.argon13(3);
        MaxwellBoltzmann.at(40).assign(a, new RandomStream(8));
        double[] start = a.positions().clone();
        Simulation sim = Simulation.builder(a, TestSystems.argonLj(), new VelocityVerlet(10)).build();
        sim.step(500);
        double[] v = a.velocities();
        for (int k = 0; k < v.length; k++) {
            v[k] = -v[k];
        }
        sim.step(500);
        for (int k = 0; k < start.length; k++) {
            assertEquals(start[k], a.positions()[k], 1e-7, "coordinate " + k);
        }
    }

    @Test
    void oneForceEvaluationPerStep() throws IOException {
        int[] calls = {0};
        ForceField lj = TestSystems.argonLj();
        ForceField counting = new ForceField() {
            @Override
            public String name() {
                return "counting";
            }

            @Override
            public double energyAndForces(Atoms atoms, double[] forces) {
                calls[0]++;
                return lj.energyAndForces(atoms, forces);
            }
        };
        Atoms a = TestSystems.argon13(1);
        MaxwellBoltzmann.at(20).assign(a, new RandomStream(1));
        Simulation sim = Simulation.builder(a, counting,
                new VelocityVerlet(5, new org.molten.integrators.thermostats.NoseHooverChain(20, 100))).build();
        sim.step(37);
        assertEquals(38, calls[0], "one evaluation at build time, then one per step");
    }
}
