package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

/**
 * Canonical sampling of a multi-element molecule (ethanol, C2H6O, with the classical potential) by
 * every canonical thermostat on every platform (reference, cpu, and a device platform through the
 * test's fake one, which runs the integrator rebuilt from its {@link
 * org.molten.core.dynamics.DynamicsSpec}): the mean and the variance of the kinetic energy against
 * dof·kT/2 and dof·(kT)²/2, and equipartition per element — the mean kinetic energy of the H atoms
 * and of the heavy atoms, each against its exact share once the constrained momenta are removed.
 * Argon, a single element, cannot tell a noise drawn with the mean mass from one drawn with each
 * atom's mass; ethanol can. Error bars: block averages over blocks much longer than the
 * correlation time, 4 of them plus an allowance of 1.5 % for the O(dt²) bias of the sampled
 * velocities at 0.5 fs.
 *
 * <p>Four replicas (seeds 900 … 903) run together in one {@link ReplicaSet}.
 */
class MultiElementCanonicalTest {
    private static final double T = 300;
    private static final double DT_FS = 0.5;
    private static final int REPLICAS = 4;
    private static final int EQUILIBRATION = 2_000;
    private static final int SAMPLES = 12_000;         // per replica
    private static final int EVERY = 10;               // steps between samples (5 fs)
    private static final int BLOCKS = 12;              // per replica: 5 ps each
    private static final double BIAS = 0.015;

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (String platform : List.of("reference", "cpu", "fake")) {
            all.add(Arguments.of(platform, "langevin", (Supplier<Thermostat>) () -> LangevinThermostat.of(T, 0.01)));
            all.add(Arguments.of(platform, "bussi", (Supplier<Thermostat>) () -> new BussiThermostat(T, 50)));
            all.add(Arguments.of(platform, "nose-hoover-chain", (Supplier<Thermostat>) () -> new NoseHooverChain(T, 20)));
        }
        return all.stream();
    }

    /** Per-sample series of one replica: total, H and heavy-atom kinetic energies and their expectations. */
    private static final class Series {
        final double[] total = new double[SAMPLES];
        final double[] light = new double[SAMPLES];
        final double[] heavy = new double[SAMPLES];
        final double[] lightExpected = new double[SAMPLES];
        final double[] heavyExpected = new double[SAMPLES];
        int n;
    }

    private static List<Series> sample(String platform, Supplier<Thermostat> thermostat) {
        List<Series> out = new ArrayList<>();
        try (ReplicaSet set = ReplicaSet.of(REPLICAS, k -> {
            Atoms eth = TestSystems.ethanol();
            return Simulation.builder(eth, ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()),
                    new VelocityVerlet(DT_FS, thermostat.get())).seed(900 + k).temperature(T);
        }).platform(platform).threads(2).build()) {
            assertEquals(platform, set.platformName());
            set.step(EQUILIBRATION);
            double kT = Units.BOLTZMANN_EV_PER_K * T;
            for (Simulation s : set.replicas()) {
                Series series = new Series();
                out.add(series);
                s.addReporter(new Reporter() {
                    @Override
                    public int intervalSteps() {
                        return EVERY;
                    }

                    @Override
                    public void report(Simulation sim) {
                        Atoms a = sim.atoms();
                        double[] share = EquipartitionShares.of(a, sim.degreesOfFreedom());
                        double[] v = a.velocities();
                        int i = series.n++;
                        for (int j = 0; j < a.size(); j++) {
                            double k = 0.5 * a.massAmu(j) / Units.ACCEL_A_PER_FS2
                                    * (v[3 * j] * v[3 * j] + v[3 * j + 1] * v[3 * j + 1] + v[3 * j + 2] * v[3 * j + 2]);
                            if (a.atomicNumber(j) == 1) {
                                series.light[i] += k;
                                series.lightExpected[i] += 0.5 * kT * share[j];
                            } else {
                                series.heavy[i] += k;
                                series.heavyExpected[i] += 0.5 * kT * share[j];
                            }
                        }
                        series.total[i] = Observables.kineticEnergyEv(a);
                    }
                });
            }
            set.step(SAMPLES * EVERY);   // samples at steps 2010, 2020, ..., 122000
        }
        return out;
    }

    private static KineticEnergyStatistics stats(List<Series> runs, java.util.function.Function<Series, double[]> part) {
        KineticEnergyStatistics s = new KineticEnergyStatistics(BLOCKS * runs.size(), (long) SAMPLES * runs.size());
        for (Series r : runs) {
            assertEquals(SAMPLES, r.n);
            for (double x : part.apply(r)) {
                s.add(x);
            }
        }
        return s;
    }

    private static double mean(List<Series> runs, java.util.function.Function<Series, double[]> part) {
        double s = 0;
        for (Series r : runs) {
            for (double x : part.apply(r)) {
                s += x;
            }
        }
        return s / (runs.size() * SAMPLES);
    }

    private static void within(String what, double measured, double expected, double error) {
        double band = 4 * error + BIAS * Math.abs(expected);
        assertTrue(error < 0.05 * Math.abs(expected), what + ": the run is too short to test (error " + error + ")");
        assertEquals(expected, measured, band, what);
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void kineticEnergyIsCanonicalAndEquipartitionedPerElement(String platform, String name, Supplier<Thermostat> thermostat) {
        List<Series> runs = sample(platform, thermostat);
        int dof = name.equals("langevin") ? 24 : 21;
        double kT = Units.BOLTZMANN_EV_PER_K * T;
        KineticEnergyStatistics total = stats(runs, r -> r.total);
        KineticEnergyStatistics light = stats(runs, r -> r.light);
        KineticEnergyStatistics heavy = stats(runs, r -> r.heavy);
        double lightExpected = mean(runs, r -> r.lightExpected);
        double heavyExpected = mean(runs, r -> r.heavyExpected);
        System.out.printf(Locale.ROOT, "%s on %s: <KE>/canonical %.4f +- %.4f, Var(KE)/canonical %.4f +- %.4f,"
                        + " H %.4f +- %.4f, heavy %.4f +- %.4f (of their shares; seeds 900-%d)%n", name, platform,
                total.mean() / (0.5 * dof * kT), total.meanError() / (0.5 * dof * kT),
                total.variance() / (0.5 * dof * kT * kT), total.varianceError() / (0.5 * dof * kT * kT),
                light.mean() / lightExpected, light.meanError() / lightExpected,
                heavy.mean() / heavyExpected, heavy.meanError() / heavyExpected, 900 + REPLICAS - 1);
        within(name + ": mean kinetic energy", total.mean(), 0.5 * dof * kT, total.meanError());
        // the variance's estimate is noisier: its own error bar, no bias allowance needed beyond the mean's
        double varExpected = 0.5 * dof * kT * kT;
        assertTrue(total.varianceError() < 0.08 * varExpected, "variance error " + total.varianceError());
        assertEquals(varExpected, total.variance(), 4 * total.varianceError() + 2 * BIAS * varExpected,
                name + ": variance of the kinetic energy");
        within(name + ": kinetic energy of the 6 H atoms", light.mean(), lightExpected, light.meanError());
        within(name + ": kinetic energy of the C, C, O atoms", heavy.mean(), heavyExpected, heavy.meanError());
    }

    @ParameterizedTest(name = "berendsen on {0}")
    @MethodSource("hostPlatforms")
    void berendsenHoldsTheMeanTemperatureOfAMultiElementMolecule(String platform) {
        List<Series> runs = sample(platform, () -> new BerendsenThermostat(T, 50));
        double kT = Units.BOLTZMANN_EV_PER_K * T;
        KineticEnergyStatistics total = stats(runs, r -> r.total);
        System.out.printf(Locale.ROOT, "berendsen on %s: <KE>/target %.4f +- %.4f%n", platform,
                total.mean() / (0.5 * 21 * kT), total.meanError() / (0.5 * 21 * kT));
        within("berendsen: mean kinetic energy", total.mean(), 0.5 * 21 * kT, total.meanError());
    }

    static Stream<String> hostPlatforms() {
        return Stream.of("reference", "cpu");
    }
}
