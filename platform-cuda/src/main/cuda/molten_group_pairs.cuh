// The pair loops of the group kernel's pair-loop entry k_group_n22_tc (PV; issue 29; measured as k_group_n24_tc_p
// 1.10x faster than k_group_n24_tc for 256 alanine dipeptides on an H200), included by molten_group.cuh before
// group_force (uses its constants, radd_n and warp_add4). A PTX count of k_group_n24_tc for the alanine dipeptide put
// ~1.37 M warp-instructions a block in the pair loops against ~0.77 M in the tensor-core products, the schedulers
// issuing in ~37 % of the cycles (latency-bound). Against group_force's own loops (the other entries') these:
// 1. read d rbf_k / dd from geo (8 + NR + k, written once per pair by the geometry pass) instead of recomputing it
//    for every channel, pair and layer in the backward loop (-2 gamma (d - mu_k) rbf_k: a subtraction and two
//    multiplications of 20 k, ~60 instructions of a pair's ~270 there);
// 2. keep atom i's sums in registers over j (the n12 entry's RACC, here also with two threads a channel and in the
//    backward loop): each half adds row i once, after its last pair, to its own destination (half 0: the shared rows,
//    half 1: its private copy X), and reads i's inputs once a row instead of once a pair;
// 3. load the next pair's inputs (valid flag, row j's inputs, row j's running sums) before the current pair's
//    arithmetic, so that their shared- and global-memory latency overlaps it (the halves take alternate pairs: the
//    next pair of a half is j + H; at a row's end the current row is reloaded instead, unused).
// A half's destination rows of channel f are written by that thread alone, so the running sums of row j can be read
// ahead. Results equal group_force's own loops' up to the order of row i's additions (float32 rounding).
#pragma once

namespace grp {

// Row i's pairs (i, j) of a half, j = j0, j0 + H, ... < M, unrolled by two: the next pair's inputs (load(p, j), p the
// pair's index) are loaded before the current pair's arithmetic (pair(inputs, j)), in alternate registers (no
// loop-carried copies); past the row's end a pair of the row is loaded again, unused. p0: the index of pair (i, i + 1).
template <int H, class Load, class Pair>
__device__ __forceinline__ void row_pairs_ahead(int M, int i, int p0, int j, const Load& load, const Pair& pair) {
    auto a = load(p0 + (j < M ? j : i + 1) - i - 1, j < M ? j : i + 1);
    for (; j < M; j += 2 * H) {
        const int j1 = j + H < M ? j + H : j, j2 = j + 2 * H < M ? j + 2 * H : j;
        const auto b = load(p0 + j1 - i - 1, j1);
        pair(a, j);
        if (j + H >= M) break;
        a = load(p0 + j2 - i - 1, j2);
        pair(b, j + H);
    }
}

// Forward message pair loop of channel f, half `half` (H = 2: pairs p with p % 2 == half): ds -> Sd rows (stride
// sS), dv -> Bd rows (stride sB; x, y, z at +0, +F, +2F), from phi (A: x_vv, x_s, x_vs at +0, +F, +2F) and v (V).
template <int H>
__device__ __forceinline__ void pair_fwd_pv(int M, int f, int half, const float* geo, const float* A, const float* V,
                                            float* Sd, int sS, float* Bd, int sB, const float (&wf)[3][NR],
                                            const float (&bf)[3]) {
    // what a pair reads of row j: valid flag, phi_j (3), v_j (3), running ds_j, dv_j (4)
    struct In { float ok, a0, a1, a2, v0, v1, v2, s, b0, b1, b2; };
    auto load = [&](int p, int j) {
        const float* Aj = A + j * F3 + f;
        const float* Vj = V + j * F3 + f;
        const float* Bj = Bd + j * sB + f;
        return In{geo[p * GEOP + 3], Aj[0], Aj[F], Aj[F2], Vj[0], Vj[F], Vj[F2], Sd[j * sS + f], Bj[0], Bj[F], Bj[F2]};
    };
    int p0 = 0;   // pair (i, i + 1)
    for (int i = 0; i < M - 1; p0 += M - 1 - i, ++i) {
        const float ai0 = A[i * F3 + f], ai1 = A[i * F3 + F + f], ai2 = A[i * F3 + F2 + f];
        const float vi0 = V[i * F3 + f], vi1 = V[i * F3 + F + f], vi2 = V[i * F3 + F2 + f];
        float r0 = 0.0f, r1 = 0.0f, r2 = 0.0f, r3 = 0.0f;   // atom i's ds, dv x, y, z
        int j = i + 1 + (H > 1 ? ((half - p0) & 1) : 0);   // the half's first pair of row i
        auto pair = [&](const In& cur, int j) {
            const int p = p0 + j - i - 1;
            if (cur.ok != 0.0f) {
                const float* e = geo + p * GEOP;
                const float fc = e[1], ux = e[4], uy = e[5], uz = e[6];
                float ha[3] = {bf[0], bf[1], bf[2]}, hb[3] = {0.0f, 0.0f, 0.0f};   // two chains each (latency)
#pragma unroll
                for (int k = 0; k < NR; k += 4) {
                    const float4 rb = *reinterpret_cast<const float4*>(e + 8 + k);
#pragma unroll
                    for (int c = 0; c < 3; ++c) {
                        ha[c] = fmaf(wf[c][k], rb.x, ha[c]); hb[c] = fmaf(wf[c][k + 1], rb.y, hb[c]);
                        ha[c] = fmaf(wf[c][k + 2], rb.z, ha[c]); hb[c] = fmaf(wf[c][k + 3], rb.w, hb[c]);
                    }
                }
                const float w0 = (ha[0] + hb[0]) * fc, w1 = (ha[1] + hb[1]) * fc, w2 = (ha[2] + hb[2]) * fc;   // W(d) fcut
                const float xvv_ij = cur.a0 * w0, xs_ij = cur.a1 * w1, xvs_ij = cur.a2 * w2;   // edge i <- j
                const float xvv_ji = ai0 * w0, xs_ji = ai1 * w1, xvs_ji = ai2 * w2;            // edge j <- i (u_ji = -u)
                r0 += xs_ij;
                r1 += xvv_ij * cur.v0 + ux * xvs_ij;
                r2 += xvv_ij * cur.v1 + uy * xvs_ij;
                r3 += xvv_ij * cur.v2 + uz * xvs_ij;
                float* Bj = Bd + j * sB + f;
                Sd[j * sS + f] = cur.s + xs_ji;
                Bj[0] = cur.b0 + (xvv_ji * vi0 - ux * xvs_ji);
                Bj[F] = cur.b1 + (xvv_ji * vi1 - uy * xvs_ji);
                Bj[F2] = cur.b2 + (xvv_ji * vi2 - uz * xvs_ji);
            }
        };
        row_pairs_ahead<H>(M, i, p0, j, load, pair);
        float* Bi = Bd + i * sB + f;
        float* dst[4] = {Sd + i * sS + f, Bi, Bi + F, Bi + F2};
        const float add[4] = {r0, r1, r2, r3};
        radd_n<1, 4>(dst, add);
    }
}

// Backward message pair loop of channel f, half `half`: g_phi -> Pd rows (stride sP; +0, +F, +2F), g_v of the
// senders -> Bd rows (stride sB), the pair sums of dE/dd and dE/du -> gp (warp sums, shared atomics). sct: layer t's
// scratch of channel f (phi at FPHI, v before the message at FVM, rows of NFLD F); gs: g_s (S), gv: g_v (V).
template <int H>
__device__ __forceinline__ void pair_bwd_pv(int M, int f, int half, const float* geo, float* gp, const float* sct,
                                            const float* gs, const float* gv, float* Pd, int sP, float* Bd, int sB,
                                            const float (&wf)[3][NR], const float (&bf)[3]) {
    // what a pair reads of row j: valid flag, phi_j (3), v_j (3) from scratch, g_s_j, g_v_j (3), running g_phi_j,
    // g_v(sender)_j (6)
    struct In { float ok, p0, p1, p2, v0, v1, v2, s, g0, g1, g2, a0, a1, a2, b0, b1, b2; };
    auto load = [&](int p, int j) {
        const float* Sc = sct + (size_t)j * NFLD * F;
        const float* G = gv + j * F3 + f;
        const float* P = Pd + j * sP + f;
        const float* Bj = Bd + j * sB + f;
        return In{geo[p * GEOP + 3], Sc[FPHI * F], Sc[(FPHI + 1) * F], Sc[(FPHI + 2) * F], Sc[FVM * F],
                  Sc[(FVM + 1) * F], Sc[(FVM + 2) * F], gs[j * F + f], G[0], G[F], G[F2], P[0], P[F], P[F2], Bj[0],
                  Bj[F], Bj[F2]};
    };
    int p0 = 0;   // pair (i, i + 1)
    for (int i = 0; i < M - 1; p0 += M - 1 - i, ++i) {
        const float* Si = sct + (size_t)i * NFLD * F;
        const float phi0 = Si[FPHI * F], phi1 = Si[(FPHI + 1) * F], phi2 = Si[(FPHI + 2) * F];
        const float vix = Si[FVM * F], viy = Si[(FVM + 1) * F], viz = Si[(FVM + 2) * F];
        const float gsi = gs[i * F + f], gix = gv[i * F3 + f], giy = gv[i * F3 + F + f], giz = gv[i * F3 + F2 + f];
        float ra[3] = {0.0f, 0.0f, 0.0f}, rb[3] = {0.0f, 0.0f, 0.0f};   // atom i's g_phi, g_v (as a sender)
        int j = i + 1 + (H > 1 ? ((half - p0) & 1) : 0);
        auto pair = [&](const In& cur, int j) {
            const int p = p0 + j - i - 1;
            if (cur.ok != 0.0f) {   // warp-uniform (p is): warp_add4's shuffles stay full-warp
                const float* e = geo + p * GEOP;
                const float fc = e[1], dfc = e[2], ux = e[4], uy = e[5], uz = e[6];
                float ha[3] = {bf[0], bf[1], bf[2]}, hb[3] = {0.0f, 0.0f, 0.0f};   // two chains each (latency)
                float qa[3] = {0.0f, 0.0f, 0.0f}, qb[3] = {0.0f, 0.0f, 0.0f};
#pragma unroll
                for (int k = 0; k < NR; k += 4) {
                    const float4 r4 = *reinterpret_cast<const float4*>(e + 8 + k);
                    const float4 d4 = *reinterpret_cast<const float4*>(e + 8 + NR + k);   // d rbf / dd, stored
#pragma unroll
                    for (int c = 0; c < 3; ++c) {
                        ha[c] = fmaf(wf[c][k], r4.x, ha[c]); hb[c] = fmaf(wf[c][k + 1], r4.y, hb[c]);
                        ha[c] = fmaf(wf[c][k + 2], r4.z, ha[c]); hb[c] = fmaf(wf[c][k + 3], r4.w, hb[c]);
                        qa[c] = fmaf(wf[c][k], d4.x, qa[c]); qb[c] = fmaf(wf[c][k + 1], d4.y, qb[c]);
                        qa[c] = fmaf(wf[c][k + 2], d4.z, qa[c]); qb[c] = fmaf(wf[c][k + 3], d4.w, qb[c]);
                    }
                }
                const float h0 = ha[0] + hb[0], h1 = ha[1] + hb[1], h2 = ha[2] + hb[2];
                const float q0 = qa[0] + qb[0], q1 = qa[1] + qb[1], q2 = qa[2] + qb[2];
                const float w0 = h0 * fc, w1 = h1 * fc, w2 = h2 * fc;
                const float dw0 = q0 * fc + h0 * dfc, dw1 = q1 * fc + h1 * dfc, dw2 = q2 * fc + h2 * dfc;   // dW/dd
                // edge i <- j; edge j <- i (u_ji = -u)
                const float a_vv = gix * cur.v0 + giy * cur.v1 + giz * cur.v2, a_vs = gix * ux + giy * uy + giz * uz;
                const float b_vv = cur.g0 * vix + cur.g1 * viy + cur.g2 * viz;
                const float b_vs = -(cur.g0 * ux + cur.g1 * uy + cur.g2 * uz);
                const float gd = a_vv * cur.p0 * dw0 + gsi * cur.p1 * dw1 + a_vs * cur.p2 * dw2 +
                                 b_vv * phi0 * dw0 + cur.s * phi1 * dw1 + b_vs * phi2 * dw2;
                const float cj = cur.p0 * w0, ci = phi0 * w0;
                float* P = Pd + j * sP + f;
                float* Bj = Bd + j * sB + f;
                P[0] = cur.a0 + a_vv * w0; P[F] = cur.a1 + gsi * w1; P[F2] = cur.a2 + a_vs * w2;
                Bj[0] = cur.b0 + gix * cj; Bj[F] = cur.b1 + giy * cj; Bj[F2] = cur.b2 + giz * cj;
                ra[0] += b_vv * w0; ra[1] += cur.s * w1; ra[2] += b_vs * w2;
                rb[0] += cur.g0 * ci; rb[1] += cur.g1 * ci; rb[2] += cur.g2 * ci;
                const float ej = cur.p2 * w2, ei = phi2 * w2;   // g_u (w.r.t. u_ij) = G_i x_vs_ij - G_j x_vs_ji
                warp_add4(gd, gix * ej - cur.g0 * ei, giy * ej - cur.g1 * ei, giz * ej - cur.g2 * ei, gp + (size_t)p * 4);
            }
        };
        row_pairs_ahead<H>(M, i, p0, j, load, pair);
        float* Pi = Pd + i * sP + f;
        float* Bi = Bd + i * sB + f;
        float* dst[6] = {Pi, Pi + F, Pi + F2, Bi, Bi + F, Bi + F2};
        const float add[6] = {ra[0], ra[1], ra[2], rb[0], rb[1], rb[2]};
        radd_n<1, 6>(dst, add);
    }
}
}  // namespace grp
