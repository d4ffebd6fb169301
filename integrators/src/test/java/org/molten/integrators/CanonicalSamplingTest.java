package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

/**
 * NVT thermostats on the 13-atom argon cluster at 20 K (solid, anharmonic), dt = 10 fs, 3 ns
 * (300 000 steps) after 50 ps of equilibration. In the canonical ensemble the kinetic energy is
 * Gamma-distributed: ⟨KE⟩ = (dof/2) k_B T and Var(KE) = (dof/2)(k_B T)². Errors come from 50
 * blocks of 60 ps (the kinetic energy decorrelates within a few ps); the tests also require the
 * errors to be small enough that a wrong ensemble could not pass. Stochastic checks with fixed
 * seeds, so they are reproducible.
 */
class CanonicalSamplingTest {
    private static final double T = 20.0;
    private static final double DT_FS = 10.0;
    private static final int STEPS = 300_000;

    private record Result(KineticEnergyStatistics stats, int dof, double conservedDriftEv) {
        double meanRatio(double kT) {
            return stats.mean() / (0.5 * dof * kT);
        }

        double varRatio(double kT) {
            return stats.variance() / (0.5 * dof * kT * kT);
        }
    }

    private static Result run(Thermostat thermostat, boolean isotropicRescaling) throws IOException {
        Atoms a = TestSystems.argon13(1);
        Simulation sim = Simulation.builder(a, TestSystems.argonLj(), new VelocityVerlet(DT_FS, thermostat))
                .seed(2024).temperature(T).build();
        assertEquals(3 * a.size() - (isotropicRescaling ? 6 : 3), sim.degreesOfFreedom(), "derived degrees of freedom");
        sim.step(5000);
        KineticEnergyStatistics stats = new KineticEnergyStatistics(50, STEPS);
        double c0 = sim.conservedEnergyEv();
        double maxDev = 0;
        for (int k = 0; k < STEPS; k++) {
            sim.step(1);
            stats.add(sim.kineticEnergyEv());
            maxDev = Math.max(maxDev, Math.abs(sim.conservedEnergyEv() - c0));
        }
        return new Result(stats, sim.degreesOfFreedom(), maxDev);
    }

    private static void assertCanonical(String name, Result r) {
        double kT = Units.BOLTZMANN_EV_PER_K * T;
        double target = 0.5 * r.dof() * kT;
        double targetVar = 0.5 * r.dof() * kT * kT;
        double meanErr = r.stats().meanError() / target;
        double varErr = r.stats().varianceError() / targetVar;
        System.out.printf(Locale.ROOT, "%s: dof %d, <T> = %.3f K, <KE>/canonical = %.4f +- %.4f,"
                        + " Var(KE)/canonical = %.4f +- %.4f, max |dE_conserved| = %.2e eV%n", name, r.dof(),
                T * r.meanRatio(kT), r.meanRatio(kT), meanErr, r.varRatio(kT), varErr, r.conservedDriftEv());
        assertTrue(meanErr < 0.01, "error of the mean should be below 1%: " + meanErr);
        assertTrue(varErr < 0.04, "error of the variance should be below 4%: " + varErr);
        assertEquals(1.0, r.meanRatio(kT), 4 * meanErr, name + ": mean kinetic energy");
        assertEquals(1.0, r.varRatio(kT), 4 * varErr, name + ": variance of the kinetic energy");
    }

    @Test
    void langevinIsCanonical() throws IOException {
        Result r = run(LangevinThermostat.of(T, 0.002), false);
        assertEquals(36, r.dof(), "3N - 3: Langevin thermalises rotation, the centre of mass is held");
        assertCanonical("langevin-baoab (gamma 0.002/fs)", r);
    }

    @Test
    void bussiIsCanonicalAndConservesItsEffectiveEnergy() throws IOException {
        Result r = run(new BussiThermostat(T, 200), true);
        assertEquals(33, r.dof(), "3N - 6 for an isolated cluster without rotation");
        assertCanonical("bussi (tau 200 fs)", r);
        assertTrue(r.conservedDriftEv() < 0.2 * Units.BOLTZMANN_EV_PER_K * T, "effective energy drift " + r.conservedDriftEv());
    }

    @Test
    void noseHooverChainIsCanonicalAndConservesItsExtendedEnergy() throws IOException {
        Result r = run(new NoseHooverChain(T, 500), true);
        assertCanonical("nose-hoover-chain (tau 500 fs, M 3)", r);
        assertTrue(r.conservedDriftEv() < 0.1 * Units.BOLTZMANN_EV_PER_K * T, "extended energy drift " + r.conservedDriftEv());
    }

    @Test
    void berendsenHoldsTheMeanButSuppressesFluctuations() throws IOException {
        Result r = run(new BerendsenThermostat(T, 200), true);
        double kT = Units.BOLTZMANN_EV_PER_K * T;
        double varErr = r.stats().varianceError() / (0.5 * r.dof() * kT * kT);
        System.out.printf(Locale.ROOT, "berendsen (tau 200 fs): <KE>/canonical = %.4f, Var(KE)/canonical = %.4f +- %.4f%n",
                r.meanRatio(kT), r.varRatio(kT), varErr);
        assertEquals(1.0, r.meanRatio(kT), 0.01, "Berendsen does reach the target temperature on average");
        assertTrue(r.varRatio(kT) + 4 * varErr < 0.5,
                "Berendsen's kinetic-energy variance must be far below canonical: " + r.varRatio(kT));
    }
}
