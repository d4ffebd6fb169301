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
import org.molten.core.dynamics.ConstraintSet;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.constraints.Constraints;
import org.molten.integrators.thermostats.BerendsenThermostat;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

/**
 * Every thermostat with ethanol's six C–H and O–H bonds held (h-bonds, 1 fs; classical potential):
 * the kinetic energy has the canonical mean and variance of the reduced degrees of freedom
 * (3N − 3 − 6 = 18 under Langevin, 3N − 6 − 6 = 15 under the others), the reported temperature
 * averages to the target, and each element's kinetic energy matches its share of those degrees of
 * freedom: in mass-weighted velocity space the canonical distribution is isotropic on the subspace
 * orthogonal to the translations, the rotations (if removed) and the constraint gradients, so
 * ⟨m_i v_i²⟩ = kT (3 − Σ_c |u_c(i)|²) over an orthonormal basis u_c of those directions at the
 * sampled geometry. Berendsen (not canonical) holds the mean only. Two replicas, seeds 700 and 701, on the
 * reference and the cpu platform. The cuda platform runs the student only and is tested on its emulator in
 * platform-cuda (CudaConstraintsTest: Langevin's kinetic energy of the reduced degrees of freedom there).
 */
class ConstrainedCanonicalTest {
    private static final double T = 300;
    private static final double DT_FS = 1.0;
    private static final int REPLICAS = 2;
    private static final int EQUILIBRATION = 1_000;
    private static final int SAMPLES = 8_000;     // per replica, every 5 steps: 40 ps
    private static final int EVERY = 5;
    private static final int BLOCKS = 10;
    private static final double BIAS = 0.015;

    static Stream<Arguments> thermostats() {
        List<Arguments> all = new ArrayList<>();
        for (String platform : List.of("reference", "cpu")) {
            all.add(Arguments.of("langevin", (Supplier<Thermostat>) () -> LangevinThermostat.of(T, 0.01), platform));
            all.add(Arguments.of("bussi", (Supplier<Thermostat>) () -> new BussiThermostat(T, 50), platform));
            all.add(Arguments.of("nose-hoover-chain", (Supplier<Thermostat>) () -> new NoseHooverChain(T, 20), platform));
            all.add(Arguments.of("berendsen", (Supplier<Thermostat>) () -> new BerendsenThermostat(T, 50), platform));
        }
        return all.stream();
    }

    /** Each atom's share of the degrees of freedom (they sum to dof) at the current geometry. */
    static double[] shares(Atoms a, ConstraintSet constraints, boolean rotationRemoved) {
        int n = a.size();
        List<double[]> removed = new ArrayList<>();
        double[] sq = new double[n];
        for (int i = 0; i < n; i++) {
            sq[i] = Math.sqrt(a.massAmu(i));
        }
        for (int c = 0; c < 3; c++) {
            double[] t = new double[3 * n];
            for (int i = 0; i < n; i++) {
                t[3 * i + c] = sq[i];
            }
            removed.add(t);
        }
        double[] r = a.positions();
        if (rotationRemoved) {
            double[] com = Observables.centreOfMass(a);
            for (int c = 0; c < 3; c++) {
                double[] e = new double[3];
                e[c] = 1;
                double[] u = new double[3 * n];
                for (int i = 0; i < n; i++) {
                    double[] d = {r[3 * i] - com[0], r[3 * i + 1] - com[1], r[3 * i + 2] - com[2]};
                    u[3 * i] = sq[i] * (e[1] * d[2] - e[2] * d[1]);
                    u[3 * i + 1] = sq[i] * (e[2] * d[0] - e[0] * d[2]);
                    u[3 * i + 2] = sq[i] * (e[0] * d[1] - e[1] * d[0]);
                }
                removed.add(u);
            }
        }
        double[] d = new double[3];
        for (int k = 0; k < constraints.pairCount(); k++) {
            int i = constraints.first(k), j = constraints.second(k);
            a.displacement(i, j, d);
            double[] g = new double[3 * n];
            for (int c = 0; c < 3; c++) {
                g[3 * j + c] = d[c] / sq[j];
                g[3 * i + c] = -d[c] / sq[i];
            }
            removed.add(g);
        }
        List<double[]> basis = new ArrayList<>();
        for (double[] u : removed) {
            for (double[] b : basis) {
                double p = dot(u, b);
                for (int k = 0; k < u.length; k++) {
                    u[k] -= p * b[k];
                }
            }
            double norm = Math.sqrt(dot(u, u));
            if (norm > 1e-9) {
                for (int k = 0; k < u.length; k++) {
                    u[k] /= norm;
                }
                basis.add(u);
            }
        }
        double[] share = new double[n];
        for (int i = 0; i < n; i++) {
            share[i] = 3;
            for (double[] b : basis) {
                share[i] -= b[3 * i] * b[3 * i] + b[3 * i + 1] * b[3 * i + 1] + b[3 * i + 2] * b[3 * i + 2];
            }
        }
        return share;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) {
            s += a[k] * b[k];
        }
        return s;
    }

    @ParameterizedTest(name = "{0} on {2}")
    @MethodSource("thermostats")
    void kineticEnergyIsCanonicalWithTheReducedDegreesOfFreedom(String name, Supplier<Thermostat> thermostat, String platform) {
        boolean langevin = name.equals("langevin");
        int dof = 27 - (langevin ? 3 : 6) - 6;
        double kT = Units.BOLTZMANN_EV_PER_K * T;
        KineticEnergyStatistics total = new KineticEnergyStatistics(BLOCKS * REPLICAS, (long) SAMPLES * REPLICAS);
        KineticEnergyStatistics light = new KineticEnergyStatistics(BLOCKS * REPLICAS, (long) SAMPLES * REPLICAS);
        KineticEnergyStatistics heavy = new KineticEnergyStatistics(BLOCKS * REPLICAS, (long) SAMPLES * REPLICAS);
        double[] expected = new double[2];   // H, heavy: sum of kT/2 x share over samples
        double[] temperature = new double[1];
        int[] derived = new int[REPLICAS];
        try (ReplicaSet set = ReplicaSet.of(REPLICAS, k -> Simulation.builder(TestSystems.ethanol(),
                        ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()), new VelocityVerlet(DT_FS, thermostat.get()))
                .seed(700 + k).temperature(T).constraints(Constraints.hBonds())).platform(platform).threads(2).build()) {
            assertEquals(platform, set.platformName());
            set.step(EQUILIBRATION);
            for (Simulation s : set.replicas()) {
                derived[s == set.replica(0) ? 0 : 1] = s.degreesOfFreedom();
                s.addReporter(new Reporter() {
                    @Override
                    public int intervalSteps() {
                        return EVERY;
                    }

                    @Override
                    public void report(Simulation sim) {
                        Atoms a = sim.atoms();
                        double[] share = shares(a, sim.constraintSet(), !langevin);
                        double[] v = a.velocities();
                        double h = 0, c = 0;
                        for (int j = 0; j < a.size(); j++) {
                            double k = 0.5 * a.massAmu(j) / Units.ACCEL_A_PER_FS2
                                    * (v[3 * j] * v[3 * j] + v[3 * j + 1] * v[3 * j + 1] + v[3 * j + 2] * v[3 * j + 2]);
                            if (a.atomicNumber(j) == 1) {
                                h += k;
                                expected[0] += 0.5 * kT * share[j];
                            } else {
                                c += k;
                                expected[1] += 0.5 * kT * share[j];
                            }
                        }
                        light.add(h);
                        heavy.add(c);
                        total.add(Observables.kineticEnergyEv(a));
                        temperature[0] += sim.temperatureK();
                    }
                });
            }
            set.step(SAMPLES * EVERY);
        }
        long n = (long) SAMPLES * REPLICAS;
        double lightExpected = expected[0] / n, heavyExpected = expected[1] / n;
        double meanT = temperature[0] / n;
        System.out.printf(Locale.ROOT, "%s on " + platform + ", ethanol h-bonds at %s fs: <KE>/(dof kT/2) %.4f +- %.4f (dof %d), Var(KE)/canonical"
                        + " %.4f +- %.4f, <T> %.1f K, H %.4f +- %.4f, heavy %.4f +- %.4f of their shares%n", name, DT_FS,
                total.mean() / (0.5 * dof * kT), total.meanError() / (0.5 * dof * kT), dof,
                total.variance() / (0.5 * dof * kT * kT), total.varianceError() / (0.5 * dof * kT * kT), meanT,
                light.mean() / lightExpected, light.meanError() / lightExpected,
                heavy.mean() / heavyExpected, heavy.meanError() / heavyExpected);
        within(name + ": mean kinetic energy against dof kT/2", total.mean(), 0.5 * dof * kT, total.meanError());
        within(name + ": mean reported temperature, K", meanT, T, total.meanError() / (0.5 * dof * kT) * T);
        assertArrayEquals(new int[] {dof, dof}, derived, name + ": the degrees of freedom the simulation derived");
        if (name.equals("berendsen")) {
            return;   // weak coupling holds the mean, not the canonical fluctuations
        }
        double varExpected = 0.5 * dof * kT * kT;
        assertTrue(total.varianceError() < 0.1 * varExpected, "variance error " + total.varianceError());
        assertEquals(varExpected, total.variance(), 4 * total.varianceError() + 2 * BIAS * varExpected,
                name + ": variance of the kinetic energy");
        within(name + ": kinetic energy of the 6 H atoms", light.mean(), lightExpected, light.meanError());
        within(name + ": kinetic energy of the C, C, O atoms", heavy.mean(), heavyExpected, heavy.meanError());
    }

    private static void within(String what, double measured, double expected, double error) {
        assertTrue(error < 0.05 * Math.abs(expected), what + ": the run is too short to test (error " + error + ")");
        assertEquals(expected, measured, 4 * error + BIAS * Math.abs(expected), what);
    }
}
