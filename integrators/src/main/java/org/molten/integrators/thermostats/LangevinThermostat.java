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
 * Langevin dynamics in the BAOAB splitting of Leimkuhler and Matthews, "Rational construction of
 * stochastic numerical methods for molecular sampling", Appl. Math. Res. Express 2013, 34: the
 * Ornstein–Uhlenbeck step O is solved exactly in the middle of the drift,
 * v ← c v + √((1 − c²) k_B T / m) ξ with c = exp(−γ dt). Among the splittings of Langevin
 * dynamics BAOAB has the smallest configurational sampling error (O(dt²) in general, and exact
 * for a harmonic potential). The velocities at the full step, after the last half kick, carry an
 * O(dt²) bias: for a harmonic mode of angular frequency ω, ⟨m v²⟩ = kT (1 − ω²dt²/4), about 2 % for
 * X–H stretches at 0.5 fs. The velocities in the middle of the step, around the O step, do not:
 * between two O steps the map B(dt/2) A(dt/2) | A(dt/2) B(dt/2) seen from the middle is position
 * Verlet, A(dt/2) B(dt) A(dt/2), which for a harmonic mode conserves ½ m u² + ½ m ω² y² (1 − ω²dt²/4);
 * the O step leaves ½ m u² canonical, so that law is stationary and the mid-step velocities u are
 * exactly Maxwell–Boltzmann. The kinetic energy reported for a step
 * ({@link #reportedKineticEnergyEv()}, the energy log's E_kin and T) is therefore that of the
 * velocities just after the O step, the velocities OpenMM's LangevinMiddleIntegrator holds between
 * steps. (Those just before it are as good; the mean of the two kinetic energies has the right mean
 * but, the O step's noise being partly fresh, too small a spread: it would fail the canonical σ_T
 * check of a correct integrator.) The velocities
 * themselves stay those of the full step, and E_kin(full step) + E_pot + bath is the conserved
 * quantity.
 *
 * <p>By default the centre-of-mass velocity is removed after each O step (as ASE's
 * {@code fixcm}): with zero initial momentum this is the exact Ornstein–Uhlenbeck process on the
 * 3N − 3 remaining degrees of freedom, and the system does not drift. Rotation is thermalised,
 * so an isolated molecule under Langevin has 3N − 3 degrees of freedom, never 3N − 6.
 *
 * <p>With constraints the velocities are projected onto the constraint surface after the O step
 * (RATTLE's velocity half), which makes O the exact Ornstein–Uhlenbeck process of the constrained
 * degrees of freedom (Leimkuhler and Matthews, Proc. R. Soc. A 472, 20160138 (2016)).
 *
 * <p>Friction γ in 1/fs (0.01/fs = 10/ps is a common, fairly strong coupling; OpenMM's examples
 * use 1/ps = 0.001/fs).
 */
public final class LangevinThermostat implements Thermostat {
    private final double temperatureK;
    private final double frictionPerFs;
    private final boolean removeCentreOfMassDrift;
    // Coefficients for the last (atoms, interval): c = exp(-γ h) and per-atom noise amplitudes, Å/fs.
    private Atoms coefficientsFor;
    private double coefficientsInterval = Double.NaN;
    private double decay;
    private double[] noise = new double[0];
    private double bathEnergyEv;
    // Kinetic energy just after the last O step, eV; NaN before the first (not checkpointed).
    private double midStepKineticEnergyEv = Double.NaN;

    private LangevinThermostat(double temperatureK, double frictionPerFs, boolean removeCentreOfMassDrift) {
        this.temperatureK = Checks.requireNonNegative(temperatureK, "temperature_K");
        this.frictionPerFs = Checks.requireNonNegative(frictionPerFs, "friction_per_fs");
        this.removeCentreOfMassDrift = removeCentreOfMassDrift;
    }

    /**
     * Langevin at {@code temperatureK} (K) with friction {@code frictionPerFs} (1/fs), removing
     * centre-of-mass drift.
     */
    public static LangevinThermostat of(double temperatureK, double frictionPerFs) {
        return new LangevinThermostat(temperatureK, frictionPerFs, true);
    }

    /**
     * The same thermostat without removal of the centre-of-mass velocity: all 3N degrees of
     * freedom are thermalised (the system diffuses as a whole).
     */
    public LangevinThermostat keepingCentreOfMassMotion() {
        return new LangevinThermostat(temperatureK, frictionPerFs, false);
    }

    /** Friction coefficient γ in 1/fs. */
    public double frictionPerFs() {
        return frictionPerFs;
    }

    /** True when the centre-of-mass velocity is removed after each O step. */
    public boolean removesCentreOfMassDrift() {
        return removeCentreOfMassDrift;
    }

    @Override
    public DynamicsSpec dynamicsSpec(double timestepFs) {
        return new DynamicsSpec.Langevin(timestepFs, temperatureK, frictionPerFs, removeCentreOfMassDrift);
    }

    @Override
    public Placement placement() {
        return Placement.MID_DRIFT;
    }

    @Override
    public String name() {
        return "langevin-baoab";
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "langevin-baoab(T=%s K, friction=%s /fs, %s)", temperatureK, frictionPerFs,
                removeCentreOfMassDrift ? "com-drift-removed" : "com-free");
    }

    @Override
    public double targetTemperatureK() {
        return temperatureK;
    }

    @Override
    public void apply(DynamicsState s, double intervalFs) {
        Atoms atoms = s.atoms();
        prepare(atoms, intervalFs);
        RandomStream rng = DynamicsState.requireRandom(s);
        double[] v = atoms.velocities();
        int n = atoms.size();
        double before = Observables.kineticEnergyEv(atoms);
        for (int i = 0; i < n; i++) {
            double a = noise[i];
            v[3 * i] = decay * v[3 * i] + a * rng.nextGaussian();
            v[3 * i + 1] = decay * v[3 * i + 1] + a * rng.nextGaussian();
            v[3 * i + 2] = decay * v[3 * i + 2] + a * rng.nextGaussian();
        }
        if (removeCentreOfMassDrift) {
            double[] p = Observables.linearMomentum(atoms);
            double m = atoms.totalMassAmu();
            for (int i = 0; i < n; i++) {
                v[3 * i] -= p[0] / m;
                v[3 * i + 1] -= p[1] / m;
                v[3 * i + 2] -= p[2] / m;
            }
        }
        // With constraints the noise is projected onto the constraint surface (Leimkuhler and Matthews 2016).
        s.constraints().constrainVelocities(atoms);
        double after = Observables.kineticEnergyEv(atoms);
        bathEnergyEv += before - after;
        midStepKineticEnergyEv = after;
    }

    /**
     * The kinetic energy just after the last O step, eV: free of the
     * full-step velocities' O(dt²) bias (see the class comment); empty before the first step.
     */
    @Override
    public java.util.OptionalDouble reportedKineticEnergyEv() {
        return Double.isNaN(midStepKineticEnergyEv) ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of(midStepKineticEnergyEv);
    }

    private void prepare(Atoms atoms, double intervalFs) {
        if (atoms == coefficientsFor && intervalFs == coefficientsInterval) {
            return;
        }
        decay = Math.exp(-frictionPerFs * intervalFs);
        double kT = Units.BOLTZMANN_EV_PER_K * temperatureK;
        noise = new double[atoms.size()];
        for (int i = 0; i < noise.length; i++) {
            noise[i] = Math.sqrt((1 - decay * decay) * kT * Units.ACCEL_A_PER_FS2 / atoms.massAmu(i));
        }
        coefficientsFor = atoms;
        coefficientsInterval = intervalFs;
    }

    @Override
    public double bathEnergyEv(int degreesOfFreedom) {
        return bathEnergyEv;
    }

    @Override
    public boolean conservesLinearMomentum() {
        return removeCentreOfMassDrift;
    }

    @Override
    public boolean conservesAngularMomentum() {
        return false;
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
        out.writeDouble(bathEnergyEv);
    }

    @Override
    public void readState(DataInput in) throws IOException {
        bathEnergyEv = in.readDouble();
        midStepKineticEnergyEv = Double.NaN;
    }
}
