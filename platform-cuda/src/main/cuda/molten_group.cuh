// Replica groups on chip (issue 29 section 3): the force evaluation of a batch of R replicas of small molecules in
// ONE launch, a block per replica, a thread per channel (H = 2: two threads per channel). Each block computes its
// replica's PaiNN forward pass (F = 128, T = 3, n_rbf = 20, the student's hyperparameters) and its exact analytic
// backward pass in float32, writes the per-atom energies (e_atom, float64, as st_readout) and the forces (float32,
// eV/Å), and closes the MD step as st_forces does (force_close: non-finite flag, closing half kick, step counter).
// The replica step is then k_integrate1 (+ thermostat, drift, constraints) + this kernel: no neighbour search, no
// stage kernels. Adapted from scripts/probes/group_force_probe.cu (its header has the design and the H200 figures;
// checked there against float64 PyTorch), with these changes:
// - the atom count is a runtime value (<= NMAX, the entry's bound) read from rep_start, the replica's atoms
//   [rep_start[b], rep_start[b + 1]); G = 1 (one replica a block); no attribution modes;
// - dense row tiles of RT rows: a partial last tile computes junk rows that are never stored (its inputs are read
//   past the buffer's rows, inside the block's shared memory: GroupLayout keeps room for it);
// - positions are the engine's float64 buffer (differences in float64, then float32), species from Net.species,
//   the scalars (cutoff, gamma, scale, b6) from Net, the weights from Net.group_w in the order of
//   GroupWeights.java (= write_weights() of scripts/probes/group_force_probe.py);
// - the readout sums each atom's energy (not the molecule's): e_atom = scale (y + b6) + atomref, as the stage path,
//   so that k_energy_rep sums the replica's energy unchanged.
// Entries (molten_kernels.cu): k_group_n12 (N <= 12, 128 threads, the probe's var 4: register accumulation of
// atom i's sums in the forward pair loop; 1,610 us for 1,024 ethanols on an H200) and k_group_n24 (N <= 24, 256
// threads, two per channel, the second half's pair sums in a private copy; the probe's var 0 at 256 threads: 1,754
// us for 256 alanine dipeptides). RT = 9 resp. 11: one tile per ethanol (9 atoms) resp. one per half of a dipeptide
// (22), the configurations measured; k_group_n12's U|V products (3M rows) in tiles of 14 forward / 27 backward (RT3,
// RT3B: measured 3.1 % faster on an H200, molten_kernels.cu).
// Tensor-core twins k_group_n12_tc / k_group_n22_tc / k_group_n24_tc (TC = true; the probe's VTC, emulator-checked,
// measured on an H200: docs/performance-notes.md): the 12 dense products of a pass run as dense_tc (3xTF32 mma.sync m16n8k8, out^T = W^T X^T: output channels
// on the mma's M side, atom rows on its N side in tiles of 8, rows past the replica read as zeros), the same launch
// shape and shared memory; the epilogues take the channel (the lane holding (row, channel) runs it), and the n / sp
// pass after U|V gets a barrier. The emulator runs the warp-wide mma in fake_driver.cpp (emu_mma_tf32).
#pragma once
#include "molten_stages.cuh"

namespace grp {
constexpr int F = 128, F2 = 256, F3 = 384, NR = 20, NT = 3, FH = 64;
constexpr int NFLD = 17;                                                         // scratch floats per row and layer, units of F
enum { FZ1 = 0, FPHI = 1, FVM = 4, FUV = 7, FVV = 10, FZ3 = 13, FA = 14 };         // field offsets (units of F)
constexpr int GEO = 28;   // per pair: d, fcut, fcut', valid, ux, uy, uz, 0, rbf[20]
constexpr int GEOP = GEO + NR;   // the pair-loop entry (PV, k_group_n22_tc): also d rbf_k / dd (1/Å) at 8 + NR + k

// One layer's weights (floats, offsets from the layer's start; the layers follow each other).
namespace LO {
constexpr int phi0T = 0, phi0 = phi0T + F * F, bphi0 = phi0 + F * F, phi2T = bphi0 + F, phi2 = phi2T + F * F3,
              bphi2 = phi2 + F3 * F, filt = bphi2 + F3, bfilt = filt + F3 * NR, UVT = bfilt + F3, UV = UVT + F * F2,
              mlp0T = UV + F2 * F, mlp0 = mlp0T + F2 * F, bmlp0 = mlp0 + F * F2, mlp2T = bmlp0 + F, mlp2 = mlp2T + F * F3,
              bmlp2 = mlp2 + F3 * F, size = bmlp2 + F3;
}

// Shared memory (floats) of a block holding M atoms, row tiles of RT, the second half's private copy X if PRIV.
// RT3 / RT3B: the row tiles of the two 3M-row U|V products (forward / backward; 0 = RT, resp. RT3). Also computed by
// GroupPath.sharedBytes (Java): keep the two equal. GW: floats a pair holds (GEO, or GEOP for the PV entry).
template <int RT3 = 0, int RT3B = 0, int GW = GEO>
struct GroupLayout {
    int S, V, A, B, GEOM, GP, ESH, X, TOTAL;
    __device__ __forceinline__ GroupLayout(int M, int RT, bool priv) {
        const int P = M * (M - 1) / 2, Mp = (M + RT - 1) / RT * RT;
        S = 0; V = S + M * F; A = V + M * F3; B = A + M * F3; GEOM = B + M * F3; GP = GEOM + P * GW;
        ESH = GP + 4 * P; X = ESH + ((M + 3) & ~3);
        TOTAL = X + (priv ? M * 6 * F : 0);
        // a partial row tile reads rows up to Mp - 1 of B (the widest input, ld 3F): keep them inside the block
        if (TOTAL < B + Mp * F3) TOTAL = B + Mp * F3;
        if constexpr (RT3 != 0 || RT3B != 0) {
            // the U|V products' partial last tiles read rows as [3M][F]: up to Mp3f - 1 of V forward, Mp3b - 1 of A
            // and B backward; B + Mp3 F bounds all three (for V loosely: with tiles of 14 / 27 it adds one row of F,
            // 512 B, at M = 5..7 only, where V's 28 rows would fit anyway; kept as measured on the card)
            const int R3 = RT3 == 0 ? RT : RT3, R3B = RT3B == 0 ? R3 : RT3B;
            const int Mp3f = (3 * M + R3 - 1) / R3 * R3, Mp3b = (3 * M + R3B - 1) / R3B * R3B, Mp3 = Mp3f > Mp3b ? Mp3f : Mp3b;
            if (TOTAL < B + Mp3 * F) TOTAL = B + Mp3 * F;
        }
    }
};

// Channel f's filter weights (3 x n_rbf) and biases of one layer into registers.
__device__ __forceinline__ void load_filter(const float* __restrict__ Ly, int f, float (&wf)[3][NR], float (&bf)[3]) {
#pragma unroll
    for (int c = 0; c < 3; ++c) {
        bf[c] = __ldg(Ly + LO::bfilt + c * F + f);
#pragma unroll
        for (int k = 0; k < NR; ++k) wf[c][k] = __ldg(Ly + LO::filt + (c * F + f) * NR + k);
    }
}

// out[m][j] = sum_k in[m][k] A[k][j] (+ bias[j]) for rows m < rows, J columns; thread owns j = tid + 128 c (c < C).
// The input is NSEG segments of K columns each (segment s: rows of in_s with stride ld_s, matrix rows s K ..).
// epi(m, ch, v0, v1, v2) gets the row's C results (unused ones 0) of channel ch = j0 (the thread's own), for m < rows only: a partial last tile of RT rows
// computes rows past the end from whatever the buffer holds there and drops them. K a multiple of 4 D.
template <int RT, int C, int NSEG, int H, int PD1, int PD, class Epi>
__device__ __forceinline__ void dense(int rows, const float* in0, int ld0, const float* in1, int ld1, int K,
                                      const float* __restrict__ A, int J, const float* __restrict__ bias, Epi epi) {
    constexpr int D = C == 1 ? PD1 : PD;
    const int j0 = threadIdx.x & 127;
    if (j0 >= J) return;   // J = 64 (readout): threads 64..127 idle
    for (int r0 = (threadIdx.x >> 7) * RT; r0 < rows; r0 += H * RT) {   // H = 2: the two halves take alternate tiles
        float acc[RT][C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const float b = bias ? __ldg(bias + j0 + 128 * c) : 0.0f;
#pragma unroll
            for (int r = 0; r < RT; ++r) acc[r][c] = b;
        }
#pragma unroll
        for (int s = 0; s < NSEG; ++s) {
            const float* in = s ? in1 : in0;
            const int ld = s ? ld1 : ld0;
            const float* As = A + (size_t)s * K * J + j0;
            // weights of the next D groups of 4 k in registers (a software pipeline)
            float wb[D][4][C];
#pragma unroll
            for (int st = 0; st < D; ++st)
#pragma unroll
                for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                    for (int c = 0; c < C; ++c) wb[st][kk][c] = __ldg(As + (size_t)(4 * st + kk) * J + 128 * c);
#pragma unroll 1
            for (int kb = 0; kb < K; kb += 4 * D) {
#pragma unroll
                for (int st = 0; st < D; ++st) {
                    const int k = kb + 4 * st, kn = k + 4 * D;
                    float w[4][C];
#pragma unroll
                    for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                        for (int c = 0; c < C; ++c) w[kk][c] = wb[st][kk][c];
                    if (kn < K) {
#pragma unroll
                        for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                            for (int c = 0; c < C; ++c) wb[st][kk][c] = __ldg(As + (size_t)(kn + kk) * J + 128 * c);
                    }
#pragma unroll
                    for (int r = 0; r < RT; ++r) {
                        const float4 x = *reinterpret_cast<const float4*>(in + (size_t)(r0 + r) * ld + k);
#pragma unroll
                        for (int c = 0; c < C; ++c) {
                            acc[r][c] = fmaf(x.x, w[0][c], acc[r][c]);
                            acc[r][c] = fmaf(x.y, w[1][c], acc[r][c]);
                            acc[r][c] = fmaf(x.z, w[2][c], acc[r][c]);
                            acc[r][c] = fmaf(x.w, w[3][c], acc[r][c]);
                        }
                    }
                }
            }
        }
#pragma unroll
        for (int r = 0; r < RT; ++r)
            if (r0 + r < rows) epi(r0 + r, j0, acc[r][0], C > 1 ? acc[r][C > 1 ? 1 : 0] : 0.0f, C > 2 ? acc[r][C > 2 ? 2 : 0] : 0.0f);
    }
}

// ---- the same products on the tensor cores (TC entries), 3xTF32 (from the probe's VTC, dense_tc) ----
// a b ~ a_s b_b + a_b b_s + a_b b_b (a_s b_s dropped) with each float32 operand split by split_tf32 into big + small.
// tf32 instructions exist from sm_80 on (every architecture of the fatbin); below it the entries would trap.
// The emulator (MOLTEN_EMU): the warp-wide mma in emu_mma_tf32 (fake_driver.cpp), reading operands as below.
#ifdef MOLTEN_EMU
inline float tf32_u2f(unsigned u) { float x; std::memcpy(&x, &u, 4); return x; }
inline unsigned f2u_bits(float x) { unsigned u; std::memcpy(&u, &x, 4); return u; }
#else
__device__ __forceinline__ float tf32_u2f(unsigned u) { return __uint_as_float(u); }
__device__ __forceinline__ unsigned f2u_bits(float x) { return __float_as_uint(x); }
#endif
// The split, in float32 bit patterns (the words mma takes): tf32 keeps 10 of the 23 mantissa bits, so one tf32 ulp
// is 0x2000 in the low bits and half of it 0x1000. The tensor core reads the top 19 bits of an operand and ignores
// the low 13 (truncation; emu_mma_tf32 masks them the same way), so big = bits(x) + 0x1000 passed raw is read as
// rna(x), ties away, exactly what cvt.rna.tf32.f32 gives (a carry into the exponent is the rounding up); small =
// x - (big & 0xffffe000) is exact in float32 and is passed raw too, so read truncated (< 2^-10 of small, <= 2^-21
// of x; cvt.rna would give 2^-11 of small). Per product the three mma then miss <= 2^-22 (a_s b_s) + 2 * 2^-21 =
// 1.25 * 2^-20 of |a b| against 0.75 * 2^-20 with two cvt.rna (big = rna(x), small = rna(x - big): the split of the
// TC entries up to 2026-11-30); measured on an H200 against float64 the forces' relative error was the same (<= 3.40e-6
// against <= 3.41e-6, 256 dipeptides). Why: cvt.rna has no SASS instruction of its own on sm_90 (~3.5 each: ~8 a
// split with the subtraction, ~80 % of dense_tc's instructions), this is an add, an and and a subtraction; 256 alanine
// dipeptides (k_group_n22_tc) ran 3.0 % faster (docs/performance-notes.md, "the fast 3xTF32 split"). A NaN x still
// reaches the products: its small is NaN (an Inf's too, as with cvt.rna).
__device__ __forceinline__ void split_tf32(float x, unsigned& big, unsigned& small) {
    big = f2u_bits(x) + 0x1000u;
    small = f2u_bits(x - tf32_u2f(big & 0xffffe000u));
}
// d += a b, one warp (all 32 lanes): a 16 x 8 (row), b 8 x 8 (col), d 16 x 8 float32. Fragments (PTX ISA,
// mma.m16n8k8 .tf32; g = lane >> 2, q = lane % 4): a0 (g, q), a1 (g + 8, q), a2 (g, q + 4), a3 (g + 8, q + 4);
// b0 (q, g), b1 (q + 4, g); d0 (g, 2q), d1 (g, 2q + 1), d2 (g + 8, 2q), d3 (g + 8, 2q + 1).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
#ifdef MOLTEN_EMU
    emu_mma_tf32(d, a, b);
#elif !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    __trap();
#endif
}

// dense() on the tensor cores: out^T = A^T in^T, the output columns j on the mma's M side (tiles of 16), the rows m
// on its N side (tiles of 8; rows >= `rows` read as zeros, never from the buffer: no padding room is needed), k in
// steps of 8. A warp owns a unit of 16 channels 16 u .. 16 u + 15 and its C column tiles (j = ch + 128 c, so that
// the epilogue gets channel ch's C values together, as in dense()); units u = warp, warp + NW, ..; for it the row
// tiles in chunks of NTC (4 C NTC accumulators; the chunking is fixed by ROWSMAX, the entry's bound, and chunks
// past the replica's rows are skipped). The k order inside a block of 16 is permuted so that a lane's B operand is
// one float4 of its row in shared memory: lane (g, q) loads in[m][k0 + 4q .. 4q + 3]; mma step s (0, 1) takes
// kappa = q <-> k0 + 4q + 2s, kappa = q + 4 <-> k0 + 4q + 2s + 1, and the A fragments (weights [K][J], __ldg, rows
// k: 8 consecutive columns a row) use the same map. Weights run through a register pipeline PF blocks of 16 k deep.
// The epilogue is called by the lane that holds (m, ch), not by thread ch: epi(m, ch, v0, v1, v2) once for every
// m < rows, ch < J / C; callers synchronise before channel-local passes. NSEG K must be a multiple of 16 PF.
template <int ROWSMAX, int C, int NSEG, int NW, int MAXT, int PF1, class Epi>
__device__ __forceinline__ void dense_tc(int rows, const float* in0, int ld0, const float* in1, int ld1, int K,
                                         const float* __restrict__ A, int J, const float* __restrict__ bias, Epi epi) {
    constexpr int NTM = (ROWSMAX + 7) / 8;                 // row tiles of 8 at most
    constexpr int NCH = (NTM * C + MAXT - 1) / MAXT;       // chunks of row tiles
    constexpr int NTC = (NTM + NCH - 1) / NCH;             // row tiles a chunk
    constexpr int PF = C == 1 ? PF1 : C == 2 && PF1 > 1 ? PF1 / 2 : 1;   // weight pipeline depth (blocks of 16 k)
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    const int nt = (rows + 7) >> 3;
    const int UJ = (C == 1 ? J : 128) / 16;
    const int KT = NSEG * K;
    for (int u = warp; u < UJ; u += NW) {
        const float* Au = A + 16 * u + g;
#pragma unroll 1
        for (int cc = 0; cc < NCH; ++cc) {
            const int t0 = cc * NTC;
            if (t0 >= nt) break;
            float acc[C][NTC][4];
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int i = 0; i < NTC; ++i)
#pragma unroll
                    for (int r = 0; r < 4; ++r) acc[c][i][r] = 0.0f;
            // raw weights of a block of 16 k: w[c][2 kk + h] = A[k0 + 4q + kk][16 u + g + 8 h + 128 c]
            float wb[PF][C][8];
            auto ldw = [&](float (&w)[C][8], int k0) {
                const float* p = Au + (size_t)(k0 + 4 * q) * J;
#pragma unroll
                for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                    for (int c = 0; c < C; ++c)
#pragma unroll
                        for (int h = 0; h < 2; ++h) w[c][2 * kk + h] = __ldg(p + (size_t)kk * J + 128 * c + 8 * h);
            };
#pragma unroll
            for (int st = 0; st < PF; ++st) ldw(wb[st], 16 * st);
#pragma unroll 1
            for (int kb0 = 0; kb0 < KT; kb0 += 16 * PF) {
#pragma unroll
                for (int st = 0; st < PF; ++st) {
                    const int kb = kb0 + 16 * st;
                    float w[C][8];
#pragma unroll
                    for (int c = 0; c < C; ++c)
#pragma unroll
                        for (int e = 0; e < 8; ++e) w[c][e] = wb[st][c][e];
                    if (kb + 16 * PF < KT) ldw(wb[st], kb + 16 * PF);
                    const bool s1 = NSEG == 2 && kb >= K;
                    const float* in = s1 ? in1 : in0;
                    const int ld = s1 ? ld1 : ld0, k = s1 ? kb - K : kb;
                    float4 x[NTC];
#pragma unroll
                    for (int i = 0; i < NTC; ++i) {
                        const int m = 8 * (t0 + i) + g;
                        x[i] = m < rows ? *reinterpret_cast<const float4*>(in + (size_t)m * ld + k + 4 * q)
                                        : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                    }
#pragma unroll
                    for (int s = 0; s < 2; ++s) {
                        unsigned bb[NTC][2], bs[NTC][2];
#pragma unroll
                        for (int i = 0; i < NTC; ++i) {
                            split_tf32(s ? x[i].z : x[i].x, bb[i][0], bs[i][0]);   // kappa = q:     k0 + 4q + 2s
                            split_tf32(s ? x[i].w : x[i].y, bb[i][1], bs[i][1]);   // kappa = q + 4: k0 + 4q + 2s + 1
                        }
#pragma unroll
                        for (int c = 0; c < C; ++c) {
                            unsigned ab[4], as[4];
                            split_tf32(w[c][4 * s], ab[0], as[0]);       // a0: (ch g,     kappa q)
                            split_tf32(w[c][4 * s + 1], ab[1], as[1]);   // a1: (ch g + 8, kappa q)
                            split_tf32(w[c][4 * s + 2], ab[2], as[2]);   // a2: (ch g,     kappa q + 4)
                            split_tf32(w[c][4 * s + 3], ab[3], as[3]);   // a3: (ch g + 8, kappa q + 4)
#pragma unroll
                            for (int i = 0; i < NTC; ++i)
                                if (t0 + i < nt) {   // warp-uniform; small terms first
                                    mma_tf32(acc[c][i], as, bb[i]);
                                    mma_tf32(acc[c][i], ab, bs[i]);
                                    mma_tf32(acc[c][i], ab, bb[i]);
                                }
                        }
                    }
                }
            }
            float bv[C][2];
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int h = 0; h < 2; ++h) bv[c][h] = bias ? __ldg(bias + 16 * u + g + 8 * h + 128 * c) : 0.0f;
#pragma unroll
            for (int i = 0; i < NTC; ++i)
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    const int m = 8 * (t0 + i) + 2 * q + (r & 1), h = r >> 1;
                    if (m < rows)
                        epi(m, 16 * u + g + 8 * h, acc[0][i][r] + bv[0][h], C > 1 ? acc[C > 1 ? 1 : 0][i][r] + bv[C > 1 ? 1 : 0][h] : 0.0f,
                            C > 2 ? acc[C > 2 ? 2 : 0][i][r] + bv[C > 2 ? 2 : 0][h] : 0.0f);
                }
        }
    }
}

// dense() (TC false) or dense_tc() (TC true, 4 H warps) for `rows` <= ROWSMAX rows
template <bool TC, int ROWSMAX, int RT, int C, int NSEG, int H, int PD1, int PD, int MAXT, int TCPF, class Epi>
__device__ __forceinline__ void dense2(int rows, const float* in0, int ld0, const float* in1, int ld1, int K,
                                       const float* __restrict__ A, int J, const float* __restrict__ bias, Epi epi) {
    if constexpr (TC) dense_tc<ROWSMAX, C, NSEG, 4 * H, MAXT, TCPF>(rows, in0, ld0, in1, ld1, K, A, J, bias, epi);
    else dense<RT, C, NSEG, H, PD1, PD>(rows, in0, ld0, in1, ld1, K, A, J, bias, epi);
}

// Shared-memory accumulation of NA values to distinct addresses: all loads first, then all stores (the compiler
// cannot know that the addresses differ); atomics when two halves share the rows (HA = 2).
template <int HA, int NA>
__device__ __forceinline__ void radd_n(float* const* dst, const float* add) {
    if (HA == 1) {
        float v[NA];
#pragma unroll
        for (int q = 0; q < NA; ++q) v[q] = *dst[q];
#pragma unroll
        for (int q = 0; q < NA; ++q) *dst[q] = v[q] + add[q];
    } else {
#pragma unroll
        for (int q = 0; q < NA; ++q) atomicAdd(dst[q], add[q]);
    }
}

// Sums 4 values over a warp (6 shuffles) and adds them to dst[0..3] (shared memory, one atomic per value and warp).
__device__ __forceinline__ void warp_add4(float a0, float a1, float a2, float a3, float* dst) {
    const int lane = threadIdx.x & 31;
    const bool hi = lane & 16, h8 = lane & 8;
    float k0 = hi ? a2 : a0, k1 = hi ? a3 : a1;
    const float s0 = hi ? a0 : a2, s1 = hi ? a1 : a3;
    k0 += __shfl_xor_sync(0xffffffffu, s0, 16);
    k1 += __shfl_xor_sync(0xffffffffu, s1, 16);
    float k = h8 ? k1 : k0;
    const float s = h8 ? k0 : k1;
    k += __shfl_xor_sync(0xffffffffu, s, 8);
    k += __shfl_xor_sync(0xffffffffu, k, 4);
    k += __shfl_xor_sync(0xffffffffu, k, 2);
    k += __shfl_xor_sync(0xffffffffu, k, 1);
    if ((lane & 7) == 0) atomicAdd(dst + (lane >> 3), k);   // lanes 0, 8, 16, 24 hold values 0, 1, 2, 3
}

}  // namespace grp
#include "molten_group_pairs.cuh"   // the PV entry's pair loops (use radd_n, warp_add4 above)
namespace grp {

// Energies and forces of replica blockIdx.x (atoms [rep_start[b], rep_start[b + 1]), at most NMAX), 128 H threads.
// RT: dense row tile; H = 2: two threads per channel, the second half's pair sums in X (PRIV); RACC: the forward
// pair loop keeps atom i's sums in registers over j (H = 1 only). PD1 / PD: weight pipeline depth in groups of 4 k.
// TC: the dense products on the tensor cores (dense_tc: MAXT accumulator tiles, TCPF weight pipeline depth in
// blocks of 16 k); the epilogues then run on the lane holding (row, channel), so they address channel ch, not f.
// RT3_ / RT3B_: the row tiles of the 3M-row U|V products, forward / backward (0 = RT, resp. the forward's; SIMT only:
// dense_tc has no row tiles). PV: the pair-loop entry's loops (molten_group_pairs.cuh; RACC there also with H = 2 and
// in the backward loop; geo holds GEOP floats a pair, d rbf / dd included).
template <int NMAX, int RT, int H, bool RACC, int PD1, int PD, bool TC = false, int MAXT = 6, int TCPF = 2,
          int RT3_ = 0, int RT3B_ = 0, bool PV = false>
__device__ __forceinline__ void group_force(const Net& n, float* sm) {
    static_assert(!RACC || H == 1 || PV, "register accumulation with two threads a channel: the PV loops only");
    constexpr int RT3 = RT3_ == 0 ? RT : RT3_, RT3B = RT3B_ == 0 ? RT3 : RT3B_;   // forward, backward U|V
    constexpr int GW = PV ? GEOP : GEO;   // floats a pair holds in geo
    using Layout = GroupLayout<RT3_, RT3B_, GW>;
    constexpr bool PRIV = H == 2;
    constexpr int F6 = 6 * F;
    constexpr int NTH = 128 * H;
    const int a0 = n.rep_start[blockIdx.x], M = n.rep_start[blockIdx.x + 1] - a0, P = M * (M - 1) / 2;
    {
        const Layout sized((int)n.group_n, RT, PRIV);
        if (M > NMAX || M > n.group_n || M < 1 || 4LL * sized.TOTAL > n.group_smem || blockDim.x != NTH || n.F != F
            || n.T != NT || n.nrbf != NR || n.FR != FH) {
#ifdef MOLTEN_EMU
            emu_fail("k_group: replica size, shared memory, block size or model shape the host did not check");
#else
            __trap();
#endif
        }
    }
    const Layout L(M, RT, PRIV);
    float* S = sm + L.S;        // [M][F]   s, later g_s
    float* V = sm + L.V;        // [M][3F]  v (x, y, z rows of F), later g_v
    float* A = sm + L.A;        // [M][3F]  work
    float* B = sm + L.B;        // [M][3F]  work
    float* geo = sm + L.GEOM;   // [P][GEO]
    float* gp = sm + L.GP;      // [P][4]  dE/dd, dE/du (x, y, z) of pair (i < j), r = r_j - r_i
    float* esh = sm + L.ESH;    // [M] sum over channels of W6 . silu(z5), per atom
    float* X = sm + L.X;        // [M][6F] second half's pair-loop sums (PRIV only)
    constexpr int HA = 1;       // H = 2 accumulates into X, never with atomics
    const int f = threadIdx.x & 127, half = threadIdx.x >> 7, tid = threadIdx.x;
    const bool mine = PRIV && half == 1;   // this thread accumulates into X
    const float* gw = n.group_w;
    const float* emb = gw + 4;
    const float* atomref = gw + n.group_ar;
    const float* layers = gw + n.group_lay;
    const float* W5T = gw + n.group_ro;
    const float* W5 = W5T + F * FH;
    const float* b5 = W5 + FH * F;
    const float* W6 = b5 + FH;
    const float rc = (float)n.cutoff, gamma = (float)n.gamma;
    const float kpi = 3.14159265358979f / rc;
    float* scr0 = n.group_scr + (size_t)blockIdx.x * NT * n.group_n * NFLD * F;   // this block's slice
    float* scr = scr0 + f;                                                         // channel f
    auto SC = [&](int t, int m, int fld) -> float* { return scr + ((size_t)(t * M + m) * NFLD + fld) * F; };
    // the same for channel ch (dense epilogues: under TC the lane finishing (m, ch) is not thread ch)
    auto SCc = [&](int t, int m, int fld, int ch) -> float* {
        if constexpr (TC) return scr0 + ch + ((size_t)(t * M + m) * NFLD + fld) * F;
        else { (void)ch; return SC(t, m, fld); }   // SIMT: ch is f (the code of the SIMT entries as before)
    };

    // ---- geometry of every unordered pair (i < j), thread per pair
    for (int q = tid; q < P; q += NTH) {
        int rem = q, i = 0;
        while (rem >= M - 1 - i) { rem -= M - 1 - i; ++i; }
        const int j = i + 1 + rem;
        const double* pi = n.pos + 3 * (size_t)(a0 + i);
        const double* pj = n.pos + 3 * (size_t)(a0 + j);
        const float rx = (float)(pj[0] - pi[0]), ry = (float)(pj[1] - pi[1]), rz = (float)(pj[2] - pi[2]);
        const float d = sqrtf(rx * rx + ry * ry + rz * rz);
        float* e = geo + (size_t)q * GW;
        const float inv = 1.0f / d;
        e[0] = d;
        e[1] = d < rc ? 0.5f * (cosf(kpi * d) + 1.0f) : 0.0f;      // fcut
        e[2] = d < rc ? -0.5f * kpi * sinf(kpi * d) : 0.0f;        // dfcut/dd (1/Å)
        e[3] = d < rc ? 1.0f : 0.0f;
        e[4] = rx * inv; e[5] = ry * inv; e[6] = rz * inv; e[7] = 0.0f;
        for (int k = 0; k < NR; ++k) {
            const float t = d - rc * (float)k / (float)(NR - 1);
            e[8 + k] = expf(-gamma * t * t);
        }
        if constexpr (PV)   // d rbf_k / dd once per pair, the expression of the default backward loop (same bits)
            for (int k = 0; k < NR; ++k) e[8 + NR + k] = -2.0f * gamma * (d - rc * (float)k / (float)(NR - 1)) * e[8 + k];
        gp[4 * q] = gp[4 * q + 1] = gp[4 * q + 2] = gp[4 * q + 3] = 0.0f;
    }
    for (int m = tid; m < M; m += NTH) esh[m] = 0.0f;
    // ---- embedding: s = Emb[Z], v = 0
    for (int m = half; m < M; m += H) {
        S[m * F + f] = __ldg(emb + n.species[a0 + m] * F + f);
        V[m * F3 + f] = V[m * F3 + F + f] = V[m * F3 + F2 + f] = 0.0f;
    }
    __syncthreads();

    // ======================= forward =======================
    for (int t = 0; t < NT; ++t) {
        const float* Ly = layers + (size_t)t * LO::size;
        // -- message: phi(s) = phi2 SiLU(phi0 s)
        dense2<TC, NMAX, RT, 1, 1, H, PD1, PD, MAXT, TCPF>(M, S, F, nullptr, 0, F, Ly + LO::phi0T, F, Ly + LO::bphi0, [&](int m, int ch, float z, float, float) {
            *SCc(t, m, FZ1, ch) = z;
            B[m * F3 + ch] = silu(z);
        });
        __syncthreads();
        dense2<TC, NMAX, RT, 3, 1, H, PD1, PD, MAXT, TCPF>(M, B, F3, nullptr, 0, F, Ly + LO::phi2T, F3, Ly + LO::bphi2, [&](int m, int ch, float p0, float p1, float p2) {
            float* a = A + m * F3 + ch;
            a[0] = p0; a[F] = p1; a[F2] = p2;                    // [x_vv | x_s | x_vs] parts of phi, channel ch
            *SCc(t, m, FPHI, ch) = p0; *SCc(t, m, FPHI + 1, ch) = p1; *SCc(t, m, FPHI + 2, ch) = p2;
        });
        __syncthreads();
        // -- message pair loop (channel f only): S += ds, B = dv, v before the message saved
        float wf[3][NR], bf[3];
        load_filter(Ly, f, wf, bf);
        for (int m = half; m < M; m += H) {
#pragma unroll
            for (int a = 0; a < 3; ++a) {
                *SC(t, m, FVM + a) = V[m * F3 + a * F + f];
                B[m * F3 + a * F + f] = 0.0f;
            }
            if (PRIV)
#pragma unroll
                for (int q = 0; q < 4; ++q) X[m * F6 + q * F + f] = 0.0f;
        }
        if (H > 1) __syncthreads();
        if constexpr (PV)
            pair_fwd_pv<H>(M, f, half, geo, A, V, mine ? X : S, mine ? F6 : F, mine ? X + F : B, mine ? F6 : F3, wf, bf);
        else
        {
            int p = 0;
            for (int i = 0; i < M; ++i) {
                // RACC: atom i's sums (ds, dv x, y, z) in registers over j, its A and V rows read once
                float ri[4] = {0.0f, 0.0f, 0.0f, 0.0f}, ai[3], vi[3];
                if (RACC) {
#pragma unroll
                    for (int a = 0; a < 3; ++a) { ai[a] = A[i * F3 + a * F + f]; vi[a] = V[i * F3 + a * F + f]; }
                }
                for (int j = i + 1; j < M; ++j, ++p) {
                    const float* e = geo + p * GEO;
                    if (e[3] == 0.0f || (H > 1 && (p & 1) != half)) continue;
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
                    const int mi = i, mj = j;
                    if (RACC) {
                        const float* Aj = A + mj * F3 + f;
                        const float* Vj = V + mj * F3 + f;
                        float* Bj = B + mj * F3 + f;
                        float* Sj = S + mj * F + f;
                        const float xvv_ij = Aj[0] * w0, xs_ij = Aj[F] * w1, xvs_ij = Aj[F2] * w2;
                        const float xvv_ji = ai[0] * w0, xs_ji = ai[1] * w1, xvs_ji = ai[2] * w2;
                        ri[0] += xs_ij;
                        ri[1] += xvv_ij * Vj[0] + ux * xvs_ij;
                        ri[2] += xvv_ij * Vj[F] + uy * xvs_ij;
                        ri[3] += xvv_ij * Vj[F2] + uz * xvs_ij;
                        float* dst[4] = {Sj, Bj, Bj + F, Bj + F2};
                        const float add[4] = {xs_ji, xvv_ji * vi[0] - ux * xvs_ji, xvv_ji * vi[1] - uy * xvs_ji, xvv_ji * vi[2] - uz * xvs_ji};
                        radd_n<HA, 4>(dst, add);
                        continue;
                    }
                    const float* Ai = A + mi * F3 + f;
                    const float* Aj = A + mj * F3 + f;
                    const float* Vi = V + mi * F3 + f;
                    const float* Vj = V + mj * F3 + f;
                    float* Bi = mine ? X + mi * F6 + F + f : B + mi * F3 + f;   // dv (x, y, z at +0, +F, +2F)
                    float* Bj = mine ? X + mj * F6 + F + f : B + mj * F3 + f;
                    float* Si = mine ? X + mi * F6 + f : S + mi * F + f;          // ds
                    float* Sj = mine ? X + mj * F6 + f : S + mj * F + f;
                    // edge i <- j (u = u_ij) and edge j <- i (u_ji = -u_ij)
                    const float xvv_ij = Aj[0] * w0, xs_ij = Aj[F] * w1, xvs_ij = Aj[F2] * w2;
                    const float xvv_ji = Ai[0] * w0, xs_ji = Ai[F] * w1, xvs_ji = Ai[F2] * w2;
                    const float vjx = Vj[0], vjy = Vj[F], vjz = Vj[F2], vix = Vi[0], viy = Vi[F], viz = Vi[F2];
                    float* dst[8] = {Si, Sj, Bi, Bi + F, Bi + F2, Bj, Bj + F, Bj + F2};
                    const float add[8] = {xs_ij, xs_ji,
                                          xvv_ij * vjx + ux * xvs_ij, xvv_ij * vjy + uy * xvs_ij, xvv_ij * vjz + uz * xvs_ij,
                                          xvv_ji * vix - ux * xvs_ji, xvv_ji * viy - uy * xvs_ji, xvv_ji * viz - uz * xvs_ji};
                    radd_n<HA, 8>(dst, add);
                }
                if (RACC && i < M - 1) {
                    float* Bi = B + i * F3 + f;
                    float* dst[4] = {S + i * F + f, Bi, Bi + F, Bi + F2};
                    radd_n<HA, 4>(dst, ri);
                }
            }
        }
        if (H > 1) __syncthreads();
        for (int m = half; m < M; m += H) {
#pragma unroll
            for (int a = 0; a < 3; ++a) V[m * F3 + a * F + f] += B[m * F3 + a * F + f] + (PRIV ? X[m * F6 + F + a * F + f] : 0.0f);
            if (PRIV) S[m * F + f] += X[m * F6 + f];
        }
        __syncthreads();
        // -- update: Uv (-> A), Vv (-> B) over the 3M Cartesian rows of v
        dense2<TC, 3 * NMAX, RT3, 2, 1, H, PD1, PD, MAXT, TCPF>(3 * M, V, F, nullptr, 0, F, Ly + LO::UVT, F2, nullptr, [&](int r, int ch, float u, float vv, float) {
            A[r * F + ch] = u;
            B[r * F + ch] = vv;
            const int m = r / 3, a = r - 3 * m;
            *SCc(t, m, FUV + a, ch) = u;
            *SCc(t, m, FVV + a, ch) = vv;
        });
        // n and sp (channel f): n -> B[m][0], sp -> B[m][1] (over this channel's Vv x, y); under TC other lanes
        // wrote channel f's Uv, Vv
        if (H > 1 || TC) __syncthreads();
        for (int m = half; m < M; m += H) {
            const float* a = A + m * F3 + f;
            float* b = B + m * F3 + f;
            const float vx = b[0], vy = b[F], vz = b[F2];
            const float nv = sqrtf(vx * vx + vy * vy + vz * vz + 1e-8f);
            const float sp = a[0] * vx + a[F] * vy + a[F2] * vz;
            b[0] = nv;
            b[F] = sp;
        }
        __syncthreads();
        dense2<TC, NMAX, RT, 1, 2, H, PD1, PD, MAXT, TCPF>(M, S, F, B, F3, F, Ly + LO::mlp0T, F, Ly + LO::bmlp0, [&](int m, int ch, float z, float, float) {
            *SCc(t, m, FZ3, ch) = z;
            B[m * F3 + F2 + ch] = silu(z);
        });
        __syncthreads();
        dense2<TC, NMAX, RT, 3, 1, H, PD1, PD, MAXT, TCPF>(M, B + F2, F3, nullptr, 0, F, Ly + LO::mlp2T, F3, Ly + LO::bmlp2, [&](int m, int ch, float avv, float asv, float ass) {
            *SCc(t, m, FA, ch) = avv; *SCc(t, m, FA + 1, ch) = asv; *SCc(t, m, FA + 2, ch) = ass;
            float* v = V + m * F3 + ch;
            const float* u = A + m * F3 + ch;
            v[0] += avv * u[0]; v[F] += avv * u[F]; v[F2] += avv * u[F2];
            S[m * F + ch] += ass + asv * B[m * F3 + F + ch];
        });
        __syncthreads();
    }
    // -- readout: z5 = W5 s + b5 (64 columns); y_m = W6 . silu(z5); g_z5 = scale W6 o silu'(z5) -> B[m][0..63]
    {
        const float w6 = f < FH ? __ldg(W6 + f) : 0.0f, sc = (float)n.scale;
        dense2<TC, NMAX, RT, 1, 1, H, PD1, PD, MAXT, TCPF>(M, S, F, nullptr, 0, F, W5T, FH, b5, [&](int m, int ch, float z, float, float) {
            const float w6c = TC ? __ldg(W6 + ch) : w6;   // TC: the lane holding (m, ch) is not thread ch
            atomicAdd(esh + m, w6c * silu(z));
            B[m * F3 + ch] = sc * w6c * dsilu(z);
        });
        __syncthreads();
        // ======================= backward =======================
        // g_s = W5^T g_z5 (-> S), g_v = 0 (-> V)
        dense2<TC, NMAX, RT, 1, 1, H, PD1, PD, MAXT, TCPF>(M, B, F3, nullptr, 0, FH, W5, F, nullptr, [&](int m, int ch, float gs, float, float) {
            S[m * F + ch] = gs;
            V[m * F3 + ch] = V[m * F3 + F + ch] = V[m * F3 + F2 + ch] = 0.0f;
        });
        __syncthreads();
    }
    for (int t = NT - 1; t >= 0; --t) {
        const float* Ly = layers + (size_t)t * LO::size;
        // -- update backward. pass 1 (channel f): g_a -> A, g_sp -> B[m][1]
        for (int m = half; m < M; m += H) {
            const float gs = S[m * F + f];
            const float* gv = V + m * F3 + f;
            const float ux = *SC(t, m, FUV), uy = *SC(t, m, FUV + 1), uz = *SC(t, m, FUV + 2);
            const float vx = *SC(t, m, FVV), vy = *SC(t, m, FVV + 1), vz = *SC(t, m, FVV + 2);
            const float asv = *SC(t, m, FA + 1);
            float* a = A + m * F3 + f;
            a[0] = gv[0] * ux + gv[F] * uy + gv[F2] * uz;    // g_a_vv
            a[F] = gs * (ux * vx + uy * vy + uz * vz);       // g_a_sv = g_s' sp
            a[F2] = gs;                                      // g_a_ss
            B[m * F3 + F + f] = gs * asv;                    // g_sp
        }
        __syncthreads();
        // g_z3 = (mlp2^T g_a) o silu'(z3) -> B[m][0]
        dense2<TC, NMAX, RT, 1, 1, H, PD1, PD, MAXT, TCPF>(M, A, F3, nullptr, 0, F3, Ly + LO::mlp2, F, nullptr, [&](int m, int ch, float gh, float, float) {
            B[m * F3 + ch] = gh * dsilu(*SCc(t, m, FZ3, ch));
        });
        __syncthreads();
        // [g_s | g_n] = mlp0^T g_z3: g_s added to S, g_n -> B[m][2]
        dense2<TC, NMAX, RT, 2, 1, H, PD1, PD, MAXT, TCPF>(M, B, F3, nullptr, 0, F, Ly + LO::mlp0, F2, nullptr, [&](int m, int ch, float gs, float gn, float) {
            S[m * F + ch] += gs;
            B[m * F3 + F2 + ch] = gn;
        });
        __syncthreads();
        // pass 2 (channel f): g_Uv -> A (rows 3m + a of F), g_Vv -> B
        for (int m = half; m < M; m += H) {
            const float gsp = B[m * F3 + F + f], gn = B[m * F3 + F2 + f];
            const float avv = *SC(t, m, FA);
            float u[3], v[3];
#pragma unroll
            for (int a = 0; a < 3; ++a) { u[a] = *SC(t, m, FUV + a); v[a] = *SC(t, m, FVV + a); }
            const float nv = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + 1e-8f);
            const float gnn = gn / nv;
#pragma unroll
            for (int a = 0; a < 3; ++a) {
                const float gv = V[m * F3 + a * F + f];
                A[m * F3 + a * F + f] = gv * avv + gsp * v[a];
                B[m * F3 + a * F + f] = gsp * u[a] + gnn * v[a];
            }
        }
        __syncthreads();
        // g_v += U^T g_Uv + V^T g_Vv over the 3M Cartesian rows
        dense2<TC, 3 * NMAX, RT3B, 1, 2, H, PD1, PD, MAXT, TCPF>(3 * M, A, F, B, F, F, Ly + LO::UV, F, nullptr, [&](int r, int ch, float gv, float, float) { V[r * F + ch] += gv; });
        __syncthreads();
        // -- message backward: pair loop (channel f): g_phi -> A, g_v(senders) -> B, pair sums of g_d, g_u -> gp
        float wf[3][NR], bf[3];
        load_filter(Ly, f, wf, bf);
        for (int m = half; m < M; m += H) {
#pragma unroll
            for (int a = 0; a < 3; ++a) A[m * F3 + a * F + f] = B[m * F3 + a * F + f] = 0.0f;
            if (PRIV)
#pragma unroll
                for (int q = 0; q < 6; ++q) X[m * F6 + q * F + f] = 0.0f;
        }
        if (H > 1) __syncthreads();
        if constexpr (PV)
            pair_bwd_pv<H>(M, f, half, geo, gp, scr + (size_t)t * M * NFLD * F, S, V, mine ? X : A, mine ? F6 : F3,
                           mine ? X + F3 : B, mine ? F6 : F3, wf, bf);
        else
        {
            int p = 0;
            for (int i = 0; i < M; ++i) {
                const int mi = i;
                const float phi0 = *SC(t, mi, FPHI), phi1 = *SC(t, mi, FPHI + 1), phi2 = *SC(t, mi, FPHI + 2);
                const float vix = *SC(t, mi, FVM), viy = *SC(t, mi, FVM + 1), viz = *SC(t, mi, FVM + 2);
                for (int j = i + 1; j < M; ++j, ++p) {
                    const float* e = geo + p * GEO;
                    // H = 2: the halves take alternate pairs; warp_add4's shuffles stay warp-uniform (p is)
                    if (e[3] == 0.0f || (H > 1 && (p & 1) != half)) continue;
                    const float d = e[0], fc = e[1], dfc = e[2], ux = e[4], uy = e[5], uz = e[6];
                    float ha[3] = {bf[0], bf[1], bf[2]}, hb[3] = {0.0f, 0.0f, 0.0f};   // two chains each (latency)
                    float qa[3] = {0.0f, 0.0f, 0.0f}, qb[3] = {0.0f, 0.0f, 0.0f};
#pragma unroll
                    for (int k = 0; k < NR; k += 2) {
                        const float2 rb = *reinterpret_cast<const float2*>(e + 8 + k);
                        const float da = -2.0f * gamma * (d - rc * (float)k / (float)(NR - 1)) * rb.x;         // d rbf_k / dd
                        const float db = -2.0f * gamma * (d - rc * (float)(k + 1) / (float)(NR - 1)) * rb.y;
#pragma unroll
                        for (int c = 0; c < 3; ++c) {
                            ha[c] = fmaf(wf[c][k], rb.x, ha[c]); hb[c] = fmaf(wf[c][k + 1], rb.y, hb[c]);
                            qa[c] = fmaf(wf[c][k], da, qa[c]); qb[c] = fmaf(wf[c][k + 1], db, qb[c]);
                        }
                    }
                    const float h0 = ha[0] + hb[0], h1 = ha[1] + hb[1], h2 = ha[2] + hb[2];
                    const float q0 = qa[0] + qb[0], q1 = qa[1] + qb[1], q2 = qa[2] + qb[2];
                    const float w0 = h0 * fc, w1 = h1 * fc, w2 = h2 * fc;
                    const float dw0 = q0 * fc + h0 * dfc, dw1 = q1 * fc + h1 * dfc, dw2 = q2 * fc + h2 * dfc;   // dW/dd
                    const int mj = j;
                    const float pj0 = *SC(t, mj, FPHI), pj1 = *SC(t, mj, FPHI + 1), pj2 = *SC(t, mj, FPHI + 2);
                    const float vjx = *SC(t, mj, FVM), vjy = *SC(t, mj, FVM + 1), vjz = *SC(t, mj, FVM + 2);
                    const float gsi = S[mi * F + f], gsj = S[mj * F + f];
                    const float* Gi = V + mi * F3 + f;
                    const float* Gj = V + mj * F3 + f;
                    const float gix = Gi[0], giy = Gi[F], giz = Gi[F2];
                    const float gjx = Gj[0], gjy = Gj[F], gjz = Gj[F2];
                    // edge i <- j
                    const float a_vv = gix * vjx + giy * vjy + giz * vjz, a_vs = gix * ux + giy * uy + giz * uz;
                    // edge j <- i (u_ji = -u)
                    const float b_vv = gjx * vix + gjy * viy + gjz * viz, b_vs = -(gjx * ux + gjy * uy + gjz * uz);
                    float* Pj = mine ? X + mj * F6 + f : A + mj * F3 + f;        // g_phi (at +0, +F, +2F)
                    float* Pi = mine ? X + mi * F6 + f : A + mi * F3 + f;
                    const float gd = a_vv * pj0 * dw0 + gsi * pj1 * dw1 + a_vs * pj2 * dw2 +
                                     b_vv * phi0 * dw0 + gsj * phi1 * dw1 + b_vs * phi2 * dw2;
                    float* Bj = mine ? X + mj * F6 + F3 + f : B + mj * F3 + f;   // g_v of the senders
                    float* Bi = mine ? X + mi * F6 + F3 + f : B + mi * F3 + f;
                    const float cj = pj0 * w0, ci = phi0 * w0;
                    float* dst[12] = {Pj, Pj + F, Pj + F2, Pi, Pi + F, Pi + F2, Bj, Bj + F, Bj + F2, Bi, Bi + F, Bi + F2};
                    const float add[12] = {a_vv * w0, gsi * w1, a_vs * w2, b_vv * w0, gsj * w1, b_vs * w2,
                                           gix * cj, giy * cj, giz * cj, gjx * ci, gjy * ci, gjz * ci};
                    radd_n<HA, 12>(dst, add);
                    const float ej = pj2 * w2, ei = phi2 * w2;   // g_u (w.r.t. u_ij) = G_i x_vs_ij - G_j x_vs_ji
                    warp_add4(gd, gix * ej - gjx * ei, giy * ej - gjy * ei, giz * ej - gjz * ei, gp + (size_t)p * 4);
                }
            }
        }
        if (H > 1) __syncthreads();
        for (int m = half; m < M; m += H)
#pragma unroll
            for (int a = 0; a < 3; ++a) {
                V[m * F3 + a * F + f] += B[m * F3 + a * F + f] + (PRIV ? X[m * F6 + F3 + a * F + f] : 0.0f);
                if (PRIV) A[m * F3 + a * F + f] += X[m * F6 + a * F + f];
            }
        __syncthreads();
        // g_z1 = (phi2^T g_phi) o silu'(z1) -> B[m][0]
        dense2<TC, NMAX, RT, 1, 1, H, PD1, PD, MAXT, TCPF>(M, A, F3, nullptr, 0, F3, Ly + LO::phi2, F, nullptr, [&](int m, int ch, float gh, float, float) {
            B[m * F3 + ch] = gh * dsilu(*SCc(t, m, FZ1, ch));
        });
        __syncthreads();
        // g_s += phi0^T g_z1
        dense2<TC, NMAX, RT, 1, 1, H, PD1, PD, MAXT, TCPF>(M, B, F3, nullptr, 0, F, Ly + LO::phi0, F, nullptr, [&](int m, int ch, float gs, float, float) { S[m * F + ch] += gs; });
        __syncthreads();
    }
    // ---- pair gradients to forces: g_r = g_d u + (g_u - (u . g_u) u) / d (in place), then F_k = -(sum_{i<k} g_r - sum_{j>k} g_r)
    for (int q = tid; q < P; q += NTH) {
        const float* e = geo + (size_t)q * GW;
        float* h = gp + (size_t)q * 4;
        const float d = e[0], ux = e[4], uy = e[5], uz = e[6];
        const float gd = h[0], gx = h[1], gy = h[2], gz = h[3];
        const float ug = ux * gx + uy * gy + uz * gz, id = e[3] != 0.0f ? 1.0f / d : 0.0f;
        h[0] = gd * ux + (gx - ug * ux) * id;
        h[1] = gd * uy + (gy - ug * uy) * id;
        h[2] = gd * uz + (gz - ug * uz) * id;
    }
    __syncthreads();
    for (int k = tid; k < M; k += NTH) {
        float acc[3] = {0.0f, 0.0f, 0.0f};   // dE/dr_k
        int p = 0;
        for (int i = 0; i < M; ++i)
            for (int j = i + 1; j < M; ++j, ++p) {
                if (j == k) { acc[0] += gp[4 * p]; acc[1] += gp[4 * p + 1]; acc[2] += gp[4 * p + 2]; }
                else if (i == k) { acc[0] -= gp[4 * p]; acc[1] -= gp[4 * p + 1]; acc[2] -= gp[4 * p + 2]; }
            }
        const int a = a0 + k;
        n.e_atom[a] = n.scale * ((double)esh[k] + n.b6) + (double)__ldg(atomref + n.species[a]);
        force_close(n, a, -acc[0], -acc[1], -acc[2]);
    }
    if (n.integrator != MOLTEN_INT_NONE && blockIdx.x == 0 && threadIdx.x == 0) *n.step += 1ull;
}
}  // namespace grp
