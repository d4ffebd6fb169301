// Kernel entry points of the Molten student model (compiled to PTX for sm_90 by
// scripts/build-ptx.sh; the PTX is committed as a resource with the SHA-256 of these sources).
//
// Graph mode: one kernel per stage (k_*), launched in the order of run_step() by the host
// (CudaStepPlan) and captured into a CUDA graph per system size.
// Megakernel modes: k_mega_c16 / k_mega_c8 run whole MD steps inside one thread-block cluster
// (barrier.cluster between stages) for small molecules; k_mega_grid does the same over a
// cooperative grid (grid-wide barrier between stages). k_small_c16: small molecules, activations
// in the shared memory of a 16-block cluster (molten_small.cuh).
#include "molten_small.cuh"
#include "molten_msg_rows.cuh"
#include "molten_thermostat.cuh"

#define KERNEL extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS)
#ifdef MOLTEN_EMU
#define SMEM_DECL float* sm = emu_smem()
#else
#define SMEM_DECL extern __shared__ float4 molten_smem4[]; float* sm = reinterpret_cast<float*>(molten_smem4)
#endif

KERNEL k_integrate1(const Net n) { stage_entry(); st_integrate1(n, blockIdx.x, gridDim.x); }
KERNEL k_cell_scan(const Net n) { stage_entry(); SMEM_DECL; st_cell_scan(n, blockIdx.x, sm); }
KERNEL k_neighbours(const Net n) { stage_entry(); SMEM_DECL; st_neighbours(n, blockIdx.x, gridDim.x, sm); }
// _m1: one channel per lane (large systems, mg = 1); _m4: up to four (small systems, mg = F/32 <= 4).
KERNEL k_msg_fwd_m1(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd<1, MOLTEN_SU_LARGE>(n, t, blockIdx.x, gridDim.x, sm); }
KERNEL k_msg_fwd_m4(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd<MOLTEN_MG_SMALL, MOLTEN_SU_SMALL>(n, t, blockIdx.x, gridDim.x, sm); }
KERNEL k_msg_bwd_m1(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd<1, MOLTEN_SU_LARGE>(n, t, blockIdx.x, gridDim.x, sm); }
KERNEL k_msg_bwd_m4(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd<MOLTEN_MG_SMALL, MOLTEN_SU_SMALL>(n, t, blockIdx.x, gridDim.x, sm); }
// Warp-per-row message passes (molten_msg_rows.cuh), one channel per lane; at most 128 registers:
// two blocks (16 warps) per multiprocessor (measured against 1 and 3 blocks, docs/benchmarks.md).
#define KERNEL_ROWS extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS, 2)
KERNEL_ROWS k_msg_fwd_r(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd_row<4, 1>(n, t, sm); }
KERNEL_ROWS k_msg_bwd_r(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd_row<4, 1>(n, t, sm); }
// two warps per row (systems too small to fill the GPU with one warp per row)
KERNEL_ROWS k_msg_fwd_r2(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_fwd_row<4, 2>(n, t, sm); }
KERNEL_ROWS k_msg_bwd_r2(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd_row<4, 2>(n, t, sm); }
// backward passes over the source edges only (one, two warps per row), whose forces k_forces_rs assembles
KERNEL_ROWS k_msg_bwd_rs(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd_row<4, 1, true>(n, t, sm); }
KERNEL_ROWS k_msg_bwd_rs2(const Net n, int t) { stage_entry(); SMEM_DECL; st_msg_bwd_row<4, 2, true>(n, t, sm); }
KERNEL k_forces(const Net n) { stage_entry(); st_forces(n, blockIdx.x, gridDim.x); }
KERNEL k_forces_rs(const Net n) { stage_entry(); st_forces<true>(n, blockIdx.x, gridDim.x); }
KERNEL k_energy(const Net n) { stage_entry(); SMEM_DECL; st_energy(n, blockIdx.x, sm); }
// Per-replica stages (molten_thermostat.cuh): one block per replica.
KERNEL k_thermostat(const Net n, int stage) { stage_entry(); SMEM_DECL; st_thermostat(n, stage, blockIdx.x, gridDim.x, sm); }
KERNEL k_drift(const Net n) { stage_entry(); st_drift(n, blockIdx.x, gridDim.x); }
KERNEL k_energy_rep(const Net n) { stage_entry(); SMEM_DECL; st_energy_rep(n, blockIdx.x, gridDim.x, sm); }

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

// ---- megakernels ----------------------------------------------------------------------------
// nsteps MD steps (or one force evaluation when n.integrator == NONE), then the energy sum.

struct ClusterSync {
    __device__ void operator()() const {
#ifdef MOLTEN_EMU
        emu_cluster_sync();
#else
        cg::this_cluster().sync();
#endif
    }
};
struct GridSync {
    __device__ void operator()() const {
#ifdef MOLTEN_EMU
        emu_grid_sync();
#else
        cg::this_grid().sync();
#endif
    }
};

__device__ __forceinline__ int cluster_rank() {
#ifdef MOLTEN_EMU
    return emu_cluster_rank();
#else
    return (int)cg::this_cluster().block_rank();
#endif
}

template <class Sync>
__device__ void mega(const Net& n, int nsteps, int wi, int wn, float* sm) {
    Sync sync;
    for (int s = 0; s < nsteps; ++s) run_step(n, wi, wn, sm, sync);
    st_energy(n, wi, sm);
}

extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(MOLTEN_THREADS, 1)
k_mega_c16(const Net n, int nsteps) { SMEM_DECL; mega<ClusterSync>(n, nsteps, cluster_rank(), 16, sm); }

extern "C" __global__ void __cluster_dims__(8, 1, 1) __launch_bounds__(MOLTEN_THREADS, 1)
k_mega_c8(const Net n, int nsteps) { SMEM_DECL; mega<ClusterSync>(n, nsteps, cluster_rank(), 8, sm); }

extern "C" __global__ void __launch_bounds__(MOLTEN_THREADS, 1)
k_mega_grid(const Net n, int nsteps) { SMEM_DECL; mega<GridSync>(n, nsteps, blockIdx.x, gridDim.x, sm); }

// Small molecules: nsteps MD steps (or one force evaluation) in one 16-block cluster, everything in
// shared memory (molten_small.cuh). smem: the dynamic shared memory the host gave, checked.
// k_small_c16 exchanges through st.async + mbarrier; k_small_bar_c16 through a cluster barrier per
// exchange (the same arithmetic in the same order: bit-identical results; for timing side by side).
// Both run 256 threads (8 warps). k_small_t512_c16: the same code at 512 threads (16 warps, at most 128
// registers), bit-identical (no sum depends on the thread count); measured slower on the H200
// (docs/benchmarks.md, round 3), kept for timing and profiling side by side.
template <bool ASYNC, int NT>
__device__ __forceinline__ void small(const Net& n, int nsteps, long long smem, float* sm) {
    if (small_smem_bytes(n) > smem || n.F % (MOLTEN_SMALL_CL * 4) != 0 || n.FR * 2 != n.F || blockDim.x != NT) {
#ifdef MOLTEN_EMU
        emu_fail("k_small_c16: shared memory, block size or model shape the host did not check");
#else
        __trap();
#endif
    }
    const int rank = cluster_rank();
    if (n.F == 64) { SmallNet<4, ASYNC, NT> s(n, sm, rank); s.run(nsteps); }
    else if (n.F == 128) { SmallNet<8, ASYNC, NT> s(n, sm, rank); s.run(nsteps); }
    else if (n.F == 256) { SmallNet<16, ASYNC, NT> s(n, sm, rank); s.run(nsteps); }
}
extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(MOLTEN_THREADS, 1)
k_small_c16(const Net n, int nsteps, long long smem) { SMEM_DECL; small<true, MOLTEN_THREADS>(n, nsteps, smem, sm); }

extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(MOLTEN_THREADS, 1)
k_small_bar_c16(const Net n, int nsteps, long long smem) { SMEM_DECL; small<false, MOLTEN_THREADS>(n, nsteps, smem, sm); }

extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(512, 1)
k_small_t512_c16(const Net n, int nsteps, long long smem) { SMEM_DECL; small<true, 512>(n, nsteps, smem, sm); }
