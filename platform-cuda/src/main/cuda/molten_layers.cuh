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

// Prologues (molten_dense.cuh): Raw load(r, k) issues the global loads of element (r, k) of the layer's input,
// float make(raw, k) computes it. Each input part is a whole number of 32-wide K-chunks (F is a multiple of 32),
// so the part k falls in is the same for every element of a chunk: the loads one part does not need are
// predicated off, uniformly per warp.

// |Vv| per channel from its Cartesian components: n = sqrt(sum_xyz Vv^2 + 1e-8)
__device__ __forceinline__ float vnorm3(float x, float y, float z) { return sqrtf(x * x + y * y + z * z + 1e-8f); }

// Per (atom, channel) quantities that the backward prologues read instead of recomputing them per element, in
// buffers whose own contents are dead at the time:
//  - sp = sum_xyz Uv o Vv (mlp2's epilogue, forward) in a[t]'s third part, where a_ss would be: the update
//    backward needs a_vv and a_sv only;
//  - g_sp = g_s o a_sv (ub2's epilogue) in g_q's buffer, which holds nothing between pb2 of block t+1 (its last
//    reader) and pb1 of block t (its writer): ub3 of block t reads g_sp before that.
__device__ __forceinline__ float* gsp_buffer(const Net& n) { return A(n, n.o_gq); }

// ---- forward --------------------------------------------------------------------------------

// Uv, Vv = U v1, V v1 (rows: atom x Cartesian component)
struct ProPlain {
    const float* x; int ld;
    struct Raw { float x; };
    __device__ Raw load(int r, int k) const { return Raw{lda(x + (size_t)r * ld + k)}; }
    __device__ float make(const Raw& w, int) const { return w.x; }
};
struct ProSilu {
    const float* x; int ld;
    struct Raw { float x; };
    __device__ Raw load(int r, int k) const { return Raw{lda(x + (size_t)r * ld + k)}; }
    __device__ float make(const Raw& w, int) const { return silu(w.x); }
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
struct ProMlp0 {
    const float* s1; const float* uvv; int F;
    struct Raw { float x, y, z; };  // s1, or Vv's x, y, z
    __device__ Raw load(int r, int k) const {
        const bool s = k < F;
        const float* p = s ? s1 + (size_t)r * F + k : uvv + (size_t)r * 6 * F + F + (k - F);
        return Raw{lda(p), s ? 0.f : lda(p + 2 * F), s ? 0.f : lda(p + 4 * F)};
    }
    __device__ float make(const Raw& w, int k) const { return k < F ? w.x : vnorm3(w.x, w.y, w.z); }
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
//   v_{t+1} = v1 + a_vv o Uv;  s_{t+1} = s1 + a_ss + a_sv o sp,  sp = sum_xyz(Uv o Vv)
// Stored for the backward pass: a_vv, a_sv and sp (in a_ss's place).
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
        const float sp = in.u[0] * in.u[1] + in.u[2] * in.u[3] + in.u[4] * in.u[5];
        ar[c] = avv; ar[F + c] = asv; ar[2 * F + c] = sp;
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
    struct Raw { float w, z; };
    __device__ Raw load(int r, int k) const { return Raw{ldw(w6 + k), lda(z5 + (size_t)r * FR + k)}; }
    __device__ float make(const Raw& w, int) const { return scale * w.w * dsilu(w.z); }
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
// Each part as x0 y0 + x1 y1 + x2 y2: (g_v, Uv) per xyz; (g_s, sp), (g_s, 1) with x1..2 = y1..2 = 0.
struct ProUb1 {
    const float* gs; const float* gv; const float* uvv; const float* a; int F; bool top;
    struct Raw { float x[3], y[3]; };
    __device__ Raw load(int r, int k) const {
        const bool p0 = k < F, p1 = !p0 && k < 2 * F, vec = p0 && !top;
        const int c = p0 ? k : (p1 ? k - F : k - 2 * F);
        const float* q = gv + (size_t)r * 3 * F + c;
        const float* u = uvv + (size_t)r * 6 * F + c;
        Raw w;
        w.x[0] = p0 && top ? 0.f : lda(p0 ? q : gs + (size_t)r * F + c);
        w.y[0] = p0 ? (top ? 0.f : lda(u)) : (p1 ? lda(a + (size_t)r * 3 * F + 2 * F + c) : 1.f);
        for (int x = 1; x < 3; ++x) {
            w.x[x] = vec ? lda(q + x * F) : 0.f;
            w.y[x] = vec ? lda(u + 2 * x * F) : 0.f;
        }
        return w;
    }
    __device__ float make(const Raw& w, int) const { return w.x[0] * w.y[0] + w.x[1] * w.y[1] + w.x[2] * w.y[2]; }
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
    ProUb1 pro{A(n, n.o_gs), A(n, n.o_gv), A(n, n.o_uvv[t]), A(n, n.o_a[t]), F, t == n.T - 1};
    EpiDsilu epi{A(n, n.o_gz3), A(n, n.o_z3[t]), F};
    MOLTEN_DENSE(TILE, 1, 4, 3 * MOLTEN_MAXM, (int)n.n, 3 * F, F, 0, F, W(n, n.o_w4t[t]), W(n, n.o_w4[t]), pro, epi);
}

// Update backward 2: [g_s1 part | g_n] = W3^T g_z3;  g_s1 = g_s + (first half).
// For ub3, per (atom, channel): g_n / n (|Vv| = n) into gnn (o_gn), g_sp = g_s o a_sv into gsp.
struct EpiUb2 {
    float* gs1; float* gnn; float* gsp; const float* gs; const float* uvv; const float* a; int F;
    struct In { float gs, asv, v[3]; };
    __device__ In load(int r, int c) const {
        In in;
        in.gs = lda(gs + (size_t)r * F + c);
        in.asv = lda(a + (size_t)r * 3 * F + F + c);
        const float* p = uvv + (size_t)r * 6 * F + F + c;  // Vv_x, Vv_y, Vv_z
        for (int x = 0; x < 3; ++x) in.v[x] = lda(p + 2 * x * F);
        return in;
    }
    __device__ void operator()(int r, int c, const float* acc, const In& in) const {
        gs1[(size_t)r * F + c] = in.gs + acc[0];
        gnn[(size_t)r * F + c] = acc[1] / vnorm3(in.v[0], in.v[1], in.v[2]);
        gsp[(size_t)r * F + c] = in.gs * in.asv;
    }
};
template <bool TILE, bool NARROW = false>
__device__ void st_ub2(const Net& n, int t, int wi, int wn, float* sm, int splits = 1) {
    const int F = (int)n.F;
    ProPlain pro{A(n, n.o_gz3), F};
    EpiUb2 epi{A(n, n.o_gs1), A(n, n.o_gn), gsp_buffer(n), A(n, n.o_gs), A(n, n.o_uvv[t]), A(n, n.o_a[t]), F};
    MOLTEN_DENSE(TILE, 2, 2, MOLTEN_MAXM, (int)n.n, F, F, F, 2 * F, W(n, n.o_w3t[t]), W(n, n.o_w3[t]), pro, epi);
}

// Update backward 3: g_v1 = g_v + U^T g_Uv + V^T g_Vv with
//   g_Uv = g_v o a_vv + g_sp o Vv,  g_Vv = g_sp o Uv + (g_n / n) o Vv,  g_sp = g_s o a_sv
// (g_sp and g_n / n per atom and channel from ub2's epilogue). Each part as x0 x1 + x2 x3:
// (g_v, a_vv, g_sp, Vv) resp. (g_sp, Uv, g_n / n, Vv).
struct ProUb3 {
    const float* gsp; const float* gv; const float* gnn; const float* a; const float* uvv; int F; bool top;
    struct Raw { float x[4]; };
    __device__ Raw load(int r, int k) const {
        const int at = r / 3;
        const bool p0 = k < F;
        const int c = p0 ? k : k - F;
        const float* u = uvv + (size_t)r * 2 * F + c;  // this Cartesian row: [Uv | Vv]
        const float* g = gsp + (size_t)at * F + c;
        Raw w;
        w.x[0] = p0 ? (top ? 0.f : lda(gv + (size_t)r * F + c)) : lda(g);
        w.x[1] = p0 ? (top ? 0.f : lda(a + (size_t)at * 3 * F + c)) : lda(u);
        w.x[2] = lda(p0 ? g : gnn + (size_t)at * F + c);
        w.x[3] = lda(u + F);
        return w;
    }
    __device__ float make(const Raw& w, int) const { return w.x[0] * w.x[1] + w.x[2] * w.x[3]; }
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
    ProUb3 pro{gsp_buffer(n), A(n, n.o_gv), A(n, n.o_gn), A(n, n.o_a[t]), A(n, n.o_uvv[t]), F, top};
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
