// Helpers every stage shares: weight and activation addressing, the cell of a position, counter-based
// normal deviates (Philox) for the Langevin noise, and the optional float32 rounding of the state.
#pragma once
#include "molten_common.cuh"
#include "molten_dense.cuh"

// ------------------------------------------------------------------------------------------
// Small helpers
// ------------------------------------------------------------------------------------------
__device__ __forceinline__ const float* W(const Net& n, long long off) { return n.w + off; }
__device__ __forceinline__ float* A(const Net& n, long long off) { return n.act + off; }

__device__ __forceinline__ int cell_of(const Net& n, double x, double y, double z) {
    const double p[3] = {x, y, z};
    int c[3];
    for (int k = 0; k < 3; ++k) {
        double f = p[k] * n.hinv[4 * k];
        f -= floor(f);
        int ck = (int)(f * (double)n.ncell[k]);
        c[k] = ck < 0 ? 0 : (ck >= n.ncell[k] ? (int)n.ncell[k] - 1 : ck);
    }
    return (c[2] * (int)n.ncell[1] + c[1]) * (int)n.ncell[0] + c[0];
}

// Counter-based normal deviates (Philox4x32-10, Salmon et al., SC'11): key = seed,
// counter = (atom, step) -> 4 uniforms -> Box-Muller.
__device__ __forceinline__ void philox4x32(unsigned int c[4], unsigned int k0, unsigned int k1) {
    for (int r = 0; r < 10; ++r) {
        const unsigned long long p0 = (unsigned long long)0xD2511F53u * c[0];
        const unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c[2];
        const unsigned int hi0 = (unsigned int)(p0 >> 32), lo0 = (unsigned int)p0;
        const unsigned int hi1 = (unsigned int)(p1 >> 32), lo1 = (unsigned int)p1;
        const unsigned int n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
        c[0] = n0; c[1] = lo1; c[2] = n2; c[3] = lo0;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
}

// atom: the index within its replica; seed: the replica's, so that a replica's noise does not depend
// on the batch it runs in.
__device__ __forceinline__ void gaussian3_seeded(unsigned long long seed, int atom, unsigned long long step, double g[3]) {
    unsigned int c[4] = {(unsigned int)atom, (unsigned int)step, (unsigned int)(step >> 32), 0x6d6f6c74u};
    philox4x32(c, (unsigned int)seed, (unsigned int)(seed >> 32));
    const double two32 = 4294967296.0, twopi = 6.283185307179586;
    const double u0 = ((double)c[0] + 0.5) / two32, u1 = ((double)c[1] + 0.5) / two32;
    const double u2 = ((double)c[2] + 0.5) / two32, u3 = ((double)c[3] + 0.5) / two32;
    const double r0 = sqrt(-2.0 * log(u0)), r1 = sqrt(-2.0 * log(u2));
    g[0] = r0 * cos(twopi * u1);
    g[1] = r0 * sin(twopi * u1);
    g[2] = r1 * cos(twopi * u3);
}

__device__ __forceinline__ void gaussian3(const Net& n, int atom, unsigned long long step, double g[3]) {
    gaussian3_seeded(n.seed, atom, step, g);
}

__device__ __forceinline__ double state_round(const Net& n, double x) {
    return n.fp32_state ? (double)(float)x : x;
}
