// Probe: how fast B blocks (one per multiprocessor, 1,024 threads each) read a buffer that sits in L2, each block
// all of it (16-byte loads that bypass L1, 8 in flight per thread): the rate at which one multiprocessor can
// stream a model's weights from L2 (4.4 MB per MD step of the bundled model, forward and backward).
//   nvcc -ptx -arch=sm_90 -O3 -o l2.ptx scripts/probes/l2_stream_probe.cu; python3 scripts/probes/l2_stream_probe.py l2.ptx
extern "C" __global__ void __launch_bounds__(1024, 1) k_stream(const float4* __restrict__ buf, long long n4, int passes,
                                                              float* out) {
    float acc = 0.f;
    for (int p = 0; p < passes; ++p) {
        for (long long i = threadIdx.x; i < n4; i += 8 * 1024) {
            float4 v[8];
#pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = i + u * 1024 < n4 ? __ldcg(buf + i + u * 1024) : make_float4(0, 0, 0, 0);
#pragma unroll
            for (int u = 0; u < 8; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
        }
    }
    if (acc == 12345.f) out[blockIdx.x] = acc;  // keeps the loads; never true for the zero-filled buffer
}
