// Tensor-core variant of dense_tile (molten_dense.cuh), same Pro/Epi contract, float32-grade accuracy by the
// 3xTF32 split: each operand x = hi + lo with hi = tf32(x), lo = tf32(x - hi) (10 + 10 mantissa bits, together
// about 21 of float32's 24), and sum_k x w = sum_k (x_lo w_hi + x_hi w_lo + x_hi w_hi), small terms first; the
// dropped x_lo w_lo is ~2^-22 relative. Products of two tf32 values are exact in float32, the sums are float32:
// forces stay within GpuCheck's 1e-5 relative of the float64 reference.
//
// mma.sync.aligned.m16n8k8 (sm_80 and newer). Block tile as dense_tile: 32 rows x 32 MJ channels x NP parts;
// warp w owns rows 16 (w & 1) .. +15 and the 8 MJ channels from 8 MJ (w >> 1), all NP parts of them, i.e. NP MJ
// 16x8 accumulator fragments (4 floats per thread each, the same count as dense_tile's 4 NP MJ): a thread thus
// holds every part of its (row, channel) pairs, as the epilogue wants. Both operands are split once, when a
// K-chunk is staged in shared memory (every fragment element is then read by one or two warps, never split twice).
#pragma once
#include "molten_dense.cuh"

// cvt.rna.tf32.f32: round to 10 mantissa bits, ties away from zero. The low 13 bits are cleared explicitly, so that
// hi is an exact float and x - hi exact too.
__device__ __forceinline__ float tf32_round(float x) {
#ifdef MOLTEN_EMU
    return emu_tf32_rna(x);
#else
    unsigned u;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(x));
    return __uint_as_float(u & 0xffffe000u);
#endif
}

// d += a b for one warp: a the 16x8 A fragment (row-major), b the 8x8 B fragment (column-major), d the 16x8 float32
// accumulators, in the fragment layouts of the PTX ISA ("Matrix Fragments for mma.m16n8k8", .tf32), with
// g = lane / 4, t = lane % 4: a[0] (g, t), a[1] (g + 8, t), a[2] (g, t + 4), a[3] (g + 8, t + 4);
// b[0] (k = t, n = g), b[1] (k = t + 4, n = g); d[i] (g + 8 (i / 2), 2 t + i % 2).
__device__ __forceinline__ void mma_tf32(float* d, const float* a, const float* b) {
#ifdef MOLTEN_EMU
    emu_mma_tf32_m16n8k8(d, a, b);
#else
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])),
          "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
#endif
}

// Blocks per multiprocessor the tensor-core stage kernels are compiled for (molten_kernels.cu): the stages are
// latency-bound at two blocks (Nsight Compute on an H200: ~30 % of the SM's issue rate, 7-10 cycles per issued
// instruction, 21-23 % achieved occupancy), so three blocks of 256 threads (at most 80 registers) hide more of it.
#ifndef MOLTEN_TC_BLOCKS
#define MOLTEN_TC_BLOCKS 3
#endif

// A chunk is staged as (hi, lo) pairs, one 8-byte load per fragment element. Strides in pairs, padded so that each
// half-warp's 16 pairs of a fragment load fall into 16 different bank pairs: X rows of 32 k at stride 36 (pair
// 4 g + t mod 16), W rows of NP CB outputs at stride NP CB + 4 (pair 4 t + g mod 16).
#define MOLTEN_TC_XS 36
#define MOLTEN_TC_WS(MJ, NP) (32 * (NP) * (MJ) + 4)

// Wcol: [K][ldo] row-major (as dense_tile); output o = p * pstride + c. Split K as dense_tile (split_k_combine).
template <int MJ, int NP, class Pro, class Epi>
__device__ void dense_tile_tc(int R, int K, int C, int pstride, int ldo, const float* __restrict__ Wcol,
                              const Pro& pro, const Epi& epi, int wi, int wn, float* sm, int S, float* part, int* count) {
    constexpr int RB = 32, CB = 32 * MJ, KC = 32, NT = NP * MJ;
    constexpr int XS = MOLTEN_TC_XS, WS = MOLTEN_TC_WS(MJ, NP);
    float2* xs = reinterpret_cast<float2*>(sm);  // [RB][XS] (hi, lo) of the rows
    float2* ws = xs + RB * XS;                    // [KC][WS] (hi, lo) of the weight panel
    const int warp = warp_id(), lane = lane_id(), g = lane >> 2, t4 = lane & 3;
    const int mrow = (warp & 1) * 16;       // this warp's rows in the tile
    const int cw = (warp >> 1) * 8 * MJ;    // this warp's first channel in the tile
    const int nrt = (R + RB - 1) / RB, nct = (C + CB - 1) / CB, tiles = nrt * nct, items = tiles * S;
    const int chunks = (K + KC - 1) / KC;
    for (int it = wi; it < items; it += wn) {
        const int tile = it / S, split = it - tile * S;
        const int r0 = (tile / nct) * RB, c0 = (tile % nct) * CB;
        const int kbeg = split * chunks / S * KC, kend = min(K, (split + 1) * chunks / S * KC);
        float acc[NT][4];  // fragment (j, p) at j NP + p: channels cw + 8 j .., part p
#pragma unroll
        for (int q = 0; q < NT; ++q)
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[q][i] = 0.0f;
        // The next chunk's global loads go out before the current chunk's products (as dense_tile).
        constexpr int XU = RB * KC / MOLTEN_THREADS, WQ = KC * NP * CB / (4 * MOLTEN_THREADS);
        float xv[XU];
        float4 wq[WQ];
        auto fetch = [&](int k0) {
#pragma unroll
            for (int u = 0; u < XU; ++u) {
                const int e = threadIdx.x + u * MOLTEN_THREADS;
                const int rr = e / KC, kk = e - rr * KC;
                const int r = r0 + rr, k = k0 + kk;
                xv[u] = (r < R && k < K) ? pro(r, k) : 0.0f;
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
                const float hi = tf32_round(xv[u]);
                xs[rr * XS + kk] = make_float2(hi, tf32_round(xv[u] - hi));
            }
#pragma unroll
            for (int u = 0; u < WQ; ++u) {
                const int e = 4 * (threadIdx.x + u * MOLTEN_THREADS);
                const int kk = e / (NP * CB), q = e - kk * (NP * CB);
                const float4 w = wq[u];
                const float h0 = tf32_round(w.x), h1 = tf32_round(w.y), h2 = tf32_round(w.z), h3 = tf32_round(w.w);
                float4* dst = reinterpret_cast<float4*>(ws + kk * WS + q);
                dst[0] = make_float4(h0, tf32_round(w.x - h0), h1, tf32_round(w.y - h1));
                dst[1] = make_float4(h2, tf32_round(w.z - h2), h3, tf32_round(w.w - h3));
            }
            __syncthreads();
            if (k0 + KC < kend) fetch(k0 + KC);
#pragma unroll
            for (int k8 = 0; k8 < KC; k8 += 8) {
                const int a0 = (mrow + g) * XS + k8 + t4;  // fragment element (g, t); +8 rows, +4 k
                const float2 x0 = xs[a0], x1 = xs[a0 + 8 * XS], x2 = xs[a0 + 4], x3 = xs[a0 + 8 * XS + 4];
                const float ah[4] = {x0.x, x1.x, x2.x, x3.x};
                const float al[4] = {x0.y, x1.y, x2.y, x3.y};
#pragma unroll
                for (int j = 0; j < MJ; ++j) {
#pragma unroll
                    for (int p = 0; p < NP; ++p) {
                        const int b0 = (k8 + t4) * WS + p * CB + cw + 8 * j + g;  // (k = t, n = g); +4 k
                        const float2 w0 = ws[b0], w1 = ws[b0 + 4 * WS];
                        const float bh[2] = {w0.x, w1.x};
                        const float bl[2] = {w0.y, w1.y};
                        float* d = acc[j * NP + p];
                        mma_tf32(d, al, bh);
                        mma_tf32(d, ah, bl);
                        mma_tf32(d, ah, bh);
                    }
                }
            }
        }
        // Epilogue as dense_tile: inputs first, then the split-K combination, then outputs. Thread pair (h, e, j):
        // row mrow + g + 8 h, channel cw + 8 j + 2 t + e, parts acc[j NP + p][2 h + e].
        typename Epi::In in[2][MJ][2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = min(r0 + mrow + g + 8 * h, R - 1);
#pragma unroll
            for (int j = 0; j < MJ; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) in[h][j][e] = epi.load(r, min(c0 + cw + 8 * j + 2 * t4 + e, C - 1));
        }
        if (S > 1 && !split_k_combine<4 * NT>(&acc[0][0], tile, split, S, part, count, sm)) continue;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = r0 + mrow + g + 8 * h;
#pragma unroll
            for (int j = 0; j < MJ; ++j) {
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int c = c0 + cw + 8 * j + 2 * t4 + e;
                    if (r < R && c < C) {
                        float a[NP];
#pragma unroll
                        for (int p = 0; p < NP; ++p) a[p] = acc[j * NP + p][2 * h + e];
                        epi(r, c, a, in[h][j][e]);
                    }
                }
            }
        }
    }
}

// Shared memory (floats) of dense_tile_tc.
#define MOLTEN_DENSE_TC_SMEM(MJ, NP) (2 * 32 * MOLTEN_TC_XS + 2 * 32 * MOLTEN_TC_WS(MJ, NP))
