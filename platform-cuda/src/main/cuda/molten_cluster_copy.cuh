// Hopper thread-block-cluster data movement for the small-molecule kernel (molten_small.cuh):
// asynchronous global->shared copies (cp.async), mbarrier transactions, and st.async stores into
// another block's shared memory that complete their bytes on the receiver's mbarrier. Under the
// CPU emulator (MOLTEN_EMU) each is the plain copy or wait it stands for.
#pragma once
#include "molten_layers.cuh"
// sm_90 instructions: below sm_90 this file compiles to nothing (see molten_small.cuh).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
__device__ __forceinline__ void cp_async4(float* dst, const float* src) {
#ifdef MOLTEN_EMU
    *dst = *src;
#else
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(src) : "memory");
#endif
}
__device__ __forceinline__ void cp_async16(float* dst, const float* src) {
#ifdef MOLTEN_EMU
    memcpy(dst, src, 16);
#else
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
#endif
}
__device__ __forceinline__ void cp_wait_all() {
#ifndef MOLTEN_EMU
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

// ---- mbarrier exchange (sm_90). A barrier takes 4 words of the layout (the device uses 8 bytes,
// the emulator 4 ints). count = 1: the receiving block's thread 0 arrives once per phase and
// declares the bytes it expects; the senders' st.async complete them.
__device__ __forceinline__ void mb_init(float* bar) {
#ifdef MOLTEN_EMU
    emu_mbar_init(bar, 1);
#else
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared(bar)) : "memory");
#endif
}
__device__ __forceinline__ void mb_init_fence() {
#ifndef MOLTEN_EMU
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}
__device__ __forceinline__ void mb_expect(float* bar, int bytes) {
#ifdef MOLTEN_EMU
    emu_mbar_arrive_expect(bar, bytes);
#else
    asm volatile(
        "{\n\t.reg .b64 st;\n\t"
        "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 st, [%0], %1;\n\t}"
        ::"r"((unsigned)__cvta_generic_to_shared(bar)), "r"(bytes) : "memory");
#endif
}
// Waits until the phase of parity `parity` of the local barrier has completed.
__device__ __forceinline__ void mb_wait(float* bar, unsigned parity) {
#ifdef MOLTEN_EMU
    emu_mbar_wait(bar, (int)parity);
#else
    const unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    unsigned done = 0;
    while (!done) {
        asm volatile(
            "{\n\t.reg .pred p;\n\t"
            "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
            "selp.u32 %0, 1, 0, p;\n\t}"
            : "=r"(done) : "r"(a), "r"(parity) : "memory");
    }
#endif
}
// Address of a local shared-memory location in block `rank`'s window (shared::cluster), and the
// remote store of V floats (V = 1, 2, 4; 4V-byte aligned) completing on that block's barrier.
struct RemoteRef {
#ifdef MOLTEN_EMU
    float* p; float* bar;
#else
    unsigned p, bar;
#endif
};
__device__ __forceinline__ RemoteRef remote_ref(float* p, float* bar, int rank) {
#ifdef MOLTEN_EMU
    return {emu_map_rank(p, rank), emu_map_rank(bar, rank)};
#else
    unsigned a, b;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(rank));
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(b) : "r"((unsigned)__cvta_generic_to_shared(bar)), "r"(rank));
    return {a, b};
#endif
}
template <int V>
__device__ __forceinline__ void st_async(const RemoteRef& r, int words, const float* v) {
#ifdef MOLTEN_EMU
    emu_st_async(r.p + words, v, V, r.bar);
#else
    const unsigned a = r.p + 4u * (unsigned)words;
    if (V == 4) {
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
                     ::"r"(a), "r"(__float_as_uint(v[0])), "r"(__float_as_uint(v[1])), "r"(__float_as_uint(v[2])),
                     "r"(__float_as_uint(v[3])), "r"(r.bar) : "memory");
    } else if (V == 2) {
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];"
                     ::"r"(a), "r"(__float_as_uint(v[0])), "r"(__float_as_uint(v[1])), "r"(r.bar) : "memory");
    } else {
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
                     ::"r"(a), "r"(__float_as_uint(v[0])), "r"(r.bar) : "memory");
    }
#endif
}


#endif  // sm_90 and the emulator
