// Probe (issue 29 section 3): can a block that owns a group of small molecules run a dense layer at a useful
// fraction of the card's FP32 rate, with the layer's weights read from L2 by every block?
//
// The layer is the model's widest (phi2 / mlp2: Y[rows][3F] = X[rows][F] W^T, F = 128), over the atoms of R replicas
// of an N-atom molecule. A block owns G molecules (M = G N rows): it stages its X rows in shared memory and each thread
// owns C output columns, accumulating M x C sums in registers; per k it reads its columns' weights W^T[k][o] from
// global memory (consecutive threads, consecutive o: one coalesced L2 read per warp) and the M inputs X[m][k] from
// shared memory (the same address in every lane: broadcasts). This is the channel-parallel group kernel's dense
// layer (docs/performance-notes.md, "Design note: replica groups on chip"); nothing else of the step is here.
// Yardsticks from the same notes (H200, 1,024 ethanols = 9,216 rows): cuBLAS FP32 57.0 µs for phi2, Molten's stage
// kernel 108.9 µs.
//
//   nvcc -O3 -arch=sm_90 -cudart static -o group_dense_probe scripts/probes/group_dense_probe.cu
//   ./group_dense_probe            # prints one line per (molecule, G, threads): µs per layer, TFLOP/s, max |error|
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); std::exit(1); } } while (0)

constexpr int K = 128, O = 384;

// M rows a block (G molecules of N atoms), C columns a thread, T = O / C threads.
template <int M, int C>
__global__ void __launch_bounds__(O / C) group_dense(const float* __restrict__ x, const float* __restrict__ wt,
                                                     const float* __restrict__ bias, float* __restrict__ y, int rows) {
    __shared__ float xs[K][M];   // transposed: a k's M inputs side by side
    const int r0 = blockIdx.x * M;
    for (int e = threadIdx.x; e < M * K; e += blockDim.x) {
        const int m = e / K, k = e - m * K;
        xs[k][m] = r0 + m < rows ? x[(size_t)(r0 + m) * K + k] : 0.0f;
    }
    __syncthreads();
    float acc[M][C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        const float b = bias[threadIdx.x + c * (O / C)];
#pragma unroll
        for (int m = 0; m < M; ++m) acc[m][c] = b;
    }
#pragma unroll 4
    for (int k = 0; k < K; ++k) {
        float w[C];
#pragma unroll
        for (int c = 0; c < C; ++c) w[c] = __ldg(wt + (size_t)k * O + threadIdx.x + c * (O / C));
#pragma unroll
        for (int m = 0; m < M; ++m) {
            const float xv = xs[k][m];
#pragma unroll
            for (int c = 0; c < C; ++c) acc[m][c] = fmaf(xv, w[c], acc[m][c]);
        }
    }
#pragma unroll
    for (int m = 0; m < M; ++m)
        if (r0 + m < rows)
#pragma unroll
            for (int c = 0; c < C; ++c) y[(size_t)(r0 + m) * O + threadIdx.x + c * (O / C)] = acc[m][c];
}

template <int M, int C>
void run(const char* what, int rows, const float* dx, const float* dw, const float* db, float* dy,
         const std::vector<float>& hx, const std::vector<float>& hw, const std::vector<float>& hb) {
    const int blocks = (rows + M - 1) / M;
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 20; ++i) group_dense<M, C><<<blocks, O / C>>>(dx, dw, db, dy, rows);
    CHECK(cudaGetLastError());
    const int reps = 200;
    CHECK(cudaEventRecord(a));
    for (int i = 0; i < reps; ++i) group_dense<M, C><<<blocks, O / C>>>(dx, dw, db, dy, rows);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    const double us = 1000.0 * ms / reps, flop = 2.0 * rows * K * O;
    // check a few rows against the host (float64 sums)
    std::vector<float> hy((size_t)rows * O);
    CHECK(cudaMemcpy(hy.data(), dy, hy.size() * 4, cudaMemcpyDeviceToHost));
    double err = 0;
    for (int r = 0; r < rows; r += 997)
        for (int o = 0; o < O; ++o) {
            double s = hb[o];
            for (int k = 0; k < K; ++k) s += (double)hx[(size_t)r * K + k] * hw[(size_t)k * O + o];
            err = std::fmax(err, std::fabs(s - hy[(size_t)r * O + o]));
        }
    int regs = 0;
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, group_dense<M, C>) == cudaSuccess) regs = attr.numRegs;
    std::printf("%-34s rows %5d  M %3d  threads %3d  regs %3d  %8.1f us  %6.2f TFLOP/s  (%4.1f %% of 66.9)  max|err| %.1e\n",
                what, rows, M, O / C, regs, us, flop / us * 1e-6, flop / us * 1e-6 / 66.9 * 100, err);
}

int main() {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int khz = 0;
    CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    std::printf("%s, %d SMs, %d MHz\n", p.name, p.multiProcessorCount, khz / 1000);
    const int maxRows = 9216;
    std::vector<float> hx((size_t)maxRows * K), hw((size_t)K * O), hb(O);
    unsigned s = 12345;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xFFFF) / 65536.0f - 0.5f; };
    for (auto& v : hx) v = rnd();
    for (auto& v : hw) v = rnd() * 0.1f;
    for (auto& v : hb) v = rnd();
    float *dx, *dw, *db, *dy;
    CHECK(cudaMalloc(&dx, hx.size() * 4));
    CHECK(cudaMalloc(&dw, hw.size() * 4));
    CHECK(cudaMalloc(&db, hb.size() * 4));
    CHECK(cudaMalloc(&dy, (size_t)maxRows * O * 4));
    CHECK(cudaMemcpy(dx, hx.data(), hx.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dw, hw.data(), hw.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    // 1,024 ethanols (9 atoms): G = 1, 2, 4 molecules a block; 3 or 6 columns a thread
    run<9, 3>("ethanol x1024, G=1", 9216, dx, dw, db, dy, hx, hw, hb);
    run<18, 3>("ethanol x1024, G=2", 9216, dx, dw, db, dy, hx, hw, hb);
    run<36, 3>("ethanol x1024, G=4", 9216, dx, dw, db, dy, hx, hw, hb);
    run<18, 6>("ethanol x1024, G=2, 6 cols", 9216, dx, dw, db, dy, hx, hw, hb);
    run<36, 6>("ethanol x1024, G=4, 6 cols", 9216, dx, dw, db, dy, hx, hw, hb);
    run<27, 3>("ethanol x1024, G=3", 9216, dx, dw, db, dy, hx, hw, hb);
    // 256 alanine dipeptides (22 atoms): G = 1, 2
    run<22, 3>("alanine dipeptide x256, G=1", 5632, dx, dw, db, dy, hx, hw, hb);
    run<44, 3>("alanine dipeptide x256, G=2", 5632, dx, dw, db, dy, hx, hw, hb);
    run<22, 6>("alanine dipeptide x256, G=1, 6 cols", 5632, dx, dw, db, dy, hx, hw, hb);
    return 0;
}
