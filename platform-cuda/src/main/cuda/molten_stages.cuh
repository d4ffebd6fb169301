// The stages of one force evaluation / MD step. Each stage is a block-level function that does
// the work items (wi, wi + wn, ...) of its decomposition; each stage is one kernel launch (captured
// into a graph by the host). The maths follows the spec
// (docs/model.md) and its backward-pass appendix line by line; comments name the spec's symbols.
//
// Layouts (float32, row-major): s [N][F]; v [N][3][F]; phi, a [N][3F] split [vv | s | vs] resp.
// [vv | sv | sp] (a_ss is not kept; sp = sum_xyz Uv o Vv, molten_layers.cuh); UVv [N][3][2F] = [Uv | Vv]
// per Cartesian row; z3, q [N][F]; z5 [N][FR].
#pragma once
#include "molten_stage_base.cuh"
#include "molten_neighbours.cuh"


// ------------------------------------------------------------------------------------------
// Integrator, first part (before the force evaluation), and cell counting.
// Velocity Verlet: v += dt/2 a; x += dt v.  Langevin BAOAB (Leimkuhler & Matthews 2013):
// B: v += dt/2 a; A: x += dt/2 v; O: v = c1 v + c2 sqrt(kT/m) xi; A: x += dt/2 v.
// The closing B (v += dt/2 a(t+dt)) is in st_forces.
// ------------------------------------------------------------------------------------------
// One atom's first part of the step, after v += dt/2 a: x += dt v (velocity Verlet) or A-O-A
// (BAOAB), with the state rounding of CudaOptions.fp32State. Shared by the stage kernel below and
// the small-molecule kernel (molten_small.cuh), so both integrate identically.
__device__ __forceinline__ void integrate1_atom(const Net& n, int a, unsigned long long step, double im,
                                                double x[3], double v[3]) {
    if (n.integrator == MOLTEN_INT_VERLET) {
        for (int k = 0; k < 3; ++k) x[k] += n.dt * v[k];
    } else {
        for (int k = 0; k < 3; ++k) x[k] += 0.5 * n.dt * v[k];
        double g[3];
        gaussian3(n, a, step, g);
        const double sig = sqrt(n.kT * n.accel * im);
        for (int k = 0; k < 3; ++k) v[k] = n.c1 * v[k] + n.c2 * sig * g[k];
        for (int k = 0; k < 3; ++k) x[k] += 0.5 * n.dt * v[k];
    }
    for (int k = 0; k < 3; ++k) {
        x[k] = state_round(n, x[k]);
        v[k] = state_round(n, v[k]);
    }
}

__device__ void st_integrate1(const Net& n, int wi, int wn) {
    unsigned long long step = 0;
    if (n.integrator == MOLTEN_INT_BAOAB) step = *(volatile unsigned long long*)n.step;
    for (int a = wi * MOLTEN_THREADS + threadIdx.x; a < n.n; a += wn * MOLTEN_THREADS) {
        double x[3], v[3];
        for (int k = 0; k < 3; ++k) { x[k] = ldad(n.pos + 3 * a + k); v[k] = ldad(n.vel + 3 * a + k); }
        if (n.cons_on && n.integrator != MOLTEN_INT_NONE)  // the start of the drift, for RATTLE and SETTLE (k_constrain)
            for (int k = 0; k < 3; ++k) n.cons_ref[3 * a + k] = x[k];
        if (n.integrator != MOLTEN_INT_NONE) {
            const double im = n.inv_mass[a];
            const double half = 0.5 * n.dt * n.accel * im;
            for (int k = 0; k < 3; ++k) v[k] += half * (double)lda(n.force + 3 * a + k);
            if (n.split_o) {
                // B A(dt/2): the O step (k_thermostat) and the second half drift (k_drift, which also
                // counts the cells) follow as their own stages
                for (int k = 0; k < 3; ++k) {
                    n.pos[3 * a + k] = state_round(n, x[k] + 0.5 * n.dt * v[k]);
                    n.vel[3 * a + k] = state_round(n, v[k]);
                }
                continue;
            }
            integrate1_atom(n, a, step, im, x, v);
            for (int k = 0; k < 3; ++k) {
                n.pos[3 * a + k] = x[k];
                n.vel[3 * a + k] = v[k];
            }
        }
        if (n.search == 1 && !(n.cons_on && n.integrator != MOLTEN_INT_NONE)) {  // with constraints: k_constrain counts
            const int c = cell_of(n, x[0], x[1], x[2]);
            n.atom_cell[a] = c;
            atomicAdd(n.cell_count + c, 1);
        }
    }
}

// Cell list: exclusive scan of the counts, scatter of the atoms (cell-sorted order, which is
// also the processing order of the message stages), counts cleared for the next step.
// One block (wi == 0) does it all.
__device__ void st_cell_scan(const Net& n, int wi, float* sm) {
    if (wi != 0 || n.search != 1) return;
    int* part = reinterpret_cast<int*>(sm);  // [MOLTEN_THREADS]
    const int nc = (int)(n.ncell[0] * n.ncell[1] * n.ncell[2]);
    const int per = (nc + MOLTEN_THREADS - 1) / MOLTEN_THREADS;
    const int lo = min(nc, (int)threadIdx.x * per), hi = min(nc, lo + per);
    int sum = 0;
    for (int c = lo; c < hi; ++c) sum += ldai(n.cell_count + c);
    part[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        int run = 0;
        for (int i = 0; i < MOLTEN_THREADS; ++i) { const int s = part[i]; part[i] = run; run += s; }
    }
    __syncthreads();
    int run = part[threadIdx.x];
    for (int c = lo; c < hi; ++c) {
        const int cnt = ldai(n.cell_count + c);
        n.cell_start[c] = run;
        n.cell_count[c] = run;  // becomes the scatter cursor
        run += cnt;
    }
    if (threadIdx.x == 0) n.cell_start[nc] = (int)n.n;
    __syncthreads();
    for (int a = threadIdx.x; a < n.n; a += MOLTEN_THREADS) {
        const int p = atomicAdd(n.cell_count + ldai(n.atom_cell + a), 1);
        n.cell_atoms[p] = a;
    }
    __syncthreads();
    for (int c = threadIdx.x; c < nc; c += MOLTEN_THREADS) n.cell_count[c] = 0;
    // The scatter order inside a cell depends on atomic timing; it does not matter: each
    // neighbour row is sorted below, and the cell order only sets which atoms share a block.
}


// Work items of the message stages: (channel group g, position p in the processing order),
// g-major; each block takes a contiguous run so that atoms sharing neighbours share its L1.
__device__ __forceinline__ void item_range(int items, int wi, int wn, int& lo, int& hi) {
    const int per = (items + wn - 1) / wn;
    lo = min(items, wi * per);
    hi = min(items, lo + per);
}

// Slot metadata of SU consecutive slots of row a, loaded together; a slot past the row's end
// gets fcut = 0 (so it contributes exactly nothing) and valid data of the row's first slot.
// RO: through the read-only path (L1), for stage launches, which never read what they write; else
// through L2 only, as the block-per-row passes do (written when they also ran inside the cluster and
// grid megakernels, which are gone; moving them to the read-only path has not been measured).
template <int SU, bool RO = false>
struct SlotBatch {
    int b[SU], k0[SU];
    float4 geo[SU];
    float fc[SU], dfc[SU];
    bool ok[SU];
    template <class T>
    __device__ static T ld(const T* p) { return RO ? __ldg(p) : __ldcg(p); }
    // rm: where the windows mu_k rbf_k go (the backward pass), or nullptr. byK: store the windows by
    // radial-basis index k (rv[u][k], k < MOLTEN_MAXKW, zero outside slot u's window; needs nrbf <=
    // MOLTEN_MAXKW) instead of by position in the window, so that the slots of a batch can share each
    // filter-weight load (molten_msg_rows.cuh).
    __device__ void load(const Net& n, int a, int s0, int cnt, int lane, int kw, float* rv, float* rm, bool byK = false) {
        const int cap = (int)n.cap;
#pragma unroll
        for (int u = 0; u < SU; ++u) {
            const int s = s0 + u;
            ok[u] = s < cnt;
            const size_t slot = (size_t)a * cap + (ok[u] ? s : 0);
            b[u] = ld(n.nbr_idx + slot);
            geo[u] = ld(reinterpret_cast<const float4*>(n.geo) + slot);
            const float2 f = ld(reinterpret_cast<const float2*>(n.fc) + slot);
            fc[u] = ok[u] ? f.x : 0.f;
            dfc[u] = ok[u] ? f.y : 0.f;
            k0[u] = ld(n.kidx + slot);
        }
        // the window values, loaded with the metadata (they do not depend on it: lane kk holds rbf_{k0 + kk})
        float r[SU];
#pragma unroll
        for (int u = 0; u < SU; ++u) {
            const size_t slot = (size_t)a * cap + (ok[u] ? s0 + u : 0);
            r[u] = lane < kw ? ld(n.rbf + slot * kw + lane) : 0.f;
        }
        const float mus = (float)n.mu_step;
        __syncwarp();  // the previous batch's readers are done with rv, rm
        if (byK) {  // zeros everywhere, then each slot's window at k0 .. k0 + kw - 1
#pragma unroll
            for (int u = 0; u < SU; ++u) {
                rv[u * MOLTEN_MAXKW + lane] = 0.f;
                if (rm != nullptr) rm[u * MOLTEN_MAXKW + lane] = 0.f;
            }
            __syncwarp();
        }
        if (lane < kw) {
#pragma unroll
            for (int u = 0; u < SU; ++u) {
                const int at = byK ? k0[u] + lane : lane;
                rv[u * MOLTEN_MAXKW + at] = r[u];
                if (rm != nullptr) rm[u * MOLTEN_MAXKW + at] = r[u] * (mus * (float)(k0[u] + lane));  // mu_k rbf_k
            }
        }
        __syncwarp();
    }
};

// One channel of one message a <- b, forward: h = Wf rbf(d) + bf (the three parts, window summed),
// x = phi_b o h fcut = [x_vv | x_s | x_vs];  ds += x_s;  dv += x_vv o v_b + u_ab x_vs.
__device__ __forceinline__ void edge_fwd(float h0, float h1, float h2, float fcu, const float pb[3], const float vb[3],
                                         float4 geo, float& ds, float& dv0, float& dv1, float& dv2) {
    const float xvv = pb[0] * h0 * fcu, xs = pb[1] * h1 * fcu, xvs = pb[2] * h2 * fcu;
    ds += xs;
    dv0 = fmaf(geo.x, xvs, fmaf(xvv, vb[0], dv0));
    dv1 = fmaf(geo.y, xvs, fmaf(xvv, vb[1], dv1));
    dv2 = fmaf(geo.z, xvs, fmaf(xvv, vb[2], dv2));
}

// The backward pass of one channel of the pair (a, b), in three parts that edge_bwd (both directed
// edges, row a) and edge_bwd_source (only the edge whose source is a, molten_msg_rows.cuh) share.
// The pair's filter: s0v = (Wf rbf)(d), s1v = (Wf mu rbf)(d) (window sums), bfc = bf;
// h = s0v + bf, W = h fcut, dW/dd = (Wf rbf')(d) fcut + h fcut' with rbf_k' = -2 gamma (d - mu_k) rbf_k.
struct EdgeFilter {
    float Wv[3], dW[3];
    __device__ __forceinline__ EdgeFilter(float g2, const float s0v[3], const float s1v[3], const float bfc[3], float d,
                                          float fcu, float dfcu) {
        float h[3];
#pragma unroll
        for (int p = 0; p < 3; ++p) h[p] = bfc[p] + s0v[p];
        set(g2, h, s0v, s1v, d, fcu, dfcu);
    }
    // h = (Wf rbf)(d) + bf already summed (the small-molecule kernel's filter)
    __device__ __forceinline__ EdgeFilter(float g2, const float h[3], const float s0v[3], const float s1v[3], float d,
                                          float fcu, float dfcu, bool /*withBias*/) {
        set(g2, h, s0v, s1v, d, fcu, dfcu);
    }
    __device__ __forceinline__ void set(float g2, const float h[3], const float s0v[3], const float s1v[3], float d,
                                        float fcu, float dfcu) {
#pragma unroll
        for (int p = 0; p < 3; ++p) {
            const float hp = g2 * (d * s0v[p] - s1v[p]);  // (Wf rbf')[c]
            Wv[p] = h[p] * fcu;
            dW[p] = hp * fcu + h[p] * dfcu;
        }
    }
};

// e2 = (a <- b): target a, source b. Sets g_W = gx o phi_b with gx = [g'v_a . v_b | g's_a | g'v_a . u_ab],
// and tu = g'v_a x_vs_ab (its dE/du_ab).
__device__ __forceinline__ void edge_bwd_target(const EdgeFilter& f, float4 geo, const float gva[3], float gsa,
                                                const float pb[3], const float vb[3], float gW[3], float tu[3]) {
    const float e2vv = gva[0] * vb[0] + gva[1] * vb[1] + gva[2] * vb[2];
    const float e2vs = gva[0] * geo.x + gva[1] * geo.y + gva[2] * geo.z;
    gW[0] = e2vv * pb[0];
    gW[1] = gsa * pb[1];
    gW[2] = e2vs * pb[2];
    const float xvs_ab = pb[2] * f.Wv[2];
#pragma unroll
    for (int x = 0; x < 3; ++x) tu[x] = gva[x] * xvs_ab;
}

// e1 = (b <- a): target b, source a. Adds gx o phi_a to g_W with gx = [g'v_b . v_a | g's_b | -g'v_b . u_ab];
// sets su = g'v_b x_vs_ba (its dE/du_ab is -su: u_ba = -u_ab); with source (t > 0) adds a's source
// gradients g_v += g'v_b o x_vv_ba and g_phi += gx o W to ogv, ogp.
__device__ __forceinline__ void edge_bwd_source(const EdgeFilter& f, float4 geo, const float pa[3], const float va[3],
                                                const float gvb[3], float gsb, bool source, float gW[3], float su[3],
                                                float ogv[3], float ogp[3]) {
    const float e1vv = gvb[0] * va[0] + gvb[1] * va[1] + gvb[2] * va[2];
    const float e1vs = -(gvb[0] * geo.x + gvb[1] * geo.y + gvb[2] * geo.z);
    gW[0] = fmaf(e1vv, pa[0], gW[0]);
    gW[1] = fmaf(gsb, pa[1], gW[1]);
    gW[2] = fmaf(e1vs, pa[2], gW[2]);
    const float xvs_ba = pa[2] * f.Wv[2];
#pragma unroll
    for (int x = 0; x < 3; ++x) su[x] = gvb[x] * xvs_ba;
    if (source) {
        const float xvv_ba = pa[0] * f.Wv[0];
#pragma unroll
        for (int x = 0; x < 3; ++x) ogv[x] = fmaf(gvb[x], xvv_ba, ogv[x]);
        ogp[0] = fmaf(e1vv, f.Wv[0], ogp[0]);
        ogp[1] = fmaf(gsb, f.Wv[1], ogp[1]);
        ogp[2] = fmaf(e1vs, f.Wv[2], ogp[2]);
    }
}

// dE/dd += sum_c g_W o dW/dd
__device__ __forceinline__ void edge_bwd_dd(const EdgeFilter& f, const float gW[3], float& gd) {
    gd = fmaf(gW[0], f.dW[0], gd);
    gd = fmaf(gW[1], f.dW[1], gd);
    gd = fmaf(gW[2], f.dW[2], gd);
}

// One channel of the backward pass of the pair (a, b) in row a (see st_msg_bwd): both directed edges
// e2 = (a <- b) and e1 = (b <- a). Adds the pair's dE/dd and dE/du_ab to gd, gu; with source (t > 0)
// adds a's source gradients g_v and g_phi (as the source of e1) to ogv, ogp.
__device__ __forceinline__ void edge_bwd(float g2, const float s0v[3], const float s1v[3], const float bfc[3], float4 geo,
                                         float fcu, float dfcu, const float pa[3], const float va[3], const float gva[3],
                                         float gsa, const float pb[3], const float vb[3], const float gvb[3], float gsb,
                                         bool source, float& gd, float& gux, float& guy, float& guz, float ogv[3],
                                         float ogp[3]) {
    const EdgeFilter f(g2, s0v, s1v, bfc, geo.w, fcu, dfcu);
    float gW[3], tu[3], su[3];
    edge_bwd_target(f, geo, gva, gsa, pb, vb, gW, tu);
    edge_bwd_source(f, geo, pa, va, gvb, gsb, source, gW, su, ogv, ogp);
    gux += tu[0] - su[0];
    guy += tu[1] - su[1];
    guz += tu[2] - su[2];
    edge_bwd_dd(f, gW, gd);
}

// The arrays of interaction block t that a message pass reads and writes, for the block- and the
// warp-per-row kernels alike (unpacked with a structured binding). Forward: filter bias, phi (the
// embedded table at t = 0), v_t, s_t (the embedding at t = 0), and the outputs s1, v1.
struct MsgFwdArrays {
    const float* bf; const float* phi; const float* vin; const float* sin_; float* s1; float* v1;
    __device__ static MsgFwdArrays of(const Net& n, int t) {
        return {W(n, n.o_bf[t]), t == 0 ? W(n, n.o_phi0) : A(n, n.o_phi[t]), A(n, n.o_v[t]),
                t == 0 ? W(n, n.o_emb) : A(n, n.o_s[t]), A(n, n.o_s1[t]), A(n, n.o_v1[t])};
    }
};
// Backward: filter bias, phi, v_t, the gradients of the block's outputs (g'_s, g'_v), the outputs g_v and
// g_phi, whether this is the first backward block (slot accumulators start there), and -2 gamma.
struct MsgBwdArrays {
    const float* bf; const float* phi; const float* vin; const float* gs1; const float* gv1; float* gv; float* gphi;
    bool first; float g2;
    __device__ static MsgBwdArrays of(const Net& n, int t) {
        return {W(n, n.o_bf[t]), t == 0 ? W(n, n.o_phi0) : A(n, n.o_phi[t]), A(n, n.o_v[t]), A(n, n.o_gs1),
                A(n, n.o_gv1), A(n, n.o_gv), A(n, n.o_gphi), t == (int)n.T - 1, -2.0f * (float)n.gamma};
    }
};

// ------------------------------------------------------------------------------------------
// Message, forward (block t), for target atom a over its neighbours b:
//   W(d) = (Wf rbf(d) + bf) fcut(d); x_ab = phi_b o W; [x_vv | x_s | x_vs]
//   s1_a = s_a + sum_b x_s;  v1_a = v_a + sum_b (x_vv o v_b + u_ab (outer) x_vs)
// Lanes own channels c = g*32*mg + lane + 32 m (m < mg); warps take SU slots at a time.
// ------------------------------------------------------------------------------------------
template <int MG, int SU>
__device__ void st_msg_fwd(const Net& n, int t, int wi, int wn, float* sm) {
    const int F = (int)n.F, H = 3 * F, mg = (int)n.mg, G = F / (32 * mg), kw = (int)n.kw;
    const int warp = warp_id(), lane = lane_id();
    const float* wft = W(n, n.o_wft[t]);
    const auto [bf, phi, vin, sin_, s1, v1] = MsgFwdArrays::of(n, t);
    const int CW = 32 * mg;            // channels per item
    float* red = sm;                   // [8][4][CW]
    float* rv = sm + MOLTEN_WARPS * 4 * CW + warp * SU * MOLTEN_MAXKW;  // this warp's radial-basis windows
    int lo, hi;
    item_range(G * (int)n.n, wi, wn, lo, hi);
    for (int it = lo; it < hi; ++it) {
        const int g = it / (int)n.n;
        const int a = ldai(n.order + (it - g * (int)n.n));
        const int cbase = g * CW;
        float ds[MG], dv0[MG], dv1[MG], dv2[MG];
#pragma unroll
        for (int m = 0; m < MG; ++m) { ds[m] = 0.f; dv0[m] = 0.f; dv1[m] = 0.f; dv2[m] = 0.f; }
        const int cnt = ldai(n.nbr_count + a);
        for (int s0 = warp * SU; s0 < cnt; s0 += MOLTEN_WARPS * SU) {
            SlotBatch<SU> sb;
            sb.load(n, a, s0, cnt, lane, kw, rv, nullptr);
            int prow[SU];
#pragma unroll
            for (int u = 0; u < SU; ++u) prow[u] = t == 0 ? n.species[sb.b[u]] : sb.b[u];
#pragma unroll
            for (int m = 0; m < MG; ++m) {
                if (m < mg) {
                    const int c = cbase + lane + 32 * m;
                    float pb[SU][3], vb[SU][3];
#pragma unroll
                    for (int u = 0; u < SU; ++u) {
                        const float* pp = phi + (size_t)prow[u] * H + c;
#pragma unroll
                        for (int p = 0; p < 3; ++p) pb[u][p] = t == 0 ? ldw(pp + p * F) : lda(pp + p * F);
#pragma unroll
                        for (int x = 0; x < 3; ++x) vb[u][x] = t == 0 ? 0.f : lda(vin + ((size_t)sb.b[u] * 3 + x) * F + c);
                    }
                    const float bb0 = ldw(bf + c), bb1 = ldw(bf + F + c), bb2 = ldw(bf + 2 * F + c);
#pragma unroll
                    for (int u = 0; u < SU; ++u) {
                        float h0 = bb0, h1 = bb1, h2 = bb2;
                        const float* wr = wft + (size_t)sb.k0[u] * H + c;
                        const float* r = rv + u * MOLTEN_MAXKW;
#pragma unroll 3
                        for (int kk = 0; kk < kw; ++kk, wr += H) {
                            const float rk = r[kk];
                            h0 = fmaf(ldw(wr), rk, h0);
                            h1 = fmaf(ldw(wr + F), rk, h1);
                            h2 = fmaf(ldw(wr + 2 * F), rk, h2);
                        }
                        edge_fwd(h0, h1, h2, sb.fc[u], pb[u], vb[u], sb.geo[u], ds[m], dv0[m], dv1[m], dv2[m]);
                    }
                }
            }
        }
#pragma unroll
        for (int m = 0; m < MG; ++m) {
            if (m < mg) {
                const int cc = lane + 32 * m;
                red[(warp * 4 + 0) * CW + cc] = ds[m];
                red[(warp * 4 + 1) * CW + cc] = dv0[m];
                red[(warp * 4 + 2) * CW + cc] = dv1[m];
                red[(warp * 4 + 3) * CW + cc] = dv2[m];
            }
        }
        __syncthreads();
        {
            // residual inputs of all this thread's outputs loaded first, then summed and stored
            float base[4], sum[4];
            const int sa = t == 0 ? n.species[a] : a;
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int q = e / CW, cc = e - q * CW, c = cbase + cc;
                base[u] = 0.f;
                if (e < 4 * CW) {
                    if (q == 0) base[u] = t == 0 ? ldw(sin_ + (size_t)sa * F + c) : lda(sin_ + (size_t)a * F + c);
                    else if (t > 0) base[u] = lda(vin + ((size_t)a * 3 + (q - 1)) * F + c);
                }
            }
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int q = e / CW, cc = e - q * CW, c = cbase + cc;
                sum[u] = 0.f;
                if (e < 4 * CW) {
                    for (int w = 0; w < MOLTEN_WARPS; ++w) sum[u] += red[(w * 4 + q) * CW + cc];
                    if (q == 0) s1[(size_t)a * F + c] = base[u] + sum[u];
                    else v1[((size_t)a * 3 + (q - 1)) * F + c] = base[u] + sum[u];
                }
            }
        }
        __syncthreads();
    }
}

// ------------------------------------------------------------------------------------------
// Message, backward (block t). Row owner a, neighbour b, pair geometry r_ab = r_b - r_a.
// Both directed edges of the pair share W(d_ab); the row computes both, so that everything
// about the pair's geometry is known in a's row (no atomics, no reverse index):
//  e2 = (a <- b): gx = [sum_xyz g'v_a o v_b | g's_a | g'v_a . u_ab];  g_W += gx o phi_b;
//                 dE/du_ab += sum_c g'v_a x_vs_ab
//  e1 = (b <- a): gx = [sum_xyz g'v_b o v_a | g's_b | -g'v_b . u_ab]; g_W += gx o phi_a;
//                 dE/du_ab -= sum_c g'v_b x_vs_ba;  a is the source: g_v_a += g'v_b o x_vv_ba,
//                 g_phi_a += gx o W
//  dE/dd += sum_c g_W o ((Wf rbf')(d) fcut + h fcut'),  rbf_k' = -2 gamma (d - mu_k) rbf_k.
// g' are the gradients of the block's outputs (s1, v1). Writes g_v (for v_t = g'v + messages)
// and g_phi (for phi_t) unless t == 0, and adds dE/dd, dE/du per slot and channel group.
// (The warp-per-row passes can instead compute e1 only, the pair's e2 being e1 of row b: see
// msg_bwd_row<.., SRC = true> and st_forces<true>.)
// ------------------------------------------------------------------------------------------
template <int MG, int SU>
__device__ void st_msg_bwd(const Net& n, int t, int wi, int wn, float* sm) {
    const int F = (int)n.F, H = 3 * F, mg = (int)n.mg, G = F / (32 * mg), cap = (int)n.cap, kw = (int)n.kw;
    const int warp = warp_id(), lane = lane_id();
    const float* wft = W(n, n.o_wft[t]);
    const auto [bf, phi, vin, gs1, gv1, gv, gphi, first, g2] = MsgBwdArrays::of(n, t);
    const int CW = 32 * mg;
    float* red = sm;  // [8][6][CW]
    float* rv = sm + MOLTEN_WARPS * 6 * CW + warp * 2 * SU * MOLTEN_MAXKW;  // windows: rbf_k, mu_k rbf_k
    float* rm = rv + SU * MOLTEN_MAXKW;
    int lo, hi;
    item_range(G * (int)n.n, wi, wn, lo, hi);
    for (int it = lo; it < hi; ++it) {
        const int g = it / (int)n.n;
        const int a = ldai(n.order + (it - g * (int)n.n));
        const int cbase = g * CW;
        const int arow = t == 0 ? n.species[a] : a;
        // own quantities of a
        float pa[3][MG], va[3][MG], gva[3][MG], gsa[MG];
        float ogv[3][MG], ogp[3][MG];
#pragma unroll
        for (int m = 0; m < MG; ++m) {
            if (m < mg) {
                const int c = cbase + lane + 32 * m;
#pragma unroll
                for (int p = 0; p < 3; ++p) {
                    const float* pp = phi + (size_t)arow * H + p * F + c;
                    pa[p][m] = t == 0 ? ldw(pp) : lda(pp);
                    va[p][m] = t == 0 ? 0.f : lda(vin + ((size_t)a * 3 + p) * F + c);
                    gva[p][m] = lda(gv1 + ((size_t)a * 3 + p) * F + c);
                    ogv[p][m] = 0.f;
                    ogp[p][m] = 0.f;
                }
                gsa[m] = lda(gs1 + (size_t)a * F + c);
            }
        }
        const int cnt = ldai(n.nbr_count + a);
        for (int s0 = warp * SU; s0 < cnt; s0 += MOLTEN_WARPS * SU) {
            SlotBatch<SU> sb;
            sb.load(n, a, s0, cnt, lane, kw, rv, rm);
            int brow[SU];
#pragma unroll
            for (int u = 0; u < SU; ++u) brow[u] = t == 0 ? n.species[sb.b[u]] : sb.b[u];
            float gd[SU], gux[SU], guy[SU], guz[SU];
#pragma unroll
            for (int u = 0; u < SU; ++u) { gd[u] = 0.f; gux[u] = 0.f; guy[u] = 0.f; guz[u] = 0.f; }
#pragma unroll
            for (int m = 0; m < MG; ++m) {
                if (m < mg) {
                    const int c = cbase + lane + 32 * m;
                    // neighbour quantities of all SU slots first: their loads overlap
                    float pb[SU][3], vb[SU][3], gvb[SU][3], gsb[SU];
#pragma unroll
                    for (int u = 0; u < SU; ++u) {
#pragma unroll
                        for (int p = 0; p < 3; ++p) {
                            const float* pp = phi + (size_t)brow[u] * H + p * F + c;
                            pb[u][p] = t == 0 ? ldw(pp) : lda(pp);
                            vb[u][p] = t == 0 ? 0.f : lda(vin + ((size_t)sb.b[u] * 3 + p) * F + c);
                            gvb[u][p] = lda(gv1 + ((size_t)sb.b[u] * 3 + p) * F + c);
                        }
                        gsb[u] = lda(gs1 + (size_t)sb.b[u] * F + c);
                    }
                    const float bfc[3] = {ldw(bf + c), ldw(bf + F + c), ldw(bf + 2 * F + c)};
#pragma unroll
                    for (int u = 0; u < SU; ++u) {
                        float s0v[3] = {0.f, 0.f, 0.f}, s1v[3] = {0.f, 0.f, 0.f};
                        const float* wr = wft + (size_t)sb.k0[u] * H + c;
                        const float* r = rv + u * MOLTEN_MAXKW;
                        const float* rmu = rm + u * MOLTEN_MAXKW;
#pragma unroll 3
                        for (int kk = 0; kk < kw; ++kk, wr += H) {
                            const float rk = r[kk], mk = rmu[kk];
#pragma unroll
                            for (int p = 0; p < 3; ++p) {
                                const float wv = ldw(wr + p * F);
                                s0v[p] = fmaf(wv, rk, s0v[p]);
                                s1v[p] = fmaf(wv, mk, s1v[p]);
                            }
                        }
                        float pam[3], vam[3], gvam[3];
#pragma unroll
                        for (int p = 0; p < 3; ++p) { pam[p] = pa[p][m]; vam[p] = va[p][m]; gvam[p] = gva[p][m]; }
                        float ogvm[3] = {ogv[0][m], ogv[1][m], ogv[2][m]}, ogpm[3] = {ogp[0][m], ogp[1][m], ogp[2][m]};
                        edge_bwd(g2, s0v, s1v, bfc, sb.geo[u], sb.fc[u], sb.dfc[u], pam, vam, gvam, gsa[m], pb[u], vb[u],
                                 gvb[u], gsb[u], t > 0, gd[u], gux[u], guy[u], guz[u], ogvm, ogpm);
#pragma unroll
                        for (int p = 0; p < 3; ++p) { ogv[p][m] = ogvm[p]; ogp[p][m] = ogpm[p]; }
                    }
                }
            }
#pragma unroll
            for (int u = 0; u < SU; ++u) {
                const float rd = warp_sum(gd[u]), rx = warp_sum(gux[u]), ry = warp_sum(guy[u]), rz = warp_sum(guz[u]);
                if (lane == 0 && sb.ok[u]) {
                    float4* acc = reinterpret_cast<float4*>(n.gacc) + (((size_t)a * cap + s0 + u) * G + g);
                    float4 v4;
                    if (first) {
                        v4.x = rd; v4.y = rx; v4.z = ry; v4.w = rz;
                    } else {
                        v4 = __ldcg(acc);
                        v4.x += rd; v4.y += rx; v4.z += ry; v4.w += rz;
                    }
                    *acc = v4;
                }
            }
        }
        if (t > 0) {
#pragma unroll
            for (int m = 0; m < MG; ++m) {
                if (m < mg) {
                    const int cc = lane + 32 * m;
#pragma unroll
                    for (int p = 0; p < 3; ++p) {
                        red[(warp * 6 + p) * CW + cc] = ogv[p][m];
                        red[(warp * 6 + 3 + p) * CW + cc] = ogp[p][m];
                    }
                }
            }
            __syncthreads();
            float base[6];
#pragma unroll
            for (int u = 0; u < 6; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int q = e / CW, cc = e - q * CW, c = cbase + cc;
                base[u] = (e < 6 * CW && q < 3) ? lda(gv1 + ((size_t)a * 3 + q) * F + c) : 0.f;
            }
#pragma unroll
            for (int u = 0; u < 6; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int q = e / CW, cc = e - q * CW, c = cbase + cc;
                if (e < 6 * CW) {
                    float sum = 0.f;
                    for (int w = 0; w < MOLTEN_WARPS; ++w) sum += red[(w * 6 + q) * CW + cc];
                    if (q < 3) gv[((size_t)a * 3 + q) * F + c] = base[u] + sum;
                    else gphi[(size_t)a * H + (q - 3) * F + c] = sum;
                }
            }
            __syncthreads();
        }
    }
}

// ------------------------------------------------------------------------------------------
// Forces from the per-slot geometry gradients (summed over blocks and channel groups):
//   g_r = dE/dd u + (dE/du - (u . dE/du) u) / d  = dE/d(r_b - r_a);  F_a = sum_b g_r.
// Then the closing half kick of the integrator, and the step counter.
// PAIRED (stage launch k_forces_rs only): the backward pass stored in slot (a, s) only the edge whose
// source is a, e1 = (b <- a), in u_ab coordinates; the pair's other edge is row b's e1, in slot s' of row
// b (nbr_idx[b][s'] == a), in u_ba = -u_ab coordinates:  dE/dd = gd(a,s) + gd(b,s'),
// dE/du_ab = gu(a,s) - gu(b,s'). Neighbour data and sums are read through the read-only path (written
// by earlier launches).
// ------------------------------------------------------------------------------------------
// Row b's slot of a, found by binary search: st_neighbours sorts each row by (float d, index), and both
// rows of a pair hold the same float d. -1 if row b lacks a: after a neighbour overflow cut row b (the
// host grows cap and redoes the work), or for an asymmetric list (counted in flags[UNPAIRED], refused).
__device__ __forceinline__ int reverse_slot(const Net& n, int b, int a, float d) {
    const size_t row = (size_t)b * n.cap;
    const int cnt = __ldg(n.nbr_count + b);
    int lo = 0, hi = cnt;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        const float dm = __ldg(n.geo + 4 * (row + mid) + 3);
        const int im = __ldg(n.nbr_idx + row + mid);
        if (dm < d || (dm == d && im < a)) lo = mid + 1;
        else hi = mid;
    }
    return lo < cnt && __ldg(n.nbr_idx + row + lo) == a ? lo : -1;
}

template <bool PAIRED>
__device__ float4 slot_sums(const Net& n, size_t slot, int G) {
    const float4* p = reinterpret_cast<const float4*>(n.gacc) + slot * G;
    float4 acc = PAIRED ? __ldg(p) : __ldcg(p);
    for (int g = 1; g < G; ++g) {
        const float4 x = PAIRED ? __ldg(p + g) : __ldcg(p + g);
        acc.x += x.x; acc.y += x.y; acc.z += x.z; acc.w += x.w;
    }
    return acc;
}

// Atom a's force is known: stored, a non-finite one flagged (with the step), and the closing B of the MD step
// (v += dt/2 a(t+dt)). Shared by st_forces and the group kernel (molten_group.cuh), so both close the step alike.
__device__ __forceinline__ void force_close(const Net& n, int a, float fx, float fy, float fz) {
    n.force[3 * a] = fx;
    n.force[3 * a + 1] = fy;
    n.force[3 * a + 2] = fz;
    if (!(isfinite(fx) && isfinite(fy) && isfinite(fz))) {
        if (atomicCAS(n.flags + MOLTEN_FLAG_NONFINITE, 0, a + 1) == 0)
            n.flags[MOLTEN_FLAG_BADSTEP] = (int)*(volatile unsigned long long*)n.step;
    }
    if (n.integrator != MOLTEN_INT_NONE) {
        const double half = 0.5 * n.dt * n.accel * n.inv_mass[a];
        const float f[3] = {fx, fy, fz};
        for (int k = 0; k < 3; ++k) n.vel[3 * a + k] = state_round(n, ldad(n.vel + 3 * a + k) + half * (double)f[k]);
    }
}

template <bool PAIRED = false>
__device__ void st_forces(const Net& n, int wi, int wn) {
    const int warp = warp_id(), lane = lane_id();
    const int cap = (int)n.cap, G = (int)(n.F / (32 * n.mg));
    for (int a = wi * MOLTEN_WARPS + warp; a < n.n; a += wn * MOLTEN_WARPS) {
        const int cnt = ldai(n.nbr_count + a);
        float fx = 0.f, fy = 0.f, fz = 0.f;
        int unpaired = 0;
        for (int s = lane; s < cnt; s += 32) {
            const size_t slot = (size_t)a * cap + s;
            float4 acc = slot_sums<PAIRED>(n, slot, G);
            const float4 geo = PAIRED ? __ldg(reinterpret_cast<const float4*>(n.geo) + slot)
                                      : __ldcg(reinterpret_cast<const float4*>(n.geo) + slot);
            if (PAIRED) {
                const int b = __ldg(n.nbr_idx + slot);
                const int r = reverse_slot(n, b, a, geo.w);
                if (r >= 0) {
                    const float4 e2 = slot_sums<true>(n, (size_t)b * cap + r, G);
                    acc.x += e2.x; acc.y -= e2.y; acc.z -= e2.z; acc.w -= e2.w;
                } else {
                    ++unpaired;
                }
            }
            const float ug = geo.x * acc.y + geo.y * acc.z + geo.z * acc.w;
            const float inv = 1.0f / geo.w;
            fx += acc.x * geo.x + (acc.y - ug * geo.x) * inv;
            fy += acc.x * geo.y + (acc.z - ug * geo.y) * inv;
            fz += acc.x * geo.z + (acc.w - ug * geo.z) * inv;
        }
        if (PAIRED && unpaired > 0) atomicAdd(n.flags + MOLTEN_FLAG_UNPAIRED, unpaired);
        fx = warp_sum(fx);
        fy = warp_sum(fy);
        fz = warp_sum(fz);
        if (lane == 0) force_close(n, a, fx, fy, fz);
    }
    if (n.integrator != MOLTEN_INT_NONE && wi == 0 && threadIdx.x == 0) *n.step += 1ull;
}

// Total potential energy (float64, fixed summation order): one block.
__device__ void st_energy(const Net& n, int wi, float* sm) {
    if (wi != 0) return;
    double* part = reinterpret_cast<double*>(sm);
    double s = 0.0;
    for (int a = threadIdx.x; a < n.n; a += MOLTEN_THREADS) s += ldad(n.e_atom + a);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = MOLTEN_THREADS / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) n.energy[0] = part[0];
    __syncthreads();
}
