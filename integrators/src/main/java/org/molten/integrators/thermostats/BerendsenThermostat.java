package org.molten.integrators.thermostats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Observables;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.integrators.DynamicsState;
import org.molten.integrators.Thermostat;

/**
 * Berendsen weak-coupling thermostat (Berendsen, Postma, van Gunsteren, DiNola and Haak,
 * J. Chem. Phys. 81, 3684 (1984)): velocities are scaled by λ = √(1 + (h/τ)(T₀/T − 1)), which
 * relaxes the temperature exponentially towards T₀ with time constant τ.
 *
 * <p><b>Not canonical.</b> It drives the instantaneous kinetic energy towards its mean and so
 * suppresses its fluctuations below the canonical (dof/2)(k_B T)²; with long runs it can also
 * move energy from fast to slow modes ("flying ice cube", Harvey, Tan and Cheatham, J. Comput.
 * Chem. 19, 726 (1998)). Use it to equilibrate quickly, then sample with Bussi, Langevin or a
 * Nosé–Hoover chain; Bussi is its canonical generalisation.
 *
 * <p>As GROMACS does, λ is clamped to [0.8, 1.25] per application so a far-off start cannot
 * produce an imaginary or violent rescaling. Applied for dt/2 before and after each step.
 */
public final class BerendsenThermostat implements Thermostat {
    private static final double MIN_LAMBDA = 0.8;
    private static final double MAX_LAMBDA = 1.25;
    private final double temperatureK;
    private final double tauFs;
    private double bathEnergyEv;

    /** Berendsen at {@code temperatureK} (K) with coupling time {@code tauFs} (fs). */
    public BerendsenThermostat(double temperatureK, double tauFs) {
        this.temperatureK = Checks.requirePositive(temperatureK, "temperature_K");
        this.tauFs = Checks.requirePositive(tauFs, "tau_fs");
    }

    /** Coupling time τ in fs. */
    public double tauFs() {
        return tauFs;
    }

    @Override
    public DynamicsSpec dynamicsSpec(double timestepFs) {
        return new DynamicsSpec.Berendsen(timestepFs, temperatureK, tauFs);
    }

    @Override
    public Placement placement() {
        return Placement.AROUND_VERLET;
    }

    @Override
    public String name() {
        return "berendsen";
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "berendsen(T=%s K, tau=%s fs)", temperatureK, tauFs);
    }

    @Override
    public double targetTemperatureK() {
        return temperatureK;
    }

    @Override
    public void apply(DynamicsState s, double intervalFs) {
        Atoms atoms = s.atoms();
        double k = Observables.kineticEnergyEv(atoms);
        VelocityScaling.requireMoving(k, "the Berendsen thermostat");
        double t = 2 * k / (s.degreesOfFreedom() * Units.BOLTZMANN_EV_PER_K);
        double lambda2 = 1 + intervalFs / tauFs * (temperatureK / t - 1);
        double lambda = Math.min(MAX_LAMBDA, Math.max(MIN_LAMBDA, Math.sqrt(Math.max(0, lambda2))));
        VelocityScaling.scale(atoms.velocities(), lambda);
        bathEnergyEv += k * (1 - lambda * lambda);
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
