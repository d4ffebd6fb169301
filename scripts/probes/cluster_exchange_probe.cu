// Probe: the bare cost of one exchange of the small-molecule kernel's design (molten_small.cuh) with no
// arithmetic around it: in a 16-block cluster every block sends W floats to each of the 16 blocks with st.async
// (16 bytes per store, completing on the receiver's mbarrier), waits until its own W x 16 floats have arrived,
// reads them after a block barrier and barriers again, with two receive buffers alternating as in k_small_c16.
// ROUNDS such exchanges in a chain: the time per round is a floor for each of the ~32 exchanges of an MD step.
// Built to PTX here (nvcc -arch=sm_90 -ptx -I platform-cuda/src/main/cuda) and run by cluster_exchange_probe.py.
#include "molten_small.cuh"

extern "C" __global__ void __cluster_dims__(16, 1, 1) __launch_bounds__(256, 1)
k_exchange(float* out, int rounds, int w) {
    extern __shared__ float4 probe_smem4[];
    float* sm = reinterpret_cast<float*>(probe_smem4);
    float* bars = sm;                       // two mbarriers (4 words each)
    float* recv[2] = {sm + 8, sm + 8 + 16 * w};
    const int rank = (int)cg::this_cluster().block_rank();
    if (threadIdx.x == 0) { mb_init(bars); mb_init(bars + 4); mb_init_fence(); }
    __syncthreads();
    cg::this_cluster().sync();
    float v = (float)rank;
    unsigned phase = 0;
    for (int r = 0; r < rounds; ++r) {
        const int par = r & 1;
        float* bar = bars + 4 * par;
        if (threadIdx.x == 0) mb_expect(bar, 16 * w * 4);
        for (int e = 4 * threadIdx.x; e < 16 * w; e += 4 * 256) {
            const int dst = e / w, off = rank * w + (e - dst * w);
            const float q[4] = {v, v + 1.f, v + 2.f, v + 3.f};
            st_async<4>(remote_ref(recv[par], bar, dst), off, q);
        }
        mb_wait(bar, (phase >> par) & 1u);
        phase ^= 1u << par;
        __syncthreads();
        v += recv[par][threadIdx.x % (16 * w)];
        __syncthreads();
    }
    cg::this_cluster().sync();
    if (threadIdx.x == 0) out[rank] = v;
}
