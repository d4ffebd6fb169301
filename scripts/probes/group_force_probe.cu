// Probe (issue 29 section 3, "replica groups on chip"): can a channel-parallel group kernel compute the student
// model's energies AND exact forces for a batch of small molecules faster than the present stage engine?
// Yardsticks (H200, engine of today): 1,024 ethanols at 443,547 replica-steps/s (2.31 ms a step, forces included),
// 256 alanine dipeptides at 136,713 (1.87 ms a step); the targets 700,000 / 200,000 replica-steps/s leave 1.46 ms /
// 1.28 ms a step for everything, the force evaluation well under that.
//
// What is measured: one launch of group_force<N, G, RT, H> computes, for R replicas of one N-atom molecule (positions
// differ per replica), every replica's energy (eV) and forces (eV/Å): the PaiNN forward pass of
// /work/shared/design/student-model.md (F = 128, T = 3, n_rbf = 20) and its exact analytic backward pass (the
// spec's appendix), in float32. CUDA-event time per evaluation over 200 back-to-back launches after 20 warm-ups;
// attribution timings of the same binary (mode argument, results then not checked): forward only, without the
// message pair loops, both.
//
// Organisation (docs/performance-notes.md, "Design note: replica groups on chip"):
// - a block of 128 H threads owns G molecules (M = G N rows); thread f (mod 128) owns channel f in the
//   channel-separable parts (message pair loops, vector norms, residual updates): no exchange there. H = 2: two
//   threads per channel, the halves take alternate row tiles of the dense layers, alternate rows of the per-channel
//   passes and alternate pairs of the pair loops (accumulated with shared-memory atomics, or for N > 12 into a
//   private copy X of the second half, summed after the loop);
// - dense layers (dense() below): each thread owns C output columns (f, f + 128, f + 256: for the 3F outputs these
//   are exactly channel f of the three split parts, so the epilogues stay channel-local); weights are read from
//   global memory / L2 with __ldg (consecutive threads, consecutive columns: one coalesced read per warp) through a
//   register pipeline D groups of 4 k deep (Tune<N, H>), the rows' inputs from shared memory as float4 broadcasts;
//   RT rows at a time in registers. Forward products read the transposed weights [in][out], backward products the
//   PyTorch layout [out][in] (both in weights.bin);
// - all unordered pairs i < j of a molecule (N <= 24) with their geometry (d, fcut, fcut', u, 20 radial basis
//   values: GEO = 28 floats) in shared memory; each pair serves both directed edges (the filter W(d) is symmetric);
//   the filter and its d-derivative are recomputed per pair and channel from the channel's 3 x 20 filter weights
//   held in registers;
// - shared memory per row: S [F], V [3F], A [3F], B [3F] (s / g_s, v / g_v and two work buffers), plus the pair
//   geometry and the per-pair gradient sums (g_d, g_u) that become forces at the end: 50.7 KB a block for one
//   ethanol, 142 KB for one alanine dipeptide (210 KB with H = 2's private copy);
// - the activations the backward pass needs (per layer and atom: z1, phi, v before the message, Uv, Vv, z3, a =
//   17 F floats, 26 KB an atom) go to a per-block slice of global scratch (channel f written and read back by
//   thread f: coalesced; 240 MB for 1,024 ethanols);
// - per-pair dE/dd and dE/du are summed over channels with 6 warp shuffles + a shared-memory atomicAdd per warp.
//
// Build and run (GPU):
//   nvcc -O3 -arch=sm_90 -cudart static -o .device/gfp/group_force_probe scripts/probes/group_force_probe.cu
//   OMP_NUM_THREADS=1 /usr/bin/python3 scripts/probes/group_force_probe.py write .device/gfp 1024 256
//   bash scripts/probes/group-force-probe-run.sh   # one line per (molecule, R, G, RT, threads): µs per evaluation, replica-evals/s,
//                                 # max |dF| and |dE| against the float64 reference of every replica, attribution
//   .device/gfp/group_force_probe WEIGHTS POS REF|- OUT|- G [RT] [THREADS] [REPS] [VAR]    (one configuration)
// Build and check on the CPU (the repository's CUDA emulator header, platform-cuda/src/test/cuda-emu/emu_cuda.h, with
// the minimal coroutine runner below: one block at a time, block and warp barriers; GFP_EMU_REVERSE=1 runs the
// threads in the other order, so that a missing barrier shows):
//   g++ -std=c++17 -O2 -DGROUP_PROBE_HOST -I/work/main/platform-cuda/src/test/cuda-emu -x c++ \
//       -o .device/gfp/emu/gfp_host scripts/probes/group_force_probe.cu
//   OMP_NUM_THREADS=1 /usr/bin/python3 scripts/probes/group_force_probe.py write .device/gfp/emu 4 2
//   .device/gfp/emu/gfp_host .device/gfp/weights.bin .device/gfp/emu/eth_pos.bin .device/gfp/emu/eth_ref.bin OUT G [RT] [THREADS] [REPS] [VAR]
//   OMP_NUM_THREADS=1 /usr/bin/python3 scripts/probes/group_force_probe.py check .device/gfp/emu/eth_ref.bin OUT
// File formats: see scripts/probes/group_force_probe.py.
//
// Measured (one NVIDIA H200, driver 580.159.04, 2026-11-29; this source before the PRIV change, which is not yet
// measured): 1,024 ethanols, G = 1, 128 threads, 128 registers (minb 4, 4 blocks a multiprocessor): 1,618 µs a
// force evaluation (632,743 replica-evals/s; forward only 713 µs, without the pair loops 1,334 µs); 256 alanine
// dipeptides, G = 1, 128 threads: 2,088 µs (122,623 replica-evals/s; without the pair loops 1,444 µs), 256 threads
// with atomics 2,174 µs. Max |dF| 1.3e-5 / 2.0e-5 eV/Å, max |dE| 2.5e-6 / 4.7e-6 eV against float64, every replica.
//
// Variants (template parameter VAR of group_force and run<>, the binary's 9th argument VAR, default 0 = the measured
// configurations above, unchanged; built and checked on the emulator within 5.5e-6 eV/Å of float64 (ethanol R = 4,
// dipeptide R = 2, both thread orders), NOT yet measured on the GPU; scripts/probes/group-force-probe-run.sh runs each after the
// baseline lines, named by its trailing VAR argument). Occupancy per SM from 228 KB of shared memory (1 KB of it
// reserved per block, at most 227 KB a block), 65,536 registers (allocated per warp in units of 256, i.e. a
// thread's count rounded up to a multiple of 8), 2,048 threads:
// - VGX = 1 (alanine dipeptide, G = 1, 128 threads; var 1): the pair geometry (G P GEO floats) and the pair
//   gradient sums (G P 4) move from shared memory to the block's slice of global scratch, after its activations
//   (L::SCRB floats a block). They are the rarely touched buffers: written once, read only by the pair loops and
//   the force assembly, at warp-uniform addresses (one L1 transaction a warp), and gp takes warp_add4's atomics
//   (now reductions in L2), while S, V, A, B stay in shared memory (every dense k step reads them). Shared memory
//   142,224 -> 112,656 B: 2 x (112,656 + 1,024) = 227,360 <= 233,472, registers 254 (-> 256) x 128 x 2 = 65,536:
//   2 blocks (8 warps) a multiprocessor instead of 1 (4 warps), and 256 dipeptides fit one wave of 264 slots
//   instead of two (132 + 124). __launch_bounds__ (128, 2) (caps at 255 registers, as before); the launch asks
//   for the maximum shared-memory carveout. (Keeping gp in shared memory would need 116,352 B, 640 B over the
//   115,712 B a block that two blocks allow.)
// - VMOLH = 2 (ethanol, G = 2, 256 threads; var 2): the two halves already take one molecule's row tile each in
//   the dense layers (RT = 9); here they also split the pair loops by molecule (half h: molecules h, h + 2, ..),
//   every pair of a molecule with plain shared adds instead of shared atomics on alternate pairs. The two halves
//   stream the same weights at the same time (L1 can serve the second), so a multiprocessor's 4 resident ethanols
//   (2 blocks x 101,392 B, 128 registers, 16 warps) draw each weight from L2 twice instead of four times.
// - VRACC = 4 / VRACCB = 8 (forward / backward pair loop; var 4, 12 on ethanol G = 1; 6, 14 with VMOLH; 13 with
//   VGX on the dipeptide): for the loop order i < j, atom i's sums (forward ds, dv: 4; backward g_phi, sender g_v:
//   6) stay in registers over j and reach shared memory once per i, and i's A, V (forward) or g_s, g_v (backward)
//   rows are read once per i: a pair then costs 4 (6) shared read-modify-writes instead of 8 (12).
// nvcc 13.0 --resource-usage, sm_90 (registers; spill stores / loads in bytes; shared memory a block; blocks and
// warps a multiprocessor by the arithmetic above):
//   ethanol  G 1 128 t var  0: 128 reg,  48 / 132 B, 50,704 B -> 4 blocks (registers and shared memory), 16 warps
//   ethanol  G 1 128 t var  4: 128 reg,  48 / 132 B, 50,704 B -> 4, 16 warps;  var 12: 128 reg, 100 / 176 B, same
//   ethanol  G 2 256 t var  0: 128 reg,  84 /  40 B, 101,392 B -> 2 (2 x 102,416 <= 233,472; 2 x 32,768 regs), 16
//   ethanol  G 2 256 t var  2: 128 reg,  36 /  16 B, 101,392 B -> 2, 16 warps;  var 6: the same;  var 14: 112 / 64 B
//   dipep.   G 1 128 t var  0: 254 reg,   0 /   0 B, 142,224 B -> 1 (shared memory), 4 warps
//   dipep.   G 1 128 t var  1: 254 reg,   0 /   0 B, 112,656 B -> 2, 8 warps;  var 13: the same
// - VTC = 16 (tensor cores; VTCA = 32 with it; NOT yet measured, checked on the emulator only): every dense product
//   (forward phi0, phi2, U|V, mlp0, mlp2, readout W5; backward W5, mlp2, mlp0, U|V, phi2, phi0: all 12 call sites)
//   runs as dense_tc(): out^T = A^T in^T on mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, 3xTF32 (x = big +
//   small, big = cvt.rna.tf32(x), small = cvt.rna.tf32(x - big); per k step mma(a_s, b_b), mma(a_b, b_s), then
//   mma(a_b, b_b), FP32 accumulation; a_s b_s, 2^-22 relative, dropped). Tiling: the output columns j on the mma's M
//   side (tiles of 16: 128, 256, 384 and the readout's 64 are multiples), the rows on its N side (tiles of 8, zero
//   padded: ethanol M = 9 -> 16, 3M = 27 -> 32; G 2: 18 -> 24, 54 -> 56; G 4: 36 -> 40, 108 -> 112; dipeptide
//   22 -> 24, 66 -> 72), so that padding is paid on the short side only and in units of 8, not 16. A warp owns a unit
//   of 16 channels and its C column tiles (ch, ch + 128, ch + 256): after the k loop a lane holds all C values of its
//   (row, channel) pairs, so the epilogues (bias, SiLU, scratch stores, channel-local updates) run straight from the
//   accumulators, no staging buffer and no extra shared memory (every configuration keeps its footprint, hence its
//   occupancy by shared memory). The price: the epilogue of (m, ch) runs on the lane holding it, not on thread ch,
//   so the epilogue lambdas take the channel as an argument (also under VAR 0, where it is the thread's own: the
//   baseline instances compile to the same registers and spills) and the one channel-local pass that followed a
//   product without a barrier (n and sp after U|V) gets a __syncthreads() under VTC. Units go round robin over the
//   block's 4 H warps (8 units for J = 128 C, 4 for the readout). B operand (rows, shared memory): one float4 a lane
//   per 16 k (the k order inside each block of 16 is permuted, kappa = q <-> k0 + 4q + 2s, q + 4 <-> k0 + 4q + 2s + 1,
//   the same map for A); with row strides of 128 / 384 floats the 8 rows of a warp sit on the same banks, so the
//   float4 load is 2-way conflicted (8 wavefronts for 512 B; scalar fragment loads would be 8-way). A operand
//   (weights [K][J], the same arrays as dense()): __ldg from L2 / L1, a lane 4 k rows x 2 columns a C tile per 16 k
//   (a warp request: 4 rows x 8 consecutive floats, whole 32 B sectors), a register pipeline tcpf blocks of 16 k
//   deep (C = 1; C = 2 half; C = 3 one). Row tiles go in chunks of at most maxt / C (accumulators 4 maxt registers;
//   a second chunk re-reads the weights from L1 / L2). No cp.async staging of the weights: each k slice of a product
//   is used by exactly one warp of the block, so shared memory would add a copy without reuse, and shared memory is
//   what bounds the blocks a multiprocessor. VTCA: the two small-term products go to a second accumulator set (two
//   independent mma chains a tile instead of one chain of 3), added before the epilogue; maxt 9 / 3.
//   TcTune: under VTC minb is capped by what shared memory admits, so ethanol G 2 with 128 threads (2 blocks by
//   shared memory) is built for 255 registers instead of 128; maxt / tcpf: 6 / 2 at 128 registers (spills 32 / 12 B;
//   8 / 4 gave 184 / 232 B, 6 / 4 108 / 168, 8 / 2 84 / 64), 18 / 4 (ethanol) or 12 / 4 (dipeptide) at 255.
//   nvcc 13.0 -Xptxas -v, sm_90 (registers, spill stores / loads, shared memory a block -> blocks and warps a
//   multiprocessor; waves of the 1,024 ethanol / 256 dipeptide blocks over 132 multiprocessors):
//     ethanol  G 1 128 t var 16, 20: 128 reg, 32 / 12 B, 50,704 B -> 4 blocks, 16 warps; 1,024 blocks: 2 waves (528)
//     ethanol  G 2 128 t var 20: 255 reg, 0 / 0 B; var 52: 248 reg, 0 / 0; 101,392 B -> 2 (2 x 102,416 B; 2 x 32,768
//              registers), 8 warps; 512 blocks: 2 waves (264)
//     ethanol  G 4 256 t var 22 (VTC | VMOLH | VRACC): 247 reg, 0 / 0; var 54: 255 reg, 36 / 36 B; 202,768 B -> 1, 8
//              warps; 256 blocks: 2 waves (132 + 124)
//     dipep.   G 1 128 t var 17 (VTC | VGX), 29 (+ VRACC | VRACCB): 233 reg, 0 / 0; var 61 (+ VTCA): 255, 0 / 0;
//              112,656 B -> 2, 8 warps; 256 blocks: one wave (264 slots)
//     dipep.   G 1 256 t var 16: 241 reg, 0 / 0 B, 209,808 B -> 1, 8 warps; 2 waves
//   Emulator (ethanol R = 4, dipeptide R = 2, max |dF| eV/Å / max |dE| eV against float64, thread order forward /
//   reversed): ethanol var 16 4.9e-6 / 9.2e-7, 4.4e-6 / 1.3e-6; var 20 (G 1 and G 2) and 22 (G 4) 4.9e-6 / 9.6e-7 (G 4:
//   9.8e-7), 4.9e-6 / 1.6e-6 (G 4: 1.9e-6); var 52, 54 (VTCA) 4.6e-6 / <= 1.0e-6, 4.6e-6 / 1.5e-6; dipeptide var 17
//   4.7e-6 / 2.0e-6, 5.0e-6 / 4.1e-7; var 29 4.7e-6 / 1.6e-6, 5.2e-6 / 3.0e-7; var 61 5.0e-6 / 1.3e-6, 5.0e-6 / 4.8e-7;
//   var 16 (256 t) 4.5e-6 / 1.7e-6, 4.5e-6 / 1.5e-6 (VAR 0: 5.1e-6, unchanged). The host mma (emu_mma_tf32 below)
//   deposits the 32 lanes' fragments at a warp barrier and computes each lane's d elements by the PTX ISA layout,
//   operands cut to tf32; cvt.rna is emulated bit-exactly. Mutations, both caught: dropping the a_s b_b mma -> 3.3e-4
//   eV/Å (ethanol), 4.0e-4 (dipeptide); a1 <-> a2 swapped in the A fragment -> 8.9 / 8.3 eV/Å. (The host mma sums the 8
//   exact products in double and rounds once; the tensor core's own accumulation rounding differs, at the float32
//   level.)
//   Expected time (FLOP count, NOT measured): padded MACs a molecule and layer and direction: 9 F^2 (phi0, phi2, mlp0,
//   mlp2) x padded M + 2 F^2 (U|V) x padded 3M; x 6 (3 layers, 2 directions), x 3 passes: 1,024 ethanols 125.6 GFLOP of
//   TF32 an evaluation at G 1 (G 2: 99, G 4: 88), 256 dipeptides 54.4 GFLOP. At ~330 TFLOP/s (2/3 of the H200's 495
//   dense TF32; mma.sync does not reach the wgmma peak): 0.38 / 0.30 / 0.27 ms and 0.16 ms, against ~1.3 ms of SIMT
//   dense products today. But the weights stream from L2 once a block and product (4.3 MB a block and evaluation, 4.7
//   MB with ethanol G 1's second U|V chunk): 4.8 GB for 1,024 ethanols at G 1, 2.3 GB at G 2, 1.2 GB at G 4 and for 256
//   dipeptides - at an assumed 5 to 6 TB/s of L2 bandwidth (not measured here) ~0.8 ms at ethanol G 1 (L2-bound unless
//   L1 serves the 4 co-resident blocks), ~0.4 ms at G 2, ~0.2 ms at G 4 and for the dipeptide. With today's non-dense
//   remainder (ethanol ~0.3 ms, mostly the pair loops; dipeptide ~0.65 ms at 128 threads): ethanol G 2 / G 4 ~0.7 ms an
//   evaluation (~1.4M replica-evals/s), G 1 ~1.1 ms; dipeptide ~0.9 ms. The cost of cvt.rna.tf32 (8 a k step and C tile
//   for A, 4 a k step and row tile for B) is not known here (no cuobjdump on this machine to read the SASS).
//   (Also fixed with VTC: main()'s CASE compared var == v unparenthesised, so "var == VRACC | VRACCB" was always
//   true: var 14 ran the var 6 instance. Now var == (v); var 14 itself, reversed order: 5.3e-6 eV/Å.)
// Not built, by the arithmetic: ethanol at 5 blocks a multiprocessor (<= 96 registers; VGX would bring shared memory
// to 45,536 B): 1,024 blocks take two waves at 4 (528 slots) and at 5 (660), and the baseline already spills at 128
// registers; one wave needs 8 ethanols resident a multiprocessor, i.e. 1,024 threads at <= 64 registers - not with a
// thread per channel.
#ifdef GROUP_PROBE_HOST
#include "emu_cuda.h"
#include <ucontext.h>
#include <functional>
#else
#include <cuda_runtime.h>
#endif
#include <math.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Tuning (measured on an H200, 2026-11-29, see the report of the probe): per molecule size and block width, the
// weight pipeline depth in groups of 4 k (pd1: products with one column a thread, pd: two or three columns) and the
// minimum blocks per multiprocessor given to __launch_bounds__ (caps the registers at 65536 / (threads x minb)).
// -DGFP_MINB= / -DGFP_PD1= / -DGFP_PD= override them for every instance.
// Variant bits (template parameter VAR of group_force, the binary's 9th argument; 0 = the measured baseline):
//   VGX   1: pair geometry and pair gradient sums in the block's global scratch slice instead of shared memory
//   VMOLH 2: H = 2 with an even G: half h runs the pair loops of molecules h, h + 2, .. (no shared atomics)
//   VRACC 4: the forward pair loop accumulates atom i's sums in registers over j, one shared add per i
//   VRACCB 8: the same in the backward pair loop
//   VTC 16: the dense products on the tensor cores (mma.sync m16n8k8 tf32, 3xTF32: float32-level accuracy)
//   VTCA 32 (with VTC): the two small-term products in their own accumulators (two mma chains a tile instead of one)
enum { VGX = 1, VMOLH = 2, VRACC = 4, VRACCB = 8, VTC = 16, VTCA = 32 };
template <int N, int H, int VAR = 0>
struct Tune {
    static constexpr int minb = N <= 12 ? (H == 1 ? 4 : 2) : ((VAR & VGX) && H == 1 ? 2 : 1);
    static constexpr int pd1 = N <= 12 || H == 2 ? 4 : 8;
    static constexpr int pd = N <= 12 || H == 2 ? 2 : 4;
};
#ifdef GFP_MAXT
#define GFP_TUNE_MAXT GFP_MAXT
#else
#define GFP_TUNE_MAXT (TcTune<N, G, H, VAR>::maxt)
#endif
#ifdef GFP_TCPF
#define GFP_TUNE_TCPF GFP_TCPF
#else
#define GFP_TUNE_TCPF (TcTune<N, G, H, VAR>::tcpf)
#endif
#ifdef GFP_MINB
#define GFP_TUNE_MINB GFP_MINB
#else
#define GFP_TUNE_MINB (TcTune<N, G, H, VAR>::minb)
#endif
#ifdef GFP_PD1
#define GFP_TUNE_PD1 GFP_PD1
#else
#define GFP_TUNE_PD1 (Tune<N, H>::pd1)
#endif
#ifdef GFP_PD
#define GFP_TUNE_PD GFP_PD
#else
#define GFP_TUNE_PD (Tune<N, H>::pd)
#endif

constexpr int F = 128, F2 = 256, F3 = 384, NR = 20, T = 3, FH = 64;
constexpr int NFLD = 17;                                                          // scratch floats per row and layer, in units of F
enum { FZ1 = 0, FPHI = 1, FVM = 4, FUV = 7, FVV = 10, FZ3 = 13, FA = 14 };          // field offsets (units of F)
constexpr int GEO = 28;   // per pair: d, fcut, fcut', valid, ux, uy, uz, 0, rbf[20]

// One layer's weights (floats, offsets from the layer's start; the layers follow each other in weights.bin).
namespace LO {
constexpr int phi0T = 0, phi0 = phi0T + F * F, bphi0 = phi0 + F * F, phi2T = bphi0 + F, phi2 = phi2T + F * F3,
              bphi2 = phi2 + F3 * F, filt = bphi2 + F3, bfilt = filt + F3 * NR, UVT = bfilt + F3, UV = UVT + F * F2,
              mlp0T = UV + F2 * F, mlp0 = mlp0T + F2 * F, bmlp0 = mlp0 + F * F2, mlp2T = bmlp0 + F, mlp2 = mlp2T + F * F3,
              bmlp2 = mlp2 + F3 * F, size = bmlp2 + F3;
}
struct Weights {
    const float *emb, *atomref, *layers;   // layers: T blocks of LO::size floats
    float cutoff, gamma, scale, b6;
    const float *W5T, *W5, *b5, *W6;
};

__device__ __forceinline__ float silu(float z) { return z / (1.0f + expf(-z)); }
__device__ __forceinline__ float dsilu(float z) {
    const float s = 1.0f / (1.0f + expf(-z));
    return s * (1.0f + z * (1.0f - s));
}

// Channel f's filter weights (3 x n_rbf) and biases of one layer into registers: the pair loops, forward and
// backward, evaluate W(d) and W'(d) per pair from them.
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
// epi(m, ch, v0, v1, v2) gets row m's C results of channel ch (columns ch + 128 c; unused ones 0); here ch is the
// thread's own channel. rows must be a multiple of RT; K a multiple of 4.
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
            // weights of the next D groups of 4 k in registers (a software pipeline: the L2 latency of a group is
            // hidden behind the products of the D - 1 groups before it); K / 4 must be a multiple of D
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
        for (int r = 0; r < RT; ++r) epi(r0 + r, j0, acc[r][0], C > 1 ? acc[r][C > 1 ? 1 : 0] : 0.0f, C > 2 ? acc[r][C > 2 ? 2 : 0] : 0.0f);
    }
}

// ---- VTC: the same products on the tensor cores, 3xTF32 ----
// tf32 split of a float32 x: big = rna(x), small = rna(x - big) (cvt.rna.tf32.f32: round to nearest, ties away from
// zero, on the 13 dropped mantissa bits); a b ~ a_s b_b + a_b b_s + a_b b_b (a_s b_s dropped: 2^-22 relative).
#ifdef GROUP_PROBE_HOST
void emu_mma_tf32(float* d, const unsigned* a, const unsigned* b);
inline float u2f(unsigned u) { float x; std::memcpy(&x, &u, 4); return x; }
inline unsigned tf32_rna(float x) {
    unsigned u;
    std::memcpy(&u, &x, 4);
    return (u + 0x1000u) & 0xffffe000u;   // add half an ulp of tf32 to the magnitude, drop 13 bits: ties away from zero
}
#else
__device__ __forceinline__ float u2f(unsigned u) { return __uint_as_float(u); }
__device__ __forceinline__ unsigned tf32_rna(float x) {
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}
#endif
__device__ __forceinline__ void split_tf32(float x, unsigned& big, unsigned& small) {
    big = tf32_rna(x);
    small = tf32_rna(x - u2f(big));
}
// d += a b, one warp: a 16 x 8 (row), b 8 x 8 (col), d 16 x 8 float32. Fragments (PTX ISA, mma.m16n8k8 .tf32;
// g = lane >> 2, q = lane % 4): a0 (g, q), a1 (g + 8, q), a2 (g, q + 4), a3 (g + 8, q + 4); b0 (q, g), b1 (q + 4, g);
// d0 (g, 2q), d1 (g, 2q + 1), d2 (g + 8, 2q), d3 (g + 8, 2q + 1).
__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
#ifdef GROUP_PROBE_HOST
    emu_mma_tf32(d, a, b);
#else
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

// dense() on the tensor cores: out^T = A^T in^T, the output columns j on the mma's M side (tiles of 16), the rows m
// on its N side (tiles of 8, padded with zero rows: 9 -> 16, 22 -> 24, 27 -> 32, 66 -> 72), k in steps of 8.
// A warp owns a unit of 16 channels u16 .. u16 + 15 and its C column tiles (j = ch + 128 c, so that the epilogue
// gets channel ch's C values together, as in dense()), units u = warp, warp + NW, ..; for it the row tiles in
// chunks of NTC (4 C NTC accumulators). The k order inside a block of 16 is permuted so that a lane's B operand is
// one float4 of its row in shared memory: lane (g, q) loads in[m][k0 + 4q .. 4q + 3]; mma step s (0, 1) takes
// kappa = q <-> k0 + 4q + 2s, kappa = q + 4 <-> k0 + 4q + 2s + 1, and the A fragments (weights, __ldg from L2/L1,
// rows k of A [K][J]: 8 consecutive columns a row, full 32 B sectors) use the same map. Weights run through a
// register pipeline PF blocks of 16 k deep. The epilogue is called by the lane that holds (m, ch):
// epi(m, ch, v0, v1, v2), every (m < ROWS, ch < J / C) exactly once, not by thread ch: callers synchronise before
// channel-local passes. K (times NSEG) must be a multiple of 16 PF.
template <int ROWS, int C, int NSEG, int NW, int MAXT, int PF1, bool ACC2, class Epi>
__device__ __forceinline__ void dense_tc(const float* in0, int ld0, const float* in1, int ld1, int K,
                                         const float* __restrict__ A, int J, const float* __restrict__ bias, Epi epi) {
    constexpr int NT = (ROWS + 7) / 8;                    // row tiles of 8
    constexpr int NCH = (NT * C + MAXT - 1) / MAXT;       // chunks of row tiles
    constexpr int NTC = (NT + NCH - 1) / NCH;             // row tiles a chunk
    constexpr int PF = C == 1 ? PF1 : C == 2 && PF1 > 1 ? PF1 / 2 : 1;   // weight pipeline depth (blocks of 16 k)
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    const int UJ = (C == 1 ? J : 128) / 16;
    const int KT = NSEG * K;
    for (int u = warp; u < UJ; u += NW) {
        const float* Au = A + 16 * u + g;
#pragma unroll 1
        for (int cc = 0; cc < NCH; ++cc) {
            const int t0 = cc * NTC;
            float acc[C][NTC][4], acl[ACC2 ? C : 1][ACC2 ? NTC : 1][4];   // ACC2: small terms in acl
#pragma unroll
            for (int c = 0; c < C; ++c)
#pragma unroll
                for (int i = 0; i < NTC; ++i)
#pragma unroll
                    for (int r = 0; r < 4; ++r) {
                        acc[c][i][r] = 0.0f;
                        if (ACC2) acl[ACC2 ? c : 0][ACC2 ? i : 0][r] = 0.0f;
                    }
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
                        x[i] = t0 + i < NT && m < ROWS ? *reinterpret_cast<const float4*>(in + (size_t)m * ld + k + 4 * q)
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
                                if (t0 + i < NT) {   // small terms first
                                    float (&al)[4] = ACC2 ? acl[ACC2 ? c : 0][ACC2 ? i : 0] : acc[c][i];
                                    mma_tf32(al, as, bb[i]);
                                    mma_tf32(al, ab, bs[i]);
                                    mma_tf32(acc[c][i], ab, bb[i]);
                                }
                        }
                    }
                }
            }
            float bv[C][2];
#pragma unroll
            for (int c = 0; c < C; ++c) {
#pragma unroll
                for (int h = 0; h < 2; ++h) bv[c][h] = bias ? __ldg(bias + 16 * u + g + 8 * h + 128 * c) : 0.0f;
                if (ACC2)
#pragma unroll
                    for (int i = 0; i < NTC; ++i)
#pragma unroll
                        for (int r = 0; r < 4; ++r) acc[c][i][r] += acl[ACC2 ? c : 0][ACC2 ? i : 0][r];
            }
#pragma unroll
            for (int i = 0; i < NTC; ++i)
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    const int m = 8 * (t0 + i) + 2 * q + (r & 1), h = r >> 1;
                    if (t0 + i < NT && m < ROWS)
                        epi(m, 16 * u + g + 8 * h, acc[0][i][r] + bv[0][h], C > 1 ? acc[C > 1 ? 1 : 0][i][r] + bv[C > 1 ? 1 : 0][h] : 0.0f,
                            C > 2 ? acc[C > 2 ? 2 : 0][i][r] + bv[C > 2 ? 2 : 0][h] : 0.0f);
                }
        }
    }
}

// dense() (TC 0) or dense_tc() (TC 1: VTC; 2: VTC | VTCA) for ROWS rows
template <int TC, int ROWS, int RT, int C, int NSEG, int H, int PD1, int PD, int MAXT, int TCPF, class Epi>
__device__ __forceinline__ void dense2(const float* in0, int ld0, const float* in1, int ld1, int K, const float* __restrict__ A,
                                       int J, const float* __restrict__ bias, Epi epi) {
    if constexpr (TC != 0) dense_tc<ROWS, C, NSEG, 4 * H, MAXT, TCPF, TC == 2>(in0, ld0, in1, ld1, K, A, J, bias, epi);
    else dense<RT, C, NSEG, H, PD1, PD>(ROWS, in0, ld0, in1, ld1, K, A, J, bias, epi);
}

// Shared-memory accumulation: plain with one thread per channel, atomic when two halves share the rows (H = 2).
template <int H>
__device__ __forceinline__ void radd(float* p, float v) {
    if (H == 1) *p += v;
    else atomicAdd(p, v);
}

// n accumulations to distinct addresses: all loads first, then all stores (the compiler cannot know that the
// addresses differ, so separate read-modify-writes would be serialised); atomics when H = 2.
template <int H, int NA>
__device__ __forceinline__ void radd_n(float* const* dst, const float* add) {
    if (H == 1) {
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

// PRIV (two threads per channel, larger molecules): the second half accumulates the pair loops into its own rows X
// [M][6F] (summed after the loop) instead of using shared-memory atomics on the first half's rows.
// VGX: the geometry [G][P][GEO] and the pair sums [G][P][4] follow the activations in the block's scratch slice
// (SCRB floats a block); MOLH: see VMOLH above (then no PRIV).
template <int N, int G, int H, int VAR = 0>
struct Smem {
    static constexpr int M = G * N, P = N * (N - 1) / 2;
    static constexpr bool GX = (VAR & VGX) != 0, MOLH = (VAR & VMOLH) != 0, RACC = (VAR & VRACC) != 0, RACCB = (VAR & VRACCB) != 0;
    static_assert(!MOLH || (H == 2 && G % 2 == 0), "VMOLH needs two halves and an even G");
    static constexpr bool PRIV = H == 2 && N > 12 && !MOLH;
    static constexpr int S = 0, V = S + M * F, A = V + M * F3, B = A + M * F3, GEOM = B + M * F3,
                         GP = GEOM + (GX ? 0 : G * P * GEO), ESH = GP + (GX ? 0 : G * P * 4), X = ESH + 4 * ((G + 3) / 4),
                         TOTAL = X + (PRIV ? M * 6 * F : 0);
    static constexpr size_t bytes = (size_t)TOTAL * 4;
    static constexpr size_t SCRA = (size_t)T * M * NFLD * F;                                 // activations
    static constexpr size_t SCRB = SCRA + (GX ? (size_t)(G * P * (GEO + 4) + 3) / 4 * 4 : 0);
};

// minb for __launch_bounds__ and the VTC tiling: without VTC, Tune's (the measured baseline, unchanged). VTC: no
// more blocks than shared memory admits (233,472 B a multiprocessor, 1 KB reserved a block), so that e.g. ethanol
// G = 2 with 128 threads (2 blocks by shared memory) gets 255 registers instead of 128; then maxt (accumulator
// tiles: 4 maxt registers) and tcpf (weight pipeline depth) by the register cap: 128 -> 6 and 2 (fewest spills
// of the settings tried, see the VTC paragraph of the header), 255 -> 18 (ethanol) or 12 (dipeptide) and 4;
// VTCA (two accumulator sets): maxt 9 (255) or 3 (128).
template <int N, int G, int H, int VAR>
struct TcTune {
    static constexpr int smb = (int)(233472 / (Smem<N, G, H, VAR>::bytes + 1024));
    static constexpr int minb = (VAR & VTC) && smb < Tune<N, H, VAR>::minb ? (smb < 1 ? 1 : smb) : Tune<N, H, VAR>::minb;
    static constexpr bool big = 65536 / (128 * H * minb) >= 200;
    static constexpr int maxt = (VAR & VTCA) ? (big ? 9 : 3) : big ? (N <= 12 ? 18 : 12) : 6, tcpf = big ? 4 : 2;
};

// One launch: energies and forces of R = gridDim.x * G replicas. pos [R][N][3] Å; zidx [N] species rows;
// scratch: gridDim.x * T * M * NFLD * F floats; energy [R] eV (float64: the atomref sum is added in double);
// force [R][N][3] eV/Å.
template <int N, int G, int RT, int H, int VAR>
__global__ void __launch_bounds__(128 * H, GFP_TUNE_MINB) group_force(const Weights w, const float* __restrict__ pos,
                                                  const int* __restrict__ zidx, float* __restrict__ scratch,
                                                  double* __restrict__ energy, float* __restrict__ force, int mode) {
    using L = Smem<N, G, H, VAR>;
    constexpr int M = L::M, P = L::P;
    constexpr bool MOLH = L::MOLH, RACC = L::RACC, RACCB = L::RACCB;
    constexpr int TC = (VAR & VTC) ? ((VAR & VTCA) ? 2 : 1) : 0;   // dense products on the tensor cores (2: VTCA)
    static_assert(!(VAR & VTCA) || (VAR & VTC), "VTCA needs VTC");
    constexpr int MAXT = GFP_TUNE_MAXT, TCPF = GFP_TUNE_TCPF;
    static_assert(M % RT == 0, "RT must divide G N");
#ifdef GROUP_PROBE_HOST
    float* sm = emu_smem();
#else
    extern __shared__ float4 gfp_smem4[];
    float* sm = reinterpret_cast<float*>(gfp_smem4);
#endif
    float* S = sm + L::S;        // [M][F]   s, later g_s
    float* V = sm + L::V;        // [M][3F]  v (x, y, z rows of F), later g_v
    float* A = sm + L::A;        // [M][3F]  work
    float* B = sm + L::B;        // [M][3F]  work
    float* const scrb = scratch + (size_t)blockIdx.x * L::SCRB;   // this block's scratch slice
    float* geo = L::GX ? scrb + L::SCRA : sm + L::GEOM;            // [G][P][GEO]
    float* gp = L::GX ? scrb + L::SCRA + (size_t)G * P * GEO : sm + L::GP;   // [G][P][4]  dE/dd, dE/du (x, y, z) of pair (i < j), r = r_j - r_i
    float* esh = sm + L::ESH;    // [G] sum of scale * (W6 . silu(z5)) over the molecule's atoms
    float* X = sm + L::X;        // [M][6F] second half's pair-loop sums (PRIV only)
    constexpr bool PRIV = L::PRIV;
    constexpr int F6 = 6 * F;
    constexpr int HA = H == 2 && !PRIV && !MOLH ? 2 : 1;   // accumulate with atomics?
    constexpr int NT = 128 * H;                        // threads; H = 2: two threads per channel (halves)
    const int f = threadIdx.x & 127, half = threadIdx.x >> 7, tid = threadIdx.x;
    const bool mine = PRIV && half == 1;          // this thread accumulates into X
    const int mol0 = blockIdx.x * G;
    const float rc = w.cutoff, gamma = w.gamma;
    const float kpi = 3.14159265358979f / rc;
    float* scr = scrb + f;
    auto SC = [&](int t, int m, int fld) -> float* { return scr + ((size_t)(t * M + m) * NFLD + fld) * F; };
    // the same for channel ch (dense epilogues: under VTC the thread that finishes row m, channel ch is not thread ch)
    auto SCc = [&](int t, int m, int fld, int ch) -> float* { return scrb + ch + ((size_t)(t * M + m) * NFLD + fld) * F; };

    // ---- geometry of every unordered pair (i < j) of every molecule, thread per pair
    for (int q = tid; q < G * P; q += NT) {
        const int g = q / P;
        int rem = q - g * P, i = 0;
        while (rem >= N - 1 - i) { rem -= N - 1 - i; ++i; }
        const int j = i + 1 + rem;
        const float* pm = pos + (size_t)(mol0 + g) * N * 3;
        const float rx = pm[3 * j] - pm[3 * i], ry = pm[3 * j + 1] - pm[3 * i + 1], rz = pm[3 * j + 2] - pm[3 * i + 2];
        const float d = sqrtf(rx * rx + ry * ry + rz * rz);
        float* e = geo + (size_t)q * GEO;
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
        gp[4 * q] = gp[4 * q + 1] = gp[4 * q + 2] = gp[4 * q + 3] = 0.0f;
    }
    if (tid < G) esh[tid] = 0.0f;
    // ---- embedding: s = Emb[Z], v = 0
    for (int m = half; m < M; m += H) {
        S[m * F + f] = __ldg(w.emb + zidx[m % N] * F + f);
        V[m * F3 + f] = V[m * F3 + F + f] = V[m * F3 + F2 + f] = 0.0f;
    }
    __syncthreads();

    // ======================= forward =======================
    for (int t = 0; t < T; ++t) {
        const float* Ly = w.layers + (size_t)t * LO::size;
        // -- message: phi(s) = phi2 SiLU(phi0 s)
        dense2<TC, M, RT, 1, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(S, F, nullptr, 0, F, Ly + LO::phi0T, F, Ly + LO::bphi0, [&](int m, int ch, float z, float, float) {
            *SCc(t, m, FZ1, ch) = z;
            B[m * F3 + ch] = silu(z);
        });
        __syncthreads();
        dense2<TC, M, RT, 3, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(B, F3, nullptr, 0, F, Ly + LO::phi2T, F3, Ly + LO::bphi2, [&](int m, int ch, float p0, float p1, float p2) {
            float* a = A + m * F3 + ch;
            a[0] = p0; a[F] = p1; a[F2] = p2;                    // [x_vv | x_s | x_vs] parts of phi, channel f
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
        for (int g = MOLH ? half : 0; g < ((mode & 2) ? 0 : G); g += MOLH ? 2 : 1) {
            const float* ge = geo + (size_t)g * P * GEO;
            int p = 0;
            for (int i = 0; i < N; ++i) {
                // RACC: atom i's sums (ds, dv x, y, z) in registers over j, its A and V rows read once
                float ri[4] = {0.0f, 0.0f, 0.0f, 0.0f}, ai[3], vi[3];
                if (RACC) {
                    const int mi = g * N + i;
#pragma unroll
                    for (int a = 0; a < 3; ++a) { ai[a] = A[mi * F3 + a * F + f]; vi[a] = V[mi * F3 + a * F + f]; }
                }
                for (int j = i + 1; j < N; ++j, ++p) {
                    const float* e = ge + p * GEO;
                    if (e[3] == 0.0f || (H > 1 && !MOLH && (p & 1) != half)) continue;
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
                    const float w0 = (ha[0] + hb[0]) * fc, w1 = (ha[1] + hb[1]) * fc, w2 = (ha[2] + hb[2]) * fc;   // filter W(d), cutoff after the filter
                    const int mi = g * N + i, mj = g * N + j;
                    if (RACC) {
                        const float* Aj = A + mj * F3 + f;
                        const float* Vj = V + mj * F3 + f;
                        float* Bj = mine ? X + mj * F6 + F + f : B + mj * F3 + f;
                        float* Sj = mine ? X + mj * F6 + f : S + mj * F + f;
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
                if (RACC && i < N - 1) {
                    const int mi = g * N + i;
                    float* Bi = mine ? X + mi * F6 + F + f : B + mi * F3 + f;
                    float* dst[4] = {mine ? X + mi * F6 + f : S + mi * F + f, Bi, Bi + F, Bi + F2};
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
        dense2<TC, 3 * M, RT, 2, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(V, F, nullptr, 0, F, Ly + LO::UVT, F2, nullptr, [&](int r, int ch, float u, float vv, float) {
            A[r * F + ch] = u;
            B[r * F + ch] = vv;
            const int m = r / 3, a = r - 3 * m;
            *SCc(t, m, FUV + a, ch) = u;
            *SCc(t, m, FVV + a, ch) = vv;
        });
        // n and sp (channel f): n -> B[m][0], sp -> B[m][1] (over this channel's Vv x, y)
        if (H > 1 || TC) __syncthreads();
        for (int m = half; m < M; m += H) {
            const float* a = A + m * F3 + f;
            float* b = B + m * F3 + f;
            const float vx = b[0], vy = b[F], vz = b[F2];
            const float n = sqrtf(vx * vx + vy * vy + vz * vz + 1e-8f);
            const float sp = a[0] * vx + a[F] * vy + a[F2] * vz;
            b[0] = n;
            b[F] = sp;
        }
        __syncthreads();
        dense2<TC, M, RT, 1, 2, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(S, F, B, F3, F, Ly + LO::mlp0T, F, Ly + LO::bmlp0, [&](int m, int ch, float z, float, float) {
            *SCc(t, m, FZ3, ch) = z;
            B[m * F3 + F2 + ch] = silu(z);
        });
        __syncthreads();
        dense2<TC, M, RT, 3, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(B + F2, F3, nullptr, 0, F, Ly + LO::mlp2T, F3, Ly + LO::bmlp2, [&](int m, int ch, float avv, float asv, float ass) {
            *SCc(t, m, FA, ch) = avv; *SCc(t, m, FA + 1, ch) = asv; *SCc(t, m, FA + 2, ch) = ass;
            float* v = V + m * F3 + ch;
            const float* u = A + m * F3 + ch;
            v[0] += avv * u[0]; v[F] += avv * u[F]; v[F2] += avv * u[F2];
            S[m * F + ch] += ass + asv * B[m * F3 + F + ch];
        });
        __syncthreads();
    }
    // -- readout: z5 = W5 s + b5 (64 columns); E += scale W6 . silu(z5); g_z5 = scale W6 o silu'(z5) -> B[m][0..63]
    {
        const float w6 = f < FH ? __ldg(w.W6 + f) : 0.0f, sc = w.scale;
        dense2<TC, M, RT, 1, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(S, F, nullptr, 0, F, w.W5T, FH, w.b5, [&](int m, int ch, float z, float, float) {
            const float w6c = TC ? __ldg(w.W6 + ch) : w6;   // VTC: the channel's owner is not thread ch
            atomicAdd(esh + m / N, sc * w6c * silu(z));
            B[m * F3 + ch] = sc * w6c * dsilu(z);
        });
        __syncthreads();
        if (mode & 1) {   // forward only (timing attribution): energies, no forces
            if (tid < G) {
                double e = (double)esh[tid] + (double)N * (double)w.scale * (double)w.b6;
                for (int k = 0; k < N; ++k) e += (double)w.atomref[zidx[k]];
                energy[mol0 + tid] = e;
            }
            return;
        }
        // ======================= backward =======================
        // g_s = W5^T g_z5 (-> S), g_v = 0 (-> V)
        dense2<TC, M, RT, 1, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(B, F3, nullptr, 0, FH, w.W5, F, nullptr, [&](int m, int ch, float gs, float, float) {
            S[m * F + ch] = gs;
            V[m * F3 + ch] = V[m * F3 + F + ch] = V[m * F3 + F2 + ch] = 0.0f;
        });
        __syncthreads();
    }
    for (int t = T - 1; t >= 0; --t) {
        const float* Ly = w.layers + (size_t)t * LO::size;
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
        dense2<TC, M, RT, 1, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(A, F3, nullptr, 0, F3, Ly + LO::mlp2, F, nullptr, [&](int m, int ch, float gh, float, float) {
            B[m * F3 + ch] = gh * dsilu(*SCc(t, m, FZ3, ch));
        });
        __syncthreads();
        // [g_s | g_n] = mlp0^T g_z3: g_s added to S, g_n -> B[m][2]
        dense2<TC, M, RT, 2, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(B, F3, nullptr, 0, F, Ly + LO::mlp0, F2, nullptr, [&](int m, int ch, float gs, float gn, float) {
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
            const float n = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + 1e-8f);
            const float gnn = gn / n;
#pragma unroll
            for (int a = 0; a < 3; ++a) {
                const float gv = V[m * F3 + a * F + f];
                A[m * F3 + a * F + f] = gv * avv + gsp * v[a];
                B[m * F3 + a * F + f] = gsp * u[a] + gnn * v[a];
            }
        }
        __syncthreads();
        // g_v += U^T g_Uv + V^T g_Vv over the 3M Cartesian rows
        dense2<TC, 3 * M, RT, 1, 2, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(A, F, B, F, F, Ly + LO::UV, F, nullptr, [&](int r, int ch, float gv, float, float) { V[r * F + ch] += gv; });
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
        for (int g = MOLH ? half : 0; g < ((mode & 2) ? 0 : G); g += MOLH ? 2 : 1) {
            const float* ge = geo + (size_t)g * P * GEO;
            int p = 0;
            for (int i = 0; i < N; ++i) {
                const int mi = g * N + i;
                const float phi0 = *SC(t, mi, FPHI), phi1 = *SC(t, mi, FPHI + 1), phi2 = *SC(t, mi, FPHI + 2);
                const float vix = *SC(t, mi, FVM), viy = *SC(t, mi, FVM + 1), viz = *SC(t, mi, FVM + 2);
                // RACCB (VRACCB): atom i's g_phi (3) and sender g_v (3) in registers over j, its g_s and g_v read once
                float ri[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}, gi[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                if (RACCB) {
                    gi[0] = S[mi * F + f];
#pragma unroll
                    for (int a = 0; a < 3; ++a) gi[1 + a] = V[mi * F3 + a * F + f];
                }
                for (int j = i + 1; j < N; ++j, ++p) {
                    const float* e = ge + p * GEO;
                    if (e[3] == 0.0f || (H > 1 && !MOLH && (p & 1) != half)) continue;
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
                    const int mj = g * N + j;
                    const float pj0 = *SC(t, mj, FPHI), pj1 = *SC(t, mj, FPHI + 1), pj2 = *SC(t, mj, FPHI + 2);
                    const float vjx = *SC(t, mj, FVM), vjy = *SC(t, mj, FVM + 1), vjz = *SC(t, mj, FVM + 2);
                    const float gsi = RACCB ? gi[0] : S[mi * F + f], gsj = S[mj * F + f];
                    const float* Gi = V + mi * F3 + f;
                    const float* Gj = V + mj * F3 + f;
                    const float gix = RACCB ? gi[1] : Gi[0], giy = RACCB ? gi[2] : Gi[F], giz = RACCB ? gi[3] : Gi[F2];
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
                    if (RACCB) {
                        ri[0] += b_vv * w0; ri[1] += gsj * w1; ri[2] += b_vs * w2;
                        ri[3] += gjx * ci; ri[4] += gjy * ci; ri[5] += gjz * ci;
                        float* dst[6] = {Pj, Pj + F, Pj + F2, Bj, Bj + F, Bj + F2};
                        const float add[6] = {a_vv * w0, gsi * w1, a_vs * w2, gix * cj, giy * cj, giz * cj};
                        radd_n<HA, 6>(dst, add);
                    } else {
                        float* dst[12] = {Pj, Pj + F, Pj + F2, Pi, Pi + F, Pi + F2, Bj, Bj + F, Bj + F2, Bi, Bi + F, Bi + F2};
                        const float add[12] = {a_vv * w0, gsi * w1, a_vs * w2, b_vv * w0, gsj * w1, b_vs * w2,
                                               gix * cj, giy * cj, giz * cj, gjx * ci, gjy * ci, gjz * ci};
                        radd_n<HA, 12>(dst, add);
                    }
                    const float ej = pj2 * w2, ei = phi2 * w2;   // g_u (w.r.t. u_ij) = G_i x_vs_ij - G_j x_vs_ji
                    warp_add4(gd, gix * ej - gjx * ei, giy * ej - gjy * ei, giz * ej - gjz * ei, gp + ((size_t)g * P + p) * 4);
                }
                if (RACCB && i < N - 1) {
                    float* Pi = mine ? X + mi * F6 + f : A + mi * F3 + f;
                    float* Bi = mine ? X + mi * F6 + F3 + f : B + mi * F3 + f;
                    float* dst[6] = {Pi, Pi + F, Pi + F2, Bi, Bi + F, Bi + F2};
                    radd_n<HA, 6>(dst, ri);
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
        dense2<TC, M, RT, 1, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(A, F3, nullptr, 0, F3, Ly + LO::phi2, F, nullptr, [&](int m, int ch, float gh, float, float) {
            B[m * F3 + ch] = gh * dsilu(*SCc(t, m, FZ1, ch));
        });
        __syncthreads();
        // g_s += phi0^T g_z1
        dense2<TC, M, RT, 1, 1, H, GFP_TUNE_PD1, GFP_TUNE_PD, MAXT, TCPF>(B, F3, nullptr, 0, F, Ly + LO::phi0, F, nullptr, [&](int m, int ch, float gs, float, float) { S[m * F + ch] += gs; });
        __syncthreads();
    }
    // ---- pair gradients to forces: g_r = g_d u + (g_u - (u . g_u) u) / d (in place), then F_i = sum_{j<i} g_r - sum_{j>i} g_r
    for (int q = tid; q < G * P; q += NT) {
        const float* e = geo + (size_t)q * GEO;
        float* h = gp + (size_t)q * 4;
        const float d = e[0], ux = e[4], uy = e[5], uz = e[6];
        const float gd = h[0], gx = h[1], gy = h[2], gz = h[3];
        const float ug = ux * gx + uy * gy + uz * gz, id = e[3] != 0.0f ? 1.0f / d : 0.0f;
        h[0] = gd * ux + (gx - ug * ux) * id;
        h[1] = gd * uy + (gy - ug * uy) * id;
        h[2] = gd * uz + (gz - ug * uz) * id;
    }
    __syncthreads();
    for (int q = tid; q < M * 3; q += NT) {
        const int m = q / 3, a = q - 3 * m, g = m / N, k = m - g * N;
        const float* h = gp + (size_t)g * P * 4;
        float acc = 0.0f;   // dE/dr_k[a]
        int p = 0;
        for (int i = 0; i < N; ++i)
            for (int j = i + 1; j < N; ++j, ++p) {
                if (j == k) acc += h[4 * p + a];
                else if (i == k) acc -= h[4 * p + a];
            }
        force[((size_t)(mol0 + g) * N + k) * 3 + a] = -acc;
    }
    if (tid < G) {
        double e = (double)esh[tid] + (double)N * (double)w.scale * (double)w.b6;
        for (int k = 0; k < N; ++k) e += (double)w.atomref[zidx[k]];
        energy[mol0 + tid] = e;
    }
}

// ================================ host ================================
static std::vector<char> slurp(const char* path) {
    FILE* fh = std::fopen(path, "rb");
    if (!fh) { std::fprintf(stderr, "cannot open %s\n", path); std::exit(1); }
    std::fseek(fh, 0, SEEK_END);
    const long n = std::ftell(fh);
    std::fseek(fh, 0, SEEK_SET);
    std::vector<char> b(n);
    if (std::fread(b.data(), 1, n, fh) != (size_t)n) { std::fprintf(stderr, "short read %s\n", path); std::exit(1); }
    std::fclose(fh);
    return b;
}

// Weight pointers into a float array laid out as group_force_probe.py writes it (base: host or device copy).
static Weights layout(const float* base, const std::vector<float>& h, int S) {
    Weights w;
    size_t o = 0;
    auto take = [&](size_t n) { const float* p = base + o; o += n; return p; };
    w.cutoff = h[0]; w.gamma = h[1]; w.scale = h[2];
    take(4);
    w.emb = take((size_t)S * F);
    w.atomref = take(4 * ((S + 3) / 4));
    w.layers = take((size_t)T * LO::size);
    w.W5T = take(F * FH); w.W5 = take(FH * F); w.b5 = take(FH); w.W6 = take(FH);
    w.b6 = h[o];
    take(4);
    if (o != h.size()) { std::fprintf(stderr, "weights.bin: %zu floats expected, %zu found\n", o, h.size()); std::exit(1); }
    return w;
}

#ifdef GROUP_PROBE_HOST
// ---- minimal CPU runner for the emulator header: one block at a time, 128 coroutines, __syncthreads = a round
EmuThreadState* emu_cur = nullptr;
namespace hemu {
// Barriers: a block barrier releases when every live thread of the block waits at one; a warp barrier (the
// shuffles) when the warp's 32 lanes wait at one. Threads run one at a time up to their next barrier.
struct Th { ucontext_t uc; std::vector<char> stack; EmuThreadState st; bool done = false; int wait = 0; };   // wait: 0 runnable, 1 block, 2 warp
static ucontext_t sched;
static std::vector<Th> th(256);
static int nth = 128, cur = 0, blockArrived = 0, warpArrived[8];
static std::function<void()> body;
static unsigned long long xch[256];
static unsigned mA[2][256][4], mB[2][256][2];   // emu_mma_tf32's deposits (below)
static float mC[2][256][4];
static int mPar[256];
static void entry() { body(); th[cur].done = true; swapcontext(&th[cur].uc, &sched); }
static void block_barrier() {
    th[cur].wait = 1;
    int live = 0;
    for (int t = 0; t < nth; ++t) live += th[t].done ? 0 : 1;
    if (++blockArrived == live) {
        for (int t = 0; t < nth; ++t) if (th[t].wait == 1) th[t].wait = 0;
        blockArrived = 0;
    }
    swapcontext(&th[cur].uc, &sched);
}
static void warp_barrier() {
    const int w = cur >> 5;
    th[cur].wait = 2;
    if (++warpArrived[w] == 32) {
        for (int t = 32 * w; t < 32 * w + 32; ++t) th[t].wait = 0;
        warpArrived[w] = 0;
    }
    swapcontext(&th[cur].uc, &sched);
}
static void run_block(int b, int nblocks, int nthreads, std::vector<float>& smem, const std::function<void()>& fn) {
    body = fn;
    nth = nthreads;
    blockArrived = 0;
    const bool reverse = std::getenv("GFP_EMU_REVERSE") && std::atoi(std::getenv("GFP_EMU_REVERSE"));
    for (int& x : warpArrived) x = 0;
    for (int& x : mPar) x = 0;
    for (int t = 0; t < nth; ++t) {
        Th& x = th[t];
        x.stack.resize(1 << 20);
        x.done = false;
        x.wait = 0;
        x.st.tid = {(unsigned)t, 0, 0}; x.st.bid = {(unsigned)b, 0, 0}; x.st.bdim = {(unsigned)nth, 1, 1}; x.st.gdim = {(unsigned)nblocks, 1, 1};
        x.st.cluster_rank = 0; x.st.smem = smem.data();
        getcontext(&x.uc);
        x.uc.uc_stack.ss_sp = x.stack.data(); x.uc.uc_stack.ss_size = x.stack.size(); x.uc.uc_link = nullptr;
        makecontext(&x.uc, entry, 0);
    }
    for (;;) {
        bool ran = false, undone = false;
        for (int tt = 0; tt < nth; ++tt) {
            const int t = reverse ? nth - 1 - tt : tt;   // GFP_EMU_REVERSE=1: the other order (missing barriers show)
            if (th[t].done) continue;
            undone = true;
            if (th[t].wait) continue;
            cur = t; emu_cur = &th[t].st;
            swapcontext(&sched, &th[t].uc);
            ran = true;
        }
        if (!undone) break;
        if (!ran) { std::fprintf(stderr, "emu: deadlock (threads wait at barriers that cannot complete)\n"); std::exit(1); }
    }
}
}  // namespace hemu
void __syncthreads() { hemu::block_barrier(); }
// mma.sync m16n8k8 tf32 within the warp: every lane deposits its fragments (the operands cut to their 19 tf32 bits,
// as the tensor core reads them), one warp barrier, then each lane computes its own 4 elements of d from the
// deposited fragments by the PTX ISA layout (exact products, summed in double, rounded once to float32). Two
// deposit buffers alternate: a lane can be at most one mma ahead of the slowest lane of its warp.
void emu_mma_tf32(float* d, const unsigned* a, const unsigned* b) {
    const int t = hemu::cur, w0 = t & ~31, lane = t & 31, par = hemu::mPar[t];
    hemu::mPar[t] ^= 1;
    for (int r = 0; r < 4; ++r) { hemu::mA[par][t][r] = a[r] & 0xffffe000u; hemu::mC[par][t][r] = d[r]; }
    for (int r = 0; r < 2; ++r) hemu::mB[par][t][r] = b[r] & 0xffffe000u;
    hemu::warp_barrier();
    const int g = lane >> 2, q = lane & 3;
    for (int r = 0; r < 4; ++r) {
        const int row = g + 8 * (r >> 1), col = 2 * q + (r & 1);
        double s = hemu::mC[par][t][r];
        for (int kap = 0; kap < 8; ++kap) {
            const unsigned av = hemu::mA[par][w0 + 4 * (row & 7) + (kap & 3)][(row >> 3) + 2 * (kap >> 2)];
            const unsigned bv = hemu::mB[par][w0 + 4 * col + (kap & 3)][kap >> 2];
            s += (double)u2f(av) * (double)u2f(bv);
        }
        d[r] = (float)s;
    }
}
unsigned long long emu_warp_exchange(unsigned long long v, int src) {   // the warp's lanes meet twice: write, read
    const int t = hemu::cur;
    hemu::xch[t] = v;
    hemu::warp_barrier();
    const unsigned long long r = hemu::xch[(t & ~31) + (src & 31)];
    hemu::warp_barrier();
    return r;
}
#endif

template <int N, int G, int RT, int H, int VAR>
static int run(const char* wpath, const char* ppath, const char* rpath, const char* opath, int reps) {
    using L = Smem<N, G, H, VAR>;
    constexpr int M = L::M;
    std::vector<char> wb = slurp(wpath), pb = slurp(ppath);
    const int* wh = reinterpret_cast<const int*>(wb.data());
    if (wh[0] != 0x50464747 || wh[1] != F || wh[2] != T || wh[3] != NR) { std::fprintf(stderr, "weights.bin: bad header\n"); return 1; }
    const int S = wh[4];
    std::vector<float> hw(wh[5]);
    std::memcpy(hw.data(), wb.data() + 32, hw.size() * 4);
    const int R = reinterpret_cast<const int*>(pb.data())[0], n = reinterpret_cast<const int*>(pb.data())[1];
    if (n != N || R % G != 0) { std::fprintf(stderr, "positions: N %d (want %d), R %d (G %d)\n", n, N, R, G); return 1; }
    std::vector<int> hz(N);
    std::memcpy(hz.data(), pb.data() + 8, N * 4);
    std::vector<float> hp((size_t)R * N * 3);
    std::memcpy(hp.data(), pb.data() + 8 + 4 * N, hp.size() * 4);
    const int blocks = R / G;
    const size_t scratchFloats = (size_t)blocks * L::SCRB;
    (void)M;
    std::vector<double> he(R);
    std::vector<float> hf((size_t)R * N * 3);
    double us = 0.0, usMode[4] = {0, 0, 0, 0};
    int regs = -1, local = -1, perSM = -1;
#ifdef GROUP_PROBE_HOST
    (void)reps;
    const Weights w = layout(hw.data(), hw, S);
    std::vector<float> scratch(scratchFloats, std::nanf(""));
    for (int b = 0; b < blocks; ++b) {
        std::vector<float> smem(L::TOTAL, std::nanf(""));   // poisoned: a read before a write shows
        hemu::run_block(b, blocks, 128 * H, smem, [&]() {
            group_force<N, G, RT, H, VAR>(w, hp.data(), hz.data(), scratch.data(), he.data(), hf.data(), 0);
        });
    }
#else
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)
    float *dw, *dp, *ds, *df;
    int* dz;
    double* de;
    CK(cudaMalloc(&dw, hw.size() * 4));
    CK(cudaMalloc(&dp, hp.size() * 4));
    CK(cudaMalloc(&dz, N * 4));
    CK(cudaMalloc(&ds, scratchFloats * 4));
    CK(cudaMalloc(&df, hf.size() * 4));
    CK(cudaMalloc(&de, he.size() * 8));
    CK(cudaMemcpy(dw, hw.data(), hw.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dp, hp.data(), hp.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dz, hz.data(), N * 4, cudaMemcpyHostToDevice));
    const Weights w = layout(dw, hw, S);
    auto kern = group_force<N, G, RT, H, VAR>;
    int maxOptin = 0;
    CK(cudaDeviceGetAttribute(&maxOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    if (L::bytes > (size_t)maxOptin) {
        std::printf("N %2d  R %5d  G %d  RT %2d  threads %3d  skipped: %zu bytes of shared memory > %d\n", N, R, G, RT, 128 * H, L::bytes, maxOptin);
        return 0;
    }
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    if (VAR) CK(cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout, 100));   // variants: all shared
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, kern));
    regs = attr.numRegs;
    local = (int)attr.localSizeBytes;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kern, 128 * H, L::bytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    auto timeit = [&](int mode) {   // µs per launch: 20 warm-ups, then reps back to back
        for (int i = 0; i < 20; ++i) kern<<<blocks, 128 * H, L::bytes>>>(w, dp, dz, ds, de, df, mode);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0));
        for (int i = 0; i < reps; ++i) kern<<<blocks, 128 * H, L::bytes>>>(w, dp, dz, ds, de, df, mode);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float ms = 0.0f;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        return 1000.0 * ms / reps;
    };
    // attribution first (modes 1: forward only, 2: no message pair loops, 3: both), the full evaluation last
    if (!std::getenv("GFP_NO_ATTRIB"))
        for (int mode = 1; mode <= 3; ++mode) usMode[mode] = timeit(mode);
    us = timeit(0);
    CK(cudaMemcpy(he.data(), de, he.size() * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hf.data(), df, hf.size() * 4, cudaMemcpyDeviceToHost));
#endif
    // compare against the float64 reference (its first R_ref replicas)
    double dF = -1.0, dE = -1.0;
    int nref = 0;
    if (rpath && std::strcmp(rpath, "-") != 0) {
        std::vector<char> rb = slurp(rpath);
        const int Rr = reinterpret_cast<const int*>(rb.data())[0];
        nref = Rr < R ? Rr : R;
        const double* Er = reinterpret_cast<const double*>(rb.data() + 8);
        const double* Fr = Er + Rr;
        dF = dE = 0.0;
        for (int r = 0; r < nref; ++r) {
            dE = std::fmax(dE, std::fabs(he[r] - Er[r]));
            for (int k = 0; k < N * 3; ++k) dF = std::fmax(dF, std::fabs((double)hf[(size_t)r * N * 3 + k] - Fr[(size_t)r * N * 3 + k]));
        }
    }
    if (opath && std::strcmp(opath, "-") != 0) {
        FILE* fh = std::fopen(opath, "wb");
        const int hdr[2] = {R, N};
        std::fwrite(hdr, 4, 2, fh);
        std::fwrite(he.data(), 8, he.size(), fh);
        std::fwrite(hf.data(), 4, hf.size(), fh);
        std::fclose(fh);
    }
    const char* mol = N == 9 ? "ethanol" : N == 22 ? "alanine-dipeptide" : "molecule";
    std::printf("%-17s N %2d  R %5d  G %d  RT %2d  threads %3d  var %d  smem %6zu B  regs %3d  local %3d B  blocks/SM %d  %8.1f us/eval  "
                "%10.0f replica-evals/s  max|dF| %.2e eV/A  max|dE| %.2e eV (%d ref)  | fwd-only %.1f us, no-pair-loops %.1f us, "
                "fwd no-pairs %.1f us\n",
                mol, N, R, G, RT, 128 * H, VAR, L::bytes, regs, local, perSM, us, us > 0 ? R / us * 1e6 : 0.0, dF, dE, nref,
                usMode[1], usMode[2], usMode[3]);
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s WEIGHTS POS REF|- OUT|- G [RT] [THREADS] [REPS] [VAR]\n", argv[0]);
        return 2;
    }
    std::vector<char> pb = slurp(argv[2]);
    const int N = reinterpret_cast<const int*>(pb.data())[1];
    const int G = std::atoi(argv[5]);
    const int RT = argc > 6 ? std::atoi(argv[6]) : 0;
    const int H = argc > 7 ? std::atoi(argv[7]) / 128 : 1;
    const int reps = argc > 8 ? std::atoi(argv[8]) : 200;
    const int var = argc > 9 ? std::atoi(argv[9]) : 0;   // variant bits (VGX 1, VMOLH 2, VRACC 4, VRACCB 8, VTC 16, VTCA 32); 0: baseline
#define CASE(n, g, rt, h, v) \
    if (N == n && G == g && (RT == 0 || RT == rt) && H == h && var == (v)) return run<n, g, rt, h, v>(argv[1], argv[2], argv[3], argv[4], reps)
    CASE(9, 1, 9, 1, 0);
    CASE(9, 2, 9, 1, 0);
    CASE(9, 2, 9, 2, 0);
    CASE(9, 4, 9, 1, 0);
    CASE(9, 4, 9, 2, 0);
    CASE(22, 1, 11, 1, 0);
    CASE(22, 1, 11, 2, 0);
    CASE(22, 2, 11, 2, 0);
    // variants (not yet measured)
    CASE(9, 1, 9, 1, VRACC);
    CASE(9, 1, 9, 1, VRACC | VRACCB);
    CASE(9, 2, 9, 2, VMOLH);
    CASE(9, 2, 9, 2, VMOLH | VRACC);
    CASE(9, 2, 9, 2, VMOLH | VRACC | VRACCB);
    CASE(22, 1, 11, 1, VGX);
    CASE(22, 1, 11, 1, VGX | VRACC | VRACCB);
    // VTC (tensor cores, not yet measured)
    CASE(9, 1, 9, 1, VTC);
    CASE(9, 1, 9, 1, VTC | VRACC);
    CASE(9, 2, 9, 1, VTC | VRACC);
    CASE(9, 2, 9, 1, VTC | VTCA | VRACC);
    CASE(9, 4, 9, 2, VTC | VMOLH | VRACC);
    CASE(9, 4, 9, 2, VTC | VTCA | VMOLH | VRACC);
    CASE(22, 1, 11, 1, VTC | VGX);
    CASE(22, 1, 11, 1, VTC | VGX | VRACC | VRACCB);
    CASE(22, 1, 11, 1, VTC | VTCA | VGX | VRACC | VRACCB);
    CASE(22, 1, 11, 2, VTC);
#undef CASE
    std::fprintf(stderr, "no instance for N %d G %d RT %d threads %d var %d\n", N, G, RT, 128 * H, var);
    return 2;
}
