// Warp-per-row message passes (stage mode only; one channel per lane, mg = 1).
//
// Same maths as st_msg_fwd / st_msg_bwd (molten_stages.cuh, the spec and its backward-pass
// appendix), different decomposition: a work item (channel group g, position p in the processing
// order) belongs to ONE warp (or to SP = 2 warps in small systems, see RowRounds), which walks every
// neighbour slot of atom a, SU slots at a time, and writes the item's outputs itself. With one warp
// per row: no block barrier, no cross-warp reduction through shared memory, no idle warps on the
// last pass over a row.
// Why: in the block-per-item kernels a 3,000-atom water box spends 76% of a step in the message
// passes, latency-bound on neighbour gathers at 8 warps per multiprocessor, with two block
// barriers per row (docs/benchmarks.md). Here the rows of one block are consecutive atoms of the
// (cell-sorted) processing order, which share most neighbours, and every gather goes through the
// read-only path (L1): within one stage launch nothing is read that the launch writes.
// The per-pair maths is shared with those kernels (SlotBatch, edge_fwd, edge_bwd and its parts); sums over a
// row's slots run in slot order, so results agree with them to float32 rounding, not bit for bit.
#pragma once
#include "molten_stages.cuh"

__device__ __forceinline__ float ldr(const float* p) { return __ldg(p); }
__device__ __forceinline__ int ldri(const int* p) { return __ldg(p); }

// Work items: it = (g, p), g-major, so the warps of a block take consecutive atoms of the processing
// order. SP warps share an item (SP = 2 for systems too small to fill the GPU with one warp per row:
// a 201-atom box has 804 rows of ~90 slots for 132 x 16 warp slots); warp h of the SP takes the slot
// batches h, h + SP, ... and the SP partial sums are added in a fixed order (deterministic). The loop
// over rounds of MOLTEN_WARPS / SP items is uniform within a block, so the SP > 1 kernels can use
// block barriers for the combination.
template <int SP>
struct RowRounds {
    int items, per, slot, h;
    __device__ explicit RowRounds(const Net& n)
        : items((int)n.F / 32 * (int)n.n), per(MOLTEN_WARPS / SP), slot(warp_id() / SP), h(warp_id() % SP) {}
    __device__ int first() const { return blockIdx.x * per; }
    __device__ int stride() const { return gridDim.x * per; }
    // This warp's item of the round starting at `round`: whether it exists, its group g and atom a
    // (0 and 0 when it does not: SP > 1 warps without an item still join the block barriers).
    __device__ bool item(const Net& n, int round, int& g, int& a) const {
        const int it = round + slot;
        const bool valid = it < items;
        g = valid ? it / (int)n.n : 0;
        a = valid ? ldri(n.order + (it - g * (int)n.n)) : 0;
        return valid;
    }
};

// ------------------------------------------------------------------------------------------
// Message, forward (block t), as st_msg_fwd:
//   W(d) = (Wf rbf(d) + bf) fcut(d); x_ab = phi_b o W; [x_vv | x_s | x_vs]
//   s1_a = s_a + sum_b x_s;  v1_a = v_a + sum_b (x_vv o v_b + u_ab (outer) x_vs)
// ------------------------------------------------------------------------------------------
// FC, KWC: the width F and the radial-basis window kw when known at compile time (0: read from n);
// the bundled model's F = 128, kw = 9 make every weight offset an immediate and unroll the window
// (the window loop's index arithmetic was a fifth of all instructions).
template <int SU, int FC, int KWC, int SP>
__device__ void msg_fwd_row(const Net& n, int t, float* sm) {
    const int F = FC ? FC : (int)n.F, H = 3 * F, kw = KWC ? KWC : (int)n.kw, lane = lane_id();
    const float4* wf4 = reinterpret_cast<const float4*>(W(n, n.o_wf4[t]));  // [k][c]: the 3 parts
    const auto [bf, phi, vin, sin_, s1, v1] = MsgFwdArrays::of(n, t);
    float* rv = sm + warp_id() * SU * MOLTEN_MAXKW;          // this warp's radial-basis windows
    float* red = sm + MOLTEN_WARPS * SU * MOLTEN_MAXKW;       // [warp][4][32] partial sums (SP > 1)
    const bool shared = n.nrbf <= MOLTEN_MAXKW;  // else the slot loads below (a basis wider than the windows)
    const RowRounds<SP> rr(n);
    for (int round = rr.first(); round < rr.items; round += rr.stride()) {
        int g, a;
        const bool valid = rr.item(n, round, g, a);
        if (SP == 1 && !valid) break;
        const int c = g * 32 + lane;
        const float bb0 = ldw(bf + c), bb1 = ldw(bf + F + c), bb2 = ldw(bf + 2 * F + c);
        float ds = 0.f, dv0 = 0.f, dv1 = 0.f, dv2 = 0.f;
        const int cnt = valid ? ldri(n.nbr_count + a) : 0;
        for (int s0 = rr.h * SU; s0 < cnt; s0 += SP * SU) {
            SlotBatch<SU, true> sb;  // read-only path
            sb.load(n, a, s0, cnt, lane, kw, rv, nullptr, shared);
            float pb[SU][3], vb[SU][3];
#pragma unroll
            for (int u = 0; u < SU; ++u) {
                const float* pp = phi + (size_t)(t == 0 ? n.species[sb.b[u]] : sb.b[u]) * H + c;
#pragma unroll
                for (int p = 0; p < 3; ++p) pb[u][p] = ldr(pp + p * F);
#pragma unroll
                for (int x = 0; x < 3; ++x) vb[u][x] = t == 0 ? 0.f : ldr(vin + ((size_t)sb.b[u] * 3 + x) * F + c);
            }
            if (shared) {
                // The batch's slots are consecutive in a distance-sorted row, so their windows overlap
                // (~10 distinct k for 4 slots of 9): each filter weight is loaded once for all of them and
                // multiplied by each slot's rbf_k (0 outside its window). The same sums in the same order
                // as the per-slot loop below (fma(w, 0, h) = h): identical results, ~3x fewer L1 loads.
                int kmin = sb.k0[0], kmax = sb.k0[0];
#pragma unroll
                for (int u = 1; u < SU; ++u) {  // slots past the row's end (fcut = 0) do not widen the span
                    if (sb.ok[u]) { kmin = min(kmin, sb.k0[u]); kmax = max(kmax, sb.k0[u]); }
                }
                kmax += kw - 1;
                float h[SU][3];
#pragma unroll
                for (int u = 0; u < SU; ++u) { h[u][0] = bb0; h[u][1] = bb1; h[u][2] = bb2; }
#pragma unroll 2
                for (int k = kmin; k <= kmax; ++k) {
                    const float4 w = __ldg(wf4 + (size_t)k * F + c);
#pragma unroll
                    for (int u = 0; u < SU; ++u) {
                        const float rk = rv[u * MOLTEN_MAXKW + k];
                        h[u][0] = fmaf(w.x, rk, h[u][0]);
                        h[u][1] = fmaf(w.y, rk, h[u][1]);
                        h[u][2] = fmaf(w.z, rk, h[u][2]);
                    }
                }
#pragma unroll
                for (int u = 0; u < SU; ++u) edge_fwd(h[u][0], h[u][1], h[u][2], sb.fc[u], pb[u], vb[u], sb.geo[u], ds, dv0, dv1, dv2);
                continue;
            }
#pragma unroll
            for (int u = 0; u < SU; ++u) {
                float h0 = bb0, h1 = bb1, h2 = bb2;
                const float4* wr = wf4 + (size_t)sb.k0[u] * F + c;
                const float* r = rv + u * MOLTEN_MAXKW;
#pragma unroll 3
                for (int kk = 0; kk < (KWC ? KWC : MOLTEN_MAXKW); ++kk) {
                    if (KWC == 0 && kk >= kw) break;
                    const float rk = r[kk];
                    const float4 w = __ldg(wr + kk * F);
                    h0 = fmaf(w.x, rk, h0);
                    h1 = fmaf(w.y, rk, h1);
                    h2 = fmaf(w.z, rk, h2);
                }
                edge_fwd(h0, h1, h2, sb.fc[u], pb[u], vb[u], sb.geo[u], ds, dv0, dv1, dv2);
            }
        }
        if (SP > 1) {  // the SP partial sums of the row, added in warp order by its first warp
            float* mine = red + warp_id() * 4 * 32 + lane;
            mine[0] = ds; mine[32] = dv0; mine[64] = dv1; mine[96] = dv2;
            __syncthreads();
            if (rr.h == 0) {
                for (int k = 1; k < SP; ++k) {
                    ds += mine[k * 128]; dv0 += mine[k * 128 + 32]; dv1 += mine[k * 128 + 64]; dv2 += mine[k * 128 + 96];
                }
            }
            __syncthreads();
        }
        if (!valid || rr.h != 0) continue;
        const float base = t == 0 ? ldw(sin_ + (size_t)n.species[a] * F + c) : ldr(sin_ + (size_t)a * F + c);
        s1[(size_t)a * F + c] = base + ds;
        const float v0 = t == 0 ? 0.f : ldr(vin + ((size_t)a * 3 + 0) * F + c);
        const float v1b = t == 0 ? 0.f : ldr(vin + ((size_t)a * 3 + 1) * F + c);
        const float v2 = t == 0 ? 0.f : ldr(vin + ((size_t)a * 3 + 2) * F + c);
        v1[((size_t)a * 3 + 0) * F + c] = v0 + dv0;
        v1[((size_t)a * 3 + 1) * F + c] = v1b + dv1;
        v1[((size_t)a * 3 + 2) * F + c] = v2 + dv2;
    }
}

template <int SU, int SP>
__device__ void st_msg_fwd_row(const Net& n, int t, float* sm) {
    if (n.F == 128 && n.kw == 9) msg_fwd_row<SU, 128, 9, SP>(n, t, sm);
    else msg_fwd_row<SU, 0, 0, SP>(n, t, sm);
}

// Sums 16 values per lane over the warp with 16 shuffles (a butterfly that halves the values at
// each step, instead of 16 x 5): afterwards lanes 2v and 2v + 1 hold the warp total of x[v].
__device__ __forceinline__ float warp_sum16(float x[16]) {
    const int lane = lane_id();
    bool hi = (lane & 16) != 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        const float send = hi ? x[j] : x[j + 8], keep = hi ? x[j + 8] : x[j];
        x[j] = keep + __shfl_xor_sync(FULLMASK, send, 16);
    }
    hi = (lane & 8) != 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
        const float send = hi ? x[j] : x[j + 4], keep = hi ? x[j + 4] : x[j];
        x[j] = keep + __shfl_xor_sync(FULLMASK, send, 8);
    }
    hi = (lane & 4) != 0;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        const float send = hi ? x[j] : x[j + 2], keep = hi ? x[j + 2] : x[j];
        x[j] = keep + __shfl_xor_sync(FULLMASK, send, 4);
    }
    hi = (lane & 2) != 0;
    {
        const float send = hi ? x[0] : x[1], keep = hi ? x[1] : x[0];
        x[0] = keep + __shfl_xor_sync(FULLMASK, send, 2);
    }
    return x[0] + __shfl_xor_sync(FULLMASK, x[0], 1);
}

// ------------------------------------------------------------------------------------------
// Message, backward (block t), over source edges (entries k_msg_bwd_rs, _rs2): writes g_v and g_phi unless
// t == 0, and adds dE/dd, dE/du per slot and channel group into gacc (each (slot, group) belongs to one warp:
// no atomics). Row a computes only the edges whose source is a, e1 = (b <- a), which is all a's own outputs
// g_v, g_phi need; per neighbour it gathers g'v_b, g's_b (4 floats per channel instead of the 10 of both
// edges, st_msg_bwd) and does half the edge arithmetic. Slot (a, s) then holds e1's dE/dd and dE/du_ab
// only; the pair's other edge is e1 of row b, and st_forces<true> (k_forces_rs) adds the two. (Computing
// both edges per row, as the block-per-row kernels do, measured slower here and was dropped: git history.)
// ------------------------------------------------------------------------------------------
template <int SU, int FC, int KWC, int SP>
__device__ void msg_bwd_row(const Net& n, int t, float* sm) {
    static_assert(SU == 4, "the slot sums use warp_sum16: 4 slots x 4 quantities");
    const int F = FC ? FC : (int)n.F, H = 3 * F, G = F / 32, cap = (int)n.cap, kw = KWC ? KWC : (int)n.kw;
    const int lane = lane_id();
    const float4* wf4 = reinterpret_cast<const float4*>(W(n, n.o_wf4[t]));  // [k][c]: the 3 parts
    const auto [bf, phi, vin, gs1, gv1, gv, gphi, first, g2] = MsgBwdArrays::of(n, t);
    float* rv = sm + warp_id() * 2 * SU * MOLTEN_MAXKW;  // windows: rbf_k, mu_k rbf_k
    float* rm = rv + SU * MOLTEN_MAXKW;
    float* red = sm + MOLTEN_WARPS * 2 * SU * MOLTEN_MAXKW;  // [warp][6][32] partial sums (SP > 1)
    const bool shared = n.nrbf <= MOLTEN_MAXKW;  // else the slot loads below (a basis wider than the windows)
    const RowRounds<SP> rr(n);
    for (int round = rr.first(); round < rr.items; round += rr.stride()) {
        int g, a;
        const bool valid = rr.item(n, round, g, a);
        if (SP == 1 && !valid) break;
        const int c = g * 32 + lane;
        const int arow = t == 0 ? n.species[a] : a;
        float pa[3], va[3], ogv[3] = {0.f, 0.f, 0.f}, ogp[3] = {0.f, 0.f, 0.f};
#pragma unroll
        for (int p = 0; p < 3; ++p) {
            pa[p] = ldr(phi + (size_t)arow * H + p * F + c);
            va[p] = t == 0 ? 0.f : ldr(vin + ((size_t)a * 3 + p) * F + c);
        }
        const float bfc[3] = {ldw(bf + c), ldw(bf + F + c), ldw(bf + 2 * F + c)};
        const int cnt = valid ? ldri(n.nbr_count + a) : 0;
        for (int s0 = rr.h * SU; s0 < cnt; s0 += SP * SU) {
            SlotBatch<SU, true> sb;  // read-only path
            sb.load(n, a, s0, cnt, lane, kw, rv, rm, shared);
            // neighbour quantities of all SU slots first: their loads overlap
            float gvb[SU][3], gsb[SU];
#pragma unroll
            for (int u = 0; u < SU; ++u) {
#pragma unroll
                for (int p = 0; p < 3; ++p) {
                    gvb[u][p] = ldr(gv1 + ((size_t)sb.b[u] * 3 + p) * F + c);
                }
                gsb[u] = ldr(gs1 + (size_t)sb.b[u] * F + c);
            }
            float slotSums[16];  // per slot u: dE/dd, dE/du x, y, z at 4u .. 4u + 3
            // Window sums (Wf rbf)(d) and (Wf mu rbf)(d) of pairs of slots at a time: with shared loads (see
            // msg_fwd_row) a pair of consecutive slots loads the union of its windows once; pairs, not the
            // whole batch, because the 6 sums per slot must stay in registers until the pair is done.
            float pair0[2][3], pair1[2][3];
#pragma unroll
            for (int u = 0; u < SU; ++u) {
                float s0v[3] = {0.f, 0.f, 0.f}, s1v[3] = {0.f, 0.f, 0.f};
                if (shared) {
                    if ((u & 1) == 0) {
                        const int ka = sb.k0[u], kb = sb.ok[u + 1] ? sb.k0[u + 1] : ka;
                        const int kmax = max(ka, kb) + kw - 1;
#pragma unroll
                        for (int h = 0; h < 2; ++h)
#pragma unroll
                            for (int p = 0; p < 3; ++p) { pair0[h][p] = 0.f; pair1[h][p] = 0.f; }
#pragma unroll 2
                        for (int k = min(ka, kb); k <= kmax; ++k) {
                            const float4 w4 = __ldg(wf4 + (size_t)k * F + c);
                            const float wv[3] = {w4.x, w4.y, w4.z};
#pragma unroll
                            for (int h = 0; h < 2; ++h) {
                                const float rk = rv[(u + h) * MOLTEN_MAXKW + k], mk = rm[(u + h) * MOLTEN_MAXKW + k];
#pragma unroll
                                for (int p = 0; p < 3; ++p) {
                                    pair0[h][p] = fmaf(wv[p], rk, pair0[h][p]);
                                    pair1[h][p] = fmaf(wv[p], mk, pair1[h][p]);
                                }
                            }
                        }
                    }
#pragma unroll
                    for (int p = 0; p < 3; ++p) { s0v[p] = pair0[u & 1][p]; s1v[p] = pair1[u & 1][p]; }
                } else {
                    const float4* wr = wf4 + (size_t)sb.k0[u] * F + c;
                    const float* r = rv + u * MOLTEN_MAXKW;
                    const float* rmu = rm + u * MOLTEN_MAXKW;
#pragma unroll 3
                    for (int kk = 0; kk < (KWC ? KWC : MOLTEN_MAXKW); ++kk) {
                        if (KWC == 0 && kk >= kw) break;
                        const float rk = r[kk], mk = rmu[kk];
                        const float4 w4 = __ldg(wr + kk * F);
                        const float wv[3] = {w4.x, w4.y, w4.z};
#pragma unroll
                        for (int p = 0; p < 3; ++p) {
                            s0v[p] = fmaf(wv[p], rk, s0v[p]);
                            s1v[p] = fmaf(wv[p], mk, s1v[p]);
                        }
                    }
                }
                float* q4 = slotSums + 4 * u;
                q4[0] = q4[1] = q4[2] = q4[3] = 0.f;
                const EdgeFilter f(g2, s0v, s1v, bfc, sb.geo[u].w, sb.fc[u], sb.dfc[u]);
                float gW[3] = {0.f, 0.f, 0.f}, su[3];
                edge_bwd_source(f, sb.geo[u], pa, va, gvb[u], gsb[u], t > 0, gW, su, ogv, ogp);
                edge_bwd_dd(f, gW, q4[0]);
                q4[1] = -su[0]; q4[2] = -su[1]; q4[3] = -su[2];  // e1's dE/du_ab
            }
            // lanes 2v, 2v + 1 now hold the total of slotSums[v]: v = 4u + q; the even lane stores it
            const float tot = warp_sum16(slotSums);
            const int v = lane >> 1, u = v >> 2, q = v & 3;
            if ((lane & 1) == 0 && s0 + u < cnt) {
                float* acc = n.gacc + (((size_t)a * cap + s0 + u) * G + g) * 4 + q;
                *acc = first ? tot : *acc + tot;
            }
        }
        if (SP > 1 && t > 0) {  // the SP partial sums of the row, added in warp order by its first warp
            float* mine = red + warp_id() * 6 * 32 + lane;
#pragma unroll
            for (int p = 0; p < 3; ++p) { mine[32 * p] = ogv[p]; mine[32 * (3 + p)] = ogp[p]; }
            __syncthreads();
            if (rr.h == 0) {
                for (int k = 1; k < SP; ++k) {
#pragma unroll
                    for (int p = 0; p < 3; ++p) { ogv[p] += mine[k * 192 + 32 * p]; ogp[p] += mine[k * 192 + 32 * (3 + p)]; }
                }
            }
            __syncthreads();
        }
        if (t > 0 && valid && rr.h == 0) {
#pragma unroll
            for (int p = 0; p < 3; ++p) {
                const float base = ldr(gv1 + ((size_t)a * 3 + p) * F + c);
                gv[((size_t)a * 3 + p) * F + c] = base + ogv[p];
                gphi[(size_t)a * H + p * F + c] = ogp[p];
            }
        }
    }
}

template <int SU, int SP>
__device__ void st_msg_bwd_row(const Net& n, int t, float* sm) {
    if (n.F == 128 && n.kw == 9) msg_bwd_row<SU, 128, 9, SP>(n, t, sm);
    else msg_bwd_row<SU, 0, 0, SP>(n, t, sm);
}
