package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.core.Units;

/**
 * Initial velocities from the Maxwell–Boltzmann distribution at a temperature: each component
 * of atom i is Gaussian with variance k_B T / m_i. The centre-of-mass velocity is then removed
 * (3 constraints), optionally the rigid rotation too (3 more, 2 for a linear molecule, none for a
 * single atom), and optionally the velocities are rescaled so the instantaneous temperature
 * 2 KE / (dof k_B), with dof = 3N minus the removed constraints, is exactly T. Immutable settings;
 * the random numbers come from the stream passed to {@link #assign}, so a seed reproduces them.
 *
 * <p>Removing rotation only makes sense for an isolated molecule, whose angular momentum the
 * dynamics conserves; it is refused under periodic boundaries.
 */
public final class MaxwellBoltzmann {
    private final double temperatureK;
    private final boolean removeRotation;
    private final boolean rescaleExactly;

    private MaxwellBoltzmann(double temperatureK, boolean removeRotation, boolean rescaleExactly) {
        this.temperatureK = Checks.requireNonNegative(temperatureK, "temperature_K");
        this.removeRotation = removeRotation;
        this.rescaleExactly = rescaleExactly;
    }

    /** Draws at {@code temperatureK} (K), removing only the centre-of-mass velocity, not rescaled. */
    public static MaxwellBoltzmann at(double temperatureK) {
        return new MaxwellBoltzmann(temperatureK, false, false);
    }

    /** The same, also removing the rigid rotation about the centre of mass. */
    public MaxwellBoltzmann removingRotation() {
        return new MaxwellBoltzmann(temperatureK, true, rescaleExactly);
    }

    /** The same, rescaled so the instantaneous temperature is exactly T. */
    public MaxwellBoltzmann rescaledExactly() {
        return new MaxwellBoltzmann(temperatureK, removeRotation, true);
    }

    /** The temperature in K. */
    public double temperatureK() {
        return temperatureK;
    }

    /**
     * Overwrites the velocities of {@code atoms} with a draw.
     *
     * @return the number of constraints removed (3, or up to 6 with rotation); a {@link Simulation}
     *         built with {@link Simulation.Builder#temperature(double)} draws and counts them itself
     * @throws IllegalArgumentException if rotation removal is asked for a periodic system, or
     *                                  nothing would be left of the degrees of freedom
     */
    public int assign(Atoms atoms, RandomStream rng) {
        int n = atoms.size();
        if (removeRotation && atoms.cell().map(c -> c.anyPeriodic()).orElse(false)) {
            throw new IllegalArgumentException("rotation cannot be removed under periodic boundaries:"
                    + " angular momentum is not conserved there");
        }
        double kT = Units.BOLTZMANN_EV_PER_K * temperatureK;
        double[] v = atoms.velocities();
        for (int i = 0; i < n; i++) {
            double sd = Math.sqrt(kT * Units.ACCEL_A_PER_FS2 / atoms.massAmu(i));
            v[3 * i] = sd * rng.nextGaussian();
            v[3 * i + 1] = sd * rng.nextGaussian();
            v[3 * i + 2] = sd * rng.nextGaussian();
        }
        int removed = 3;
        removeCentreOfMassVelocity(atoms);
        if (removeRotation) {
            removed += removeRotation(atoms);
        }
        int dof = Observables.degreesOfFreedom(n, removed);
        if (rescaleExactly && temperatureK > 0) {
            double now = Observables.temperatureK(atoms, dof);
            double f = Math.sqrt(temperatureK / now);
            for (int k = 0; k < v.length; k++) {
                v[k] *= f;
            }
        }
        return removed;
    }

    /** Subtracts the centre-of-mass velocity from every atom. */
    public static void removeCentreOfMassVelocity(Atoms atoms) {
        double[] p = Observables.linearMomentum(atoms);
        double m = atoms.totalMassAmu();
        double[] v = atoms.velocities();
        for (int i = 0; i < atoms.size(); i++) {
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] -= p[k] / m;
            }
        }
    }

    /**
     * Subtracts the rigid rotation ω × (r − r_com) with ω = I⁻¹ L, the inverse taken on the
     * non-degenerate principal axes only.
     *
     * @return the number of rotational degrees of freedom removed (3, 2 for a linear molecule,
     *         0 for a single atom)
     */
    public static int removeRotation(Atoms atoms) {
        double[][] inertia = Observables.inertiaTensor(atoms);
        double[] l = Observables.angularMomentum(atoms);
        double[] eigenvalues = new double[3];
        double[][] axes = new double[3][3];
        SymmetricEigen3.decompose(inertia, eigenvalues, axes);
        double largest = Math.max(eigenvalues[0], Math.max(eigenvalues[1], eigenvalues[2]));
        double[] omega = new double[3];
        int rank = 0;
        for (int k = 0; k < 3; k++) {
            if (eigenvalues[k] > 1e-8 * largest && largest > 0) {
                rank++;
                double proj = (axes[0][k] * l[0] + axes[1][k] * l[1] + axes[2][k] * l[2]) / eigenvalues[k];
                for (int a = 0; a < 3; a++) {
                    omega[a] += proj * axes[a][k];
                }
            }
        }
        double[] com = Observables.centreOfMass(atoms);
        double[] r = atoms.positions();
        double[] v = atoms.velocities();
        for (int i = 0; i < atoms.size(); i++) {
            double x = r[3 * i] - com[0], y = r[3 * i + 1] - com[1], z = r[3 * i + 2] - com[2];
            v[3 * i] -= omega[1] * z - omega[2] * y;
            v[3 * i + 1] -= omega[2] * x - omega[0] * z;
            v[3 * i + 2] -= omega[0] * y - omega[1] * x;
        }
        return rank;
    }
}
