package org.molten.forcefield.cuda;

import org.molten.core.Atoms;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.forcefield.student.ReferenceStudent;

/**
 * The host's velocity Verlet with a Nosé–Hoover chain or Berendsen thermostat, T(dt/2) B A B T(dt/2),
 * transcribed from integrators/VelocityVerlet.java, thermostats/NoseHooverChain.java and
 * thermostats/BerendsenThermostat.java (the forcefield module cannot depend on integrators): the
 * oracle of CudaDynamicsTest for the device's deterministic thermostats. float64, Å, fs, eV.
 */
final class HostThermostats {
    private final DynamicsSpec spec;
    private final int dof;
    private final double kT;
    double bathEv;             // Berendsen's accumulated energy
    private double[] xi;       // NHC chain
    private double[] vxi;

    HostThermostats(DynamicsSpec spec, int dof) {
        this.spec = spec;
        this.dof = dof;
        double t = spec instanceof DynamicsSpec.NoseHooverChain c ? c.temperatureK()
                : ((DynamicsSpec.Berendsen) spec).temperatureK();
        this.kT = Units.BOLTZMANN_EV_PER_K * t;
        if (spec instanceof DynamicsSpec.NoseHooverChain c) {
            xi = new double[c.chainLength()];
            vxi = new double[c.chainLength()];
        }
    }

    /** Runs {@code steps} steps; returns the last potential energy, eV; {@link #bathEv} the bath energy then. */
    double run(ReferenceStudent ff, Atoms a, int steps) {
        int n = a.size();
        double dt = spec.timestepFs();
        double[] f = new double[3 * n];
        double e = ff.energyAndForces(a, f);
        double[] r = a.positions();
        double[] v = a.velocities();
        for (int s = 0; s < steps; s++) {
            apply(a, 0.5 * dt);
            for (int i = 0; i < 3 * n; i++) {
                v[i] += 0.5 * dt * Units.ACCEL_A_PER_FS2 / a.massAmu(i / 3) * f[i];
                r[i] += dt * v[i];
            }
            e = ff.energyAndForces(a, f);
            for (int i = 0; i < 3 * n; i++) {
                v[i] += 0.5 * dt * Units.ACCEL_A_PER_FS2 / a.massAmu(i / 3) * f[i];
            }
            apply(a, 0.5 * dt);
        }
        if (spec instanceof DynamicsSpec.NoseHooverChain c) {
            double tau2 = c.tauFs() * c.tauFs();
            bathEv = dof * kT * xi[0];
            for (int k = 0; k < xi.length; k++) {
                bathEv += 0.5 * (k == 0 ? dof : 1) * kT * tau2 * vxi[k] * vxi[k] + (k > 0 ? kT * xi[k] : 0);
            }
        }
        return e;
    }

    private void apply(Atoms a, double interval) {
        double ke = Observables.kineticEnergyEv(a);
        double scale;
        if (spec instanceof DynamicsSpec.Berendsen b) {
            double t = 2 * ke / (dof * Units.BOLTZMANN_EV_PER_K);
            double l2 = 1 + interval / b.tauFs() * (b.temperatureK() / t - 1);
            scale = Math.min(1.25, Math.max(0.8, Math.sqrt(Math.max(0, l2))));
            bathEv += ke * (1 - scale * scale);
        } else {
            scale = nhc((DynamicsSpec.NoseHooverChain) spec, ke, interval);
        }
        double[] v = a.velocities();
        for (int k = 0; k < v.length; k++) {
            v[k] *= scale;
        }
    }

    private double nhc(DynamicsSpec.NoseHooverChain c, double ke, double interval) {
        int m = xi.length;
        double[] mass = new double[m];
        double[] g = new double[m];
        mass[0] = dof * kT * c.tauFs() * c.tauFs();
        for (int k = 1; k < m; k++) {
            mass[k] = kT * c.tauFs() * c.tauFs();
        }
        double[] weights = DeviceIntegrator.suzukiYoshida(c.suzukiYoshidaWeights());
        double scale = 1.0;
        for (int cc = 0; cc < c.multipleTimeSteps(); cc++) {
            for (double w : weights) {
                double h = w * interval / c.multipleTimeSteps();
                double q = 0.25 * h;
                g[0] = (2 * ke - dof * kT) / mass[0];
                for (int k = 1; k < m; k++) {
                    g[k] = (mass[k - 1] * vxi[k - 1] * vxi[k - 1] - kT) / mass[k];
                }
                vxi[m - 1] += 0.5 * h * g[m - 1];
                for (int k = m - 2; k >= 0; k--) {
                    double e = Math.exp(-q * vxi[k + 1]);
                    vxi[k] = (vxi[k] * e + 0.5 * h * g[k]) * e;
                }
                double f = Math.exp(-h * vxi[0]);
                scale *= f;
                ke *= f * f;
                for (int k = 0; k < m; k++) {
                    xi[k] += h * vxi[k];
                }
                g[0] = (2 * ke - dof * kT) / mass[0];
                for (int k = 0; k < m - 1; k++) {
                    double e = Math.exp(-q * vxi[k + 1]);
                    vxi[k] = (vxi[k] * e + 0.5 * h * g[k]) * e;
                    g[k + 1] = (mass[k] * vxi[k] * vxi[k] - kT) / mass[k + 1];
                }
                vxi[m - 1] += 0.5 * h * g[m - 1];
            }
        }
        return scale;
    }
}
