// The layer schedule of the small-molecule kernel (molten_small.cuh): the dense layers of one MD
// step in order (forward blocks, readout, backward blocks, wrapping to the next step) and each
// layer's descriptor (weight, input parts and slices, output parts, rows), which tells a block of
// the 16-block cluster which K-columns of W it multiplies and where the partial sums go.
#pragma once
#include "molten_layers.cuh"
// Part of the sm_90 small-molecule kernel: below sm_90 this file compiles to nothing.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900

#define MOLTEN_SMALL_CL 16  // blocks per cluster (channel slices)
// Layers of one step, in order. Dense layers are reduce-scattered (see above).
enum SmallLayer { L_PHI1, L_PHI2, L_UVU, L_UVV, L_MLP0, L_MLP2, L_READ, L_RBWD, L_UB1, L_UB2, L_UB3, L_PB1, L_PB2 };

__device__ __forceinline__ void small_next(int& id, int& t, int T) {
    switch (id) {
        case L_PHI1: id = L_PHI2; return;
        case L_PHI2: id = L_UVU; return;
        case L_UVU: id = L_UVV; return;
        case L_UVV: id = L_MLP0; return;
        case L_MLP0: id = L_MLP2; return;
        case L_MLP2: if (t + 1 < T) { ++t; id = L_PHI1; } else id = L_READ; return;
        case L_READ: id = L_RBWD; return;
        case L_RBWD: id = L_UB1; t = T - 1; return;
        case L_UB1: id = L_UB2; return;
        case L_UB2: id = L_UB3; return;
        case L_UB3: if (t > 0) id = L_PB1; else { id = L_UVU; t = 0; } return;  // wraps to the next step
        case L_PB1: id = L_PB2; return;
        default: id = L_UB1; --t; return;  // L_PB2
    }
}

// A dense layer: weight W (nn.Linear [out][in]) with in = PK parts of Fi (this block's slice
// of each part: columns p*Fi + rank*CSi + cl), out = NPO parts of Fo channels, CSo per block;
// R rows of input.
struct SmallDesc {
    const float* W; int PK, Fi, CSi, NPO, Fo, CSo, R;
};

__device__ SmallDesc small_desc(const Net& n, int id, int t, int N) {
    const int F = (int)n.F, FR = (int)n.FR, CS = F / MOLTEN_SMALL_CL, CSR = FR / MOLTEN_SMALL_CL;
    const float* w = n.w;
    switch (id) {
        case L_PHI1: return {w + n.o_w1[t], 1, F, CS, 1, F, CS, N};
        case L_PHI2: return {w + n.o_w2[t], 1, F, CS, 3, F, CS, N};
        case L_UVU: return {w + n.o_uv[t], 1, F, CS, 1, F, CS, 3 * N};
        case L_UVV: return {w + n.o_uv[t] + (long long)F * F, 1, F, CS, 1, F, CS, 3 * N};
        case L_MLP0: return {w + n.o_w3[t], 2, F, CS, 1, F, CS, N};
        case L_MLP2: return {w + n.o_w4[t], 1, F, CS, 3, F, CS, N};
        case L_READ: return {w + n.o_w5, 1, F, CS, 1, FR, CSR, N};
        case L_RBWD: return {w + n.o_w5t, 1, FR, CSR, 1, F, CS, N};
        case L_UB1: return {w + n.o_w4t[t], 3, F, CS, 1, F, CS, N};
        case L_UB2: return {w + n.o_w3t[t], 1, F, CS, 2, F, CS, N};
        case L_UB3: return {w + n.o_uvt[t], 2, F, CS, 1, F, CS, 3 * N};
        case L_PB1: return {w + n.o_w2t[t], 3, F, CS, 1, F, CS, N};
        default: return {w + n.o_w1t[t], 1, F, CS, 1, F, CS, N};  // L_PB2
    }
}

#endif  // sm_90 and the emulator
