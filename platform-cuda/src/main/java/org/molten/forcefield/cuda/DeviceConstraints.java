package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;

import java.util.List;
import java.util.Locale;
import jcuda.Pointer;
import org.molten.core.Atoms;
import org.molten.core.dynamics.ConstraintSet;
import org.molten.core.dynamics.ReplicaStart;

/**
 * The constraints of a batch of replicas on the device ({@code Net.cons_*}, molten_constraints.cuh): every
 * replica's RATTLE pairs and SETTLE waters with global atom indices, replica after replica, the
 * per-replica ranges, the pairs' constraint groups (ConstraintGroups: solved one per thread), and the solver's scratch (the positions at the start of a drift, bond vectors,
 * accumulated corrections). The replicas share one tolerance (the kernels read one).
 */
final class DeviceConstraints {
    final int pairs;
    final int waters;
    final double tolerance;
    /**
     * Bytes of shared memory that stage the largest replica's pair solve (MOLTEN_CONS_SMEM_DOUBLES: its atoms'
     * positions, velocities, drift starts and inverse masses, its pairs and their groups), 0 where that leaves less than the default
     * 48 KiB a block may take beside the thermostat's reduction (the solve then runs in global memory).
     */
    final int sharedBytes;
    /** Shared memory a block may take without opting in, bytes (tests set 0 to run the global-memory solve). */
    static int sharedLimitBytes = 48 * 1024;
    /**
     * True: every replica's pairs one constraint group in their order, so the device runs the serial Gauss-Seidel over
     * all pairs on one thread (the solve before the groups, the host's), the reference the grouped solve meets within
     * the tolerance (bit for bit where every group has more than three pairs, as with all-bonds). Tests
     * set it; {@code -Dmolten.cuda.serialConstraints=true} (a measuring option) sets it for a run on a card
     * (scripts/constraint-groups-check-run.sh).
     */
    static boolean oneGroup = Boolean.getBoolean("molten.cuda.serialConstraints");
    /** True: the groups in reverse order, each then solved by another lane (tests only: the result must not change). */
    static boolean reversedGroups;
    /** Pairs of one replica at most: the device's failure key (iteration x pairs + pair) is a 32-bit int. */
    static final int MAX_PAIRS_PER_REPLICA = 2_000_000;
    private final int[] pairAtoms;   // [P][2] global
    private final int[] waterAtoms;  // [W][3] global
    private final int[] firstPair;   // [R + 1]
    private final int[] firstWater;  // [R + 1]
    private final String[] rule;     // per replica, for messages
    private final int[] replicaFirstAtom;
    private final List<ReplicaStart> starts;
    private final DevicePointer pair, len2, rpair, water, wlen, rwater, ref, vec, lambda, gpair, gstart;

    private DeviceConstraints(CudaContext cx, List<ReplicaStart> starts, int[] firstAtom) {
        this.starts = starts;
        this.replicaFirstAtom = firstAtom;
        int r = starts.size();
        firstPair = new int[r + 1];
        firstWater = new int[r + 1];
        rule = new String[r];
        double tol = starts.get(0).constraints().tolerance();
        for (int k = 0; k < r; k++) {
            ConstraintSet c = starts.get(k).constraints();
            if (!c.isEmpty() && !starts.get(0).constraints().isEmpty() && c.tolerance() != tol) {
                throw new IllegalArgumentException("replica " + k + " has constraint tolerance " + c.tolerance()
                        + " but replica 0 " + tol + ": the replicas of one binding share the tolerance");
            }
            if (starts.get(0).constraints().isEmpty() && !c.isEmpty()) {
                tol = c.tolerance();
            }
            if (c.pairCount() > MAX_PAIRS_PER_REPLICA) {
                throw new IllegalArgumentException("replica " + k + " has " + c.pairCount() + " constrained pairs; the"
                        + " GPU solves at most " + MAX_PAIRS_PER_REPLICA + " per replica");
            }
            firstPair[k + 1] = firstPair[k] + c.pairCount();
            firstWater[k + 1] = firstWater[k] + c.waterCount();
            rule[k] = c.rule();
        }
        this.tolerance = tol;
        long most = 0;
        for (int k = 0; k < r; k++) {
            int na = firstAtom[k + 1] - firstAtom[k];
            int p = firstPair[k + 1] - firstPair[k];
            most = Math.max(most, p == 0 ? 0 : 8L * (10L * na + 7L * p + 1));
        }
        this.sharedBytes = most + 8L * (DeviceSystem.THREADS + 2) <= sharedLimitBytes ? (int) most : 0;
        pairs = firstPair[r];
        waters = firstWater[r];
        pairAtoms = new int[2 * pairs];
        waterAtoms = new int[3 * waters];
        double[] l2 = new double[pairs];
        double[] wl = new double[2 * waters];
        for (int k = 0; k < r; k++) {
            ConstraintSet c = starts.get(k).constraints();
            Atoms a = starts.get(k).atoms();
            int base = firstAtom[k];
            for (int p = 0; p < c.pairCount(); p++) {
                int g = firstPair[k] + p;
                requireAtom(k, c.first(p), a);
                requireAtom(k, c.second(p), a);
                pairAtoms[2 * g] = base + c.first(p);
                pairAtoms[2 * g + 1] = base + c.second(p);
                l2[g] = c.lengthA(p) * c.lengthA(p);
            }
            for (int w = 0; w < c.waterCount(); w++) {
                int g = firstWater[k] + w;
                for (int x = 0; x < 3; x++) {
                    requireAtom(k, c.waterAtom(w, x), a);
                    waterAtoms[3 * g + x] = base + c.waterAtom(w, x);
                }
                if (a.massAmu(c.waterAtom(w, 1)) != a.massAmu(c.waterAtom(w, 2))) {
                    throw new IllegalArgumentException("replica " + k + ": rigid water of atoms " + c.waterAtom(w, 0) + ", "
                            + c.waterAtom(w, 1) + ", " + c.waterAtom(w, 2) + ": SETTLE needs two hydrogens of one mass");
                }
                wl[2 * g] = c.waterOhA(w);
                wl[2 * g + 1] = c.waterHhA(w);
            }
        }
        int n = firstAtom[r];
        pair = cx.alloc(4L * Math.max(1, 2 * pairs));
        len2 = cx.alloc(8L * Math.max(1, pairs));
        rpair = cx.alloc(4L * (r + 1));
        water = cx.alloc(4L * Math.max(1, 3 * waters));
        wlen = cx.alloc(8L * Math.max(1, 2 * waters));
        rwater = cx.alloc(4L * (r + 1));
        ref = cx.alloc(24L * n);
        vec = cx.alloc(24L * Math.max(1, pairs));
        lambda = cx.alloc(8L * Math.max(1, pairs));
        List<ConstraintSet> sets = starts.stream().map(ReplicaStart::constraints).toList();
        int[][] groups = ConstraintGroups.deviceArrays(sets, oneGroup, reversedGroups);
        gpair = cx.alloc(4L * Math.max(1, pairs));
        gstart = cx.alloc(4L * (pairs + r));
        if (pairs > 0) {
            cuMemcpyHtoD(gpair, Pointer.to(groups[0]), 4L * pairs);
        }
        cuMemcpyHtoD(gstart, Pointer.to(groups[1]), 4L * (pairs + r));
        if (pairs > 0) {
            cuMemcpyHtoD(pair, Pointer.to(pairAtoms), 8L * pairs);
            cuMemcpyHtoD(len2, Pointer.to(l2), 8L * pairs);
        }
        if (waters > 0) {
            cuMemcpyHtoD(water, Pointer.to(waterAtoms), 12L * waters);
            cuMemcpyHtoD(wlen, Pointer.to(wl), 16L * waters);
        }
        cuMemcpyHtoD(rpair, Pointer.to(firstPair), 4L * (r + 1));
        cuMemcpyHtoD(rwater, Pointer.to(firstWater), 4L * (r + 1));
    }

    /** The device constraints of {@code starts} (replica k's atoms from {@code firstAtom[k]}), or null when none holds any. */
    static DeviceConstraints of(CudaContext cx, List<ReplicaStart> starts, int[] firstAtom) {
        for (ReplicaStart s : starts) {
            if (!s.constraints().isEmpty()) {
                return new DeviceConstraints(cx, starts, firstAtom);
            }
        }
        return null;
    }

    /** True when any replica of {@code starts} holds a constraint. */
    static boolean any(List<ReplicaStart> starts) {
        return starts.stream().anyMatch(s -> !s.constraints().isEmpty());
    }

    private static void requireAtom(int replica, int i, Atoms a) {
        if (i < 0 || i >= a.size()) {
            throw new IllegalArgumentException("replica " + replica + ": a constraint names atom " + i + " but the replica"
                    + " has " + a.size() + " atoms");
        }
    }

    void describe(NetLayout.Builder b) {
        b.set("cons_tol", tolerance).set("cons_smem", sharedBytes).set("cons_pair", pair.address()).set("cons_len2", len2.address())
                .set("cons_rpair", rpair.address()).set("cons_water", water.address()).set("cons_wlen", wlen.address())
                .set("cons_rwater", rwater.address()).set("cons_ref", ref.address()).set("cons_vec", vec.address())
                .set("cons_lambda", lambda.address()).set("cons_gpair", gpair.address()).set("cons_gstart", gstart.address());
    }

    /**
     * The failure the kernels flagged ({@code flags[FLAG_CONSTRAINT]}: pair k + 1 or rigid water −(w + 1), global),
     * in the host's words: the replica, both atoms (within the replica), the step.
     */
    Failure failure(int code, int kind, long step) {
        int r;
        int i;
        int j;
        String what;
        if (code > 0) {
            int g = code - 1;
            r = replicaOfPair(g);
            i = pairAtoms[2 * g] - replicaFirstAtom[r];
            j = pairAtoms[2 * g + 1] - replicaFirstAtom[r];
            what = kind == 2 ? "the velocity half of RATTLE did not converge in 1000 iterations"
                    : "RATTLE did not converge in 1000 iterations (or a bond vector turned perpendicular to the last step's)";
        } else {
            int g = -code - 1;
            r = replicaOfWater(g);
            i = waterAtoms[3 * g] - replicaFirstAtom[r];
            j = waterAtoms[3 * g + 1] - replicaFirstAtom[r];
            what = "SETTLE has no solution for the rigid water of atoms " + i + " (O), " + j + " (H), "
                    + (waterAtoms[3 * g + 2] - replicaFirstAtom[r]) + " (H) (the water moved too far in one step)";
        }
        Atoms a = starts.get(r).atoms();
        String message = String.format(Locale.ROOT, "constraint between atoms %d (%s) and %d (%s) of replica %d (%s) could"
                + " not be met at step %d on the GPU: %s", i, a.element(i), j, a.element(j), r, rule[r], step, what);
        return new Failure(r, i, j, message);
    }

    /** Where a constraint failed: the replica and both atoms within it. */
    record Failure(int replica, int atom, int otherAtom, String message) {
    }

    private int replicaOfPair(int g) {
        int r = 0;
        while (firstPair[r + 1] <= g) {
            r++;
        }
        return r;
    }

    private int replicaOfWater(int g) {
        int r = 0;
        while (firstWater[r + 1] <= g) {
            r++;
        }
        return r;
    }

    void free(CudaContext cx) {
        for (DevicePointer p : new DevicePointer[] {pair, len2, rpair, water, wlen, rwater, ref, vec, lambda, gpair,
            gstart}) {
            cx.free(p);
        }
    }
}
