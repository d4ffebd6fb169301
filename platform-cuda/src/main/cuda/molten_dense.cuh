// Atom-wise dense layers Y[r][o] = sum_k X[r][k] W[o][k] with a fused prologue (how X[r][k] is
// made from stored activations) and a fused epilogue (bias, activation, update rules, residuals).
//
// A prologue is two calls too: Raw load(r, k) issues the global loads of element (r, k), float make(raw, k)
// does the arithmetic on them. dense_tile issues the loads of K-chunk k+1 before chunk k's multiply-adds and
// does the arithmetic only when it stores chunk k+1 to shared memory, so that a thread does not wait for the
// loads before its multiply-adds (measured faster than the arithmetic at the loads: docs/benchmarks.md, "lighter
// prologues"); dense_warp calls make(load(r, k)) at once.
//
// Outputs come in NP "parts" of C channels each: output o = p * pstride + c. Epilogues receive
// the NP values of one (row, channel) together, which lets a layer whose output is split into
// [a_vv | a_sv | a_ss] apply the update rule channel by channel. An epilogue is two calls:
// In load(r, c) fetches what it reads (issued for many outputs before any is used), then
// operator()(r, c, acc, in) computes and stores.
//
// Two variants of the same contract:
//  - dense_warp: one warp per output channel, lanes split K (weights in registers, rows staged
//    in shared memory). For small systems, where a stage has few rows and must finish in a
//    fraction of a microsecond: every weight is read once per work item, latency is one
//    L2 round trip for the rows and one for the weights.
//  - dense_tile: register-blocked tiles (32 rows x 32*MJ channels x NP parts per block), K in
//    chunks of 32 staged in shared memory. For large systems, where the stage is throughput-bound.
// Work items are distributed over the participating blocks (wi of wn).
#pragma once
#include "molten_common.cuh"

// Wrow: [NP*pstride][K] row-major (one row per output), i.e. nn.Linear's [out][in].
template <int NP, int KM, class Pro, class Epi>
__device__ void dense_warp(int R, int K, int C, int pstride, const float* __restrict__ Wrow,
                           const Pro& pro, const Epi& epi, int wi, int wn, float* sm) {
    const int warp = warp_id(), lane = lane_id();
    const int km = (K + 31) >> 5;
    const int KS = km << 5;  // staged row stride
    const int nrt = (R + MOLTEN_RBS - 1) / MOLTEN_RBS;
    const int ncg = (C + MOLTEN_WARPS - 1) / MOLTEN_WARPS;
    const int items = nrt * ncg;
    float* xs = sm;  // [MOLTEN_RBS][KS]
    for (int it = wi; it < items; it += wn) {
        const int r0 = (it / ncg) * MOLTEN_RBS;
        const int rows = min(MOLTEN_RBS, R - r0);
        const int c = (it % ncg) * MOLTEN_WARPS + warp;
        const bool active = c < C;
        float wr[NP][KM];
#pragma unroll
        for (int p = 0; p < NP; ++p) {
#pragma unroll
            for (int m = 0; m < KM; ++m) {
                const int k = lane + 32 * m;
                wr[p][m] = (active && m < km && k < K) ? ldw(Wrow + (size_t)(p * pstride + c) * K + k) : 0.0f;
            }
        }
        if (it + wn < items) {  // the next item's weight rows, into L1 while this one works
            const int cn = ((it + wn) % ncg) * MOLTEN_WARPS + warp;
            if (cn < C) {
#pragma unroll
                for (int p = 0; p < NP; ++p)
                    for (int k = lane * 32; k < K; k += 32 * 32) prefetch_l1(Wrow + (size_t)(p * pstride + cn) * K + k);
            }
        }
        __syncthreads();  // the previous item's readers are done with xs
        // Stage the rows: all loads of a thread in flight together (one L2 round trip, not one per element).
        const int total = rows * KS;
        for (int e0 = threadIdx.x; e0 < total; e0 += MOLTEN_THREADS * MOLTEN_STAGE_BATCH) {
            float v[MOLTEN_STAGE_BATCH];
#pragma unroll
            for (int u = 0; u < MOLTEN_STAGE_BATCH; ++u) {
                const int e = e0 + u * MOLTEN_THREADS;
                const int rr = e / KS, k = e - rr * KS;
                v[u] = (e < total && k < K) ? pro.make(pro.load(r0 + rr, k), k) : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < MOLTEN_STAGE_BATCH; ++u) {
                const int e = e0 + u * MOLTEN_THREADS;
                if (e < total) xs[e] = v[u];
            }
        }
        __syncthreads();
        if (active) {
            // Lane rr keeps row rr's sums; the epilogues then run on all rows' lanes at once, so
            // their global loads overlap (one round trip per item, not one per row).
            float mine[NP];
#pragma unroll
            for (int p = 0; p < NP; ++p) mine[p] = 0.0f;
            for (int rr = 0; rr < rows; ++rr) {
                const float* x = xs + rr * KS;
                float acc[NP];
#pragma unroll
                for (int p = 0; p < NP; ++p) acc[p] = 0.0f;
#pragma unroll
                for (int m = 0; m < KM; ++m) {
                    if (m < km) {
                        const float xv = x[lane + 32 * m];
#pragma unroll
                        for (int p = 0; p < NP; ++p) acc[p] = fmaf(wr[p][m], xv, acc[p]);
                    }
                }
#pragma unroll
                for (int p = 0; p < NP; ++p) {
                    acc[p] = warp_sum(acc[p]);
                    if (lane == rr) mine[p] = acc[p];
                }
            }
            if (lane < rows) {
                const typename Epi::In in = epi.load(r0 + lane, c);
                epi(r0 + lane, c, mine, in);
            }
        }
    }
}

// Split K: this block's partial tile (A accumulators per thread) goes to part[tile][split]; returns
// true in the block that completes the tile, with acc replaced by the sum of all S partials in split
// order. Layout [tile][split][A/4][thread] of float4: coalesced stores and loads.
template <int A>
__device__ __forceinline__ bool split_k_combine(float* acc, int tile, int split, int S, float* part, int* count, float* sm) {
    static_assert(A % 4 == 0, "float4 groups");
    float4* mine = reinterpret_cast<float4*>(part) + ((size_t)tile * S + split) * (A / 4) * MOLTEN_THREADS + threadIdx.x;
#pragma unroll
    for (int q = 0; q < A / 4; ++q)
        __stcg(mine + q * MOLTEN_THREADS, make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]));
    // Arrival as a release/acquire pair on the counter, made by thread 0 alone: the block barrier orders every
    // thread's partial-tile stores before thread 0's release (PTX release is cumulative), and thread 0's acquire
    // before every thread's loads after the second barrier. Before, all 256 threads ran a sequentially consistent
    // device-wide fence (__threadfence) on either side of the count.
    __syncthreads();  // all threads have stored (and every reader of sm is done)
    int* last = reinterpret_cast<int*>(sm);
    if (threadIdx.x == 0) *last = atomic_add_acq_rel_gpu(count + tile, 1) == S - 1;
    __syncthreads();
    const bool done = *last != 0;
    if (!done) return false;
    // the other splits' partials are read through L2 (__ldcg), never from a stale L1 line
    if (threadIdx.x == 0) count[tile] = 0;  // ready for the next launch (stream order)
    // Every split's partial is read back from L2, this block's own too (this thread wrote that slot, so it reads
    // its own value): no branch between the loads, which then go out B at a time instead of one round trip
    // per split. Summed in split order, as the result must not depend on which block is last.
    const float4* all = reinterpret_cast<const float4*>(part) + (size_t)tile * S * (A / 4) * MOLTEN_THREADS + threadIdx.x;
    constexpr int Q = A / 4, B = Q >= 3 ? 2 : 4;
    float4 sum[Q];
#pragma unroll
    for (int q = 0; q < Q; ++q) sum[q] = __ldcg(all + q * MOLTEN_THREADS);
#pragma unroll 1
    for (int s0 = 1; s0 < S; s0 += B) {
        float4 x[B][Q];
#pragma unroll
        for (int j = 0; j < B; ++j) {
            const int sj = min(s0 + j, S - 1);  // a valid slot; only those below S are added
#pragma unroll
            for (int q = 0; q < Q; ++q) x[j][q] = __ldcg(all + ((size_t)sj * Q + q) * MOLTEN_THREADS);
        }
#pragma unroll
        for (int j = 0; j < B; ++j) {
            if (s0 + j < S) {
#pragma unroll
                for (int q = 0; q < Q; ++q) {
                    sum[q].x += x[j][q].x; sum[q].y += x[j][q].y; sum[q].z += x[j][q].z; sum[q].w += x[j][q].w;
                }
            }
        }
    }
#pragma unroll
    for (int q = 0; q < Q; ++q) {
        acc[4 * q] = sum[q].x; acc[4 * q + 1] = sum[q].y; acc[4 * q + 2] = sum[q].z; acc[4 * q + 3] = sum[q].w;
    }
    return true;
}

// Wcol: [K][ldo] row-major, i.e. the transpose of nn.Linear's weight; output o = p*pstride + c.
// Block tile: 32 rows (4 consecutive rows per warp, read as one broadcast 16-byte load) x 32*MJ
// channels (MJ consecutive per lane). The staged rows are stored k-major with the 4-row groups
// XOR-swizzled by k, so that the transposing stores hit 8 banks instead of one.
//
// Split K (S > 1): a work item is (tile, split s); split s sums the K-chunks [s*chunks/S, (s+1)*chunks/S)
// of its tile. Where a stage has fewer tiles than the GPU has block slots (a 201-atom layer has 7 to 28,
// a 3,000-atom F-wide layer 94 for 2 x 132), the chain of K-chunks, not arithmetic, sets the time.
// Each split stores its partial tile to `part`, then counts itself in `count[tile]`; the block that
// arrives last adds the S partials in split order (fixed: the result does not depend on which block
// that is) and runs the epilogue, and resets the counter for the next launch.
template <int MJ, int NP, class Pro, class Epi>
__device__ void dense_tile(int R, int K, int C, int pstride, int ldo, const float* __restrict__ Wcol,
                           const Pro& pro, const Epi& epi, int wi, int wn, float* sm, int S, float* part, int* count) {
    const int RB = 32, CB = 32 * MJ, KC = 32;
    const int warp = warp_id(), lane = lane_id();
    float* xs = sm;              // [KC][RB], swizzled
    float* ws = sm + KC * RB;    // [KC][NP][CB]
    const int nrt = (R + RB - 1) / RB, nct = (C + CB - 1) / CB, tiles = nrt * nct, items = tiles * S;
    const int chunks = (K + KC - 1) / KC;
    for (int it = wi; it < items; it += wn) {
        const int tile = it / S, split = it - tile * S;
        const int r0 = (tile / nct) * RB, c0 = (tile % nct) * CB;
        const int kbeg = split * chunks / S * KC, kend = min(K, (split + 1) * chunks / S * KC);
        float acc[4][NP][MJ];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int p = 0; p < NP; ++p)
#pragma unroll
                for (int j = 0; j < MJ; ++j) acc[i][p][j] = 0.0f;
        // Software pipeline: the next K-chunk's loads are issued into registers before the
        // current chunk's FMAs, so global latency overlaps arithmetic.
        // The weight panel goes 16 bytes per load (4 consecutive channels): C, ldo, pstride and the
        // array's offset are multiples of 4 floats (F is a multiple of 32; DeviceWeights aligns arrays
        // to 16 floats). The scalar fetch was a fifth of the instructions of the U.v layer.
        constexpr int XU = RB * KC / MOLTEN_THREADS, WQ = KC * NP * CB / (4 * MOLTEN_THREADS);
        typename Pro::Raw xr[XU];  // the staged elements' loads, made into values when stored
        bool xok[XU];
        float4 wq[WQ];
        auto fetch = [&](int k0) {
#pragma unroll
            for (int u = 0; u < XU; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int rr = e / KC, kk = e - rr * KC;
                const int r = r0 + rr, k = k0 + kk;
                xok[u] = r < R && k < K;
                if (xok[u]) xr[u] = pro.load(r, k);
            }
#pragma unroll
            for (int u = 0; u < WQ; ++u) {
                const int e = 4 * (threadIdx.x + u * MOLTEN_THREADS);
                const int kk = e / (NP * CB), q = e - kk * (NP * CB);
                const int p = q / CB, cc = q - p * CB;
                const int k = k0 + kk, c = c0 + cc;
                wq[u] = (k < K && c < C) ? __ldg(reinterpret_cast<const float4*>(Wcol + (size_t)k * ldo + p * pstride + c))
                                         : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
        };
        fetch(kbeg);
        for (int k0 = kbeg; k0 < kend; k0 += KC) {
            __syncthreads();  // the previous chunk's readers are done
#pragma unroll
            for (int u = 0; u < XU; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int rr = e / KC, kk = e - rr * KC;
                const int g = (rr >> 2) ^ (kk & 7);
                xs[kk * RB + (g << 2) + (rr & 3)] = xok[u] ? pro.make(xr[u], k0 + kk) : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < WQ; ++u) reinterpret_cast<float4*>(ws)[threadIdx.x + u * MOLTEN_THREADS] = wq[u];
            __syncthreads();
            if (k0 + KC < kend) fetch(k0 + KC);
#pragma unroll 4
            for (int kk = 0; kk < KC; ++kk) {
                const float4 x4 = *reinterpret_cast<const float4*>(xs + kk * RB + ((warp ^ (kk & 7)) << 2));
                const float xv[4] = {x4.x, x4.y, x4.z, x4.w};
#pragma unroll
                for (int p = 0; p < NP; ++p) {
#pragma unroll
                    for (int j = 0; j < MJ; ++j) {
                        const float wv = ws[(kk * NP + p) * CB + lane * MJ + j];
#pragma unroll
                        for (int i = 0; i < 4; ++i) acc[i][p][j] = fmaf(xv[i], wv, acc[i][p][j]);
                    }
                }
            }
        }
        // Epilogue in two phases: every input it needs is loaded first (all in flight at once),
        // then the outputs are computed and stored; loads never wait behind earlier stores. With split K
        // the loads are issued before the split's partial tile goes out, so that their round trip overlaps
        // the count and the other partials' loads (a block that is not last drops them).
        typename Epi::In in[4][MJ];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = min(r0 + warp * 4 + i, R - 1);
#pragma unroll
            for (int j = 0; j < MJ; ++j) in[i][j] = epi.load(r, min(c0 + lane * MJ + j, C - 1));
        }
        if (S > 1 && !split_k_combine<4 * NP * MJ>(&acc[0][0][0], tile, split, S, part, count, sm)) continue;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int r = r0 + warp * 4 + i;
#pragma unroll
            for (int j = 0; j < MJ; ++j) {
                const int c = c0 + lane * MJ + j;
                if (r < R && c < C) {
                    float a[NP];
#pragma unroll
                    for (int p = 0; p < NP; ++p) a[p] = acc[i][p][j];
                    epi(r, c, a, in[i][j]);
                }
            }
        }
    }
}

// Shared memory (floats) the variants need.
#define MOLTEN_DENSE_WARP_SMEM(K) (MOLTEN_RBS * (((K) + 31) / 32) * 32)
#define MOLTEN_DENSE_TILE_SMEM(MJ, NP) (32 * 32 + 32 * (NP) * 32 * (MJ))
