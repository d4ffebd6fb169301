package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;

import jcuda.Pointer;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;

/**
 * The per-replica device arrays of a batch of R replicas sharing one {@link DeviceSystem}: the
 * replica of each atom and the first atom of each replica (so that the neighbour search pairs only
 * atoms of one replica), each replica's seed, its thermostat parameters (kT in eV, degrees of
 * freedom, friction in 1/fs, tau in fs) and its thermostat variables (bath energy in eV, the
 * Nosé–Hoover chain's ξ and v_ξ in 1/fs): {@code Net.rep ... Net.rvar} of {@code molten_common.cuh}.
 */
final class ReplicaBuffers {
    /** Doubles per replica in {@code rpar} (MOLTEN_RPAR). */
    static final int RPAR = 4;
    /** Doubles per replica in {@code rvar} (MOLTEN_RVAR): bath, ξ[MAXCHAIN], v_ξ[MAXCHAIN], Langevin's mid-step K. */
    static final int RVAR = 24;
    /** Slot of {@code rvar} (MOLTEN_RVAR_MID_KE): Langevin's mean kinetic energy around the last O step, eV. */
    static final int MID_KE = 21;
    /** Longest Nosé–Hoover chain the kernels hold (MOLTEN_MAXCHAIN). */
    static final int MAXCHAIN = 10;

    final int count;
    final int[] first;  // [R + 1]
    final DevicePointer rep, repStart, seed, par, var;
    /** The replicas' constraints on the device, null when none holds any. */
    final DeviceConstraints constraints;

    ReplicaBuffers(CudaContext cx, java.util.List<ReplicaStart> starts) {
        count = starts.size();
        first = new int[count + 1];
        for (int r = 0; r < count; r++) {
            first[r + 1] = first[r] + starts.get(r).atoms().size();
        }
        int n = first[count];
        int[] of = new int[n];
        long[] seeds = new long[count];
        double[] p = new double[RPAR * count];
        for (int r = 0; r < count; r++) {
            ReplicaStart s = starts.get(r);
            for (int i = first[r]; i < first[r + 1]; i++) {
                of[i] = r;
            }
            seeds[r] = s.seed();
            p[RPAR * r] = Units.BOLTZMANN_EV_PER_K * temperatureK(s.dynamics());
            p[RPAR * r + 1] = s.degreesOfFreedom();
            p[RPAR * r + 2] = s.dynamics() instanceof DynamicsSpec.Langevin l ? l.frictionPerFs() : 0;
            p[RPAR * r + 3] = tauFs(s.dynamics());
        }
        rep = cx.alloc(4L * Math.max(1, n));
        repStart = cx.alloc(4L * (count + 1));
        seed = cx.alloc(8L * count);
        par = cx.alloc(8L * RPAR * count);
        var = cx.alloc(8L * RVAR * count);
        cuMemcpyHtoD(rep, Pointer.to(of), 4L * n);
        cuMemcpyHtoD(repStart, Pointer.to(first), 4L * (count + 1));
        cuMemcpyHtoD(seed, Pointer.to(seeds), 8L * count);
        cuMemcpyHtoD(par, Pointer.to(p), 8L * RPAR * count);
        cuMemcpyHtoD(var, Pointer.to(new double[RVAR * count]), 8L * RVAR * count);
        constraints = DeviceConstraints.of(cx, starts, first);
    }

    static double temperatureK(DynamicsSpec d) {
        if (d instanceof DynamicsSpec.Langevin l) {
            return l.temperatureK();
        } else if (d instanceof DynamicsSpec.Bussi x) {
            return x.temperatureK();
        } else if (d instanceof DynamicsSpec.NoseHooverChain c) {
            return c.temperatureK();
        } else if (d instanceof DynamicsSpec.Berendsen x) {
            return x.temperatureK();
        }
        return 0;
    }

    static double tauFs(DynamicsSpec d) {
        if (d instanceof DynamicsSpec.Bussi x) {
            return x.tauFs();
        } else if (d instanceof DynamicsSpec.NoseHooverChain c) {
            return c.tauFs();
        } else if (d instanceof DynamicsSpec.Berendsen x) {
            return x.tauFs();
        }
        return 0;
    }

    /** Atoms of replica {@code r}. */
    int atoms(int r) {
        return first[r + 1] - first[r];
    }

    /** Replica {@code r}'s thermostat variables (RVAR doubles). */
    double[] downloadVariables(int r) {
        double[] v = new double[RVAR];
        cuMemcpyDtoH(Pointer.to(v), var.withByteOffset(8L * RVAR * r), 8L * RVAR);
        return v;
    }

    void uploadVariables(int r, double[] v) {
        cuMemcpyHtoD(var.withByteOffset(8L * RVAR * r), Pointer.to(v), 8L * RVAR);
    }

    /** The replica of global atom {@code atom}. */
    int replicaOf(int atom) {
        int lo = 0, hi = count - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (first[mid] <= atom) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Positions (Å) and velocities (Å/fs) of atoms [first, first + count), forces (eV/Å) narrowed to float32. */
    static void uploadRange(DeviceSystem sys, int first, int count, double[] r, double[] v, double[] f) {
        cuMemcpyHtoD(sys.pos.withByteOffset(24L * first), Pointer.to(r), 24L * count);
        cuMemcpyHtoD(sys.vel.withByteOffset(24L * first), Pointer.to(v), 24L * count);
        if (f != null) {
            float[] x = new float[3 * count];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) f[i];
            }
            cuMemcpyHtoD(sys.force.withByteOffset(12L * first), Pointer.to(x), 12L * count);
        }
    }

    /** The inverse of {@link #uploadRange}; forces widened to float64; any array may be null. */
    static void downloadRange(DeviceSystem sys, int first, int count, double[] r, double[] v, double[] f) {
        if (r != null) {
            cuMemcpyDtoH(Pointer.to(r), sys.pos.withByteOffset(24L * first), 24L * count);
        }
        if (v != null) {
            cuMemcpyDtoH(Pointer.to(v), sys.vel.withByteOffset(24L * first), 24L * count);
        }
        if (f != null) {
            float[] x = new float[3 * count];
            cuMemcpyDtoH(Pointer.to(x), sys.force.withByteOffset(12L * first), 12L * count);
            for (int i = 0; i < x.length; i++) {
                f[i] = x[i];
            }
        }
    }

    /** Potential energy (eV) of each replica. */
    double[] downloadEnergies(DeviceSystem sys) {
        double[] e = new double[count];
        cuMemcpyDtoH(Pointer.to(e), sys.energy, 8L * count);
        return e;
    }

    static void uploadEnergy(DeviceSystem sys, int replica, double ev) {
        cuMemcpyHtoD(sys.energy.withByteOffset(8L * replica), Pointer.to(new double[] {ev}), 8);
    }

    void describe(NetLayout.Builder b) {
        b.set("replicas", count).set("rep", rep.address()).set("rep_start", repStart.address())
                .set("rseed", seed.address()).set("rpar", par.address()).set("rvar", var.address());
        if (constraints != null) {
            constraints.describe(b);
        }
    }

    void free(CudaContext cx) {
        for (DevicePointer p : new DevicePointer[] {rep, repStart, seed, par, var}) {
            cx.free(p);
        }
        if (constraints != null) {
            constraints.free(cx);
        }
    }
}
