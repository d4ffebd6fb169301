package org.molten.integrators.thermostats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.integrators.DynamicsState;
import org.molten.integrators.Thermostat;

/**
 * Stochastic velocity rescaling (Bussi, Donadio and Parrinello, "Canonical sampling through
 * velocity rescaling", J. Chem. Phys. 126, 014101 (2007)): all velocities are scaled by one factor
 * α chosen so that the kinetic energy follows the exact solution of
 * dK = (K̄ − K) dt/τ + 2 √(K K̄ / dof) dW/√τ over the interval, which leaves the canonical
 * distribution of K (a Gamma distribution with dof/2 and k_B T) invariant. With
 * c = exp(−h/τ), R₁ a Gaussian and S a chi-squared variate with dof − 1 degrees of freedom (drawn
 * exactly as 2·Gamma((dof−1)/2), see {@link ChiSquared}):
 * K' = c K + (1 − c) K̄ (R₁² + S)/dof + 2 R₁ √(c (1 − c) K K̄ / dof)  (their eq. A7),
 * α = ±√(K'/K) with the sign of R₁ + √(c dof K / ((1 − c) K̄)).
 *
 * <p>Applied for dt/2 before and after each velocity-Verlet step. Like Berendsen it only rescales,
 * so zero total momentum and angular momentum stay zero; unlike Berendsen it is canonical, and its
 * effective energy (E_tot plus the energy handed to the bath, {@link #bathEnergyEv}) is conserved
 * up to the integration error. τ (fs) is the relaxation time of the kinetic energy.
 */
public final class BussiThermostat implements Thermostat {
    private final double temperatureK;
    private final double tauFs;
    private double bathEnergyEv;

    /** Bussi at {@code temperatureK} (K) with relaxation time {@code tauFs} (fs). */
    public BussiThermostat(double temperatureK, double tauFs) {
        this.temperatureK = Checks.requirePositive(temperatureK, "temperature_K");
        this.tauFs = Checks.requirePositive(tauFs, "tau_fs");
    }

    /** Relaxation time τ in fs. */
    public double tauFs() {
        return tauFs;
    }

    @Override
    public DynamicsSpec dynamicsSpec(double timestepFs) {
        return new DynamicsSpec.Bussi(timestepFs, temperatureK, tauFs);
    }

    @Override
    public Placement placement() {
        return Placement.AROUND_VERLET;
    }

    @Override
    public String name() {
        return "bussi";
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "bussi(T=%s K, tau=%s fs)", temperatureK, tauFs);
    }

    @Override
    public double targetTemperatureK() {
        return temperatureK;
    }

    @Override
    public void apply(DynamicsState s, double intervalFs) {
        Atoms atoms = s.atoms();
        int dof = s.degreesOfFreedom();
        RandomStream rng = DynamicsState.requireRandom(s);
        double k = Observables.kineticEnergyEv(atoms);
        VelocityScaling.requireMoving(k, "the Bussi thermostat");
        double target = 0.5 * dof * Units.BOLTZMANN_EV_PER_K * temperatureK;
        double c = Math.exp(-intervalFs / tauFs);
        double r1 = rng.nextGaussian();
        double sum = ChiSquared.sumOfSquaredGaussians(rng, dof - 1);
        double kNew = c * k + (1 - c) * target * (r1 * r1 + sum) / dof
                + 2 * r1 * Math.sqrt(c * (1 - c) * k * target / dof);
        double alpha = Math.sqrt(kNew / k);
        if (r1 + Math.sqrt(c * dof * k / ((1 - c) * target)) < 0) {
            alpha = -alpha;
        }
        VelocityScaling.scale(atoms.velocities(), alpha);
        bathEnergyEv += k - kNew;
    }

    @Override
    public double bathEnergyEv(int degreesOfFreedom) {
        return bathEnergyEv;
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
        out.writeDouble(bathEnergyEv);
    }

    @Override
    public void readState(DataInput in) throws IOException {
        bathEnergyEv = in.readDouble();
    }
}
