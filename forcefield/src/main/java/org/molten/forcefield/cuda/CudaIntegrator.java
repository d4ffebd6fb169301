package org.molten.forcefield.cuda;

import org.molten.core.Checks;
import org.molten.core.Units;

/**
 * The integrator run on the device by {@link CudaMdEngine}.
 *
 * <p>Velocity Verlet (Swope et al., J. Chem. Phys. 76, 637 (1982)): NVE, velocities at full steps.
 * Langevin BAOAB (Leimkuhler and Matthews, Appl. Math. Res. Express 2013, 34): half kick, half
 * drift, exact Ornstein-Uhlenbeck velocity update {@code v = c1 v + c2 sqrt(kT/m) xi} with
 * {@code c1 = exp(-friction dt)}, {@code c2 = sqrt(1 - c1^2)}, half drift, half kick; the normal
 * deviates come from a counter-based generator (Philox4x32-10) keyed by {@code seed} and counted by
 * (atom, step), so a run is reproducible and independent of how steps are grouped into launches.
 *
 * @param kind          which integrator
 * @param dtFs          time step in fs
 * @param temperatureK  bath temperature in K (Langevin)
 * @param frictionPerFs friction in 1/fs (Langevin)
 * @param seed          seed of the normal deviates (Langevin)
 */
public record CudaIntegrator(Kind kind, double dtFs, double temperatureK, double frictionPerFs, long seed) {

    /** Which integrator. */
    public enum Kind {
        VELOCITY_VERLET,
        LANGEVIN_BAOAB
    }

    public CudaIntegrator {
        if (kind == null) {
            throw new IllegalArgumentException("kind must not be null");
        }
        Checks.requirePositive(dtFs, "dt_fs");
        if (kind == Kind.LANGEVIN_BAOAB) {
            Checks.requirePositive(temperatureK, "temperature_K");
            Checks.requirePositive(frictionPerFs, "friction_per_fs");
        }
    }

    /** NVE velocity Verlet with time step {@code dtFs} (fs). */
    public static CudaIntegrator velocityVerlet(double dtFs) {
        return new CudaIntegrator(Kind.VELOCITY_VERLET, dtFs, 0, 0, 0);
    }

    /** Langevin BAOAB at {@code temperatureK} with {@code frictionPerFs} (1/fs) and a recorded seed. */
    public static CudaIntegrator langevin(double dtFs, double temperatureK, double frictionPerFs, long seed) {
        return new CudaIntegrator(Kind.LANGEVIN_BAOAB, dtFs, temperatureK, frictionPerFs, seed);
    }

    void describe(NetLayout.Builder b) {
        b.set("integrator", kind == Kind.VELOCITY_VERLET ? 1 : 2);
        b.set("dt", dtFs);
        b.set("accel", Units.ACCEL_A_PER_FS2);
        if (kind == Kind.LANGEVIN_BAOAB) {
            double c1 = Math.exp(-frictionPerFs * dtFs);
            b.set("c1", c1);
            b.set("c2", Math.sqrt(1.0 - c1 * c1));
            b.set("kT", Units.BOLTZMANN_EV_PER_K * temperatureK);
            b.set("seed", seed);
        }
    }
}
