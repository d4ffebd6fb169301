package org.molten.integrators.thermostats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.integrators.DynamicsState;
import org.molten.integrators.Thermostat;

/**
 * Nosé–Hoover chain thermostat (Martyna, Klein and Tuckerman, J. Chem. Phys. 97, 2635 (1992)):
 * a chain of M thermostat variables ξ_k with velocities v_ξk (1/fs) and masses
 * Q₁ = dof k_B T τ², Q_k = k_B T τ² (eV·fs²), the first coupled to the particles, each further
 * one to the previous. Deterministic and canonical for ergodic systems; the chain cures the
 * non-ergodicity of a single Nosé–Hoover thermostat for stiff or small systems.
 *
 * <p>The chain is propagated for dt/2 before and after the velocity-Verlet step by the
 * Trotter factorisation of Martyna, Tuckerman, Tobias and Klein, Mol. Phys. 87, 1117 (1996):
 * {@code multipleTimeSteps} sub-steps, each split by Suzuki–Yoshida weights (1, 3, 5 or 7 of
 * them), chain velocities updated from the end of the chain inwards and back, the particle
 * velocities scaled by exp(−v_ξ1 δ/2) analytically. The conserved quantity is
 * E_kin + E_pot + Σ Q_k v_ξk²/2 + dof k_B T ξ₁ + k_B T Σ_{k≥2} ξ_k ({@link #bathEnergyEv}).
 *
 * <p>τ (fs) is the period of the thermostat's oscillation; 10 to 100 timesteps is typical.
 */
public final class NoseHooverChain implements Thermostat {
    /** Default chain length M (MTK 1992; OpenMM, LAMMPS and ASE use 3 too). */
    public static final int DEFAULT_CHAIN_LENGTH = 3;
    /** Default number of multiple-time-step loops n_c per half step. */
    public static final int DEFAULT_MULTIPLE_TIME_STEPS = 1;
    /** Default number of Suzuki–Yoshida weights n_ys (MTK 1996 recommend 3 or 5). */
    public static final int DEFAULT_SUZUKI_YOSHIDA_WEIGHTS = 3;

    private final double temperatureK;
    private final double tauFs;
    private final int multipleTimeSteps;
    private final double[] weights;
    private final double[] xi;     // chain positions, dimensionless
    private final double[] vxi;    // chain velocities, 1/fs
    private final double[] mass;   // Q_k, eV fs², for massesFor dof
    private final double[] g;      // scratch: chain forces, 1/fs²
    private int massesFor = -1;

    /** A chain of the default length at {@code temperatureK} (K) with period {@code tauFs} (fs). */
    public NoseHooverChain(double temperatureK, double tauFs) {
        this(temperatureK, tauFs, DEFAULT_CHAIN_LENGTH, DEFAULT_MULTIPLE_TIME_STEPS, DEFAULT_SUZUKI_YOSHIDA_WEIGHTS);
    }

    /**
     * A chain with every setting explicit.
     *
     * @param chainLength          M ≥ 1 (1 is plain Nosé–Hoover)
     * @param multipleTimeSteps    n_c ≥ 1 sub-steps per half step
     * @param suzukiYoshidaWeights n_ys: 1, 3, 5 or 7
     */
    public NoseHooverChain(double temperatureK, double tauFs, int chainLength, int multipleTimeSteps,
                           int suzukiYoshidaWeights) {
        this.temperatureK = Checks.requirePositive(temperatureK, "temperature_K");
        this.tauFs = Checks.requirePositive(tauFs, "tau_fs");
        Checks.requirePositive(chainLength, "chain_length");
        this.multipleTimeSteps = Checks.requirePositive(multipleTimeSteps, "multiple_time_steps");
        this.weights = suzukiYoshida(suzukiYoshidaWeights);
        xi = new double[chainLength];
        vxi = new double[chainLength];
        mass = new double[chainLength];
        g = new double[chainLength];
    }

    private static double[] suzukiYoshida(int n) {
        return org.molten.core.dynamics.DynamicsSpec.NoseHooverChain.suzukiYoshidaWeights(n);
    }

    /** The chain length M. */
    public int chainLength() {
        return xi.length;
    }

    /** The thermostat period τ in fs. */
    public double tauFs() {
        return tauFs;
    }

    /** Chain positions ξ_k, a copy. */
    public double[] positions() {
        return xi.clone();
    }

    /** Chain velocities v_ξk in 1/fs, a copy. */
    public double[] velocities() {
        return vxi.clone();
    }

    @Override
    public DynamicsSpec dynamicsSpec(double timestepFs) {
        return new DynamicsSpec.NoseHooverChain(timestepFs, temperatureK, tauFs, xi.length, multipleTimeSteps,
                weights.length);
    }

    @Override
    public Placement placement() {
        return Placement.AROUND_VERLET;
    }

    @Override
    public String name() {
        return "nose-hoover-chain";
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "nose-hoover-chain(T=%s K, tau=%s fs, M=%d, nc=%d, nys=%d)", temperatureK,
                tauFs, xi.length, multipleTimeSteps, weights.length);
    }

    @Override
    public double targetTemperatureK() {
        return temperatureK;
    }

    private void prepare(int dof) {
        if (dof == massesFor) {
            return;
        }
        double kT = Units.BOLTZMANN_EV_PER_K * temperatureK;
        mass[0] = dof * kT * tauFs * tauFs;
        for (int k = 1; k < mass.length; k++) {
            mass[k] = kT * tauFs * tauFs;
        }
        massesFor = dof;
    }

    @Override
    public void apply(DynamicsState s, double intervalFs) {
        Atoms atoms = s.atoms();
        int dof = s.degreesOfFreedom();
        prepare(dof);
        double kT = Units.BOLTZMANN_EV_PER_K * temperatureK;
        double ke = Observables.kineticEnergyEv(atoms);
        VelocityScaling.requireMoving(ke, "the Nose-Hoover chain");
        int m = xi.length;
        double scale = 1.0;
        for (int c = 0; c < multipleTimeSteps; c++) {
            for (double w : weights) {
                // h = w·interval/n_c; chain velocities get h/2 kicks, the particles an exp(-h v_ξ1) scaling.
                double h = w * intervalFs / multipleTimeSteps;
                double q = 0.25 * h;   // the quarter-length used in exp(-v_ξ(k+1) h/4)
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
        VelocityScaling.scale(atoms.velocities(), scale);
    }

    @Override
    public double bathEnergyEv(int degreesOfFreedom) {
        prepare(degreesOfFreedom);
        double kT = Units.BOLTZMANN_EV_PER_K * temperatureK;
        double e = degreesOfFreedom * kT * xi[0];
        for (int k = 0; k < xi.length; k++) {
            e += 0.5 * mass[k] * vxi[k] * vxi[k];
            if (k > 0) {
                e += kT * xi[k];
            }
        }
        return e;
    }

    @Override
    public boolean conservesLinearMomentum() {
        return true;
    }

    @Override
    public boolean conservesAngularMomentum() {
        return true;
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
        out.writeInt(xi.length);
        for (int k = 0; k < xi.length; k++) {
            out.writeDouble(xi[k]);
            out.writeDouble(vxi[k]);
        }
    }

    @Override
    public void readState(DataInput in) throws IOException {
        int m = in.readInt();
        if (m != xi.length) {
            throw new IOException("checkpoint has a Nose-Hoover chain of length " + m + ", this run uses " + xi.length);
        }
        for (int k = 0; k < m; k++) {
            xi[k] = in.readDouble();
            vxi[k] = in.readDouble();
        }
    }

    @Override
    public String toString() {
        return description() + " xi=" + Arrays.toString(xi) + " v_xi=" + Arrays.toString(vxi);
    }
}
