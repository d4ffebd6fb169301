package org.molten.forcefield.cuda;

import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.forcefield.student.ReferenceStudent;

/**
 * The device's stochastic thermostats on the host, in float64 with the device's own random streams, the oracle
 * of the step-by-step tests of the small-molecule kernel (MoleculeThermostatTest): Langevin BAOAB split
 * B A(dt/2) O A(dt/2) B with the centre-of-mass drift removal and the bath account (LangevinThermostat.java's
 * definitions), and Bussi's canonical rescaling for dt/2 around the Verlet step (BussiThermostat.java's formula),
 * transcribed term for term from the definitions in molten_thermostat.cuh's header. The random numbers are those of
 * the kernels, re-implemented here: Philox4x32-10 keyed by the replica's seed, counted by (atom, step) for the
 * Langevin noise (gaussian3_seeded) and by (draw, step, stage) for Bussi (ReplicaRandom), so host and device draw
 * the same numbers and differ only by the device's float32 forces. Å, fs, eV, amu.
 */
final class HostStochasticThermostats {
    private final DynamicsSpec spec;
    private final int dof;
    private final long seed;
    private final double kT;
    double bathEv;

    HostStochasticThermostats(DynamicsSpec spec, int dof, long seed) {
        this.spec = spec;
        this.dof = dof;
        this.seed = seed;
        double t = spec instanceof DynamicsSpec.Langevin l ? l.temperatureK() : ((DynamicsSpec.Bussi) spec).temperatureK();
        this.kT = Units.BOLTZMANN_EV_PER_K * t;
    }

    /** Runs {@code steps} steps from step 0; returns the last potential energy (eV); {@link #bathEv} then. */
    double run(ReferenceStudent ff, Atoms a, int steps) {
        int n = a.size();
        double dt = spec.timestepFs();
        double[] f = new double[3 * n];
        double e = ff.energyAndForces(a, f);
        double[] r = a.positions();
        double[] v = a.velocities();
        for (long s = 0; s < steps; s++) {
            if (spec instanceof DynamicsSpec.Bussi b) {
                bussi(a, b, 0.5 * dt, s, 0);
            }
            for (int i = 0; i < 3 * n; i++) {
                v[i] += 0.5 * dt * Units.ACCEL_A_PER_FS2 / a.massAmu(i / 3) * f[i];
            }
            if (spec instanceof DynamicsSpec.Langevin l) {
                for (int i = 0; i < 3 * n; i++) {
                    r[i] += 0.5 * dt * v[i];
                }
                langevinO(a, l, s);
                for (int i = 0; i < 3 * n; i++) {
                    r[i] += 0.5 * dt * v[i];
                }
            } else {
                for (int i = 0; i < 3 * n; i++) {
                    r[i] += dt * v[i];
                }
            }
            e = ff.energyAndForces(a, f);
            for (int i = 0; i < 3 * n; i++) {
                v[i] += 0.5 * dt * Units.ACCEL_A_PER_FS2 / a.massAmu(i / 3) * f[i];
            }
            if (spec instanceof DynamicsSpec.Bussi b) {
                bussi(a, b, 0.5 * dt, s + 1, 1);  // the device counts the step before its closing thermostat
            }
        }
        return e;
    }

    private void langevinO(Atoms a, DynamicsSpec.Langevin l, long step) {
        double before = Observables.kineticEnergyEv(a);
        double c1 = Math.exp(-l.frictionPerFs() * spec.timestepFs());
        double c2 = Math.sqrt(1 - c1 * c1);
        double[] v = a.velocities();
        double[] g = new double[3];
        for (int i = 0; i < a.size(); i++) {
            gaussian3(seed, i, step, g);
            double sig = c2 * Math.sqrt(kT * Units.ACCEL_A_PER_FS2 / a.massAmu(i));
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] = c1 * v[3 * i + k] + sig * g[k];
            }
        }
        if (l.removeCentreOfMassDrift()) {
            double[] p = Observables.linearMomentum(a);
            double m = a.totalMassAmu();
            for (int i = 0; i < a.size(); i++) {
                for (int k = 0; k < 3; k++) {
                    v[3 * i + k] -= p[k] / m;
                }
            }
        }
        bathEv += before - Observables.kineticEnergyEv(a);
    }

    private void bussi(Atoms a, DynamicsSpec.Bussi b, double h, long step, int stage) {
        double k = Observables.kineticEnergyEv(a);
        Stream rng = new Stream(seed, step, stage);
        double target = 0.5 * dof * kT;
        double c = Math.exp(-h / b.tauFs());
        double r1 = rng.gaussian();
        double sum = rng.chiSquared(dof - 1);
        double kNew = c * k + (1 - c) * target * (r1 * r1 + sum) / dof + 2 * r1 * Math.sqrt(c * (1 - c) * k * target / dof);
        double alpha = Math.sqrt(kNew / k);
        if (r1 + Math.sqrt(c * dof * k / ((1 - c) * target)) < 0) {
            alpha = -alpha;
        }
        bathEv += k - kNew;
        double[] v = a.velocities();
        for (int i = 0; i < v.length; i++) {
            v[i] *= alpha;
        }
    }

    /** Philox4x32-10 (Salmon et al. 2011) on the counter c with the key (k0, k1), in place; 32-bit words as ints. */
    static void philox(int[] c, int k0, int k1) {
        for (int round = 0; round < 10; round++) {
            long p0 = 0xD2511F53L * (c[0] & 0xffffffffL);
            long p1 = 0xCD9E8D57L * (c[2] & 0xffffffffL);
            int hi0 = (int) (p0 >>> 32);
            int lo0 = (int) p0;
            int hi1 = (int) (p1 >>> 32);
            int lo1 = (int) p1;
            int n0 = hi1 ^ c[1] ^ k0;
            int n2 = hi0 ^ c[3] ^ k1;
            c[0] = n0;
            c[1] = lo1;
            c[2] = n2;
            c[3] = lo0;
            k0 += 0x9E3779B9;
            k1 += 0xBB67AE85;
        }
    }

    private static double unit32(int x) {
        return ((x & 0xffffffffL) + 0.5) / 4294967296.0;
    }

    /** The Langevin noise of atom {@code atom} (index within its replica) at {@code step}: gaussian3_seeded. */
    static void gaussian3(long seed, int atom, long step, double[] g) {
        int[] c = {atom, (int) step, (int) (step >>> 32), 0x6d6f6c74};
        philox(c, (int) seed, (int) (seed >>> 32));
        double r0 = Math.sqrt(-2 * Math.log(unit32(c[0])));
        double r1 = Math.sqrt(-2 * Math.log(unit32(c[2])));
        double twoPi = 6.283185307179586;
        g[0] = r0 * Math.cos(twoPi * unit32(c[1]));
        g[1] = r0 * Math.sin(twoPi * unit32(c[1]));
        g[2] = r1 * Math.cos(twoPi * unit32(c[3]));
    }

    /** A replica's thermostat stream (ReplicaRandom): uniforms of 53 bits, Box–Muller, Marsaglia–Tsang gamma. */
    static final class Stream {
        private final long seed;
        private final long step;
        private final int stage;
        private int draw;

        Stream(long seed, long step, int stage) {
            this.seed = seed;
            this.step = step;
            this.stage = stage;
        }

        double uniform() {
            int[] c = {draw++, (int) step, (int) (step >>> 32), 0x42550000 | stage};
            philox(c, (int) seed, (int) (seed >>> 32));
            long m = ((long) (c[0] >>> 5) << 26) | (c[1] >>> 6);
            return (m + 0.5) / 9007199254740992.0;
        }

        double gaussian() {
            double u1 = uniform();
            double u2 = uniform();
            return Math.sqrt(-2 * Math.log(u1)) * Math.cos(6.283185307179586 * u2);
        }

        double gamma(double shape) {
            double boost = 1;
            if (shape < 1) {
                boost = Math.pow(uniform(), 1 / shape);
                shape += 1;
            }
            double d = shape - 1.0 / 3.0;
            double c = 1 / Math.sqrt(9 * d);
            while (true) {
                double x;
                double v;
                do {
                    x = gaussian();
                    v = 1 + c * x;
                } while (v <= 0);
                v = v * v * v;
                double u = uniform();
                double x2 = x * x;
                if (u < 1 - 0.0331 * x2 * x2) {
                    return boost * d * v;
                }
                if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) {
                    return boost * d * v;
                }
            }
        }

        double chiSquared(int k) {
            if (k <= 0) {
                return 0;
            }
            if (k == 1) {
                double g = gaussian();
                return g * g;
            }
            return 2 * gamma(0.5 * k);
        }
    }
}
