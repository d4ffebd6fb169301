// The stages of one force evaluation / MD step. Each stage is a block-level function that does
// the work items (wi, wi + wn, ...) of its decomposition; the execution modes differ only in how
// stages are separated: one kernel launch per stage (graph mode), or one kernel with cluster- or
// grid-wide barriers between stages (megakernel modes). The maths follows the spec
// (docs/model.md) and its backward-pass appendix line by line; comments name the spec's symbols.
//
// Layouts (float32, row-major): s [N][F]; v [N][3][F]; phi, a [N][3F] split [vv | s | vs] resp.
// [vv | sv | ss]; UVv [N][3][2F] = [Uv | Vv] per Cartesian row; z3, q [N][F]; z5 [N][FR].
#pragma once
#include "molten_common.cuh"
#include "molten_dense.cuh"

// ------------------------------------------------------------------------------------------
// Small helpers
// ------------------------------------------------------------------------------------------
__device__ __forceinline__ const float* W(const Net& n, long long off) { return n.w + off; }
__device__ __forceinline__ float* A(const Net& n, long long off) { return n.act + off; }

// Minimum-image displacement r_b - r_a (Å, float64).
__device__ __forceinline__ void displacement(const Net& n, const double* __restrict__ pos, int a, int b,
                                             double& dx, double& dy, double& dz) {
    dx = ldad(pos + 3 * b) - ldad(pos + 3 * a);
    dy = ldad(pos + 3 * b + 1) - ldad(pos + 3 * a + 1);
    dz = ldad(pos + 3 * b + 2) - ldad(pos + 3 * a + 2);
    if (n.pbc == 0) return;
    if (n.ortho) {
        if (n.pbc & 1) dx -= n.h[0] * rint(dx * n.hinv[0]);
        if (n.pbc & 2) dy -= n.h[4] * rint(dy * n.hinv[4]);
        if (n.pbc & 4) dz -= n.h[8] * rint(dz * n.hinv[8]);
        return;
    }
    // General cell: wrap in fractional coordinates, then take the shortest of the 27 images
    // (exact while the cutoff is below half the smallest perpendicular width).
    double f[3];
    for (int j = 0; j < 3; ++j) {
        f[j] = dx * n.hinv[j] + dy * n.hinv[3 + j] + dz * n.hinv[6 + j];
        if (n.pbc & (1 << j)) f[j] -= rint(f[j]);
    }
    const double bx = f[0] * n.h[0] + f[1] * n.h[3] + f[2] * n.h[6];
    const double by = f[0] * n.h[1] + f[1] * n.h[4] + f[2] * n.h[7];
    const double bz = f[0] * n.h[2] + f[1] * n.h[5] + f[2] * n.h[8];
    double best = 1e300, rx = bx, ry = by, rz = bz;
    const int ra = (n.pbc & 1) ? 1 : 0, rb = (n.pbc & 2) ? 1 : 0, rc = (n.pbc & 4) ? 1 : 0;
    for (int i = -ra; i <= ra; ++i)
        for (int j = -rb; j <= rb; ++j)
            for (int k = -rc; k <= rc; ++k) {
                const double x = bx + i * n.h[0] + j * n.h[3] + k * n.h[6];
                const double y = by + i * n.h[1] + j * n.h[4] + k * n.h[7];
                const double z = bz + i * n.h[2] + j * n.h[5] + k * n.h[8];
                const double r2 = x * x + y * y + z * z;
                if (r2 < best) { best = r2; rx = x; ry = y; rz = z; }
            }
    dx = rx; dy = ry; dz = rz;
}

__device__ __forceinline__ int cell_of(const Net& n, double x, double y, double z) {
    const double p[3] = {x, y, z};
    int c[3];
    for (int k = 0; k < 3; ++k) {
        double f = p[k] * n.hinv[4 * k];
        f -= floor(f);
        int ck = (int)(f * (double)n.ncell[k]);
        c[k] = ck < 0 ? 0 : (ck >= n.ncell[k] ? (int)n.ncell[k] - 1 : ck);
    }
    return (c[2] * (int)n.ncell[1] + c[1]) * (int)n.ncell[0] + c[0];
}

// Counter-based normal deviates (Philox4x32-10, Salmon et al., SC'11): key = seed,
// counter = (atom, step) -> 4 uniforms -> Box-Muller.
__device__ __forceinline__ void philox4x32(unsigned int c[4], unsigned int k0, unsigned int k1) {
    for (int r = 0; r < 10; ++r) {
        const unsigned long long p0 = (unsigned long long)0xD2511F53u * c[0];
        const unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c[2];
        const unsigned int hi0 = (unsigned int)(p0 >> 32), lo0 = (unsigned int)p0;
        const unsigned int hi1 = (unsigned int)(p1 >> 32), lo1 = (unsigned int)p1;
        const unsigned int n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
        c[0] = n0; c[1] = lo1; c[2] = n2; c[3] = lo0;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
}

__device__ __forceinline__ void gaussian3(const Net& n, int atom, unsigned long long step, double g[3]) {
    unsigned int c[4] = {(unsigned int)atom, (unsigned int)step, (unsigned int)(step >> 32), 0x6d6f6c74u};
    philox4x32(c, (unsigned int)n.seed, (unsigned int)(n.seed >> 32));
    const double two32 = 4294967296.0, twopi = 6.283185307179586;
    const double u0 = ((double)c[0] + 0.5) / two32, u1 = ((double)c[1] + 0.5) / two32;
    const double u2 = ((double)c[2] + 0.5) / two32, u3 = ((double)c[3] + 0.5) / two32;
    const double r0 = sqrt(-2.0 * log(u0)), r1 = sqrt(-2.0 * log(u2));
    g[0] = r0 * cos(twopi * u1);
    g[1] = r0 * sin(twopi * u1);
    g[2] = r1 * cos(twopi * u3);
}

__device__ __forceinline__ double state_round(const Net& n, double x) {
    return n.fp32_state ? (double)(float)x : x;
}

// ------------------------------------------------------------------------------------------
// Integrator, first part (before the force evaluation), and cell counting.
// Velocity Verlet: v += dt/2 a; x += dt v.  Langevin BAOAB (Leimkuhler & Matthews 2013):
// B: v += dt/2 a; A: x += dt/2 v; O: v = c1 v + c2 sqrt(kT/m) xi; A: x += dt/2 v.
// The closing B (v += dt/2 a(t+dt)) is in st_forces.
// ------------------------------------------------------------------------------------------
__device__ void st_integrate1(const Net& n, int wi, int wn) {
    unsigned long long step = 0;
    if (n.integrator == MOLTEN_INT_BAOAB) step = *(volatile unsigned long long*)n.step;
    for (int a = wi * MOLTEN_THREADS + threadIdx.x; a < n.n; a += wn * MOLTEN_THREADS) {
        double x[3], v[3];
        for (int k = 0; k < 3; ++k) { x[k] = ldad(n.pos + 3 * a + k); v[k] = ldad(n.vel + 3 * a + k); }
        if (n.integrator != MOLTEN_INT_NONE) {
            const double im = n.inv_mass[a];
            const double half = 0.5 * n.dt * n.accel * im;
            for (int k = 0; k < 3; ++k) v[k] += half * (double)lda(n.force + 3 * a + k);
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
                n.pos[3 * a + k] = x[k];
                n.vel[3 * a + k] = v[k];
            }
        }
        if (n.search == 1) {
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

// ------------------------------------------------------------------------------------------
// Neighbour list: one warp per atom a. Candidates (all atoms, or the 27 cells around a's cell)
// with d_ab < r_c are compacted into a per-warp buffer, then rank-sorted by (d, b): the row
// order is deterministic and identical for both searches. Per slot the geometry every block
// needs is stored: u_ab, d_ab, fcut, fcut', the radial-basis window. A row longer than cap
// is cut to cap and counted in flags[OVERFLOW]: the host grows cap and redoes the work.
// ------------------------------------------------------------------------------------------
__device__ __forceinline__ void nb_candidate(const Net& n, int a, int b, double rc2, int& count,
                                             int* bj, float* bd, int lane) {
    bool ok = false;
    double d2 = 0.0;
    if (b >= 0 && b != a) {
        double dx, dy, dz;
        displacement(n, n.pos, a, b, dx, dy, dz);
        d2 = dx * dx + dy * dy + dz * dz;
        ok = d2 < rc2;
    }
    const unsigned m = __ballot_sync(FULLMASK, ok);
    if (ok) {
        const int p = count + __popc(m & ((1u << lane) - 1u));
        if (p < n.cap) { bj[p] = b; bd[p] = (float)d2; }
    }
    count += __popc(m);
}

__device__ void st_neighbours(const Net& n, int wi, int wn, float* sm) {
    const int warp = warp_id(), lane = lane_id();
    int* bj = reinterpret_cast<int*>(sm) + warp * 2 * (int)n.cap;
    float* bd = reinterpret_cast<float*>(bj + n.cap);
    const double rc2 = n.cutoff * n.cutoff;
    const int kw = (int)n.kw, cap = (int)n.cap;
    for (int a = wi * MOLTEN_WARPS + warp; a < n.n; a += wn * MOLTEN_WARPS) {
        int count = 0;
        if (n.search == 1) {
            const int c = ldai(n.atom_cell + a);
            const int nx = (int)n.ncell[0], ny = (int)n.ncell[1], nz = (int)n.ncell[2];
            const int cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
            for (int oz = -1; oz <= 1; ++oz)
                for (int oy = -1; oy <= 1; ++oy)
                    for (int ox = -1; ox <= 1; ++ox) {
                        const int qx = (cx + ox + nx) % nx, qy = (cy + oy + ny) % ny, qz = (cz + oz + nz) % nz;
                        const int q = (qz * ny + qy) * nx + qx;
                        const int s0 = ldai(n.cell_start + q), s1 = ldai(n.cell_start + q + 1);
                        for (int e0 = s0; e0 < s1; e0 += 32) {
                            const int e = e0 + lane;
                            const int b = e < s1 ? ldai(n.cell_atoms + e) : -1;
                            nb_candidate(n, a, b, rc2, count, bj, bd, lane);
                        }
                    }
        } else {
            for (int b0 = 0; b0 < n.n; b0 += 32) {
                const int b = b0 + lane < n.n ? b0 + lane : -1;
                nb_candidate(n, a, b, rc2, count, bj, bd, lane);
            }
        }
        __syncwarp();
        const int m = min(count, cap);
        if (lane == 0) {
            if (count > cap) atomicAdd(n.flags + MOLTEN_FLAG_OVERFLOW, 1);
            atomicMax(n.flags + MOLTEN_FLAG_MAXCOUNT, count);
            n.nbr_count[a] = m;
        }
        for (int e = lane; e < m; e += 32) {
            const int b = bj[e];
            const float key = bd[e];
            int rank = 0;
            for (int q = 0; q < m; ++q) {
                const float kq = bd[q];
                rank += (kq < key || (kq == key && bj[q] < b)) ? 1 : 0;
            }
            double dx, dy, dz;
            displacement(n, n.pos, a, b, dx, dy, dz);
            const double d = sqrt(dx * dx + dy * dy + dz * dz);
            const size_t slot = (size_t)a * cap + rank;
            n.nbr_idx[slot] = b;
            float4 g;
            g.x = (float)(dx / d); g.y = (float)(dy / d); g.z = (float)(dz / d); g.w = (float)d;
            reinterpret_cast<float4*>(n.geo)[slot] = g;
            const double pr = 3.14159265358979323846 / n.cutoff;
            float2 f;
            f.x = (float)(0.5 * (cos(pr * d) + 1.0));
            f.y = (float)(-0.5 * pr * sin(pr * d));
            reinterpret_cast<float2*>(n.fc)[slot] = f;
            int k0 = (int)rint(d / n.mu_step) - kw / 2;
            k0 = k0 < 0 ? 0 : (k0 > n.nrbf - kw ? (int)n.nrbf - kw : k0);
            n.kidx[slot] = k0;
            const float df = (float)d, gm = (float)n.gamma, mus = (float)n.mu_step;
            for (int kk = 0; kk < kw; ++kk) {
                const float t = df - mus * (float)(k0 + kk);
                n.rbf[slot * kw + kk] = expf(-gm * t * t);
            }
        }
        __syncwarp();
    }
}

// Work items of the message stages: (channel group g, position p in the processing order),
// g-major; each block takes a contiguous run so that atoms sharing neighbours share its L1.
__device__ __forceinline__ void item_range(int items, int wi, int wn, int& lo, int& hi) {
    const int per = (items + wn - 1) / wn;
    lo = min(items, wi * per);
    hi = min(items, lo + per);
}

// ------------------------------------------------------------------------------------------
// Message, forward (block t), for target atom a over its neighbours b:
//   W(d) = (Wf rbf(d) + bf) fcut(d); x_ab = phi_b o W; [x_vv | x_s | x_vs]
//   s1_a = s_a + sum_b x_s;  v1_a = v_a + sum_b (x_vv o v_b + u_ab (outer) x_vs)
// Lanes own channels c = g*32*mg + lane + 32 m (m < mg); warps split the slots.
// ------------------------------------------------------------------------------------------
template <int MG>
__device__ void st_msg_fwd(const Net& n, int t, int wi, int wn, float* sm) {
    const int F = (int)n.F, H = 3 * F, mg = (int)n.mg, G = F / (32 * mg), cap = (int)n.cap, kw = (int)n.kw;
    const int warp = warp_id(), lane = lane_id();
    const float* wft = W(n, n.o_wft[t]);
    const float* bf = W(n, n.o_bf[t]);
    const float* phi = t == 0 ? W(n, n.o_phi0) : A(n, n.o_phi[t]);
    const float* vin = A(n, n.o_v[t]);
    const float* sin_ = t == 0 ? W(n, n.o_emb) : A(n, n.o_s[t]);
    float* s1 = A(n, n.o_s1[t]);
    float* v1 = A(n, n.o_v1[t]);
    const int CW = 32 * mg;            // channels per item
    float* red = sm;                   // [8][4][CW]
    float* rv = sm + MOLTEN_WARPS * 4 * CW + warp * MOLTEN_MAXKW;  // this warp's radial-basis window
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
        for (int s = warp; s < cnt; s += MOLTEN_WARPS) {
            const size_t slot = (size_t)a * cap + s;
            const int b = ldai(n.nbr_idx + slot);
            const float4 geo = __ldcg(reinterpret_cast<const float4*>(n.geo) + slot);
            const float fcut = lda(n.fc + 2 * slot);
            const int k0 = ldai(n.kidx + slot);
            __syncwarp();
            if (lane < kw) rv[lane] = lda(n.rbf + slot * kw + lane);
            __syncwarp();
            const int prow = t == 0 ? n.species[b] : b;
#pragma unroll
            for (int m = 0; m < MG; ++m) {
                if (m < mg) {
                    const int c = cbase + lane + 32 * m;
                    float h0 = ldw(bf + c), h1 = ldw(bf + F + c), h2 = ldw(bf + 2 * F + c);
                    const float* wr = wft + (size_t)k0 * H + c;
                    for (int kk = 0; kk < kw; ++kk, wr += H) {
                        const float r = rv[kk];
                        h0 = fmaf(ldw(wr), r, h0);
                        h1 = fmaf(ldw(wr + F), r, h1);
                        h2 = fmaf(ldw(wr + 2 * F), r, h2);
                    }
                    const float* pb = phi + (size_t)prow * H;
                    const float xvv = (t == 0 ? ldw(pb + c) : lda(pb + c)) * h0 * fcut;
                    const float xs = (t == 0 ? ldw(pb + F + c) : lda(pb + F + c)) * h1 * fcut;
                    const float xvs = (t == 0 ? ldw(pb + 2 * F + c) : lda(pb + 2 * F + c)) * h2 * fcut;
                    ds[m] += xs;
                    dv0[m] = fmaf(geo.x, xvs, dv0[m]);
                    dv1[m] = fmaf(geo.y, xvs, dv1[m]);
                    dv2[m] = fmaf(geo.z, xvs, dv2[m]);
                    if (t > 0) {
                        const float* vb = vin + (size_t)b * 3 * F + c;
                        dv0[m] = fmaf(xvv, lda(vb), dv0[m]);
                        dv1[m] = fmaf(xvv, lda(vb + F), dv1[m]);
                        dv2[m] = fmaf(xvv, lda(vb + 2 * F), dv2[m]);
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
        for (int e = threadIdx.x; e < 4 * CW; e += MOLTEN_THREADS) {
            const int q = e / CW, cc = e - q * CW, c = cbase + cc;
            float sum = 0.f;
            for (int w = 0; w < MOLTEN_WARPS; ++w) sum += red[(w * 4 + q) * CW + cc];
            if (q == 0) {
                const float s0 = t == 0 ? ldw(sin_ + (size_t)n.species[a] * F + c) : lda(sin_ + (size_t)a * F + c);
                s1[(size_t)a * F + c] = s0 + sum;
            } else {
                const size_t o = ((size_t)a * 3 + (q - 1)) * F + c;
                v1[o] = (t == 0 ? 0.f : lda(vin + o)) + sum;
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
// ------------------------------------------------------------------------------------------
template <int MG>
__device__ void st_msg_bwd(const Net& n, int t, int wi, int wn, float* sm) {
    const int F = (int)n.F, H = 3 * F, mg = (int)n.mg, G = F / (32 * mg), cap = (int)n.cap, kw = (int)n.kw;
    const int warp = warp_id(), lane = lane_id();
    const float* wft = W(n, n.o_wft[t]);
    const float* bf = W(n, n.o_bf[t]);
    const float* phi = t == 0 ? W(n, n.o_phi0) : A(n, n.o_phi[t]);
    const float* vin = A(n, n.o_v[t]);
    const float* gs1 = A(n, n.o_gs1);
    const float* gv1 = A(n, n.o_gv1);
    float* gv = A(n, n.o_gv);
    float* gphi = A(n, n.o_gphi);
    const bool first = t == (int)n.T - 1;  // first backward block: slot accumulators start here
    const float g2 = -2.0f * (float)n.gamma, mus = (float)n.mu_step;
    const int CW = 32 * mg;
    float* red = sm;  // [8][6][CW]
    float* rv = sm + MOLTEN_WARPS * 6 * CW + warp * 2 * MOLTEN_MAXKW;  // window: rbf_k, mu_k rbf_k
    float* rm = rv + MOLTEN_MAXKW;
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
        for (int s = warp; s < cnt; s += MOLTEN_WARPS) {
            const size_t slot = (size_t)a * cap + s;
            const int b = ldai(n.nbr_idx + slot);
            const float4 geo = __ldcg(reinterpret_cast<const float4*>(n.geo) + slot);
            const float fcut = lda(n.fc + 2 * slot), dfcut = lda(n.fc + 2 * slot + 1);
            const int k0 = ldai(n.kidx + slot);
            __syncwarp();
            if (lane < kw) {
                const float r = lda(n.rbf + slot * kw + lane);
                rv[lane] = r;
                rm[lane] = r * (mus * (float)(k0 + lane));  // mu_k rbf_k
            }
            __syncwarp();
            const int brow = t == 0 ? n.species[b] : b;
            float gd = 0.f, gux = 0.f, guy = 0.f, guz = 0.f;
#pragma unroll
            for (int m = 0; m < MG; ++m) {
                if (m < mg) {
                    const int c = cbase + lane + 32 * m;
                    float h[3], hp[3];
                    {
                        float s0[3] = {0.f, 0.f, 0.f}, s1v[3] = {0.f, 0.f, 0.f};
                        const float* wr = wft + (size_t)k0 * H + c;
                        for (int kk = 0; kk < kw; ++kk, wr += H) {
                            const float r = rv[kk], rmu = rm[kk];
#pragma unroll
                            for (int p = 0; p < 3; ++p) {
                                const float wv = ldw(wr + p * F);
                                s0[p] = fmaf(wv, r, s0[p]);
                                s1v[p] = fmaf(wv, rmu, s1v[p]);
                            }
                        }
#pragma unroll
                        for (int p = 0; p < 3; ++p) {
                            h[p] = ldw(bf + p * F + c) + s0[p];
                            hp[p] = g2 * (geo.w * s0[p] - s1v[p]);  // (Wf rbf')[c]
                        }
                    }
                    float Wv[3];
#pragma unroll
                    for (int p = 0; p < 3; ++p) Wv[p] = h[p] * fcut;
                    // neighbour quantities
                    float pb[3], vb[3], gvb[3];
#pragma unroll
                    for (int p = 0; p < 3; ++p) {
                        const float* pp = phi + (size_t)brow * H + p * F + c;
                        pb[p] = t == 0 ? ldw(pp) : lda(pp);
                        vb[p] = t == 0 ? 0.f : lda(vin + ((size_t)b * 3 + p) * F + c);
                        gvb[p] = lda(gv1 + ((size_t)b * 3 + p) * F + c);
                    }
                    const float gsb = lda(gs1 + (size_t)b * F + c);
                    // e2 = (a <- b): target a, source b
                    const float e2vv = gva[0][m] * vb[0] + gva[1][m] * vb[1] + gva[2][m] * vb[2];
                    const float e2vs = gva[0][m] * geo.x + gva[1][m] * geo.y + gva[2][m] * geo.z;
                    float gW0 = e2vv * pb[0], gW1 = gsa[m] * pb[1], gW2 = e2vs * pb[2];
                    const float xvs_ab = pb[2] * Wv[2];
                    gux = fmaf(gva[0][m], xvs_ab, gux);
                    guy = fmaf(gva[1][m], xvs_ab, guy);
                    guz = fmaf(gva[2][m], xvs_ab, guz);
                    // e1 = (b <- a): target b, source a
                    const float e1vv = gvb[0] * va[0][m] + gvb[1] * va[1][m] + gvb[2] * va[2][m];
                    const float e1vs = -(gvb[0] * geo.x + gvb[1] * geo.y + gvb[2] * geo.z);
                    gW0 = fmaf(e1vv, pa[0][m], gW0);
                    gW1 = fmaf(gsb, pa[1][m], gW1);
                    gW2 = fmaf(e1vs, pa[2][m], gW2);
                    const float xvs_ba = pa[2][m] * Wv[2];
                    gux = fmaf(-gvb[0], xvs_ba, gux);
                    guy = fmaf(-gvb[1], xvs_ba, guy);
                    guz = fmaf(-gvb[2], xvs_ba, guz);
                    if (t > 0) {
                        const float xvv_ba = pa[0][m] * Wv[0];
                        ogv[0][m] = fmaf(gvb[0], xvv_ba, ogv[0][m]);
                        ogv[1][m] = fmaf(gvb[1], xvv_ba, ogv[1][m]);
                        ogv[2][m] = fmaf(gvb[2], xvv_ba, ogv[2][m]);
                        ogp[0][m] = fmaf(e1vv, Wv[0], ogp[0][m]);
                        ogp[1][m] = fmaf(gsb, Wv[1], ogp[1][m]);
                        ogp[2][m] = fmaf(e1vs, Wv[2], ogp[2][m]);
                    }
                    gd = fmaf(gW0, hp[0] * fcut + h[0] * dfcut, gd);
                    gd = fmaf(gW1, hp[1] * fcut + h[1] * dfcut, gd);
                    gd = fmaf(gW2, hp[2] * fcut + h[2] * dfcut, gd);
                }
            }
            gd = warp_sum(gd);
            gux = warp_sum(gux);
            guy = warp_sum(guy);
            guz = warp_sum(guz);
            if (lane == 0) {
                float4* acc = reinterpret_cast<float4*>(n.gacc) + (slot * G + g);
                float4 v4;
                if (first) {
                    v4.x = gd; v4.y = gux; v4.z = guy; v4.w = guz;
                } else {
                    v4 = __ldcg(acc);
                    v4.x += gd; v4.y += gux; v4.z += guy; v4.w += guz;
                }
                *acc = v4;
            }
        }
        if (t > 0) {
#pragma unroll
            for (int m = 0; m < MG; ++m) {
                if (m < mg) {
                    const int cc = lane + 32 * m;
                    for (int p = 0; p < 3; ++p) {
                        red[(warp * 6 + p) * CW + cc] = ogv[p][m];
                        red[(warp * 6 + 3 + p) * CW + cc] = ogp[p][m];
                    }
                }
            }
            __syncthreads();
            for (int e = threadIdx.x; e < 6 * CW; e += MOLTEN_THREADS) {
                const int q = e / CW, cc = e - q * CW, c = cbase + cc;
                float sum = 0.f;
                for (int w = 0; w < MOLTEN_WARPS; ++w) sum += red[(w * 6 + q) * CW + cc];
                if (q < 3) {
                    const size_t o = ((size_t)a * 3 + q) * F + c;
                    gv[o] = lda(gv1 + o) + sum;
                } else {
                    gphi[(size_t)a * H + (q - 3) * F + c] = sum;
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
// ------------------------------------------------------------------------------------------
__device__ void st_forces(const Net& n, int wi, int wn) {
    const int warp = warp_id(), lane = lane_id();
    const int cap = (int)n.cap, G = (int)(n.F / (32 * n.mg));
    for (int a = wi * MOLTEN_WARPS + warp; a < n.n; a += wn * MOLTEN_WARPS) {
        const int cnt = ldai(n.nbr_count + a);
        float fx = 0.f, fy = 0.f, fz = 0.f;
        for (int s = lane; s < cnt; s += 32) {
            const size_t slot = (size_t)a * cap + s;
            float4 acc = __ldcg(reinterpret_cast<const float4*>(n.gacc) + slot * G);
            for (int g = 1; g < G; ++g) {
                const float4 x = __ldcg(reinterpret_cast<const float4*>(n.gacc) + slot * G + g);
                acc.x += x.x; acc.y += x.y; acc.z += x.z; acc.w += x.w;
            }
            const float4 geo = __ldcg(reinterpret_cast<const float4*>(n.geo) + slot);
            const float ug = geo.x * acc.y + geo.y * acc.z + geo.z * acc.w;
            const float inv = 1.0f / geo.w;
            fx += acc.x * geo.x + (acc.y - ug * geo.x) * inv;
            fy += acc.x * geo.y + (acc.z - ug * geo.y) * inv;
            fz += acc.x * geo.z + (acc.w - ug * geo.z) * inv;
        }
        fx = warp_sum(fx);
        fy = warp_sum(fy);
        fz = warp_sum(fz);
        if (lane == 0) {
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
