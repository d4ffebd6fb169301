// The neighbour-list stage (st_neighbours) and the minimum image it and the force stages use.
#pragma once
#include "molten_stage_base.cuh"

// ------------------------------------------------------------------------------------------
// Neighbour list: one warp per atom a. Candidates (all atoms, or those of the 27 cells around
// a's cell, flattened into one index range) are tested 128 at a time (4 per lane, loads in
// flight together); those with d_ab < r_c are compacted into a per-warp buffer with their
// geometry, then rank-sorted by (float d_ab, b), a key the row itself holds (geo.w, nbr_idx):
// the row order is deterministic and identical for both searches, and row b finds its slot of a
// by binary search (st_forces<true>): both rows hold the same float d, since r_a - r_b is
// exactly -(r_b - r_a) (IEEE negation, rint symmetric) and so is the minimum image. Per slot
// the geometry every block needs is stored: u_ab, d_ab, fcut, fcut', the radial-basis window.
// A row longer than cap is cut to cap and counted in flags[OVERFLOW]: the host grows cap and
// redoes the work.
// ------------------------------------------------------------------------------------------
#define MOLTEN_NB_BATCH 4

// Minimum image of a raw displacement (Å, float64), in place.
__device__ __forceinline__ void min_image(const Net& n, double& dx, double& dy, double& dz) {
    if (n.pbc == 0) return;
    if (n.ortho) {
        if (n.pbc & 1) dx -= n.h[0] * rint(dx * n.hinv[0]);
        if (n.pbc & 2) dy -= n.h[4] * rint(dy * n.hinv[4]);
        if (n.pbc & 4) dz -= n.h[8] * rint(dz * n.hinv[8]);
        return;
    }
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

// Minimum-image displacement r_b - r_a with r_a given (Å, float64).
__device__ __forceinline__ void displacement_from(const Net& n, double xa, double ya, double za, int b,
                                                  double& dx, double& dy, double& dz) {
    dx = ldad(n.pos + 3 * b) - xa;
    dy = ldad(n.pos + 3 * b + 1) - ya;
    dz = ldad(n.pos + 3 * b + 2) - za;
    min_image(n, dx, dy, dz);
}

// Shared memory of st_neighbours in floats: per warp 6 words per slot and 64 for the cell ranges.
#define MOLTEN_NB_SMEM(cap) (MOLTEN_WARPS * (6 * (cap) + 64))

__device__ void st_neighbours(const Net& n, int wi, int wn, float* sm) {
    const int warp = warp_id(), lane = lane_id();
    const int cap = (int)n.cap, kw = (int)n.kw;
    int* bj = reinterpret_cast<int*>(sm) + warp * (6 * cap + 64);
    float* bk = reinterpret_cast<float*>(bj + cap);  // sort key: float d (= geo.w)
    float* bu = bk + cap;                            // [cap][4]: u_ab, d_ab
    int* cr = reinterpret_cast<int*>(bu + 4 * cap);  // [32] first candidate of each cell, [32] exclusive prefix
    const double rc2 = n.cutoff * n.cutoff;
    for (int a = wi * MOLTEN_WARPS + warp; a < n.n; a += wn * MOLTEN_WARPS) {
        const double xa = ldad(n.pos + 3 * a), ya = ldad(n.pos + 3 * a + 1), za = ldad(n.pos + 3 * a + 2);
        int total = (int)n.n, count = 0, first = 0;
        if (n.rep != nullptr) {  // replicas: the candidates are the atoms of a's replica (no cell list)
            const int r = __ldg(n.rep + a);
            first = __ldg(n.rep_start + r);
            total = __ldg(n.rep_start + r + 1) - first;
        }
        if (n.search == 1) {
            const int c = ldai(n.atom_cell + a);
            const int nx = (int)n.ncell[0], ny = (int)n.ncell[1], nz = (int)n.ncell[2];
            int st = 0, len = 0;
            if (lane < 27) {
                const int cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
                const int qx = (cx + lane % 3 - 1 + nx) % nx, qy = (cy + (lane / 3) % 3 - 1 + ny) % ny;
                const int qz = (cz + lane / 9 - 1 + nz) % nz;
                const int q = (qz * ny + qy) * nx + qx;
                st = ldai(n.cell_start + q);
                len = ldai(n.cell_start + q + 1) - st;
            }
            int pre = len;
            for (int o = 1; o < 32; o <<= 1) {
                const int y = __shfl_up_sync(FULLMASK, pre, o);
                if (lane >= o) pre += y;
            }
            total = __shfl_sync(FULLMASK, pre, 31);
            __syncwarp();
            cr[lane] = st;
            cr[32 + lane] = lane < 27 ? pre - len : 1 << 30;
            __syncwarp();
        }
        for (int e0 = 0; e0 < total; e0 += 32 * MOLTEN_NB_BATCH) {
            int bq[MOLTEN_NB_BATCH];
#pragma unroll
            for (int u = 0; u < MOLTEN_NB_BATCH; ++u) {
                const int e = e0 + u * 32 + lane;
                int b = -1;
                if (e < total) {
                    if (n.search == 1) {
                        int lo = 0;  // last cell whose range starts at or before e
                        for (int step = 16; step > 0; step >>= 1)
                            if (lo + step < 27 && cr[32 + lo + step] <= e) lo += step;
                        b = ldai(n.cell_atoms + cr[lo] + (e - cr[32 + lo]));
                    } else {
                        b = first + e;
                    }
                }
                bq[u] = b;
            }
            double dxq[MOLTEN_NB_BATCH], dyq[MOLTEN_NB_BATCH], dzq[MOLTEN_NB_BATCH];
#pragma unroll
            for (int u = 0; u < MOLTEN_NB_BATCH; ++u) {
                dxq[u] = dyq[u] = dzq[u] = 1e300;
                if (bq[u] >= 0 && bq[u] != a) displacement_from(n, xa, ya, za, bq[u], dxq[u], dyq[u], dzq[u]);
            }
#pragma unroll
            for (int u = 0; u < MOLTEN_NB_BATCH; ++u) {
                const double d2 = dxq[u] * dxq[u] + dyq[u] * dyq[u] + dzq[u] * dzq[u];
                const bool ok = bq[u] >= 0 && bq[u] != a && d2 < rc2;
                const unsigned msk = __ballot_sync(FULLMASK, ok);
                if (ok) {
                    const int p = count + __popc(msk & ((1u << lane) - 1u));
                    if (p < cap) {
                        const double d = sqrt(d2);
                        bj[p] = bq[u];
                        bk[p] = (float)d;
                        bu[4 * p] = (float)(dxq[u] / d);
                        bu[4 * p + 1] = (float)(dyq[u] / d);
                        bu[4 * p + 2] = (float)(dzq[u] / d);
                        bu[4 * p + 3] = (float)d;
                    }
                }
                count += __popc(msk);
            }
        }
        __syncwarp();
        const int m = min(count, cap);
        if (lane == 0) {
            if (count > cap) atomicAdd(n.flags + MOLTEN_FLAG_OVERFLOW, 1);
            atomicMax(n.flags + MOLTEN_FLAG_MAXCOUNT, count);
            n.nbr_count[a] = m;
        }
        const double pr = 3.14159265358979323846 / n.cutoff;
        const float gm = (float)n.gamma, mus = (float)n.mu_step;
        for (int e = lane; e < m; e += 32) {
            const int b = bj[e];
            const float key = bk[e];
            int rank = 0;
            for (int q = 0; q < m; ++q) {
                const float kq = bk[q];
                rank += (kq < key || (kq == key && bj[q] < b)) ? 1 : 0;
            }
            const size_t slot = (size_t)a * cap + rank;
            n.nbr_idx[slot] = b;
            float4 g;
            g.x = bu[4 * e]; g.y = bu[4 * e + 1]; g.z = bu[4 * e + 2]; g.w = bu[4 * e + 3];
            reinterpret_cast<float4*>(n.geo)[slot] = g;
            const double d = (double)g.w;
            float2 f;
            f.x = (float)(0.5 * (cos(pr * d) + 1.0));
            f.y = (float)(-0.5 * pr * sin(pr * d));
            reinterpret_cast<float2*>(n.fc)[slot] = f;
            int k0 = (int)rint(d / n.mu_step) - kw / 2;
            k0 = k0 < 0 ? 0 : (k0 > n.nrbf - kw ? (int)n.nrbf - kw : k0);
            n.kidx[slot] = k0;
            for (int kk = 0; kk < kw; ++kk) {
                const float t = g.w - mus * (float)(k0 + kk);
                n.rbf[slot * kw + kk] = expf(-gm * t * t);
            }
        }
        __syncwarp();
    }
}
