// CPU emulation of the CUDA device code used by Molten's kernels (test infrastructure only).
// Every CUDA thread is a coroutine; barriers (block, warp, cluster, grid) switch coroutines.
// Compiled into a fake libcuda.so.1 (see fake_driver.cpp), so that the unchanged Java host code
// (JCuda's driver API) can be exercised on a machine without a GPU.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __grid_constant__
#define __launch_bounds__(...)
#define __cluster_dims__(...)
#define __restrict__ __restrict

struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
struct EmuDim3 { unsigned x, y, z; };

struct EmuThreadState {
    EmuDim3 tid, bid, bdim, gdim;
    int cluster_rank;
    float* smem;
};
extern EmuThreadState* emu_cur;

#define threadIdx (emu_cur->tid)
#define blockIdx (emu_cur->bid)
#define blockDim (emu_cur->bdim)
#define gridDim (emu_cur->gdim)

void __syncthreads();
void __syncwarp(unsigned mask = 0xffffffffu);
unsigned long long emu_warp_exchange(unsigned long long v, int src_lane);
unsigned __ballot_sync(unsigned mask, int pred);
float emu_warp_sum(float x);
// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 of the warp (all 32 lanes): d += a b with this lane's
// fragments a[4], b[2] (tf32 bit patterns), d[4] (PTX ISA layout; fake_driver.cpp)
void emu_mma_tf32(float* d, const unsigned* a, const unsigned* b);
void emu_cluster_sync();
void emu_grid_sync();
int emu_cluster_rank();
inline float* emu_smem() { return emu_cur->smem; }
float* emu_map_rank(float* p, int rank);  // distributed shared memory of a cluster
// mbarrier with transaction counts (sm_90), 4 words of shared memory: pending arrivals, expected
// arrivals, tx-count (bytes, may go negative), phase. st.async: the store, then complete_tx.
void emu_mbar_init(float* bar, int count);
void emu_mbar_arrive_expect(float* bar, int bytes);
void emu_mbar_wait(float* bar, int parity);
void emu_st_async(float* dst, const float* v, int n, float* bar);
void emu_fail(const char* why);

inline float __shfl_xor_sync(unsigned, float v, int m) {
    unsigned u; std::memcpy(&u, &v, 4);
    const int lane = (int)(emu_cur->tid.x & 31);
    unsigned long long r = emu_warp_exchange(u, lane ^ m);
    unsigned rr = (unsigned)r; float f; std::memcpy(&f, &rr, 4);
    return f;
}
inline int __shfl_up_sync(unsigned, int v, int delta) {
    const int lane = (int)(emu_cur->tid.x & 31);
    return (int)emu_warp_exchange((unsigned)v, lane >= delta ? lane - delta : lane);
}
inline int __shfl_sync(unsigned, int v, int src) { return (int)emu_warp_exchange((unsigned)v, src & 31); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
// One coroutine runs at a time and memory is shared: every store is visible at once.
inline void __threadfence() {}

// Atomics: the emulator runs one coroutine at a time, so plain read-modify-write is atomic.
inline int atomicAdd(int* p, int v) { int o = *p; *p = o + v; return o; }
inline unsigned atomicAdd(unsigned* p, unsigned v) { unsigned o = *p; *p = o + v; return o; }
inline float atomicAdd(float* p, float v) { float o = *p; *p = o + v; return o; }
inline double atomicAdd(double* p, double v) { double o = *p; *p = o + v; return o; }
inline int atomicMax(int* p, int v) { int o = *p; if (v > o) *p = v; return o; }
inline int atomicCAS(int* p, int cmp, int v) { int o = *p; if (o == cmp) *p = v; return o; }

inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
using std::isfinite;
