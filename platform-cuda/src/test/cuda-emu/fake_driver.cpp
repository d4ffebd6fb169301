// A fake libcuda.so.1 for tests: the subset of the CUDA driver API that Molten's host code uses,
// executing Molten's own kernels (molten_kernels.cu compiled for the host) with one coroutine
// per CUDA thread. Loaded into the JVM before JCuda's native library, it lets the real Java host
// code (contexts, modules, buffers, launches, stream capture, graph replay) run on a machine
// without a GPU. Test infrastructure only; never shipped.
//
// What it checks beyond plain execution: device memory is poisoned with NaN bytes and ends at a
// guard page (an out-of-bounds access past a buffer's end crashes loudly); shared memory is
// poisoned too; coroutines are released from barriers in a random order (seeded), so a missing
// barrier tends to change results between runs, and the blocks of a launch run in a random order; launches with more than 48 KiB of dynamic shared
// memory fail unless the function's limit was raised, as on the device; cluster kernels need
// their grid to be a multiple of the cluster and, above 8, the non-portable attribute.
#define MOLTEN_EMU 1
#include "molten_kernels.cu"

#include <setjmp.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#define EMU_API extern "C" __attribute__((visibility("default")))

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum {
    CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_IMAGE = 200, CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_HANDLE = 400, CUDA_ERROR_NOT_FOUND = 500, CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720, CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901, CUDA_ERROR_INVALID_CLUSTER_SIZE = 912
};
static const int EMU_SMS = 8;

// ---------------------------------------------------------------------------------------------
// Coroutines
// ---------------------------------------------------------------------------------------------
EmuThreadState* emu_cur = nullptr;

struct Barrier {
    int expected = 0, arrived = 0;
    std::vector<struct Coro*> waiting;
};
struct Coro {
    jmp_buf env;
    ucontext_t uc;
    char* stack = nullptr;
    EmuThreadState st;
    bool started = false, done = false;
    int block = 0, warp = 0;  // indices into the launch's barrier arrays
};
static const size_t STACK_BYTES = 256 * 1024;

struct Launch {
    void (*invoke)(void**) = nullptr;
    void** params = nullptr;
    std::vector<Coro> coros;
    std::vector<Barrier> blockBar, warpBar;
    Barrier groupBar;
    std::vector<std::vector<float>> smem;
    std::vector<std::vector<unsigned long long>> xch;  // per warp
    std::vector<std::vector<unsigned>> mma;            // per warp: the lanes' mma fragments (emu_mma_tf32)
    std::vector<Coro*> runq;
    size_t head = 0;
    std::mt19937_64 rng;
};
static Launch* g_launch = nullptr;
static Coro* g_running = nullptr;
static jmp_buf g_sched;
static std::vector<char*> g_stacks;  // reused between launches

static void park() {
    Coro* c = g_running;
    if (!_setjmp(c->env)) _longjmp(g_sched, 1);
}
static void release(Barrier& b) {
    std::shuffle(b.waiting.begin(), b.waiting.end(), g_launch->rng);
    for (Coro* c : b.waiting) g_launch->runq.push_back(c);
    b.waiting.clear();
    b.arrived = 0;
}
static long long g_polls = 0;  // polls of mbarrier waits since the last progress (see emu_mbar_wait)
static void arrive(Barrier& b) {
    g_polls = 0;
    b.waiting.push_back(g_running);
    if (++b.arrived >= b.expected) release(b);
    park();
}
static void leave(Barrier& b) {
    b.expected--;
    if (b.arrived > 0 && b.arrived >= b.expected) release(b);
}
static void coro_entry() {
    Coro* c = g_running;
    g_launch->invoke(g_launch->params);
    c->done = true;
    g_polls = 0;
    leave(g_launch->warpBar[c->warp]);
    leave(g_launch->blockBar[c->block]);
    leave(g_launch->groupBar);
    _longjmp(g_sched, 1);
}

void __syncthreads() { arrive(g_launch->blockBar[g_running->block]); }
void __syncwarp(unsigned) { arrive(g_launch->warpBar[g_running->warp]); }
void emu_cluster_sync() { arrive(g_launch->groupBar); }
void emu_grid_sync() { arrive(g_launch->groupBar); }
int emu_cluster_rank() { return emu_cur->cluster_rank; }
// A cluster runs as one group whose block b has rank b: the same offset in block `rank`'s shared memory.
float* emu_map_rank(float* p, int rank) {
    auto& L = *g_launch;
    const size_t off = (size_t)(p - emu_cur->smem);
    if (rank < 0 || rank >= (int)L.smem.size() || off >= L.smem[rank].size()) {
        std::fprintf(stderr, "emu: distributed shared memory access out of range (rank %d, offset %zu)\n", rank, off);
        std::abort();
    }
    return L.smem[rank].data() + off;
}
// mbarrier: a phase completes when its pending arrivals and its tx-count are both zero; a waiter
// polls (yields to the other coroutines) until the phase of the given parity has completed.
// Deadlock: every runnable coroutine polled once more with no barrier arrival, completed wait or
// finished thread in between (g_polls counts polls since the last such event).
static int* mbar_words(float* bar) {
    int* w = reinterpret_cast<int*>(bar);
    if ((reinterpret_cast<uintptr_t>(bar) & 15) != 0) emu_fail("mbarrier not 16-byte aligned in the emulator's layout");
    return w;
}
static void mbar_settle(int* w) {
    if (w[0] == 0 && w[2] == 0) { w[3] ^= 1; w[0] = w[1]; }
}
void emu_mbar_init(float* bar, int count) {
    int* w = mbar_words(bar);
    w[0] = count; w[1] = count; w[2] = 0; w[3] = 0;
}
void emu_mbar_arrive_expect(float* bar, int bytes) {
    int* w = mbar_words(bar);
    if (w[1] <= 0 || w[0] <= 0 || w[3] < 0 || w[3] > 1) emu_fail("mbarrier arrive: not initialised or too many arrivals");
    w[2] += bytes;
    w[0] -= 1;
    mbar_settle(w);
}
void emu_st_async(float* dst, const float* v, int n, float* bar) {
    if ((reinterpret_cast<uintptr_t>(dst) & (4 * n - 1)) != 0) emu_fail("st.async: address not aligned to its size");
    int* w = mbar_words(bar);
    if (w[1] <= 0 || w[3] < 0 || w[3] > 1) emu_fail("st.async: the receiver's mbarrier is not initialised");
    std::memcpy(dst, v, 4 * n);
    w[2] -= 4 * n;
    mbar_settle(w);
}
void emu_mbar_wait(float* bar, int parity) {
    int* w = mbar_words(bar);
    while (w[3] == parity) {  // the phase of this parity is still the current one
        auto& L = *g_launch;
        if (++g_polls > 4 * (long long)L.coros.size() + 1024) emu_fail("mbarrier wait: deadlock (no sender can make progress)");
        L.runq.push_back(g_running);
        park();
    }
    g_polls = 0;
}
void emu_fail(const char* why) {
    std::fprintf(stderr, "emu: trap: %s\n", why);
    std::abort();
}

unsigned long long emu_warp_exchange(unsigned long long v, int src) {
    auto& x = g_launch->xch[g_running->warp];
    x[emu_cur->tid.x & 31] = v;
    arrive(g_launch->warpBar[g_running->warp]);
    unsigned long long r = x[src & 31];
    arrive(g_launch->warpBar[g_running->warp]);
    return r;
}
unsigned __ballot_sync(unsigned, int pred) {
    auto& x = g_launch->xch[g_running->warp];
    const int lane = emu_cur->tid.x & 31;
    x[lane] = pred ? 1ull : 0ull;
    Coro* self = g_running;
    arrive(g_launch->warpBar[self->warp]);
    unsigned m = 0;
    // only lanes of this warp that are still running contribute
    const int base = (int)(self - g_launch->coros.data()) - lane;
    for (int l = 0; l < 32; ++l) {
        const int idx = base + l;
        if (idx < (int)g_launch->coros.size() && g_launch->coros[idx].warp == self->warp && !g_launch->coros[idx].done && x[l])
            m |= 1u << l;
    }
    arrive(g_launch->warpBar[self->warp]);
    return m;
}
float emu_warp_sum(float v) {
    auto& x = g_launch->xch[g_running->warp];
    const int lane = emu_cur->tid.x & 31;
    unsigned u; std::memcpy(&u, &v, 4);
    x[lane] = u;
    arrive(g_launch->warpBar[g_running->warp]);
    float a[32];
    for (int l = 0; l < 32; ++l) { unsigned w = (unsigned)x[l]; std::memcpy(&a[l], &w, 4); }
    for (int o = 16; o > 0; o >>= 1) {  // the butterfly of __shfl_xor_sync, bit for bit
        float b[32];
        for (int l = 0; l < 32; ++l) b[l] = a[l] + a[l ^ o];
        std::memcpy(a, b, sizeof a);
    }
    arrive(g_launch->warpBar[g_running->warp]);
    return a[lane];
}

// mma.sync m16n8k8 tf32 of a warp, on the mechanism of the shuffles: every lane deposits its fragments (the operands
// cut to the 19 bits of tf32, as the tensor core reads them), the warp meets, each lane computes its own 4 elements
// of d from the deposits by the PTX ISA layout (a (row, kappa) at lane 4 (row % 8) + kappa % 4, register row / 8 +
// 2 (kappa / 4); b (kappa, col) at lane 4 col + kappa % 4, register kappa / 4; d r at row g + 8 (r / 2), col 2 q +
// r % 2), the 8 exact products summed in double onto d and rounded once to float32 (the tensor core's own
// accumulation rounding differs at the float32 level), and the warp meets again before the deposits are reused.
void emu_mma_tf32(float* d, const unsigned* a, const unsigned* b) {
    auto& L = *g_launch;
    const int w = g_running->warp, lane = emu_cur->tid.x & 31;
    if (L.mma.empty()) L.mma.resize(L.warpBar.size());
    auto& x = L.mma[w];
    if (x.empty()) x.assign(32 * 6, 0u);
    if (L.warpBar[w].expected != 32) emu_fail("mma.sync: not all 32 lanes of the warp are running");
    for (int r = 0; r < 4; ++r) x[6 * lane + r] = a[r] & 0xffffe000u;
    for (int r = 0; r < 2; ++r) x[6 * lane + 4 + r] = b[r] & 0xffffe000u;
    arrive(L.warpBar[w]);
    const int g = lane >> 2, q = lane & 3;
    float out[4];
    for (int r = 0; r < 4; ++r) {
        const int row = g + 8 * (r >> 1), col = 2 * q + (r & 1);
        double s = d[r];
        for (int kap = 0; kap < 8; ++kap) {
            const unsigned av = x[6 * (4 * (row & 7) + (kap & 3)) + (row >> 3) + 2 * (kap >> 2)];
            const unsigned bv = x[6 * (4 * col + (kap & 3)) + 4 + (kap >> 2)];
            float fa, fb;
            std::memcpy(&fa, &av, 4);
            std::memcpy(&fb, &bv, 4);
            s += (double)fa * (double)fb;
        }
        out[r] = (float)s;
    }
    arrive(L.warpBar[w]);
    for (int r = 0; r < 4; ++r) d[r] = out[r];
}

static unsigned long long g_seed = 12345;

// Runs blocks [b0, b0 + nb) of a launch concurrently. Returns false on deadlock.
static bool run_group(void (*invoke)(void**), void** params, int b0, int nb, int gridX, int blockX, size_t smemBytes,
                      int clusterSize) {
    Launch L;
    L.invoke = invoke;
    L.params = params;
    L.rng.seed(g_seed++);
    const int nthreads = nb * blockX;
    const int warpsPerBlock = (blockX + 31) / 32;
    L.coros.resize(nthreads);
    L.blockBar.resize(nb);
    L.warpBar.resize(nb * warpsPerBlock);
    L.xch.assign(nb * warpsPerBlock, std::vector<unsigned long long>(32, 0));
    L.smem.resize(nb);
    for (int b = 0; b < nb; ++b) {
        L.smem[b].assign(smemBytes / 4 + 4, std::nanf(""));
        L.blockBar[b].expected = blockX;
    }
    for (int w = 0; w < nb * warpsPerBlock; ++w) {
        const int inBlock = w % warpsPerBlock;
        L.warpBar[w].expected = std::min(32, blockX - inBlock * 32);
    }
    L.groupBar.expected = nthreads;
    while ((int)g_stacks.size() < nthreads) {
        void* p = mmap(nullptr, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) { std::fprintf(stderr, "emu: cannot map coroutine stacks\n"); return false; }
        g_stacks.push_back((char*)p);
    }
    Launch* saved = g_launch;
    g_launch = &L;
    for (int i = 0; i < nthreads; ++i) {
        Coro& c = L.coros[i];
        const int b = i / blockX, t = i % blockX;
        c.block = b;
        c.warp = b * warpsPerBlock + t / 32;
        c.st.tid = {(unsigned)t, 0, 0};
        c.st.bid = {(unsigned)(b0 + b), 0, 0};
        c.st.bdim = {(unsigned)blockX, 1, 1};
        c.st.gdim = {(unsigned)gridX, 1, 1};
        c.st.cluster_rank = clusterSize > 1 ? (b0 + b) % clusterSize : 0;
        c.st.smem = L.smem[b].data();
        c.stack = g_stacks[i];
        getcontext(&c.uc);
        c.uc.uc_stack.ss_sp = c.stack;
        c.uc.uc_stack.ss_size = STACK_BYTES;
        c.uc.uc_link = nullptr;
        makecontext(&c.uc, coro_entry, 0);
        L.runq.push_back(&c);
    }
    std::shuffle(L.runq.begin(), L.runq.end(), L.rng);
    bool ok = true;
    while (true) {
        if (L.head == L.runq.size()) {
            int undone = 0;
            for (auto& c : L.coros) undone += c.done ? 0 : 1;
            if (undone) {
                std::fprintf(stderr, "emu: deadlock, %d threads waiting at barriers\n", undone);
                ok = false;
            }
            break;
        }
        Coro* c = L.runq[L.head++];
        g_running = c;
        emu_cur = &c->st;
        if (!_setjmp(g_sched)) {
            if (!c->started) { c->started = true; setcontext(&c->uc); }
            else _longjmp(c->env, 1);
        }
        if (L.head > 65536 && L.head * 2 > L.runq.size()) {  // compact the queue
            L.runq.erase(L.runq.begin(), L.runq.begin() + L.head);
            L.head = 0;
        }
    }
    g_launch = saved;
    return ok;
}

// ---------------------------------------------------------------------------------------------
// Kernel registry
// ---------------------------------------------------------------------------------------------
template <class F> struct Sig;
template <class... A> struct Sig<void(A...)> {
    template <void (*f)(A...), size_t... I>
    static void call(void** p, std::index_sequence<I...>) { f(*reinterpret_cast<std::decay_t<A>*>(p[I])...); }
    template <void (*f)(A...)>
    static void invoke(void** p) { call<f>(p, std::index_sequence_for<A...>{}); }
    static std::vector<size_t> sizes() { return {sizeof(std::decay_t<A>)...}; }
};
struct KernelInfo {
    std::string name;
    void (*invoke)(void**);
    std::vector<size_t> sizes;
    int cluster;
};
#define REG(k, cl) KernelInfo{#k, &Sig<decltype(k)>::template invoke<k>, Sig<decltype(k)>::sizes(), cl}
static const std::vector<KernelInfo>& registry() {
    static const std::vector<KernelInfo> r = {
        REG(k_integrate1, 1), REG(k_cell_scan, 1), REG(k_neighbours, 1),
        REG(k_msg_fwd_m4, 1), REG(k_msg_bwd_m4, 1), REG(k_msg_fwd_r, 1), REG(k_msg_fwd_r2, 1),
        REG(k_msg_bwd_rs, 1), REG(k_msg_bwd_rs2, 1), REG(k_forces_rs, 1),
        REG(k_forces, 1), REG(k_energy, 1), REG(k_thermostat, 1), REG(k_drift, 1), REG(k_constrain, 1), REG(k_energy_rep, 1),
        REG(k_uv_w, 1), REG(k_uv_t, 1), REG(k_mlp0_w, 1), REG(k_mlp0_t, 1), REG(k_mlp2_w, 1), REG(k_mlp2_t, 1),
        REG(k_phi1_w, 1), REG(k_phi1_t, 1), REG(k_phi2_w, 1), REG(k_phi2_t, 1),
        REG(k_ub1_w, 1), REG(k_ub1_t, 1), REG(k_ub2_w, 1), REG(k_ub2_t, 1), REG(k_ub3_w, 1), REG(k_ub3_t, 1),
        REG(k_pb1_w, 1), REG(k_pb1_t, 1), REG(k_pb2_w, 1), REG(k_pb2_t, 1),
        REG(k_uv_n, 1), REG(k_mlp0_n, 1), REG(k_mlp2_n, 1), REG(k_phi1_n, 1), REG(k_phi2_n, 1), REG(k_ub1_n, 1),
        REG(k_ub2_n, 1), REG(k_ub3_n, 1), REG(k_pb1_n, 1), REG(k_pb2_n, 1), REG(k_readout_n, 1), REG(k_readout_bwd_n, 1),
        REG(k_readout_w, 1), REG(k_readout_t, 1), REG(k_readout_bwd_w, 1), REG(k_readout_bwd_t, 1),
        REG(k_small_c16, 16), REG(k_small_c16_cons, 16),
        REG(k_group_n12, 1), REG(k_group_n24, 1), REG(k_group_n12_tc, 1), REG(k_group_n24_tc, 1),
        REG(k_group_n22_tc, 1),
    };
    return r;
}

struct Function {
    const KernelInfo* k;
    int maxDynSmem = 48 * 1024;
    int nonPortable = 0;
};
struct Module { std::vector<Function*> fns; };

// ---------------------------------------------------------------------------------------------
// Streams, capture, graphs
// ---------------------------------------------------------------------------------------------
struct Op {
    enum Kind { LAUNCH, MEMSET32, COPY_D2D, EVENT } kind;
    void* event = nullptr;
    Function* f = nullptr;
    int gx = 1, bx = 1;
    size_t smem = 0;
    bool coop = false;
    std::vector<char> blob;
    std::vector<size_t> offsets;
    CUdeviceptr dst = 0, src = 0;
    size_t count = 0;
    unsigned value = 0;
};
struct Stream { bool capturing = false; std::vector<Op> ops; };
struct Graph { std::vector<Op> ops; };
static Stream g_default_stream;
static std::mutex g_mutex;  // the emulator runs one thing at a time

static Stream* S(void* h) { return h ? (Stream*)h : &g_default_stream; }

struct Event { std::chrono::steady_clock::time_point t; };
static CUresult execute(const Op& op) {
    if (op.kind == Op::EVENT) {
        ((Event*)op.event)->t = std::chrono::steady_clock::now();
        return CUDA_SUCCESS;
    }
    if (op.kind == Op::MEMSET32) {
        unsigned* p = (unsigned*)op.dst;
        for (size_t i = 0; i < op.count; ++i) p[i] = op.value;
        return CUDA_SUCCESS;
    }
    if (op.kind == Op::COPY_D2D) {
        std::memmove((void*)op.dst, (const void*)op.src, op.count);
        return CUDA_SUCCESS;
    }
    std::vector<void*> params(op.offsets.size());
    for (size_t i = 0; i < params.size(); ++i) params[i] = (void*)(op.blob.data() + op.offsets[i]);
    const int cl = op.f->k->cluster;
    int group = 1;
    if (cl > 1) group = cl;
    if (op.coop || cl == 0) group = op.gx;
    // Groups (blocks, clusters) run one after the other in a random order (seeded): on the device their
    // order is unspecified, so a result that depends on which block finishes last changes between runs.
    std::vector<int> starts;
    for (int b0 = 0; b0 < op.gx; b0 += group) starts.push_back(b0);
    std::mt19937_64 order(g_seed++);
    std::shuffle(starts.begin(), starts.end(), order);
    for (int b0 : starts) {
        if (!run_group(op.f->k->invoke, params.data(), b0, std::min(group, op.gx - b0), op.gx, op.bx, op.smem, cl))
            return CUDA_ERROR_LAUNCH_FAILED;
    }
    return CUDA_SUCCESS;
}

static CUresult submit(void* stream, Op&& op) {
    Stream* s = S(stream);
    if (s->capturing) { s->ops.push_back(std::move(op)); return CUDA_SUCCESS; }
    return execute(op);
}


// The emulated GPU's compute capability (default 9.0, an H100): emu_set_compute_capability(8, 0) makes it an A100,
// without clusters (7.5, a T4: the module load fails, as the fatbin has no image for it); launching a cluster kernel (the fatbin's sm_80 code of it is a trap) or a programmatic dependent
// (griddepcontrol is not compiled below sm_90) then fails, so a host that chooses them there is caught.
static std::atomic<int> g_cc_major{9}, g_cc_minor{0};
extern "C" __attribute__((visibility("default"))) void emu_set_compute_capability(int major, int minor) {
    g_cc_major = major;
    g_cc_minor = minor;
}

static CUresult make_kernel_op(Function* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                               unsigned smem, void** params, bool coop, Op& op) {
    if (!f) return CUDA_ERROR_INVALID_HANDLE;
    if (gy != 1 || gz != 1 || by != 1 || bz != 1 || bx == 0 || bx > 1024 || gx == 0) return CUDA_ERROR_INVALID_VALUE;
    if ((int)smem > f->maxDynSmem) {
        std::fprintf(stderr, "emu: %s launched with %u bytes of dynamic shared memory, limit %d\n", f->k->name.c_str(), smem,
                     f->maxDynSmem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    const int cl = f->k->cluster;
    if (cl > 1 && g_cc_major < 9) {
        std::fprintf(stderr, "emu: cluster kernel %s launched on an emulated sm_%d%d\n", f->k->name.c_str(),
                     (int)g_cc_major, (int)g_cc_minor);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (cl > 1 && (gx % cl != 0 || (cl > 8 && !f->nonPortable))) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    if (cl == 0 && !coop) {
        std::fprintf(stderr, "emu: %s needs a cooperative launch\n", f->k->name.c_str());
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (coop && (int)gx > EMU_SMS) return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    op.kind = Op::LAUNCH;
    op.f = f;
    op.gx = gx;
    op.bx = bx;
    op.smem = smem;
    op.coop = coop;
    size_t off = 0;
    for (size_t sz : f->k->sizes) {
        off = (off + 15) & ~size_t(15);
        op.offsets.push_back(off);
        off += sz;
    }
    op.blob.resize(off + 16);
    for (size_t i = 0; i < f->k->sizes.size(); ++i) std::memcpy(op.blob.data() + op.offsets[i], params[i], f->k->sizes[i]);
    return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Driver API
// ---------------------------------------------------------------------------------------------
static bool no_device() { const char* e = std::getenv("MOLTEN_EMU_NO_DEVICE"); return e && *e == '1'; }

EMU_API CUresult cuInit(unsigned) { return no_device() ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS; }
EMU_API CUresult cuDriverGetVersion(int* v) { *v = 12060; return CUDA_SUCCESS; }
EMU_API CUresult cuDeviceGetCount(int* n) { *n = no_device() ? 0 : 1; return CUDA_SUCCESS; }
EMU_API CUresult cuDeviceGet(int* d, int ordinal) { if (ordinal != 0) return CUDA_ERROR_INVALID_VALUE; *d = 0; return CUDA_SUCCESS; }
EMU_API CUresult cuDeviceGetName(char* name, int len, int) {
    std::snprintf(name, len, "Molten CUDA emulator (CPU)");
    return CUDA_SUCCESS;
}
EMU_API CUresult cuDeviceGetAttribute(int* v, int attr, int) {
    switch (attr) {
        case 1: *v = 1024; break;          // max threads per block
        case 8: *v = 48 * 1024; break;     // shared memory per block
        case 16: *v = EMU_SMS; break;      // multiprocessors
        case 38: *v = 8 << 20; break;      // L2 bytes
        case 75: *v = g_cc_major; break;   // compute capability
        case 76: *v = g_cc_minor; break;
        case 95: *v = 1; break;            // cooperative launch
        case 97: *v = 227 * 1024; break;   // shared memory per block, opt-in
        case 120: *v = g_cc_major >= 9; break;  // cluster launch
        default: *v = 0;
    }
    return CUDA_SUCCESS;
}
EMU_API CUresult cuDeviceTotalMem_v2(size_t* b, int) { *b = (size_t)8 << 30; return CUDA_SUCCESS; }
EMU_API CUresult cuMemGetInfo_v2(size_t* f, size_t* t) { *f = (size_t)4 << 30; *t = (size_t)8 << 30; return CUDA_SUCCESS; }

static void* g_current_ctx = nullptr;
EMU_API CUresult cuCtxCreate_v2(void** ctx, unsigned, int) { *ctx = new int(1); g_current_ctx = *ctx; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxDestroy_v2(void* ctx) { if (g_current_ctx == ctx) g_current_ctx = nullptr; delete (int*)ctx; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxSetCurrent(void* ctx) { g_current_ctx = ctx; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxGetCurrent(void** ctx) { *ctx = g_current_ctx; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxPushCurrent_v2(void* ctx) { g_current_ctx = ctx; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxPopCurrent_v2(void** ctx) { if (ctx) *ctx = g_current_ctx; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxGetDevice(int* d) { *d = 0; return CUDA_SUCCESS; }
EMU_API CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }


// The host loads the committed fatbin (compressed machine code and PTX, which the emulator cannot run): the image
// must start with the fatbin magic, and the module then holds every kernel compiled into the emulator, looked up by
// name. That the fatbin's entries and the emulator's registry are the same list is KernelImageTest's check.
static CUresult load_module(void** mod, const void* image) {
    unsigned magic = 0;
    std::memcpy(&magic, image, 4);
    if (magic != 0xBA55ED50u) {
        std::fprintf(stderr, "emu: module image is not a fatbin (magic 0x%08X)\n", magic);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    // the fatbin holds machine code from sm_80 on and compute_90 PTX: an older GPU gets no image of it
    if (g_cc_major * 10 + g_cc_minor < 80) return CUDA_ERROR_NO_BINARY_FOR_GPU;
    *mod = new Module();
    return CUDA_SUCCESS;
}
EMU_API CUresult cuModuleLoadData(void** mod, const void* image) { return load_module(mod, image); }
EMU_API CUresult cuModuleLoadDataEx(void** mod, const void* image, unsigned, void*, void**) { return load_module(mod, image); }
EMU_API CUresult cuModuleUnload(void* mod) {
    Module* m = (Module*)mod;
    for (auto* f : m->fns) delete f;
    delete m;
    return CUDA_SUCCESS;
}
EMU_API CUresult cuModuleGetFunction(void** fn, void* mod, const char* name) {
    for (const auto& k : registry()) {
        if (k.name == name) {
            Function* f = new Function{&k};
            ((Module*)mod)->fns.push_back(f);
            *fn = f;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}
EMU_API CUresult cuFuncSetAttribute(void* fn, int attr, int value) {
    Function* f = (Function*)fn;
    if (attr == 8) {
        if (value > 227 * 1024) return CUDA_ERROR_INVALID_VALUE;
        f->maxDynSmem = value;
    } else if (attr == 14) {
        f->nonPortable = value;
    }
    return CUDA_SUCCESS;
}
EMU_API CUresult cuFuncGetAttribute(int* v, int attr, void* fn) {
    Function* f = (Function*)fn;
    switch (attr) {
        case 0: *v = 1024; break;
        case 4: *v = 64; break;
        case 8: *v = f->maxDynSmem; break;
        default: *v = 0;
    }
    return CUDA_SUCCESS;
}
EMU_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void*, int, size_t smem) {
    *n = smem <= 227 * 1024 ? 1 : 0;
    return CUDA_SUCCESS;
}

// Device memory: each allocation ends 0..255 bytes before a PROT_NONE page, filled with NaN bytes.
struct Alloc { char* base; size_t len; };
static std::map<CUdeviceptr, Alloc> g_allocs;
EMU_API CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t bytes) {
    if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t body = (bytes + 256 + page - 1) / page * page;
    char* base = (char*)mmap(nullptr, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return 2;  // out of memory
    mprotect(base + body, page, PROT_NONE);
    char* start = (char*)(((uintptr_t)(base + body - bytes)) & ~(uintptr_t)255);
    std::memset(start, 0xff, bytes);
    *p = (CUdeviceptr)start;
    g_allocs[*p] = Alloc{base, body + page};
    return CUDA_SUCCESS;
}
EMU_API CUresult cuMemFree_v2(CUdeviceptr p) {
    auto it = g_allocs.find(p);
    if (it == g_allocs.end()) return CUDA_ERROR_INVALID_VALUE;
    munmap(it->second.base, it->second.len);
    g_allocs.erase(it);
    return CUDA_SUCCESS;
}
EMU_API CUresult cuMemAllocHost_v2(void** p, size_t bytes) { *p = std::malloc(bytes ? bytes : 1); return CUDA_SUCCESS; }
EMU_API CUresult cuMemHostAlloc(void** p, size_t bytes, unsigned) { *p = std::malloc(bytes ? bytes : 1); return CUDA_SUCCESS; }
EMU_API CUresult cuMemFreeHost(void* p) { std::free(p); return CUDA_SUCCESS; }
EMU_API CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void* h, size_t n) { std::memcpy((void*)d, h, n); return CUDA_SUCCESS; }
EMU_API CUresult cuMemcpyDtoH_v2(void* h, CUdeviceptr d, size_t n) { std::memcpy(h, (const void*)d, n); return CUDA_SUCCESS; }
EMU_API CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { std::memmove((void*)d, (const void*)s, n); return CUDA_SUCCESS; }
EMU_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void* h, size_t n, void* st) {
    if (S(st)->capturing) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    std::memcpy((void*)d, h, n);
    return CUDA_SUCCESS;
}
EMU_API CUresult cuMemcpyDtoHAsync_v2(void* h, CUdeviceptr d, size_t n, void* st) {
    if (S(st)->capturing) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    std::memcpy(h, (const void*)d, n);
    return CUDA_SUCCESS;
}
EMU_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, void* st) {
    Op op; op.kind = Op::COPY_D2D; op.dst = d; op.src = s; op.count = n;
    return submit(st, std::move(op));
}
EMU_API CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) {
    Op op; op.kind = Op::MEMSET32; op.dst = d; op.value = v; op.count = n;
    return execute(op);
}
EMU_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, void* st) {
    Op op; op.kind = Op::MEMSET32; op.dst = d; op.value = v; op.count = n;
    return submit(st, std::move(op));
}
EMU_API CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { std::memset((void*)d, v, n); return CUDA_SUCCESS; }

EMU_API CUresult cuStreamCreate(void** s, unsigned) { *s = new Stream(); return CUDA_SUCCESS; }
EMU_API CUresult cuStreamCreateWithPriority(void** s, unsigned, int) { *s = new Stream(); return CUDA_SUCCESS; }
EMU_API CUresult cuStreamDestroy_v2(void* s) { delete (Stream*)s; return CUDA_SUCCESS; }
EMU_API CUresult cuStreamSynchronize(void*) { return CUDA_SUCCESS; }
EMU_API CUresult cuStreamBeginCapture_v2(void* s, int) {
    if (!s) return CUDA_ERROR_NOT_SUPPORTED;  // the legacy stream cannot be captured
    S(s)->capturing = true;
    S(s)->ops.clear();
    return CUDA_SUCCESS;
}
EMU_API CUresult cuStreamEndCapture(void* s, void** graph) {
    Stream* st = S(s);
    if (!st->capturing) return CUDA_ERROR_INVALID_VALUE;
    st->capturing = false;
    Graph* g = new Graph();
    g->ops = std::move(st->ops);
    st->ops.clear();
    *graph = g;
    return CUDA_SUCCESS;
}
EMU_API CUresult cuGraphInstantiateWithFlags(void** exec, void* graph, unsigned long long) {
    Graph* g = new Graph(*(Graph*)graph);
    *exec = g;
    return CUDA_SUCCESS;
}
EMU_API CUresult cuGraphLaunch(void* exec, void* stream) {
    if (S(stream)->capturing) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const Op& op : ((Graph*)exec)->ops) {
        CUresult r = execute(op);
        if (r) return r;
    }
    return CUDA_SUCCESS;
}
EMU_API CUresult cuGraphExecDestroy(void* exec) { delete (Graph*)exec; return CUDA_SUCCESS; }
EMU_API CUresult cuGraphDestroy(void* g) { delete (Graph*)g; return CUDA_SUCCESS; }

EMU_API CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                unsigned smem, void* stream, void** params, void** extra) {
    if (extra) return CUDA_ERROR_NOT_SUPPORTED;
    Op op;
    CUresult r = make_kernel_op((Function*)f, gx, gy, gz, bx, by, bz, smem, params, false, op);
    if (r) return r;
    std::lock_guard<std::mutex> lock(g_mutex);
    return submit(stream, std::move(op));
}
// cuLaunchKernelEx with the structures of cuda.h (CUDA 12/13, LP64). The only attribute taken is programmatic
// stream serialization (id 6): kernels run one after another here, so griddepcontrol has nothing to overlap and
// the result is that of a plain launch. emu_refuse_launch_ex(1) makes it fail (tests of the host's fallback).
struct EmuLaunchAttribute { int id; char pad[4]; char value[64]; };
struct EmuLaunchConfig {
    unsigned gx, gy, gz, bx, by, bz, smem;
    void* stream;
    EmuLaunchAttribute* attrs;
    unsigned nattrs;
};
static_assert(sizeof(EmuLaunchAttribute) == 72 && sizeof(EmuLaunchConfig) == 56, "cuda.h layout");
static_assert(offsetof(EmuLaunchConfig, stream) == 32 && offsetof(EmuLaunchConfig, attrs) == 40 &&
              offsetof(EmuLaunchConfig, nattrs) == 48, "cuda.h layout");
static std::atomic<int> g_refuse_launch_ex{0};
extern "C" __attribute__((visibility("default"))) void emu_refuse_launch_ex(int on) { g_refuse_launch_ex = on; }
EMU_API CUresult cuLaunchKernelEx(const EmuLaunchConfig* c, void* f, void** params, void** extra) {
    if (!c || extra) return CUDA_ERROR_INVALID_VALUE;
    if (g_refuse_launch_ex) return CUDA_ERROR_NOT_SUPPORTED;
    if (c->nattrs > 0 && g_cc_major < 9) {
        std::fprintf(stderr, "emu: programmatic dependent launch on an emulated sm_%d%d\n", (int)g_cc_major, (int)g_cc_minor);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    for (unsigned i = 0; i < c->nattrs; ++i) {
        int allowed;
        std::memcpy(&allowed, c->attrs[i].value, sizeof allowed);
        if (c->attrs[i].id != 6 || (allowed != 0 && allowed != 1)) {
            std::fprintf(stderr, "emu: cuLaunchKernelEx attribute %d (value %d) is not emulated\n", c->attrs[i].id, allowed);
            return CUDA_ERROR_NOT_SUPPORTED;
        }
    }
    return cuLaunchKernel(f, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->smem, c->stream, params, nullptr);
}
EMU_API CUresult cuLaunchCooperativeKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                           unsigned bz, unsigned smem, void* stream, void** params) {
    Op op;
    CUresult r = make_kernel_op((Function*)f, gx, gy, gz, bx, by, bz, smem, params, true, op);
    if (r) return r;
    std::lock_guard<std::mutex> lock(g_mutex);
    return submit(stream, std::move(op));
}

EMU_API CUresult cuEventCreate(void** e, unsigned) { *e = new Event(); return CUDA_SUCCESS; }
EMU_API CUresult cuEventDestroy_v2(void* e) { delete (Event*)e; return CUDA_SUCCESS; }
EMU_API CUresult cuEventRecord(void* e, void* s) {
    Op op; op.kind = Op::EVENT; op.event = e;
    return submit(s, std::move(op));  // captured as an event-record node, or recorded now
}
EMU_API CUresult cuEventSynchronize(void*) { return CUDA_SUCCESS; }
EMU_API CUresult cuEventElapsedTime(float* ms, void* a, void* b) {
    *ms = std::chrono::duration<float, std::milli>(((Event*)b)->t - ((Event*)a)->t).count();
    return CUDA_SUCCESS;
}
EMU_API CUresult cuGetErrorString(int, const char** s) { *s = "emulated CUDA error"; return CUDA_SUCCESS; }
EMU_API CUresult cuGetErrorName(int, const char** s) { *s = "CUDA_ERROR_EMULATED"; return CUDA_SUCCESS; }

extern "C" void emu_unimplemented(const char* name) {
    std::fprintf(stderr, "emu: %s is not implemented by the CUDA emulator\n", name);
}
#include "stubs.inc"
