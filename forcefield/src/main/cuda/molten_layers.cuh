// Atom-wise stages: the update block, the phi network, the readout, and their backward passes,
// each one dense layer with its neighbouring element-wise work fused into the prologue (how the
// layer's input is formed) and the epilogue (what is done with its output).
// TILE selects dense_tile (large systems) or dense_warp (small systems); NARROW makes the tiles
// 32 channels wide (MJ = 1) instead of 32 MJ: more work items where a stage has too few to fill
// the multiprocessors (a 3,000-atom F-wide layer has 94 tiles of 32 x 128 for 132 of them).
#pragma once
#include "molten_stages.cuh"

#define MOLTEN_DENSE(TILE, NP, MJ, KM, R, K, C, PSTRIDE, LDO, WROW, WCOL, PRO, EPI)                 \
    do {                                                                                             \
        if (TILE) dense_tile<(NARROW ? 1 : MJ), NP>(R, K, C, PSTRIDE, LDO, WCOL, PRO, EPI, wi, wn, sm, splits, n.kpart, n.kcount); \
        else dense_warp<NP, KM>(R, K, C, PSTRIDE, WROW, PRO, EPI, wi, wn, sm);                       \
    } while (0)

// |Vv| per channel: n = sqrt(sum_xyz Vv^2 + 1e-8)
__device__ __forceinline__ float vnorm(const float* uvv, int a, int c, int F) {
    const float* p = uvv + (size_t)a * 6 * F + F + c;
    const float x = lda(p), y = lda(p + 2 * F), z = lda(p + 4 * F);
    return sqrtf(x * x + y * y + z * z + 1e-8f);
}
// sp = sum_xyz Uv o Vv per channel
__device__ __forceinline__ float uvdot(const float* uvv, int a, int c, int F) {
    const float* p = uvv + (size_t)a * 6 * F + c;
    return lda(p) * lda(p + F) + lda(p + 2 * F) * lda(p + 3 * F) + lda(p + 4 * F) * lda(p + 5 * F);
}

// ---- forward --------------------------------------------------------------------------------

// Uv, Vv = U v1, V v1 (rows: atom x Cartesian component)
struct ProPlain {
    const float* x; int ld;
    __device__ float operator()(int r, int k) const { return lda(x + (size_t)r * ld + k); }
};
struct ProSilu {
    const float* x; int ld;
    __device__ float operator()(int r, int k) const { return silu(lda(x + (size_t)r * ld + k)); }
};
struct NoIn {};
struct EpiUV {
    float* uvv; int F;
    typedef NoIn In;
    __device__ In load(int, int) const { return In{}; }
    __device__ void operator()(int r, int c, const float* acc, const In&) const {
        uvv[(size_t)r * 2 * F + c] = acc[0];
        uvv[(size_t)r * 2 * F + F + c] = acc[1];
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_uv(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProPlain pro{A(n, n.o_v1[t]), F};
    EpiUV epi{A(n, n.o_uvv[t]), F};
    MOLTEN_DENSE(TILE, 2, 2, MOLTEN_MAXM, 3 * (int)n.n, F, F, F, 2 * F, W(n, n.o_uv[t]), W(n, n.o_uvt[t]), pro, epi);
}

// z3 = W3 [s1, |Vv|] + b3
// Prologues load unconditionally (indices clamped) and select: no branch keeps a load from being
// issued early, so a thread's staging loads all overlap.
struct ProMlp0 {
    const float* s1; const float* uvv; int F;
    __device__ float operator()(int r, int k) const {
        const float sv = lda(s1 + (size_t)r * F + min(k, F - 1));
        const float nv = vnorm(uvv, r, max(k - F, 0), F);
        return k < F ? sv : nv;
    }
};
struct EpiBias {
    float* y; const float* b; int ld;
    struct In { float b; };
    __device__ In load(int, int c) const { return In{ldw(b + c)}; }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const { y[(size_t)r * ld + c] = acc[0] + in.b; }
};
template <bool TILE, bool NARROW = false>
__device__ void st_mlp0(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProMlp0 pro{A(n, n.o_s1[t]), A(n, n.o_uvv[t]), F};
    EpiBias epi{A(n, n.o_z3[t]), W(n, n.o_b3[t]), F};
    MOLTEN_DENSE(TILE, 1, 4, 2 * MOLTEN_MAXM, (int)n.n, 2 * F, F, F, F, W(n, n.o_w3[t]), W(n, n.o_w3t[t]), pro, epi);
}

// a = W4 SiLU(z3) + b4 = [a_vv | a_sv | a_ss]; then the update:
//   v_{t+1} = v1 + a_vv o Uv;  s_{t+1} = s1 + a_ss + a_sv o sum_xyz(Uv o Vv)
struct EpiMlp2 {
    float* a; const float* b4; const float* s1; const float* v1; const float* uvv; float* snext; float* vnext; int F;
    struct In { float b[3], s1, u[6], v1[3]; };
    __device__ In load(int r, int c) const {
        In in;
        for (int p = 0; p < 3; ++p) in.b[p] = ldw(b4 + p * F + c);
        in.s1 = lda(s1 + (size_t)r * F + c);
        const float* u = uvv + (size_t)r * 6 * F + c;  // Uv_x, Vv_x, Uv_y, Vv_y, Uv_z, Vv_z
        for (int q = 0; q < 6; ++q) in.u[q] = lda(u + q * F);
        for (int x = 0; x < 3; ++x) in.v1[x] = vnext ? lda(v1 + ((size_t)r * 3 + x) * F + c) : 0.f;
        return in;
    }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const {
        const float avv = acc[0] + in.b[0], asv = acc[1] + in.b[1], ass = acc[2] + in.b[2];
        float* ar = a + (size_t)r * 3 * F;
        ar[c] = avv; ar[F + c] = asv; ar[2 * F + c] = ass;
        const float sp = in.u[0] * in.u[1] + in.u[2] * in.u[3] + in.u[4] * in.u[5];
        snext[(size_t)r * F + c] = in.s1 + ass + asv * sp;
        if (vnext) {
            for (int x = 0; x < 3; ++x) vnext[((size_t)r * 3 + x) * F + c] = in.v1[x] + avv * in.u[2 * x];
        }
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_mlp2(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProSilu pro{A(n, n.o_z3[t]), F};
    EpiMlp2 epi{A(n, n.o_a[t]), W(n, n.o_b4[t]), A(n, n.o_s1[t]), A(n, n.o_v1[t]), A(n, n.o_uvv[t]),
                A(n, n.o_s[t + 1]), t + 1 < n.T ? A(n, n.o_v[t + 1]) : nullptr, F};
    MOLTEN_DENSE(TILE, 3, 1, MOLTEN_MAXM, (int)n.n, F, F, F, 3 * F, W(n, n.o_w4[t]), W(n, n.o_w4t[t]), pro, epi);
}

// phi network of block t >= 1: q = W1 s_t + b1; phi = W2 SiLU(q) + b2
template <bool TILE, bool NARROW = false>
__device__ void st_phi1(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProPlain pro{A(n, n.o_s[t]), F};
    EpiBias epi{A(n, n.o_q[t]), W(n, n.o_b1[t]), F};
    MOLTEN_DENSE(TILE, 1, 4, MOLTEN_MAXM, (int)n.n, F, F, F, F, W(n, n.o_w1[t]), W(n, n.o_w1t[t]), pro, epi);
}
template <bool TILE, bool NARROW = false>
__device__ void st_phi2(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProSilu pro{A(n, n.o_q[t]), F};
    EpiBias epi{A(n, n.o_phi[t]), W(n, n.o_b2[t]), 3 * F};
    MOLTEN_DENSE(TILE, 1, 4, MOLTEN_MAXM, (int)n.n, F, 3 * F, 0, 3 * F, W(n, n.o_w2[t]), W(n, n.o_w2t[t]), pro, epi);
}

// readout hidden layer: z5 = W5 s_T + b5
template <bool TILE, bool NARROW = false>
__device__ void st_readout(const Net& n, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F, FR = (int)n.FR;
    ProPlain pro{A(n, n.o_s[n.T]), F};
    EpiBias epi{A(n, n.o_z5), W(n, n.o_b5), FR};
    MOLTEN_DENSE(TILE, 1, 4, MOLTEN_MAXM, (int)n.n, F, FR, 0, FR, W(n, n.o_w5), W(n, n.o_w5t), pro, epi);
}

// ---- backward -------------------------------------------------------------------------------

// Atom energies E_a = scale (w6 . SiLU(z5_a) + b6) + atomref[Z_a]  (float64 storage), and
// g_s_T = W5^T (scale w6 o SiLU'(z5))   (g_v_T = 0)
struct ProReadoutBwd {
    const float* z5; const float* w6; float scale; int FR;
    __device__ float operator()(int r, int k) const {
        return scale * ldw(w6 + k) * dsilu(lda(z5 + (size_t)r * FR + k));
    }
};
struct EpiStore {
    float* y; int ld;
    typedef NoIn In;
    __device__ In load(int, int) const { return In{}; }
    __device__ void operator()(int r, int c, const float* acc, const In&) const { y[(size_t)r * ld + c] = acc[0]; }
};
template <bool TILE, bool NARROW = false>
__device__ void st_readout_bwd(const Net& n, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F, FR = (int)n.FR;
    const float* z5 = A(n, n.o_z5);
    const float* w6 = W(n, n.o_w6);
    const int warp = warp_id(), lane = lane_id();
    for (int a = wi * MOLTEN_WARPS + warp; a < n.n; a += wn * MOLTEN_WARPS) {
        float y = 0.f;
        for (int k = lane; k < FR; k += 32) y += ldw(w6 + k) * silu(lda(z5 + (size_t)a * FR + k));
        y = warp_sum(y);
        if (lane == 0) {
            n.e_atom[a] = n.scale * ((double)y + n.b6) + (double)ldw(W(n, n.o_atomref) + n.species[a]);
        }
    }
    ProReadoutBwd pro{z5, w6, (float)n.scale, FR};
    EpiStore epi{A(n, n.o_gs), F};
    MOLTEN_DENSE(TILE, 1, 4, 4, (int)n.n, FR, F, 0, F, W(n, n.o_w5t), W(n, n.o_w5), pro, epi);
}

// Update backward 1: g_a = [sum_xyz g_v o Uv | g_s o sp | g_s];  g_z3 = (W4^T g_a) o SiLU'(z3)
struct ProUb1 {
    const float* gs; const float* gv; const float* uvv; int F; bool top;
    __device__ float operator()(int r, int k) const {
        const int p = k / F, c = k - p * F;
        const float g = lda(gs + (size_t)r * F + c);
        const float* u = uvv + (size_t)r * 6 * F + c;
        const float u0 = lda(u), v0 = lda(u + F), u1 = lda(u + 2 * F), v1 = lda(u + 3 * F);
        const float u2 = lda(u + 4 * F), v2 = lda(u + 5 * F);
        float gvu = 0.f;
        if (!top) {
            const float* q = gv + (size_t)r * 3 * F + c;
            gvu = lda(q) * u0 + lda(q + F) * u1 + lda(q + 2 * F) * u2;
        }
        return p == 2 ? g : (p == 1 ? g * (u0 * v0 + u1 * v1 + u2 * v2) : gvu);
    }
};
struct EpiDsilu {
    float* y; const float* z; int ld;
    struct In { float z; };
    __device__ In load(int r, int c) const { return In{lda(z + (size_t)r * ld + c)}; }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const {
        y[(size_t)r * ld + c] = acc[0] * dsilu(in.z);
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_ub1(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProUb1 pro{A(n, n.o_gs), A(n, n.o_gv), A(n, n.o_uvv[t]), F, t == n.T - 1};
    EpiDsilu epi{A(n, n.o_gz3), A(n, n.o_z3[t]), F};
    MOLTEN_DENSE(TILE, 1, 4, 3 * MOLTEN_MAXM, (int)n.n, 3 * F, F, 0, F, W(n, n.o_w4t[t]), W(n, n.o_w4[t]), pro, epi);
}

// Update backward 2: [g_s1 part | g_n] = W3^T g_z3;  g_s1 = g_s + (first half)
struct EpiUb2 {
    float* gs1; float* gn; const float* gs; int F;
    struct In { float gs; };
    __device__ In load(int r, int c) const { return In{lda(gs + (size_t)r * F + c)}; }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const {
        gs1[(size_t)r * F + c] = in.gs + acc[0];
        gn[(size_t)r * F + c] = acc[1];
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_ub2(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProPlain pro{A(n, n.o_gz3), F};
    EpiUb2 epi{A(n, n.o_gs1), A(n, n.o_gn), A(n, n.o_gs), F};
    MOLTEN_DENSE(TILE, 2, 2, MOLTEN_MAXM, (int)n.n, F, F, F, 2 * F, W(n, n.o_w3t[t]), W(n, n.o_w3[t]), pro, epi);
}

// Update backward 3: g_v1 = g_v + U^T g_Uv + V^T g_Vv with
//   g_Uv = g_v o a_vv + g_sp o Vv,  g_Vv = g_sp o Uv + (g_n / n) o Vv,  g_sp = g_s o a_sv
struct ProUb3 {
    const float* gs; const float* gv; const float* gn; const float* a; const float* uvv; int F; bool top;
    __device__ float operator()(int r, int k) const {
        const int at = r / 3;
        const int c = k < F ? k : k - F;
        const float* u = uvv + (size_t)r * 2 * F;  // this Cartesian row: [Uv | Vv]
        const float gsp = lda(gs + (size_t)at * F + c) * lda(a + (size_t)at * 3 * F + F + c);
        const float uu = lda(u + c), vv = lda(u + F + c);
        const float gvav = top ? 0.f : lda(gv + (size_t)r * F + c) * lda(a + (size_t)at * 3 * F + c);
        const float gnn = lda(gn + (size_t)at * F + c) / vnorm(uvv, at, c, F);
        return k < F ? gvav + gsp * vv : gsp * uu + gnn * vv;
    }
};
struct EpiUb3 {
    float* gv1; const float* gv; int F; bool top;
    struct In { float gv; };
    __device__ In load(int r, int c) const { return In{top ? 0.f : lda(gv + (size_t)r * F + c)}; }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const {
        gv1[(size_t)r * F + c] = in.gv + acc[0];
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_ub3(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    const bool top = t == n.T - 1;
    ProUb3 pro{A(n, n.o_gs), A(n, n.o_gv), A(n, n.o_gn), A(n, n.o_a[t]), A(n, n.o_uvv[t]), F, top};
    EpiUb3 epi{A(n, n.o_gv1), A(n, n.o_gv), F, top};
    MOLTEN_DENSE(TILE, 1, 4, 2 * MOLTEN_MAXM, 3 * (int)n.n, 2 * F, F, 0, F, W(n, n.o_uvt[t]), W(n, n.o_uv[t]), pro, epi);
}

// phi backward (block t >= 1): g_q = (W2^T g_phi) o SiLU'(q);  g_s_t = g_s1 + W1^T g_q
template <bool TILE, bool NARROW = false>
__device__ void st_pb1(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProPlain pro{A(n, n.o_gphi), 3 * F};
    EpiDsilu epi{A(n, n.o_gq), A(n, n.o_q[t]), F};
    MOLTEN_DENSE(TILE, 1, 4, 3 * MOLTEN_MAXM, (int)n.n, 3 * F, F, 0, F, W(n, n.o_w2t[t]), W(n, n.o_w2[t]), pro, epi);
}
struct EpiResidual {
    float* y; const float* res; int ld;
    struct In { float res; };
    __device__ In load(int r, int c) const { return In{lda(res + (size_t)r * ld + c)}; }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const {
        y[(size_t)r * ld + c] = in.res + acc[0];
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_pb2(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProPlain pro{A(n, n.o_gq), F};
    EpiResidual epi{A(n, n.o_gs), A(n, n.o_gs1), F};
    MOLTEN_DENSE(TILE, 1, 4, MOLTEN_MAXM, (int)n.n, F, F, 0, F, W(n, n.o_w1t[t]), W(n, n.o_w1[t]), pro, epi);
}
