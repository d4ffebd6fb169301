package org.molten.forcefield.cuda;

import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;

/**
 * How a {@link DynamicsSpec} runs on the device: the integrator and thermostat fields of the
 * kernels' parameter block ({@code struct Net}) and which kernel organisation can run it.
 *
 * <p>Velocity Verlet (Swope et al. 1982): the closing half kick is in the force stage. Thermostats
 * that act around the Verlet step (Bussi, Nosé–Hoover chain, Berendsen) run for dt/2 in a
 * per-replica stage before the first half kick and after the second ({@code k_thermostat}, one
 * block per replica; the host's Trotter splitting, VelocityVerlet.java). Langevin BAOAB
 * (Leimkuhler and Matthews 2013) is split B A(dt/2) | O | A(dt/2): the O step is a per-replica
 * stage too, so that it can remove each replica's centre-of-mass velocity and account the energy
 * exchanged with the bath, as the host's LangevinThermostat does.
 *
 * <p>The small-molecule kernel (one cluster running whole steps, for one small molecule) runs every one of them
 * inside its step with the same definitions, random streams, order and variables ({@code molten_small_thermostat.cuh}),
 * so a thermostatted molecule no longer falls back to the stage kernels ({@link #megakernelCapable}); bond
 * constraints likewise (molten_small_constraints.cuh with the functions of the stage path's molten_constraints.cuh,
 * {@link DeviceConstraints}).
 */
final class DeviceIntegrator {
    static final int INT_NONE = 0;
    static final int INT_VERLET = 1;
    static final int INT_BAOAB = 2;
    static final int TS_NONE = 0;
    static final int TS_LANGEVIN = 1;
    static final int TS_BUSSI = 2;
    static final int TS_NHC = 3;
    static final int TS_BERENDSEN = 4;

    private DeviceIntegrator() {
    }

    /** The thermostat code (MOLTEN_TS_*). */
    static int thermostat(DynamicsSpec d) {
        if (d instanceof DynamicsSpec.Langevin) {
            return TS_LANGEVIN;
        } else if (d instanceof DynamicsSpec.Bussi) {
            return TS_BUSSI;
        } else if (d instanceof DynamicsSpec.NoseHooverChain) {
            return TS_NHC;
        } else if (d instanceof DynamicsSpec.Berendsen) {
            return TS_BERENDSEN;
        }
        return TS_NONE;
    }

    /** True for thermostats applied for dt/2 before the first and after the second half kick. */
    static boolean aroundVerlet(DynamicsSpec d) {
        int t = thermostat(d);
        return t == TS_BUSSI || t == TS_NHC || t == TS_BERENDSEN;
    }

    /**
     * Whether the small-molecule kernel (whole steps in one kernel) can run these dynamics: velocity Verlet alone or
     * with any thermostat the device runs (Langevin BAOAB, Bussi, Nosé–Hoover chain, Berendsen).
     */
    static boolean megakernelCapable(DynamicsSpec d) {
        return d instanceof DynamicsSpec.VelocityVerlet || thermostat(d) != TS_NONE;
    }

    /**
     * {@link #megakernelCapable(DynamicsSpec)} for replicas that may hold constraints: the small-molecule kernel runs
     * RATTLE and SETTLE inside its step too (molten_small_constraints.cuh, the functions of the stage path's
     * k_constrain), so constraints change nothing here; whether their lists fit its shared memory beside the molecule
     * is {@link CudaModel#resolve(int, int, int)}'s question.
     */
    static boolean megakernelCapable(DynamicsSpec d, boolean constrained) {
        return megakernelCapable(d);
    }

    /** Why the device cannot run {@code d}, or null. */
    static String unsupported(DynamicsSpec d) {
        if (d instanceof DynamicsSpec.NoseHooverChain c) {
            if (c.chainLength() > ReplicaBuffers.MAXCHAIN) {
                return "Nose-Hoover chains on the GPU hold at most " + ReplicaBuffers.MAXCHAIN + " thermostats, not "
                        + c.chainLength();
            }
            int w = c.suzukiYoshidaWeights();
            if (w != 1 && w != 3 && w != 5 && w != 7) {
                return "suzuki_yoshida_weights must be 1, 3, 5 or 7: " + w;
            }
        }
        return null;
    }

    /** The Suzuki–Yoshida weights of NoseHooverChain (1, 3, 5 or 7 of them). */
    static double[] suzukiYoshida(int n) {
        return org.molten.core.dynamics.DynamicsSpec.NoseHooverChain.suzukiYoshidaWeights(n);
    }

    /**
     * Fills the integrator fields: {@code d} null for a force evaluation. {@code seed}: the Net-wide
     * seed of the megakernels' Langevin noise (unused by the stage path, which keys by replica).
     */
    static void describe(DynamicsSpec d, NetLayout.Builder b) {
        if (d == null) {
            b.set("integrator", INT_NONE);
            return;
        }
        int ts = thermostat(d);
        b.set("integrator", ts == TS_LANGEVIN ? INT_BAOAB : INT_VERLET);
        b.set("thermostat", ts);
        b.set("split_o", ts == TS_LANGEVIN ? 1 : 0);
        b.set("com_drift", d instanceof DynamicsSpec.Langevin l && l.removeCentreOfMassDrift() ? 1 : 0);
        b.set("dt", d.timestepFs());
        b.set("accel", Units.ACCEL_A_PER_FS2);
        if (d instanceof DynamicsSpec.NoseHooverChain c) {
            double[] w = suzukiYoshida(c.suzukiYoshidaWeights());
            b.set("nhc_m", c.chainLength()).set("nhc_nc", c.multipleTimeSteps()).set("nhc_nys", w.length);
            for (int i = 0; i < w.length; i++) {
                b.set("sy_w", i, w[i]);
            }
        }
    }
}
