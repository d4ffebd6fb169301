package org.molten.integrators;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.integrators.constraints.ConstraintSolver;

/**
 * Velocity Verlet (Swope, Andersen, Berens and Wilson, J. Chem. Phys. 76, 637 (1982)), optionally
 * with a {@link Thermostat} strategy. One force evaluation per step: the forces at the end of a
 * step are kept for the first half kick of the next.
 *
 * <p>Without a thermostat it is the symplectic, time-reversible NVE integrator
 * B(dt/2) A(dt) B(dt/2) (B: v += a dt/2, A: r += v dt), whose energy error is bounded and O(dt²).
 * A thermostat with placement {@link Thermostat.Placement#AROUND_VERLET} is applied for dt/2
 * before and after, T B A B T, the Trotter splitting of Martyna, Tuckerman, Tobias and Klein,
 * Mol. Phys. 87, 1117 (1996); one with {@link Thermostat.Placement#MID_DRIFT} acts for dt between
 * two half drifts, B A O A B (Leimkuhler and Matthews, Appl. Math. Res. Express 2013, 34).
 *
 * <p><b>Constraints.</b> With constraints ({@link DynamicsState#constraints()}) each drift is
 * followed by RATTLE's position half (and SETTLE for rigid water), which moves the positions back
 * onto the constraints and corrects the velocities by the same displacement over the drift time,
 * and the final kick by RATTLE's velocity half (Andersen 1983), so that positions and velocities
 * at the end of a step satisfy the constraints and their time derivatives. Thermostats that scale
 * all velocities by one factor keep them tangent; Langevin projects after its O step.
 *
 * <p><b>Time of the velocities:</b> at the end of {@link #step}, positions and velocities both
 * refer to the same time t + dt (full step), as in ASE's VelocityVerlet; kinetic energies and
 * temperatures logged after a step are synchronous with the potential energy.
 */
public final class VelocityVerlet implements Integrator {
    private final double timestepFs;
    private final Thermostat thermostat; // null for NVE
    // Coefficients: half-kick factor dt/2 · ACCEL / m_i per atom, Å/fs per eV/Å; rebuilt for new atoms.
    private Atoms coefficientsFor;
    private double[] halfKick = new double[0];

    /** NVE velocity Verlet with a timestep in fs. */
    public VelocityVerlet(double timestepFs) {
        this(timestepFs, null);
    }

    /**
     * Velocity Verlet with a thermostat (NVT), or NVE if {@code thermostat} is null.
     *
     * @param timestepFs timestep in fs, &gt; 0
     */
    public VelocityVerlet(double timestepFs, Thermostat thermostat) {
        this.timestepFs = Checks.requirePositive(timestepFs, "timestep_fs");
        this.thermostat = thermostat;
    }

    /** The thermostat, or null for NVE. */
    public Thermostat thermostat() {
        return thermostat;
    }

    @Override
    public String name() {
        return thermostat == null ? "velocity-verlet" : "velocity-verlet + " + thermostat.name();
    }

    @Override
    public String description() {
        String base = String.format(Locale.ROOT, "velocity-verlet(dt=%s fs)", timestepFs);
        return thermostat == null ? base : base + " + " + thermostat.description();
    }

    @Override
    public Optional<DynamicsSpec> dynamicsSpec() {
        return Optional.of(thermostat == null ? new DynamicsSpec.VelocityVerlet(timestepFs)
                : thermostat.dynamicsSpec(timestepFs));
    }

    @Override
    public double timestepFs() {
        return timestepFs;
    }

    @Override
    public double step(DynamicsState s) {
        Atoms atoms = s.atoms();
        prepare(atoms);
        ConstraintSolver constraints = s.constraints();
        double[] r = atoms.positions();
        double[] v = atoms.velocities();
        boolean around = thermostat != null && thermostat.placement() == Thermostat.Placement.AROUND_VERLET;
        if (around) {
            thermostat.apply(s, 0.5 * timestepFs);
        }
        kick(v, s.forces());
        if (thermostat != null && thermostat.placement() == Thermostat.Placement.MID_DRIFT) {
            constrainedDrift(atoms, constraints, r, v, 0.5 * timestepFs);
            thermostat.apply(s, timestepFs);   // a thermostat that is not a uniform scaling projects its velocities itself
            constrainedDrift(atoms, constraints, r, v, 0.5 * timestepFs);
        } else {
            constrainedDrift(atoms, constraints, r, v, timestepFs);
        }
        double energy = s.computeForces();
        kick(v, s.forces());
        constraints.constrainVelocities(atoms);   // RATTLE's second half: velocities tangent to the constraints
        if (around) {
            thermostat.apply(s, 0.5 * timestepFs);
        }
        return energy;
    }

    /** A drift, then RATTLE's first half: the positions back onto the constraints, the velocities corrected with them. */
    private static void constrainedDrift(Atoms atoms, ConstraintSolver constraints, double[] r, double[] v, double h) {
        constraints.beginDrift(atoms);
        drift(r, v, h);
        constraints.constrainPositions(atoms, h);
    }

    private void prepare(Atoms atoms) {
        if (atoms == coefficientsFor) {
            return;
        }
        int n = atoms.size();
        halfKick = new double[n];
        for (int i = 0; i < n; i++) {
            halfKick[i] = 0.5 * timestepFs * Units.ACCEL_A_PER_FS2 / atoms.massAmu(i);
        }
        coefficientsFor = atoms;
    }

    private void kick(double[] v, double[] f) {
        for (int i = 0; i < halfKick.length; i++) {
            double c = halfKick[i];
            v[3 * i] += c * f[3 * i];
            v[3 * i + 1] += c * f[3 * i + 1];
            v[3 * i + 2] += c * f[3 * i + 2];
        }
    }

    private static void drift(double[] r, double[] v, double h) {
        for (int k = 0; k < r.length; k++) {
            r[k] += h * v[k];
        }
    }

    @Override
    public double bathEnergyEv(int degreesOfFreedom) {
        return thermostat == null ? 0.0 : thermostat.bathEnergyEv(degreesOfFreedom);
    }

    @Override
    public java.util.OptionalDouble reportedKineticEnergyEv() {
        return thermostat == null ? java.util.OptionalDouble.empty() : thermostat.reportedKineticEnergyEv();
    }

    @Override
    public boolean conservesLinearMomentum() {
        return thermostat == null || thermostat.conservesLinearMomentum();
    }

    @Override
    public boolean conservesAngularMomentum() {
        return thermostat == null || thermostat.conservesAngularMomentum();
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
        if (thermostat != null) {
            thermostat.writeState(out);
        }
    }

    @Override
    public void readState(DataInput in) throws IOException {
        if (thermostat != null) {
            thermostat.readState(in);
        }
    }
}
