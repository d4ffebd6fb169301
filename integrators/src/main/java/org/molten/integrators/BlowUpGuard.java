package org.molten.integrators;

import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Checks;

/**
 * The check run after every step to stop a simulation that is blowing up before it writes
 * garbage: non-finite positions, velocities, forces or energy, or any force or speed past a
 * bound. One O(N) pass without allocation. Immutable.
 *
 * <p>Defaults: |F| ≤ {@value #DEFAULT_MAX_FORCE_EV_PER_A} eV/Å (covalent forces at 300 K are a few
 * eV/Å; a force of 50 eV/Å means atoms are colliding) and speed ≤
 * {@value #DEFAULT_MAX_SPEED_A_PER_FS} Å/fs (100 km/s; a hydrogen atom at 300 K moves at about
 * 0.03 Å/fs, at 3000 K about 0.09 Å/fs).
 */
public final class BlowUpGuard {
    /** Default bound on the force on any atom, eV/Å. */
    public static final double DEFAULT_MAX_FORCE_EV_PER_A = 50.0;
    /** Default bound on the speed of any atom, Å/fs. */
    public static final double DEFAULT_MAX_SPEED_A_PER_FS = 1.0;

    private final double maxForceEvPerA;
    private final double maxSpeedAPerFs;

    private BlowUpGuard(double maxForceEvPerA, double maxSpeedAPerFs) {
        this.maxForceEvPerA = Checks.requirePositive(maxForceEvPerA, "max_force_eV_per_A");
        this.maxSpeedAPerFs = Checks.requirePositive(maxSpeedAPerFs, "max_speed_A_per_fs");
    }

    /** The default bounds. */
    public static BlowUpGuard defaults() {
        return new BlowUpGuard(DEFAULT_MAX_FORCE_EV_PER_A, DEFAULT_MAX_SPEED_A_PER_FS);
    }

    /** Bounds on |F| (eV/Å) and speed (Å/fs). */
    public static BlowUpGuard of(double maxForceEvPerA, double maxSpeedAPerFs) {
        return new BlowUpGuard(maxForceEvPerA, maxSpeedAPerFs);
    }

    /** The force bound, eV/Å. */
    public double maxForceEvPerA() {
        return maxForceEvPerA;
    }

    /** The speed bound, Å/fs. */
    public double maxSpeedAPerFs() {
        return maxSpeedAPerFs;
    }

    /**
     * Checks a state; returns normally when it is sound.
     *
     * @throws SimulationBlowUpException naming the step, the worst atom and the cause
     */
    public void check(long step, double timeFs, Atoms atoms, double[] forces, double potentialEnergyEv) {
        double[] r = atoms.positions();
        double[] v = atoms.velocities();
        int n = atoms.size();
        double maxF2 = -1, maxV2 = -1;
        int worstF = 0, worstV = 0;
        for (int i = 0; i < n; i++) {
            double x = r[3 * i], y = r[3 * i + 1], z = r[3 * i + 2];
            if (!Double.isFinite(x + y + z)) {
                throw blowUp(step, timeFs, atoms, i, SimulationBlowUpException.Cause.NON_FINITE_POSITION,
                        Double.NaN, String.format(Locale.ROOT, " (%s, %s, %s) A", x, y, z));
            }
            double vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
            double v2 = vx * vx + vy * vy + vz * vz;
            if (!Double.isFinite(v2)) {
                throw blowUp(step, timeFs, atoms, i, SimulationBlowUpException.Cause.NON_FINITE_VELOCITY,
                        Double.NaN, String.format(Locale.ROOT, " (%s, %s, %s) A/fs", vx, vy, vz));
            }
            double fx = forces[3 * i], fy = forces[3 * i + 1], fz = forces[3 * i + 2];
            double f2 = fx * fx + fy * fy + fz * fz;
            if (!Double.isFinite(f2)) {
                throw blowUp(step, timeFs, atoms, i, SimulationBlowUpException.Cause.NON_FINITE_FORCE,
                        Double.NaN, String.format(Locale.ROOT, " (%s, %s, %s) eV/A", fx, fy, fz));
            }
            if (f2 > maxF2) {
                maxF2 = f2;
                worstF = i;
            }
            if (v2 > maxV2) {
                maxV2 = v2;
                worstV = i;
            }
        }
        if (!Double.isFinite(potentialEnergyEv)) {
            throw blowUp(step, timeFs, atoms, worstF, SimulationBlowUpException.Cause.NON_FINITE_ENERGY,
                    potentialEnergyEv, " (" + potentialEnergyEv + " eV; the atom named carries the largest force)");
        }
        if (maxF2 > maxForceEvPerA * maxForceEvPerA) {
            double f = Math.sqrt(maxF2);
            throw blowUp(step, timeFs, atoms, worstF, SimulationBlowUpException.Cause.FORCE_TOO_LARGE, f,
                    String.format(Locale.ROOT, ": |F| = %.4g eV/A > %s eV/A", f, maxForceEvPerA));
        }
        if (maxV2 > maxSpeedAPerFs * maxSpeedAPerFs) {
            double s = Math.sqrt(maxV2);
            throw blowUp(step, timeFs, atoms, worstV, SimulationBlowUpException.Cause.SPEED_TOO_LARGE, s,
                    String.format(Locale.ROOT, ": |v| = %.4g A/fs > %s A/fs", s, maxSpeedAPerFs));
        }
    }

    private static SimulationBlowUpException blowUp(long step, double timeFs, Atoms atoms, int i,
                                                    SimulationBlowUpException.Cause cause, double value, String detail) {
        return new SimulationBlowUpException(step, timeFs, i, atoms.element(i), cause, value, detail);
    }
}
