// Kernel entry points of the Molten student model, compiled by scripts/build-kernels.sh into one fatbin
// (machine code for sm_80, sm_86, sm_89 and sm_90, PTX for compute_90) committed as a resource with the
// SHA-256 of these sources.
//
// Stage kernels (k_*): one kernel per stage, launched by the host (DeviceSystem.forces) in a fixed order
// and captured into a CUDA graph per system size; they run on every architecture of the fatbin.
// k_small_c16: small molecules, whole MD steps in one 16-block thread-block cluster with the activations
// in shared memory (molten_small.cuh); k_small_c16_cons the same with bond constraints (molten_small_constraints.cuh).
// Clusters, mbarriers and st.async exist from sm_90 on only: below it the entries are compiled as traps, and the host
// never launches them there (no cluster launch attribute).
#include "molten_small.cuh"
#include "molten_msg_rows.cuh"
#include "molten_thermostat.cuh"
#include "molten_group.cuh"

#define KERNEL extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS)
#ifdef MOLTEN_EMU
#define SMEM_DECL float* sm = emu_smem()
#else
#define SMEM_DECL extern __shared__ float4 molten_smem4[]; float* sm = reinterpret_cast<float*>(molten_smem4)
#endif

KERNEL k_integrate1(const Net n) { stage_entry(); st_integrate1(n, blockIdx.x, gridDim.x); }
KERNEL k_cell_scan(const Net n) { stage_entry(); SMEM_DECL; st_cell_scan(n, blockIdx.x, sm); }
KERNEL k_neighbours(const Net n) { stage_entry(); SMEM_DECL; st_neighbours(n, blockIdx.x, gridDim.x, sm); }
// Block-per-row message passes of small systems, up to four channels per lane (mg = F/32 <= 4); large systems
// use the warp-per-row passes below.
KERNEL k_msg_fwd_m4(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd<MOLTEN_MG_SMALL, MOLTEN_SU_SMALL>(n, t, blockIdx.x, gridDim.x, sm); }
KERNEL k_msg_bwd_m4(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd<MOLTEN_MG_SMALL, MOLTEN_SU_SMALL>(n, t, blockIdx.x, gridDim.x, sm); }
// Warp-per-row message passes (molten_msg_rows.cuh), one channel per lane; at most 128 registers:
// two blocks (16 warps) per multiprocessor (measured against 1 and 3 blocks, docs/benchmarks.md).
#define KERNEL_ROWS extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS, 2)
KERNEL_ROWS k_msg_fwd_r(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd_row<4, 1>(n, t, sm); }
// two warps per row (systems too small to fill the GPU with one warp per row)
KERNEL_ROWS k_msg_fwd_r2(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd_row<4, 2>(n, t, sm); }
// backward passes over the source edges only (one, two warps per row), whose forces k_forces_rs assembles
KERNEL_ROWS k_msg_bwd_rs(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd_row<4, 1>(n, t, sm); }
KERNEL_ROWS k_msg_bwd_rs2(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd_row<4, 2>(n, t, sm); }
KERNEL k_forces(const Net n) { stage_entry(); st_forces(n, blockIdx.x, gridDim.x); }
KERNEL k_forces_rs(const Net n) { stage_entry(); st_forces<true>(n, blockIdx.x, gridDim.x); }
KERNEL k_energy(const Net n) { stage_entry(); SMEM_DECL; st_energy(n, blockIdx.x, sm); }
// Per-replica stages (molten_thermostat.cuh): one block per replica.
KERNEL k_thermostat(const Net n, int stage) { stage_entry(); SMEM_DECL; st_thermostat(n, stage, blockIdx.x, gridDim.x, sm); }
// Constraints (molten_constraints.cuh): one block per replica; what: MOLTEN_CONS_*.
KERNEL k_constrain(const Net n, int what) { stage_entry(); SMEM_DECL; st_constrain(n, what, n.cons_smem != 0, blockIdx.x, gridDim.x, reinterpret_cast<double*>(sm)); }
KERNEL k_drift(const Net n) { stage_entry(); st_drift(n, blockIdx.x, gridDim.x); }
KERNEL k_energy_rep(const Net n) { stage_entry(); SMEM_DECL; st_energy_rep(n, blockIdx.x, gridDim.x, sm); }

// Replica groups on chip (molten_group.cuh): the force evaluation of uniform replica batches of small molecules,
// a block per replica (grid R), a thread per channel; the host picks the entry by the replicas' atom count
// (DeviceSystem.groupKernel). N <= 12: 128 threads, at most 128 registers (4 blocks a multiprocessor, as the probe
// measured); N <= 24: 256 threads, two per channel (the shared memory of one dipeptide, ~210 KB, allows one block).
// __grid_constant__: the body takes the Net by reference and must not copy the parameter block to local memory.
// k_group_n12's U|V products (3M rows) run in row tiles of 14 forward and 27 backward instead of 9: each tile
// re-reads the layer's U|V weights from L2, 2 resp. 1 tiles for an ethanol's 27 rows instead of 3 each (a block's
// weight reads -20 %). Measured on an H200 (2026-11-29, 1,024 ethanols, molten bench --replicas): 634,259 / 633,146
// replica-steps/s against 615,494 / 614,376 with tiles of 9 (+3.1 %), at ptxas spills of 80 / 92 B against 68 / 80.
// The variants that measured slower (k_group_n12_lb3, k_group_n24_tc2, k_group_n24_tc_h1) are on branch group-v3
// (commit 958b043; docs/performance-notes.md has the figures); the 12-slot entries' pair-loop variants k_group_n12_p
// and k_group_n12_tc_p (1,024 ethanols 2.6 % and 2.8 % slower on an H200) in git history (scripts/patches/group-v5).
extern "C" __global__ void __launch_bounds__(128, 4) k_group_n12(const __grid_constant__ Net n) {
    stage_entry(); SMEM_DECL; grp::group_force<12, 9, 1, true, 4, 2, false, 6, 2, 14, 27>(n, sm);
}
extern "C" __global__ void __launch_bounds__(256, 1) k_group_n24(const __grid_constant__ Net n) {
    stage_entry(); SMEM_DECL; grp::group_force<24, 11, 2, false, 4, 2>(n, sm);
}
// The same on the tensor cores (dense products as 3xTF32 mma.sync m16n8k8, grp::dense_tc: the probe's VTC; measured
// on an H200, docs/performance-notes.md): the same launch shapes and shared memory. MAXT accumulator tiles / TCPF weight pipeline depth (blocks of
// 16 k) chosen by ptxas's spills (sm_90), not by time: at 128 registers 6 / 2 as the probe (56 / 52 B; 5 / 2 the same,
// 4 / 2 76 / 76 B, 6 / 1 72 / 80 B); at 256 threads 12 / 2 (4 / 68 B; the probe's 12 / 4, and 9 / 4, 10 / 4: 40 / 108 B).
extern "C" __global__ void __launch_bounds__(128, 4) k_group_n12_tc(const __grid_constant__ Net n) {
    stage_entry(); SMEM_DECL; grp::group_force<12, 9, 1, true, 4, 2, true, 6, 2>(n, sm);
}
extern "C" __global__ void __launch_bounds__(256, 1) k_group_n24_tc(const __grid_constant__ Net n) {
    stage_entry(); SMEM_DECL; grp::group_force<24, 11, 2, false, 4, 2, true, 12, 2>(n, sm);
}
// k_group_n24_tc with the pair loops of molten_group_pairs.cuh (d rbf/dd once per pair, atom i's sums in registers
// in both pair loops, the next pair's inputs loaded ahead): the tensor-core entry for 13..22 atoms (GroupPath).
// Measured on an H200 (2026-11-29, 256 alanine dipeptides, molten bench --replicas, as the timing variant
// k_group_n24_tc_p): 1,481.1 / 1,480.6 us a step against k_group_n24_tc's 1,628.6 / 1,628.4 (1.10x); ptxas 255
// registers, spills 0 / 0 B (k_group_n24_tc 4 / 68). NMAX 22: the stored d rbf/dd (80 B a pair) takes 228,368 B of
// shared memory at 22 atoms, 241,136 B at 23 (sm_90 allows 232,448), so 23 and 24 atoms keep k_group_n24_tc.
// Every _tc entry splits its operands with the fast 3xTF32 split (grp::split_tf32: an add and a mask, no cvt.rna),
// measured on an H200 (2026-11-30, as the timing variant k_group_n22_tcf, the same PTX but its name): 256 alanine
// dipeptides 1,449.5 / 1,447.0 us a step against 1,492.0 / 1,494.1 with two cvt.rna (+3.0 %); 1,024 ethanols on
// k_group_n12_tc 1,841 us against 2,099 us, still slower than k_group_n12 (1,621-1,623 us): ethanol stays SIMT.
extern "C" __global__ void __launch_bounds__(256, 1) k_group_n22_tc(const __grid_constant__ Net n) {
    stage_entry(); SMEM_DECL; grp::group_force<22, 11, 2, true, 4, 2, true, 12, 2, 0, 0, true>(n, sm);
}

// Dense stages, warp variant (_w), tiled variant (_t) and narrow tiles (_n, see molten_layers.cuh); at most 128 registers, so that two
// blocks (16 warps) share a multiprocessor and hide each other's memory latency. s: K splits of the tiled
// variants (dense_tile; 1 = none), ignored by the warp variant.
#define KERNEL2 extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS, 2)
#define DENSE_T(NAME)                                                                              \
    KERNEL2 k_##NAME##_w(const Net n, int t, int s) { stage_entry(); SMEM_DECL; st_##NAME<false>(n, t, blockIdx.x, gridDim.x, sm); } \
    KERNEL2 k_##NAME##_t(const Net n, int t, int s) { stage_entry(); SMEM_DECL; st_##NAME<true>(n, t, blockIdx.x, gridDim.x, sm, s); } \
    KERNEL2 k_##NAME##_n(const Net n, int t, int s) { stage_entry(); SMEM_DECL; st_##NAME<true, true>(n, t, blockIdx.x, gridDim.x, sm, s); }
DENSE_T(uv)
DENSE_T(mlp0)
DENSE_T(mlp2)
DENSE_T(phi1)
DENSE_T(phi2)
DENSE_T(ub1)
DENSE_T(ub2)
DENSE_T(ub3)
DENSE_T(pb1)
DENSE_T(pb2)
KERNEL2 k_readout_w(const Net n, int s) { stage_entry(); SMEM_DECL; st_readout<false>(n, blockIdx.x, gridDim.x, sm); }
KERNEL2 k_readout_t(const Net n, int s) { stage_entry(); SMEM_DECL; st_readout<true>(n, blockIdx.x, gridDim.x, sm, s); }
KERNEL2 k_readout_bwd_w(const Net n, int s) { stage_entry(); SMEM_DECL; st_readout_bwd<false>(n, blockIdx.x, gridDim.x, sm); }
KERNEL2 k_readout_bwd_t(const Net n, int s) { stage_entry(); SMEM_DECL; st_readout_bwd<true>(n, blockIdx.x, gridDim.x, sm, s); }
KERNEL2 k_readout_n(const Net n, int s) { stage_entry(); SMEM_DECL; st_readout<true, true>(n, blockIdx.x, gridDim.x, sm, s); }
KERNEL2 k_readout_bwd_n(const Net n, int s) { stage_entry(); SMEM_DECL; st_readout_bwd<true, true>(n, blockIdx.x, gridDim.x, sm, s); }

// Small molecules: nsteps MD steps (or one force evaluation) in one 16-block cluster, everything in
// shared memory (molten_small.cuh), exchanges through st.async + mbarrier, 256 threads (8 warps).
// smem: the dynamic shared memory the host gave, checked.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
// No clusters below sm_90: the entries exist (one symbol list for every architecture) but trap.
extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS, 1)
k_small_c16(const Net n, int nsteps, long long smem) { __trap(); }
extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS, 1)
k_small_c16_cons(const Net n, int nsteps, long long smem) { __trap(); }
#else
__device__ __forceinline__ int cluster_rank() {
#ifdef MOLTEN_EMU
    return emu_cluster_rank();
#else
    return (int)cg::this_cluster().block_rank();
#endif
}
template <bool CONS>
__device__ __forceinline__ void small(const Net& n, int nsteps, long long smem, float* sm) {
    if (small_smem_bytes(n, CONS) > smem || n.F % (MOLTEN_SMALL_CL * 4) != 0 || n.FR * 2 != n.F || blockDim.x != MOLTEN_THREADS
        || n.n > MOLTEN_THREADS || n.replicas > 1 || (!CONS && n.cons_on && n.integrator != MOLTEN_INT_NONE)) {
#ifdef MOLTEN_EMU
        emu_fail("k_small_c16: shared memory, block size, model shape or constraints the host did not check");
#else
        __trap();
#endif
    }
    const int rank = cluster_rank();
    if (n.F == 64) { SmallNet<4, MOLTEN_THREADS, true, true, CONS> s(n, sm, rank); s.run(nsteps); }
    else if (n.F == 128) { SmallNet<8, MOLTEN_THREADS, true, true, CONS> s(n, sm, rank); s.run(nsteps); }
    else if (n.F == 256) { SmallNet<16, MOLTEN_THREADS, true, true, CONS> s(n, sm, rank); s.run(nsteps); }
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(MOLTEN_THREADS, 1)
k_small_c16(const Net n, int nsteps, long long smem) { SMEM_DECL; small<false>(n, nsteps, smem, sm); }
// Constrained runs (molten_small_constraints.cuh): the solves compiled in. __grid_constant__: the solve is an outlined
// function taking the Net by reference, which would otherwise copy the parameter block to local memory.
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(MOLTEN_THREADS, 1)
k_small_c16_cons(const __grid_constant__ Net n, int nsteps, long long smem) { SMEM_DECL; small<true>(n, nsteps, smem, sm); }
#endif
