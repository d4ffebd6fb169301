// Holonomic distance constraints inside the stage path's MD step (issue 28): RATTLE (Andersen, J. Comput.
// Phys. 52, 24 (1983)) for pairs, SETTLE (Miyamoto and Kollman, J. Comput. Chem. 13, 952 (1992)) for rigid
// waters, per replica, one block per replica. The definitions and tolerance are those of the host's ConstraintSolver
// (integrators/.../constraints/ConstraintSolver.java), and groups of more than three pairs (all-bonds molecules) are
// solved in its iteration order, term for term:
//  - positions, after a drift of h fs from the positions saved in cons_ref (k_integrate1 / k_drift save them):
//    Gauss-Seidel over the replica's pairs in order (ASE's FixBondLengths), along the bond vectors of the
//    start of the drift, x = (d^2 - |r_ij|^2) / (2 s_ij . r_ij), until every |x| <= tol; the velocities get
//    the displacements / h. Then SETTLE for each rigid water (analytic), velocities likewise.
//  - velocities, after the closing kick and after Langevin's O step: Gauss-Seidel over the pairs,
//    x = -r_ij . v_ij / d^2 until every |x| <= tol; each rigid water by the exact 3 x 3 solve.
// The pairs run on warp 0 of the block, one constraint group per lane (ConstraintGroups: the connected components of
// the pairs, e.g. a CH3 or an N-H with h-bonds; no atom in two groups); a group of at most three pairs as one small
// system in registers (the velocity half exactly, positions by Newton's method: rattle_group), larger ones by the
// host's sweeps in its order, the serial solve's iterates in float64 bit for bit; staged in shared memory when the replica fits
// (its atoms' state, its pairs and groups: shared-memory latency instead of L2's after every store), the waters one
// per thread (they share no atom with the pairs).
// State in float64 (Net.pos, Net.vel), so the host's tolerance (default 1e-10) applies unchanged; with
// Net.fp32_state the result is rounded to float32 afterwards, as every other state update.
// The solvers work on views (PairView, WaterView: where the positions, velocities, drift starts, masses and the
// constraint lists are), so that the small-molecule cluster kernel (molten_small_constraints.cuh) runs the same
// functions on its shared-memory copy of the state: one definition of RATTLE and SETTLE for both paths.
// A constraint that cannot be met is recorded in flags[MOLTEN_FLAG_CONSTRAINT] (pair k + 1, or -(w + 1) for
// rigid water w, global indices; the first one found), with its kind and step; the host checks the flags
// at the end of each launch of K steps and stops the run there (CudaMdEngine.advance).
#pragma once
#include "molten_stages.cuh"

#define MOLTEN_CONS_MAXITER 1000     // ConstraintSolver.MAX_ITERATIONS
#define MOLTEN_CONS_FULL_DRIFT 0     // k_constrain: positions after the full drift of velocity Verlet (dt)
#define MOLTEN_CONS_FIRST_HALF 1     //   after BAOAB's first half drift (dt/2)
#define MOLTEN_CONS_SECOND_HALF 2    //   after BAOAB's second half drift (dt/2)
#define MOLTEN_CONS_VELOCITIES 3     //   velocities after the closing half kick
#define MOLTEN_CONS_FAIL_POSITIONS 1 // flags[MOLTEN_FLAG_CONSKIND]
#define MOLTEN_CONS_FAIL_VELOCITIES 2
#define MOLTEN_CONS_FAIL_SETTLE 3

__device__ __forceinline__ int replica_lo_c(const Net& n, int r) { return n.rep_start == nullptr ? 0 : n.rep_start[r]; }
__device__ __forceinline__ int replica_hi_c(const Net& n, int r) { return n.rep_start == nullptr ? (int)n.n : n.rep_start[r + 1]; }

__device__ __forceinline__ void cons_fail(const Net& n, int code, int kind, unsigned long long stepno) {
    if (atomicCAS(n.flags + MOLTEN_FLAG_CONSTRAINT, 0, code) == 0) {
        n.flags[MOLTEN_FLAG_CONSKIND] = kind;
        n.flags[MOLTEN_FLAG_CONSSTEP] = (int)stepno;
    }
}

// Minimum-image r_j - r_i of a position array (Å).
__device__ __forceinline__ void cons_disp(const Net& n, const double* r, int i, int j, double d[3]) {
    d[0] = r[3 * j] - r[3 * i];
    d[1] = r[3 * j + 1] - r[3 * i + 1];
    d[2] = r[3 * j + 2] - r[3 * i + 2];
    min_image(n, d[0], d[1], d[2]);
}

// One replica's pairs as the solver sees them: in shared memory (the replica's atoms and pairs staged there, local
// atom indices; latency of shared memory instead of L2 after each store) or in global memory (global indices).
// The pairs are in their original order (failure codes, vec and lambda by pair); gpair and gstart give the
// constraint groups (DeviceConstraints / ConstraintGroups: connected components of the pairs, no atom in two groups):
// group g holds the pairs gpair[gstart[g]] .. gpair[gstart[g + 1] - 1], in their original relative order, and the
// groups end where gstart reaches P (g <= P: gstart has P + 1 entries).
struct PairView {
    double* r;            // positions [.][3]
    double* v;            // velocities [.][3]
    const double* ref;    // positions at the start of the drift [.][3]
    const double* im;     // 1/amu [.]
    const int* pair;      // [P][2]
    const double* len2;   // [P]
    double* vec;          // [P][3]
    double* lambda;       // [P]
    int P;
    int code0;            // global index of the first pair (failure codes: code0 + k + 1)
    const int* gpair;     // [P] pair indices group after group
    const int* gstart;    // [P + 1] first slot of each group, then P
    int* handovers;       // where a small group's direct solve handing over to the sweeps is counted; null: not counted
};

// What a group's solve ends in: 0 met; 1 + iter * P + k: x of pair k not finite in sweep iter (the serial solve
// stops at the first of these in (sweep, pair) order, so the smallest key names its pair); CAP_KEY: not met in
// MOLTEN_CONS_MAXITER sweeps (larger than every non-finite key: the serial solve meets those first).
__device__ __forceinline__ int cons_cap_key(int P) { return 1 + MOLTEN_CONS_MAXITER * P; }

// SHAKE on the pairs of slots [s0, s1) of the view (one group; one thread): Gauss-Seidel in their order until every
// |x| <= tol; then, perFs > 0, velocities += displacement * perFs. The group's own atoms and pairs only.
__device__ int rattle_group_positions(const Net& n, const PairView& w, int s0, int s1, double perFs) {
    double* r = w.r;
    const double* ref = w.ref;
    const double tol = n.cons_tol;
    for (int s = s0; s < s1; ++s) {
        const int k = w.gpair[s];
        cons_disp(n, ref, w.pair[2 * k], w.pair[2 * k + 1], w.vec + 3 * k);
        w.lambda[k] = 0.0;
    }
    for (int iter = 0; iter < MOLTEN_CONS_MAXITER; ++iter) {
        bool converged = true;
        for (int s = s0; s < s1; ++s) {
            const int k = w.gpair[s];
            const int i = w.pair[2 * k], j = w.pair[2 * k + 1];
            const double sx = w.vec[3 * k], sy = w.vec[3 * k + 1], sz = w.vec[3 * k + 2];
            const double dx = sx + (r[3 * j] - ref[3 * j]) - (r[3 * i] - ref[3 * i]);
            const double dy = sy + (r[3 * j + 1] - ref[3 * j + 1]) - (r[3 * i + 1] - ref[3 * i + 1]);
            const double dz = sz + (r[3 * j + 2] - ref[3 * j + 2]) - (r[3 * i + 2] - ref[3 * i + 2]);
            const double x = 0.5 * (w.len2[k] - (dx * dx + dy * dy + dz * dz)) / (sx * dx + sy * dy + sz * dz);
            if (!(fabs(x) <= tol)) {
                if (!isfinite(x)) return 1 + iter * w.P + k;
                converged = false;
                const double imi = w.im[i], imj = w.im[j];
                const double m = 1.0 / (imi + imj);
                const double ci = x * m * imi, cj = x * m * imj;
                r[3 * j] += cj * sx; r[3 * j + 1] += cj * sy; r[3 * j + 2] += cj * sz;
                r[3 * i] -= ci * sx; r[3 * i + 1] -= ci * sy; r[3 * i + 2] -= ci * sz;
                w.lambda[k] += x * m;
            }
        }
        if (converged) {
            if (perFs > 0) {
                double* v = w.v;
                for (int s = s0; s < s1; ++s) {
                    const int k = w.gpair[s];
                    const int i = w.pair[2 * k], j = w.pair[2 * k + 1];
                    const double ci = w.lambda[k] * w.im[i] * perFs, cj = w.lambda[k] * w.im[j] * perFs;
                    for (int c = 0; c < 3; ++c) {
                        v[3 * j + c] += cj * w.vec[3 * k + c];
                        v[3 * i + c] -= ci * w.vec[3 * k + c];
                    }
                }
            }
            return 0;
        }
    }
    return cons_cap_key(w.P);
}

// The velocity half on the pairs of slots [s0, s1) (one group; one thread): r_ij . v_ij = 0.
__device__ int rattle_group_velocities(const Net& n, const PairView& w, int s0, int s1) {
    double* v = w.v;
    const double tol = n.cons_tol;
    for (int s = s0; s < s1; ++s) {
        const int k = w.gpair[s];
        cons_disp(n, w.r, w.pair[2 * k], w.pair[2 * k + 1], w.vec + 3 * k);
    }
    for (int iter = 0; iter < MOLTEN_CONS_MAXITER; ++iter) {
        bool converged = true;
        for (int s = s0; s < s1; ++s) {
            const int k = w.gpair[s];
            const int i = w.pair[2 * k], j = w.pair[2 * k + 1];
            const double dx = w.vec[3 * k], dy = w.vec[3 * k + 1], dz = w.vec[3 * k + 2];
            const double x = -(dx * (v[3 * j] - v[3 * i]) + dy * (v[3 * j + 1] - v[3 * i + 1])
                               + dz * (v[3 * j + 2] - v[3 * i + 2])) / w.len2[k];
            if (!(fabs(x) <= tol)) {
                if (!isfinite(x)) return 1 + iter * w.P + k;
                converged = false;
                const double imi = w.im[i], imj = w.im[j];
                const double m = 1.0 / (imi + imj);
                const double ci = x * m * imi, cj = x * m * imj;
                v[3 * j] += cj * dx; v[3 * j + 1] += cj * dy; v[3 * j + 2] += cj * dz;
                v[3 * i] -= ci * dx; v[3 * i + 1] -= ci * dy; v[3 * i + 2] -= ci * dz;
            }
        }
        if (converged) return 0;
    }
    return cons_cap_key(w.P);
}

// Small groups (at most 3 pairs: with h-bonds every group but a CH4 or NH4+, a heavy atom and its hydrogens) are solved
// as one linear system in registers instead of by Gauss-Seidel sweeps through shared memory. Measured on an H200
// (clock64 probes in the cluster kernel, alanine dipeptide at 2 fs): a CH3's sweeps took ~15,000 cycles for positions
// and ~11,000 for velocities, a chain of dependent shared-memory round trips (~60 cycles each) and float64 divisions
// (~110 cycles each) with every update stored and read back; here the group's state is read once, the solve runs in
// registers and the result is written once. Both end at the sweeps' criterion (every |x| <= tol, x as the sweeps
// compute it, compared without its division), so they meet the constraints to the same tolerance; they are not the
// sweeps' iterates bit for bit (the host and DeviceConstraints.oneGroup solve by sweeps, within the tolerance).
//  - velocities: RATTLE's velocity half is linear in the multipliers, A lambda = b with A_lk = (d_l . d_k) c_lk and
//    b_l = -d_l . v_l (d: bond vectors, v_l: the pair's relative velocity, c_lk: how pair k's multiplier moves pair l's
//    relative vector, ConsRows::coupling); one solve is exact to rounding.
//  - positions: SHAKE's equations |D_l(lambda)|^2 = d_l^2, D_l(lambda) = D_l(0) + sum_k c_lk lambda_k s_k along the
//    drift's start vectors s_k, by Newton's method (J_lk = 2 c_lk D_l . s_k): quadratic convergence, 3-4 iterations
//    from a 2 fs drift.
// Either writes nothing unless it ends finite and met, and then the sweeps solve the group from the same state (counted
// in flags[MOLTEN_FLAG_CONSSWEEPS]; the host adds them up, CudaMdEngine.constraintHandovers): a constraint that cannot
// be met fails exactly as with the sweeps.
#define MOLTEN_CONS_NEWTON_MAX 12

// a x = b for 3 x 3, b overwritten by x: Gaussian elimination without pivoting (the systems are diagonally dominant:
// a pair's own coupling im_p + im_q against a shared atom's im).
__device__ __forceinline__ void cons_solve3(double (&a)[3][3], double (&b)[3]) {
    double inv[3];
#pragma unroll
    for (int c = 0; c < 3; ++c) {
        inv[c] = 1.0 / a[c][c];
#pragma unroll
        for (int r = c + 1; r < 3; ++r) {
            const double f = a[r][c] * inv[c];
#pragma unroll
            for (int k = c + 1; k < 3; ++k) a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
#pragma unroll
    for (int c = 2; c >= 0; --c) {
        double t = b[c];
#pragma unroll
        for (int k = c + 1; k < 3; ++k) t -= a[c][k] * b[k];
        b[c] = t * inv[c];
    }
}

// A small group's pairs, slots [s0, s0 + m), m <= 3, as the rows of a 3 x 3 system, with the inverse masses of their
// atoms: rows past m repeat row 0's atoms (valid loads) and get a zero bond vector, an identity row and a zero
// right-hand side, so that they move nothing. Every group of a warp's lanes then runs the same instructions.
struct ConsRows {
    int m;
    int pk[3], pi[3], pj[3];
    double imi[3], imj[3];  // 1/amu of pi, pj
    __device__ __forceinline__ ConsRows(const PairView& w, int s0, int m_) : m(m_) {
#pragma unroll
        for (int l = 0; l < 3; ++l) {
            pk[l] = w.gpair[s0 + (l < m ? l : 0)];
            pi[l] = w.pair[2 * pk[l]];
            pj[l] = w.pair[2 * pk[l] + 1];
            imi[l] = w.im[pi[l]];
            imj[l] = w.im[pj[l]];
        }
    }
    // How a unit multiplier of pair k moves atom a: r_j += im_j s_k, r_i -= im_i s_k (the sweeps' update), 1/amu.
    __device__ __forceinline__ double moves(int a, int k) const {
        return (a == pj[k] ? imj[k] : 0.0) - (a == pi[k] ? imi[k] : 0.0);
    }
    // How pair k's multiplier moves pair l's relative vector r_q - r_p, 1/amu.
    __device__ __forceinline__ double coupling(int l, int k) const { return moves(pj[l], k) - moves(pi[l], k); }
};

// The velocity half of a small group exactly (one thread); -1: not met, nothing written, for the sweeps.
__device__ int rattle_group_velocities_direct(const Net& n, const PairView& w, const ConsRows& q) {
    double* v = w.v;
    double d[3][3], vi[3][3], vj[3][3], a[3][3], b[3];
#pragma unroll
    for (int l = 0; l < 3; ++l) {
        cons_disp(n, w.r, q.pi[l], q.pj[l], d[l]);
        if (l >= q.m) d[l][0] = d[l][1] = d[l][2] = 0.0;
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            vi[l][c] = v[3 * q.pi[l] + c];
            vj[l][c] = v[3 * q.pj[l] + c];
        }
    }
#pragma unroll
    for (int l = 0; l < 3; ++l) {
        b[l] = -(d[l][0] * (vj[l][0] - vi[l][0]) + d[l][1] * (vj[l][1] - vi[l][1]) + d[l][2] * (vj[l][2] - vi[l][2]));
#pragma unroll
        for (int k = 0; k < 3; ++k) a[l][k] = (d[l][0] * d[k][0] + d[l][1] * d[k][1] + d[l][2] * d[k][2]) * q.coupling(l, k);
        if (l >= q.m) a[l][l] = 1.0;
    }
    cons_solve3(a, b);
    // the rows' atoms after the solve (an atom in several rows gets the same bits in each: the same sum)
#pragma unroll
    for (int l = 0; l < 3; ++l)
#pragma unroll
        for (int k = 0; k < 3; ++k) {
            const double ci = b[k] * q.moves(q.pi[l], k), cj = b[k] * q.moves(q.pj[l], k);
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                vi[l][c] += ci * d[k][c];
                vj[l][c] += cj * d[k][c];
            }
        }
    bool met = true;
#pragma unroll
    for (int l = 0; l < 3; ++l) {
        const double dv = d[l][0] * (vj[l][0] - vi[l][0]) + d[l][1] * (vj[l][1] - vi[l][1]) + d[l][2] * (vj[l][2] - vi[l][2]);
        met = met && (l >= q.m || fabs(dv) <= n.cons_tol * w.len2[q.pk[l]]);  // false for a non-finite one as well
    }
    if (!met) return -1;
#pragma unroll
    for (int l = 0; l < 3; ++l) {
        if (l >= q.m) continue;
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            v[3 * q.pi[l] + c] = vi[l][c];
            v[3 * q.pj[l] + c] = vj[l][c];
        }
    }
    return 0;
}

// Positions after a drift for a small group by Newton's method (one thread); then, perFs > 0, velocities +=
// displacement * perFs as the sweeps do. -1: not met, nothing written, for the sweeps.
__device__ int rattle_group_positions_newton(const Net& n, const PairView& w, const ConsRows& q, double perFs) {
    double* r = w.r;
    const double* ref = w.ref;
    const double tol = n.cons_tol;
    double s[3][3], D0[3][3], c[3][3], len2[3], lam[3] = {0.0, 0.0, 0.0};
#pragma unroll
    for (int l = 0; l < 3; ++l) {
        cons_disp(n, ref, q.pi[l], q.pj[l], s[l]);
        if (l >= q.m) s[l][0] = s[l][1] = s[l][2] = 0.0;
#pragma unroll
        for (int x = 0; x < 3; ++x)
            D0[l][x] = s[l][x] + (r[3 * q.pj[l] + x] - ref[3 * q.pj[l] + x]) - (r[3 * q.pi[l] + x] - ref[3 * q.pi[l] + x]);
        len2[l] = w.len2[q.pk[l]];
#pragma unroll
        for (int k = 0; k < 3; ++k) c[l][k] = q.coupling(l, k);
    }
    bool met = false;
    for (int iter = 0; iter < MOLTEN_CONS_NEWTON_MAX; ++iter) {
        double D[3][3], g[3], a[3][3];
        met = true;
#pragma unroll
        for (int l = 0; l < 3; ++l) {
#pragma unroll
            for (int x = 0; x < 3; ++x)
                D[l][x] = D0[l][x] + c[l][0] * lam[0] * s[0][x] + c[l][1] * lam[1] * s[1][x] + c[l][2] * lam[2] * s[2][x];
            g[l] = l < q.m ? len2[l] - (D[l][0] * D[l][0] + D[l][1] * D[l][1] + D[l][2] * D[l][2]) : 0.0;
            const double sd = s[l][0] * D[l][0] + s[l][1] * D[l][1] + s[l][2] * D[l][2];
            met = met && (l >= q.m || fabs(0.5 * g[l]) <= tol * fabs(sd));  // the sweeps' |x| <= tol; false if not finite
        }
        if (met) break;
#pragma unroll
        for (int l = 0; l < 3; ++l) {
#pragma unroll
            for (int k = 0; k < 3; ++k) a[l][k] = 2.0 * c[l][k] * (D[l][0] * s[k][0] + D[l][1] * s[k][1] + D[l][2] * s[k][2]);
            if (l >= q.m) a[l][l] = 1.0;
        }
        cons_solve3(a, g);
        if (!(isfinite(g[0]) && isfinite(g[1]) && isfinite(g[2]))) break;
#pragma unroll
        for (int k = 0; k < 3; ++k) lam[k] += g[k];
    }
    if (!met) return -1;
    // the rows' atoms moved by the multipliers, all read before any is written (an atom in several rows gets the
    // same bits in each: the same sum)
    double* v = w.v;
    double rn[3][2][3], vn[3][2][3];
#pragma unroll
    for (int l = 0; l < 3; ++l)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int a = e == 0 ? q.pi[l] : q.pj[l];
            double dr[3] = {0.0, 0.0, 0.0};
#pragma unroll
            for (int k = 0; k < 3; ++k) {
                const double f = lam[k] * q.moves(a, k);
#pragma unroll
                for (int x = 0; x < 3; ++x) dr[x] += f * s[k][x];
            }
#pragma unroll
            for (int x = 0; x < 3; ++x) {
                rn[l][e][x] = r[3 * a + x] + dr[x];
                vn[l][e][x] = v[3 * a + x] + dr[x] * perFs;
            }
        }
#pragma unroll
    for (int l = 0; l < 3; ++l) {
        if (l >= q.m) continue;
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int a = e == 0 ? q.pi[l] : q.pj[l];
#pragma unroll
            for (int x = 0; x < 3; ++x) {
                r[3 * a + x] = rn[l][e][x];
                if (perFs > 0) v[3 * a + x] = vn[l][e][x];
            }
        }
    }
    return 0;
}

// One group's solve: small groups directly (above), larger ones (all-bonds molecules, DeviceConstraints.oneGroup)
// by the sweeps, and a small group whose direct solve did not end met by the sweeps after it (counted).
__device__ int rattle_group(const Net& n, const PairView& w, int s0, int s1, bool velocities, double perFs) {
    if (s1 - s0 > 3) return velocities ? rattle_group_velocities(n, w, s0, s1) : rattle_group_positions(n, w, s0, s1, perFs);
    const ConsRows q(w, s0, s1 - s0);
    const int k = velocities ? rattle_group_velocities_direct(n, w, q) : rattle_group_positions_newton(n, w, q, perFs);
    if (k >= 0) return k;
    if (w.handovers != nullptr) atomicAdd(w.handovers, 1);
    return velocities ? rattle_group_velocities(n, w, s0, s1) : rattle_group_positions(n, w, s0, s1, perFs);
}

// After MOLTEN_CONS_MAXITER sweeps without meeting the pairs: the worst pair (over all pairs in their order, the
// state the serial solve ends in) names the failure, as the host's worstPositionPair. The drift's start vectors are
// taken again from the start positions: a group solved directly leaves no bond vectors in vec.
__device__ int rattle_worst_pair(const Net& n, const PairView& w) {
    const double* r = w.r;
    const double* ref = w.ref;
    int worst = 0;
    double err = -1.0;
    for (int k = 0; k < w.P; ++k) {
        const int i = w.pair[2 * k], j = w.pair[2 * k + 1];
        double d[3];
        cons_disp(n, ref, i, j, d);
        for (int c = 0; c < 3; ++c) d[c] += (r[3 * j + c] - ref[3 * j + c]) - (r[3 * i + c] - ref[3 * i + c]);
        const double e = fabs(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - sqrt(w.len2[k]));
        if (!(e <= err)) { err = e; worst = k; }
    }
    return worst;
}

// The pair solve of a view, the velocity half or positions after a drift with perFs: called by the 32 lanes of warp 0
// (every one of them; the other warps are free for SETTLE), each lane solving the groups lane, lane + 32, ... one after
// another. Groups share no atom and no pair (ConstraintGroups), so no two lanes write the same position, velocity,
// bond vector or lambda, and no scratch is shared but the per-pair arrays. Groups solved by the sweeps give the serial
// Gauss-Seidel's iterates over all pairs bit for bit (each group's iterates are its own; a group met stays unchanged
// by further sweeps); small groups solved directly meet the same criterion. On a failure lane 0 flags the pair the
// sweeps name: the first non-finite x in (sweep, pair) order, else for positions the worst pair after the cap, for
// velocities the first pair (the worst pair measured from the drift's start positions, so that groups solved directly
// compare as the serial solve's would). A failed solve leaves the groups that met
// their pairs solved (the serial solve stops at once): the run stops there anyway (CudaMdEngine keeps the launch's
// start). False on failure (lane 0).
__device__ bool rattle_view(const Net& n, const PairView& w, bool velocities, double perFs, unsigned long long stepno) {
    const int lane = threadIdx.x & 31;
    int key = 0x7fffffff;  // the smallest failure key of this lane's groups
    for (int g = lane; g < w.P && w.gstart[g] < w.P; g += 32) {
        const int s0 = w.gstart[g], s1 = w.gstart[g + 1];
        const int k = rattle_group(n, w, s0, s1, velocities, perFs);
        if (k != 0) key = min(key, k);
    }
    for (int m = 16; m > 0; m >>= 1) key = min(key, __shfl_sync(FULLMASK, key, lane ^ m));
    __syncwarp();
    if (key == 0x7fffffff) return true;
    if (lane == 0) {
        const int kind = velocities ? MOLTEN_CONS_FAIL_VELOCITIES : MOLTEN_CONS_FAIL_POSITIONS;
        const int pair = key < cons_cap_key(w.P) ? (key - 1) % w.P : velocities ? 0 : rattle_worst_pair(n, w);
        cons_fail(n, w.code0 + pair + 1, kind, stepno);
    }
    return false;
}

// Doubles of shared memory that stage a replica of na atoms and P pairs (r, v, ref, 1/m; length^2, bond vector,
// lambda; pair indices and the groups, 4P + 1 ints). DeviceConstraints.sharedBytes computes the same.
#define MOLTEN_CONS_SMEM_DOUBLES(na, P) (10 * (na) + 7 * (P) + 1)

// Runs the pair solve of replica r on warp 0 (rattle_view), staged in shared memory when the host gave enough
// (staged != 0; every thread of the block calls it). velocities: the velocity half; else positions with perFs.
__device__ void rattle_replica(const Net& n, int r, int lo, int hi, bool velocities, double perFs,
                               unsigned long long stepno, bool staged, double* sm) {
    const int p0 = n.cons_rpair[r], p1 = n.cons_rpair[r + 1];
    if (p1 == p0) return;
    if (!staged) {
        if (threadIdx.x < 32) {
            PairView w{n.pos, n.vel, n.cons_ref, n.inv_mass, n.cons_pair + 2 * p0, n.cons_len2 + p0, n.cons_vec + 3 * p0,
                       n.cons_lambda + p0, p1 - p0, p0, n.cons_gpair + p0, n.cons_gstart + p0 + r,
                       n.flags + MOLTEN_FLAG_CONSSWEEPS};
            rattle_view(n, w, velocities, perFs, stepno);
        }
        __syncthreads();
        return;
    }
    const int na = hi - lo, P = p1 - p0;
    double* r_ = sm;
    double* v_ = r_ + 3 * na;
    double* ref_ = v_ + 3 * na;
    double* im_ = ref_ + 3 * na;
    double* len2_ = im_ + na;
    double* vec_ = len2_ + P;
    double* lam_ = vec_ + 3 * P;
    int* pair_ = reinterpret_cast<int*>(lam_ + P);
    int* gpair_ = pair_ + 2 * P;
    int* gstart_ = gpair_ + P;
    for (int e = threadIdx.x; e < 3 * na; e += MOLTEN_THREADS) {
        r_[e] = n.pos[3 * lo + e];
        v_[e] = n.vel[3 * lo + e];
        if (!velocities) ref_[e] = n.cons_ref[3 * lo + e];
    }
    for (int a = threadIdx.x; a < na; a += MOLTEN_THREADS) im_[a] = n.inv_mass[lo + a];
    for (int k = threadIdx.x; k < P; k += MOLTEN_THREADS) {
        len2_[k] = n.cons_len2[p0 + k];
        pair_[2 * k] = n.cons_pair[2 * (p0 + k)] - lo;
        pair_[2 * k + 1] = n.cons_pair[2 * (p0 + k) + 1] - lo;
        gpair_[k] = n.cons_gpair[p0 + k];
    }
    for (int g = threadIdx.x; g <= P; g += MOLTEN_THREADS) gstart_[g] = n.cons_gstart[p0 + r + g];
    __syncthreads();
    if (threadIdx.x < 32) {
        PairView w{r_, v_, ref_, im_, pair_, len2_, vec_, lam_, P, p0, gpair_, gstart_, n.flags + MOLTEN_FLAG_CONSSWEEPS};
        rattle_view(n, w, velocities, perFs, stepno);
    }
    __syncthreads();
    for (int e = threadIdx.x; e < 3 * na; e += MOLTEN_THREADS) {
        if (!velocities) n.pos[3 * lo + e] = r_[e];
        n.vel[3 * lo + e] = v_[e];
    }
    __syncthreads();
}

__device__ __forceinline__ double c_dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
__device__ __forceinline__ void c_cross(const double a[3], const double b[3], double o[3]) {
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
__device__ __forceinline__ void c_unit(double a[3]) {
    const double s = sqrt(c_dot(a, a));
    a[0] /= s; a[1] /= s; a[2] /= s;
}

// One replica's rigid waters as SETTLE sees them: global memory (global atom indices) or the cluster kernel's shared
// copy (local indices).
struct WaterView {
    double* r;            // positions [.][3]
    double* v;            // velocities [.][3]
    const double* ref;    // positions at the start of the drift [.][3]
    const double* im;     // 1/amu [.]
    const int* water;     // [W][3] O, H1, H2
    const double* wlen;   // [W][2] O-H, H-H, Å
    int W;
    int code0;            // global index of the first water (failure codes: -(code0 + w + 1))
};

// SETTLE of the view's rigid water w after a drift (positions back onto the rigid geometry; velocities += move * perFs).
__device__ void settle_positions(const Net& n, const WaterView& wv, int w, double perFs, unsigned long long stepno) {
    const int o = wv.water[3 * w], h1 = wv.water[3 * w + 1], h2 = wv.water[3 * w + 2];
    double* r = wv.r;
    const double* ref = wv.ref;
    const double ohA = wv.wlen[2 * w], hhA = wv.wlen[2 * w + 1];
    const double mO = 1.0 / wv.im[o], mH = 1.0 / wv.im[h1];
    const double total = mO + 2 * mH;
    const double rc = 0.5 * hhA;
    const double height = sqrt(ohA * ohA - rc * rc);
    const double ra = 2 * mH * height / total;  // O to the centre of mass, Å
    const double rb = height - ra;              // centre of mass to the H-H midpoint, Å
    double b0[3], c0[3], b1[3], c1[3], com[3];
    cons_disp(n, ref, o, h1, b0);
    cons_disp(n, ref, o, h2, c0);
    for (int a = 0; a < 3; ++a) {
        const double dO = r[3 * o + a] - ref[3 * o + a];
        b1[a] = b0[a] + (r[3 * h1 + a] - ref[3 * h1 + a]) - dO;
        c1[a] = c0[a] + (r[3 * h2 + a] - ref[3 * h2 + a]) - dO;
        com[a] = mH * (b1[a] + c1[a]) / total;
    }
    const double a1d[3] = {-com[0], -com[1], -com[2]};
    const double b1d[3] = {b1[0] - com[0], b1[1] - com[1], b1[2] - com[2]};
    const double c1d[3] = {c1[0] - com[0], c1[1] - com[1], c1[2] - com[2]};
    double ez[3], ex[3], ey[3];
    c_cross(b0, c0, ez);
    c_unit(ez);
    c_cross(a1d, ez, ex);
    c_unit(ex);
    c_cross(ez, ex, ey);
    c_unit(ey);
    const double xb0 = c_dot(ex, b0), yb0 = c_dot(ey, b0), xc0 = c_dot(ex, c0), yc0 = c_dot(ey, c0);
    const double za1 = c_dot(ez, a1d);
    const double xb1 = c_dot(ex, b1d), yb1 = c_dot(ey, b1d), zb1 = c_dot(ez, b1d);
    const double xc1 = c_dot(ex, c1d), yc1 = c_dot(ey, c1d), zc1 = c_dot(ez, c1d);
    const double sinPhi = za1 / ra;
    const double cosPhi2 = 1 - sinPhi * sinPhi;
    const double cosPhi = sqrt(cosPhi2);
    const double sinPsi = (zb1 - zc1) / (2 * rc * cosPhi);
    const double cosPsi = sqrt(1 - sinPsi * sinPsi);
    const double ya2 = ra * cosPhi;
    const double xb2 = -rc * cosPsi;
    const double yb2 = -rb * cosPhi - rc * sinPsi * sinPhi;
    const double yc2 = -rb * cosPhi + rc * sinPsi * sinPhi;
    const double alpha = xb2 * (xb0 - xc0) + yb0 * yb2 + yc0 * yc2;
    const double beta = xb2 * (yc0 - yb0) + xb0 * yb2 + xc0 * yc2;
    const double gamma = xb0 * yb1 - xb1 * yb0 + xc0 * yc1 - xc1 * yc0;
    const double ab2 = alpha * alpha + beta * beta;
    const double sinTheta = (alpha * gamma - beta * sqrt(ab2 - gamma * gamma)) / ab2;
    const double cosTheta = sqrt(1 - sinTheta * sinTheta);
    if (!isfinite(sinTheta + cosTheta + cosPsi + cosPhi) || !(cosPhi2 > 0)) {
        cons_fail(n, -(wv.code0 + w + 1), MOLTEN_CONS_FAIL_SETTLE, stepno);
        return;
    }
    const double a3[3] = {-ya2 * sinTheta, ya2 * cosTheta, za1};
    const double b3[3] = {xb2 * cosTheta - yb2 * sinTheta, xb2 * sinTheta + yb2 * cosTheta, zb1};
    const double c3[3] = {-xb2 * cosTheta - yc2 * sinTheta, -xb2 * sinTheta + yc2 * cosTheta, zc1};
    double* v = wv.v;
    for (int a = 0; a < 3; ++a) {
        const double da = com[a] + ex[a] * a3[0] + ey[a] * a3[1] + ez[a] * a3[2];
        const double db = com[a] + ex[a] * b3[0] + ey[a] * b3[1] + ez[a] * b3[2] - b1[a];
        const double dc = com[a] + ex[a] * c3[0] + ey[a] * c3[1] + ez[a] * c3[2] - c1[a];
        r[3 * o + a] += da;
        r[3 * h1 + a] += db;
        r[3 * h2 + a] += dc;
        if (perFs > 0) {
            v[3 * o + a] += da * perFs;
            v[3 * h1 + a] += db * perFs;
            v[3 * h2 + a] += dc * perFs;
        }
    }
}

__device__ __forceinline__ double c_det3(const double a[3][3]) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
           + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

__device__ __forceinline__ double c_sign(int x, int p, int q) { return x == q ? 1.0 : x == p ? -1.0 : 0.0; }

// The three constraints of the view's rigid water w solved together for the velocities: a 3 x 3 system, exact (Cramer).
__device__ void settle_velocities(const Net& n, const WaterView& wv, int w) {
    const int atom[3] = {wv.water[3 * w], wv.water[3 * w + 1], wv.water[3 * w + 2]};
    const double* im = wv.im;
    const int pair[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    double e[3][3];
    for (int k = 0; k < 3; ++k) {
        cons_disp(n, wv.r, atom[pair[k][0]], atom[pair[k][1]], e[k]);
        c_unit(e[k]);
    }
    double* v = wv.v;
    double a[3][3], b[3];
    for (int k = 0; k < 3; ++k) {
        const int p = atom[pair[k][0]], q = atom[pair[k][1]];
        b[k] = -(e[k][0] * (v[3 * q] - v[3 * p]) + e[k][1] * (v[3 * q + 1] - v[3 * p + 1])
                 + e[k][2] * (v[3 * q + 2] - v[3 * p + 2]));
        for (int l = 0; l < 3; ++l) {
            const int pl = pair[l][0], ql = pair[l][1];
            const double coupling = c_sign(pair[k][1], pl, ql) * im[q] - c_sign(pair[k][0], pl, ql) * im[p];
            a[k][l] = c_dot(e[k], e[l]) * coupling;
        }
    }
    const double det = c_det3(a);
    double lam[3];
    for (int l = 0; l < 3; ++l) {
        double m[3][3];
        for (int k = 0; k < 3; ++k)
            for (int c = 0; c < 3; ++c) m[k][c] = c == l ? b[k] : a[k][c];
        lam[l] = c_det3(m) / det;
    }
    for (int k = 0; k < 3; ++k) {
        const int p = atom[pair[k][0]], q = atom[pair[k][1]];
        for (int c = 0; c < 3; ++c) {
            v[3 * p + c] -= lam[k] * e[k][c] * im[p];
            v[3 * q + c] += lam[k] * e[k][c] * im[q];
        }
    }
}

// A view's waters after a drift (positions, velocities += move * perFs), or their velocities: one water per thread
// (every thread of the block calls it; no barrier).
__device__ void settle_view(const Net& n, const WaterView& wv, bool velocities, double perFs, unsigned long long stepno) {
    for (int w = threadIdx.x; w < wv.W; w += MOLTEN_THREADS) {
        if (velocities) settle_velocities(n, wv, w);
        else settle_positions(n, wv, w, perFs, stepno);
    }
}

// Replica r's rigid waters in global memory.
__device__ __forceinline__ WaterView replica_waters(const Net& n, int r) {
    const int w0 = n.cons_rwater[r];
    return WaterView{n.pos, n.vel, n.cons_ref, n.inv_mass, n.cons_water + 3 * w0, n.cons_wlen + 2 * w0,
                     n.cons_rwater[r + 1] - w0, w0};
}

// The state of atoms [0, na) of r and v rounded to float32 after a solve (Net.fp32_state), as after every other
// update; positions only after a drift (every thread of the block calls it; no barrier).
__device__ __forceinline__ void cons_round_view(const Net& n, double* r, double* v, int na, bool positions) {
    if (!n.fp32_state) return;
    for (int a = threadIdx.x; a < na; a += MOLTEN_THREADS)
        for (int k = 0; k < 3; ++k) {
            if (positions) r[3 * a + k] = state_round(n, r[3 * a + k]);
            v[3 * a + k] = state_round(n, v[3 * a + k]);
        }
}

__device__ __forceinline__ void cons_round(const Net& n, int lo, int hi, bool positions) {
    cons_round_view(n, n.pos + 3 * lo, n.vel + 3 * lo, hi - lo, positions);
}

// Replica r's velocities made tangent to its constraints (every thread of the block calls it).
__device__ void constrain_velocities_replica(const Net& n, int r, int lo, int hi, unsigned long long stepno, bool staged,
                                             double* sm) {
    __syncthreads();
    rattle_replica(n, r, lo, hi, true, 0.0, stepno, staged, sm);
    settle_view(n, replica_waters(n, r), true, 0.0, stepno);
    __syncthreads();
    cons_round(n, lo, hi, false);
    __syncthreads();
}

// k_constrain: one block per replica (grid-stride). what: MOLTEN_CONS_*. staged: the host gave the shared memory
// of MOLTEN_CONS_SMEM_DOUBLES for the largest replica (DeviceConstraints), else the pairs are solved in global memory.
__device__ void st_constrain(const Net& n, int what, int staged, int wi, int wn, double* sm) {
    const unsigned long long counter = *(volatile unsigned long long*)n.step;
    // the step being made: k_forces has counted it only before the closing velocities
    const unsigned long long stepno = what == MOLTEN_CONS_VELOCITIES ? counter : counter + 1;
    for (int r = wi; r < (int)n.replicas; r += wn) {
        const int lo = replica_lo_c(n, r), hi = replica_hi_c(n, r);
        if (what == MOLTEN_CONS_VELOCITIES) {
            constrain_velocities_replica(n, r, lo, hi, stepno, staged != 0, sm);
            continue;
        }
        const double perFs = what == MOLTEN_CONS_FULL_DRIFT ? 1.0 / n.dt : 2.0 / n.dt;
        rattle_replica(n, r, lo, hi, false, perFs, stepno, staged != 0, sm);
        settle_view(n, replica_waters(n, r), false, perFs, stepno);
        __syncthreads();
        cons_round(n, lo, hi, true);
        __syncthreads();
        // the cell counting of the step's last drift, moved here from k_integrate1 / k_drift (after the constraints)
        if (n.search == 1 && what != MOLTEN_CONS_FIRST_HALF) {
            for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS) {
                const int c = cell_of(n, n.pos[3 * a], n.pos[3 * a + 1], n.pos[3 * a + 2]);
                n.atom_cell[a] = c;
                atomicAdd(n.cell_count + c, 1);
            }
        }
        __syncthreads();
    }
}
