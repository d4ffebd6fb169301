// Small-molecule megakernel (k_small_c16): whole MD steps of a molecule of up to a few dozen
// atoms inside one 16-block thread-block cluster, every activation in shared memory.
//
// Why: for small N a stage has little arithmetic; the stage kernels and the older cluster
// megakernel pay chains of dependent L2 round trips per stage (activations written by one block
// and read by another through L2). Here every block owns an output-channel slice of the model
// (channels rank*CS .. rank*CS+CS-1 of every F-wide quantity, CS = F/16) for ALL atoms:
//  - element-wise work and the message passes (which are channel-separable: x_ij = phi_j o W(d_ij)
//    channel by channel) are local to a block;
//  - each atom-wise dense layer Y = W X is reduce-scattered: a block multiplies the K-columns of W
//    that match its input slice, for all outputs, and stores the partial sums straight into the
//    shared memory of the block that owns each output channel (distributed shared memory), 16 bytes
//    (4 rows of one output) per store; every block then sums its 16 partials in a fixed order;
//  - the neighbour search (all pairs) and the integrator run redundantly in every block on a
//    shared-memory copy of positions and velocities (float64), identical in every block;
//  - dE/dd and dE/du per slot are summed over the block's channels; the partial forces (linear in
//    those) are exchanged once per step.
// Exchange: the partial sums go out with st.async, each store completing its
// bytes on the receiver's mbarrier of that receive buffer; a block waits only until all bytes it
// expects have arrived, with no cluster-wide barrier. Two receive buffers alternate; reuse is safe
// without a barrier because a block writes layer L+2's partials into a receiver only after it has
// received that receiver's layer L+1 partials, which the receiver sends after it has read layer L's.
// (A variant with plain remote stores and one cluster barrier per exchange, and one at 512 threads per
// block, were measured slower and left the code: git history, docs/benchmarks.md.)
// The next layer's weight slice is copied into shared memory (cp.async) while the exchange is
// pending. Where a layer's input is element-wise in what the previous phase computed (FUSE), that
// phase writes the input slice itself; where a layer has more (output, row block) items than threads
// (PUSH_PAIRS), a thread multiplies two outputs. Maths exactly as the stage kernels (the spec and its
// backward-pass appendix).
#pragma once
#include "molten_layers.cuh"
// Clusters, distributed shared memory, mbarrier transactions and st.async are sm_90 instructions: below
// sm_90 this file compiles to nothing (molten_kernels.cu then compiles k_small_c16 as a trap).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900

#include "molten_cluster_copy.cuh"
#include "molten_small_schedule.cuh"  // also MOLTEN_SMALL_CL, the blocks per cluster
#include "molten_small_thermostat.cuh"

// Shared-memory layout in 4-byte words (the host's DeviceSystem.moleculeSharedMemory mirrors it).
struct SmallLayout {
    int mb, pos, vel, im, frc, spec, cnt, nb, k0, geo, fc, rbf, gacc, wf, bf, bias;
    int V, Q, PHI, UV, Z3, AA, S, S1, V1, Z5, GS, GV, GS1, GV1, GN, GZ3, GPHI, GQ, XL, WB, RB, eo, rbsize;
    int redp, red, tv;
    int P, W, cstart, cpair, clen2, cvec, clam, cgpair, cgstart, cwat, cwlen;  // constraints (molten_small_constraints.cuh)
    int total;
    // P, W: the constrained pairs and rigid waters of the MD step (small_cons_pairs, small_cons_waters), 0 without
    __device__ SmallLayout(int N, int F, int T, int nrbf, int kw, int P_, int W_) {
        const int CS = F / MOLTEN_SMALL_CL, NS = N > 1 ? N - 1 : 1, E = N * NS;
        int o = 0;
        auto take = [&](int words) { const int at = o; o += (words + 3) & ~3; return at; };
        mb = take(8);  // two mbarriers, one per receive buffer
        pos = take(6 * N); vel = take(6 * N); im = take(2 * N); frc = take(3 * N); spec = take(N);
        cnt = take(N); nb = take(E); k0 = take(E); geo = take(4 * E); fc = take(2 * E); rbf = take(kw * E);
        gacc = take(4 * E); wf = take(T * nrbf * 3 * CS); bf = take(T * 3 * CS); bias = take(T * 8 * CS + CS);
        V = take(T * 3 * CS * N); Q = take(T * CS * N); PHI = take(T * 3 * CS * N); UV = take(T * 6 * CS * N);
        Z3 = take(T * CS * N); AA = take(T * 3 * CS * N);
        S = take(CS * N); S1 = take(CS * N); V1 = take(3 * CS * N); Z5 = take(CS * N);
        GS = take(CS * N); GV = take(3 * CS * N); GS1 = take(CS * N); GV1 = take(3 * CS * N); GN = take(CS * N);
        GZ3 = take(CS * N); GPHI = take(3 * CS * N); GQ = take(CS * N);
        // XL: input slice, transposed [k][R4] (R4 = rows rounded up to 4; at most 2CS x R4(3N));
        // WB: weight slice [o][KS + 4] (at most 3F x (CS + 4)); receive buffer: partial sums
        // [src][po][cl][R4], then the partial energies at eo
        XL = take(6 * CS * (N + 1)); WB = take(2 * 3 * F * (CS + 4));  // two: this layer's and the next's
        eo = max(3 * F * ((N + 3) & ~3), F * ((3 * N + 3) & ~3));  // the widest layer: 3F x R4(N) or F x R4(3N)
        rbsize = (eo + MOLTEN_SMALL_CL * N + 3) & ~3;
        RB = take(2 * rbsize);
        // thermostats (molten_small_thermostat.cuh): a fixed-order reduction over the atoms (redp doubles, the
        // power of two >= N, and one broadcast double) and the replica's thermostat variables (MOLTEN_RVAR doubles)
        redp = 1;
        while (redp < N) redp <<= 1;
        red = take(2 * redp + 2);
        tv = take(2 * MOLTEN_RVAR);
        // constraints: the start of the drift (N x 3 doubles), the pairs (2 ints, length^2, bond vector and lambda:
        // 5 doubles each), their groups (P + P + 1 ints) and waters (3 ints, 2 doubles each); nothing without constraints
        P = P_; W = W_;
        cstart = take(P + W > 0 ? 6 * N : 0);
        cpair = take(2 * P); clen2 = take(2 * P); cvec = take(6 * P); clam = take(2 * P);
        cgpair = take(P); cgstart = take(P > 0 ? P + 1 : 0);
        cwat = take(3 * W); cwlen = take(4 * W);
        total = o;
    }
};

__device__ __forceinline__ int rows4(int r) { return (r + 3) & ~3; }

template <int CH>
__device__ __forceinline__ void cp_async_n(float* dst, const float* src) {
#ifdef MOLTEN_EMU
    memcpy(dst, src, 4 * CH);
#else
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    if (CH == 4) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
    else if (CH == 2) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(s), "l"(src) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(src) : "memory");
#endif
}

// Weight slice of a layer into WB[o][KS + 4] (k < KS = PK*CSI over this block's input columns
// p*Fi + rank*CSI + q; the 4 words of padding make a quarter-warp's 16-byte loads of 8 consecutive
// rows conflict-free), asynchronously, 16 bytes per copy where CSI allows. Shapes are compile-time
// so that the index arithmetic is shifts, not divisions.
template <int KS, int CSI, int NT>
__device__ void small_fetch_t(const SmallDesc& d, int rank, float* WB) {
    constexpr int KSP = KS + 4, CH = CSI % 4 == 0 ? 4 : (CSI % 2 == 0 ? 2 : 1), NC = KS / CH;
    const int CT = d.NPO * d.Fo, K = d.PK * d.Fi, items = CT * NC;
    const float* W = d.W + rank * CSI;
    for (int e = threadIdx.x; e < items; e += NT) {
        const int o = e / NC, k = (e - o * NC) * CH, p = k / CSI, q = k - p * CSI;
        cp_async_n<CH>(WB + o * KSP + k, W + (size_t)o * K + p * d.Fi + q);
    }
}

// Partial products of this block's input slice XT [k][R4] with its weight slice, for every output o
// and every block of 4 rows: a thread takes P outputs (o and, for P = 2, o + CT/2: consecutive
// threads read consecutive weight rows, conflict-free) of one row block, keeps their KS weights in
// registers and stores each output's 4 partial sums as one 16-byte word into the receive buffer of its
// owner: recv[src][po][cl][R4]. P = 2 halves the loads of the input slice and gives 8 independent
// chains of multiply-adds; every sum is formed in the same order for either P. The padding rows
// (R..R4-1) of XT may hold anything: their partial sums are never read.
template <int KS, int NT, int P>
__device__ void small_push(const SmallDesc& d, const float* XT, const float* WB, float* recv, float* bar, int rank) {
    constexpr int KSP = KS + 4;
    const int CT = d.NPO * d.Fo, CP = CT / P, R4 = rows4(d.R), NB = R4 / 4;
    const int fs = __ffs(d.Fo) - 1, cs = __ffs(d.CSo) - 1;  // Fo, CSo: powers of two
    int rb = threadIdx.x / CP, o = threadIdx.x - rb * CP;
    for (; rb < NB; o += NT) {
        while (o >= CP) { o -= CP; ++rb; }
        if (rb >= NB) break;
        float w[P][KS];
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const float* wr = WB + (o + p * CP) * KSP;
            if (KS % 4 == 0) {
#pragma unroll
                for (int j = 0; j < KS / 4; ++j) {
                    const float4 q = *reinterpret_cast<const float4*>(wr + 4 * j);
                    w[p][4 * j] = q.x; w[p][(4 * j + 1) % KS] = q.y; w[p][(4 * j + 2) % KS] = q.z; w[p][(4 * j + 3) % KS] = q.w;
                }
            } else {
#pragma unroll
                for (int k = 0; k < KS; ++k) w[p][k] = wr[k];
            }
        }
        float acc[P][4];
#pragma unroll
        for (int p = 0; p < P; ++p) acc[p][0] = acc[p][1] = acc[p][2] = acc[p][3] = 0.f;
        const float* x = XT + 4 * rb;
#pragma unroll
        for (int k = 0; k < KS; ++k) {
            const float4 q = *reinterpret_cast<const float4*>(x + k * R4);
#pragma unroll
            for (int p = 0; p < P; ++p) {
                acc[p][0] = fmaf(w[p][k], q.x, acc[p][0]);
                acc[p][1] = fmaf(w[p][k], q.y, acc[p][1]);
                acc[p][2] = fmaf(w[p][k], q.z, acc[p][2]);
                acc[p][3] = fmaf(w[p][k], q.w, acc[p][3]);
            }
        }
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int oo = o + p * CP;
            const int po = oo >> fs, c = oo & (d.Fo - 1), dst = c >> cs, cl = c & (d.CSo - 1);
            const int off = ((rank * d.NPO + po) * d.CSo + cl) * R4 + 4 * rb;
            st_async<4>(remote_ref(recv, bar, dst), off, acc[p]);
        }
    }
}

// CONS: the kernel for constrained runs (k_small_c16_cons): the constraints' shared memory and solves compiled in;
// k_small_c16 compiles without them, so that an unconstrained run keeps its registers and code.
template <int CS, int NT, bool PUSH_PAIRS = true, bool FUSE = true, bool CONS = false>
struct SmallNet {
    const Net& n;
    float* sm;
    SmallLayout L;
    int N, F, T, kw, rank;
    unsigned phase = 0;  // bit p: parity of the current phase of receive buffer p's mbarrier
    // FUSE: where the next layer's input is element-wise in what a phase has just computed, that phase
    // writes it into XT itself (no prologue pass); xt_ready says the next layer's XT is written.
    bool xt_ready = false;
    int wpar = 0;        // weight buffer of the current layer
    SmallConstraints sc;     // the replica's constraints, solved redundantly in every block
    SmallThermostat<NT> th;  // the replica's thermostat, run redundantly in every block

    __device__ SmallNet(const Net& n_, float* sm_, int rank_)
        : n(n_), sm(sm_), L((int)n_.n, (int)n_.F, (int)n_.T, (int)n_.nrbf, (int)n_.kw, CONS ? small_cons_pairs(n_) : 0,
                            CONS ? small_cons_waters(n_) : 0),
          N((int)n_.n), F((int)n_.F), T((int)n_.T), kw((int)n_.kw), rank(rank_),
          sc(n_, (int)n_.n, atd(L.pos), atd(L.vel), atd(L.im), atd(L.cstart), ati(L.cpair), atd(L.clen2), atd(L.cvec),
             atd(L.clam), ati(L.cgpair), ati(L.cgstart), ati(L.cwat), atd(L.cwlen), L.P, L.W,
             rank_ == 0 ? n_.flags + MOLTEN_FLAG_CONSSWEEPS : nullptr),  // counted once, not in all 16 blocks
          th{n_, (int)n_.n, atd(L.vel), atd(L.pos), atd(L.im), atd(L.red), L.redp, atd(L.tv)} {}

    __device__ float* at(int off) const { return sm + off; }
    __device__ double* atd(int off) const { return reinterpret_cast<double*>(sm + off); }
    __device__ int* ati(int off) const { return reinterpret_cast<int*>(sm + off); }
    // per-atom slices: scalar [a][cl], vector [a][x][cl]; per block t
    __device__ float* s1d(int off, int t, int a) const { return sm + off + (t * N + a) * CS; }
    __device__ float* v3d(int off, int t, int a, int x) const { return sm + off + ((t * N + a) * 3 + x) * CS; }
    __device__ int ch(int cl) const { return rank * CS + cl; }

    // ---- setup (once per launch)
    __device__ void setup() {
        double* pos = atd(L.pos); double* vel = atd(L.vel); double* im = atd(L.im);
        float* frc = at(L.frc); int* spec = ati(L.spec);
        for (int e = threadIdx.x; e < 3 * N; e += NT) {
            pos[e] = n.pos[e]; vel[e] = n.vel[e]; frc[e] = n.force[e];
        }
        for (int a = threadIdx.x; a < N; a += NT) { im[a] = n.inv_mass[a]; spec[a] = n.species[a]; }
        th.load();
        if (CONS) sc.load();
        __syncthreads();
        const int nr = (int)n.nrbf;
        for (int e = threadIdx.x; e < T * nr * 3 * CS; e += NT) {
            const int cl = e % CS, p = (e / CS) % 3, k = (e / (3 * CS)) % nr, t = e / (3 * CS * nr);
            at(L.wf)[e] = n.w[n.o_wft[t] + (size_t)k * 3 * F + p * F + ch(cl)];
        }
        for (int e = threadIdx.x; e < T * 3 * CS; e += NT) {
            const int cl = e % CS, p = (e / CS) % 3, t = e / (3 * CS);
            at(L.bf)[e] = n.w[n.o_bf[t] + p * F + ch(cl)];
        }
        for (int e = threadIdx.x; e < T * 8 * CS; e += NT) {  // [t][b1 | b2 (3) | b3 | b4 (3)][cl]
            const int cl = e % CS, q = (e / CS) % 8, t = e / (8 * CS);
            long long o;
            if (q == 0) o = n.o_b1[t];
            else if (q < 4) o = n.o_b2[t] + (q - 1) * F;
            else if (q == 4) o = n.o_b3[t];
            else o = n.o_b4[t] + (q - 5) * F;
            at(L.bias)[e] = n.w[o + ch(cl)];
        }
        for (int cl = threadIdx.x; cl < (int)n.FR / MOLTEN_SMALL_CL; cl += NT)
            at(L.bias)[T * 8 * CS + cl] = n.w[n.o_b5 + rank * ((int)n.FR / MOLTEN_SMALL_CL) + cl];
        for (int e = threadIdx.x; e < N * 3 * CS; e += NT) {  // phi of block 0 per species, v_0 = 0
            const int cl = e % CS, p = (e / CS) % 3, a = e / (3 * CS);
            at(L.PHI)[e] = n.w[n.o_phi0 + (size_t)spec[a] * 3 * F + p * F + ch(cl)];
            at(L.V)[e] = 0.f;
        }
        __syncthreads();
    }

    // ---- integrator, first part (as the stage path: k_thermostat(0), st_integrate1, with Langevin
    // k_thermostat(2) and k_drift; molten_small_thermostat.cuh), with constraints k_constrain after each drift
    // (molten_small_constraints.cuh; the O step projects its velocities itself)
    __device__ void integrate1(unsigned long long step) {
        if (n.integrator == MOLTEN_INT_NONE) return;
        if (th.around()) th.rescale(MOLTEN_TS_BEFORE, step);
        double* pos = atd(L.pos); double* vel = atd(L.vel);
        const bool split = th.langevin();
        const bool cons = CONS && sc.on();
        for (int a = threadIdx.x; a < N; a += NT) {
            const double im = atd(L.im)[a];
            const double half = 0.5 * n.dt * n.accel * im;
            double x[3], v[3];
            for (int k = 0; k < 3; ++k) { x[k] = pos[3 * a + k]; v[k] = vel[3 * a + k] + half * (double)at(L.frc)[3 * a + k]; }
            if (cons)  // the start of the drift (st_integrate1's cons_ref)
                for (int k = 0; k < 3; ++k) sc.start[3 * a + k] = x[k];
            if (split) {  // B A(dt/2); the O step and the second half drift follow
                for (int k = 0; k < 3; ++k) { x[k] = state_round(n, x[k] + 0.5 * n.dt * v[k]); v[k] = state_round(n, v[k]); }
            } else {
                integrate1_atom(n, a, step, im, x, v);
            }
            for (int k = 0; k < 3; ++k) { pos[3 * a + k] = x[k]; vel[3 * a + k] = v[k]; }
        }
        __syncthreads();
        // the step being made is step + 1 (the stage path's counter + 1 before k_forces counts it)
        if (split) {
            if (cons) sc.positions(2.0 / n.dt, step + 1);
            th.template langevin_o<CONS>(step, sc);
            if (cons) sc.save_start();
            th.drift_half();
            if (cons) sc.positions(2.0 / n.dt, step + 1);
        } else if (cons) {
            sc.positions(1.0 / n.dt, step + 1);
        }
    }

    // ---- all-pairs neighbour search: warp per atom, lanes over candidates, slots in index order
    __device__ void search() {
        const int warp = warp_id(), lane = lane_id(), NS = N > 1 ? N - 1 : 1;
        const double* pos = atd(L.pos);
        const double rc2 = n.cutoff * n.cutoff, pr = 3.14159265358979323846 / n.cutoff;
        const float gm = (float)n.gamma, mus = (float)n.mu_step;
        for (int a = warp; a < N; a += (NT / 32)) {
            int count = 0;
            for (int b0 = 0; b0 < N; b0 += 32) {
                const int b = b0 + lane;
                double dx = 0, dy = 0, dz = 0, d2 = 1e300;
                if (b < N && b != a) {
                    dx = pos[3 * b] - pos[3 * a]; dy = pos[3 * b + 1] - pos[3 * a + 1]; dz = pos[3 * b + 2] - pos[3 * a + 2];
                    min_image(n, dx, dy, dz);
                    d2 = dx * dx + dy * dy + dz * dz;
                }
                const bool ok = d2 < rc2;
                const unsigned msk = __ballot_sync(FULLMASK, ok);
                if (ok) {
                    const int s = a * NS + count + __popc(msk & ((1u << lane) - 1u));
                    const double d = sqrt(d2);
                    ati(L.nb)[s] = b;
                    float4 g;
                    g.x = (float)(dx / d); g.y = (float)(dy / d); g.z = (float)(dz / d); g.w = (float)d;
                    reinterpret_cast<float4*>(at(L.geo))[s] = g;
                    const double dd = (double)g.w;
                    at(L.fc)[2 * s] = (float)(0.5 * (cos(pr * dd) + 1.0));
                    at(L.fc)[2 * s + 1] = (float)(-0.5 * pr * sin(pr * dd));
                    int k0 = (int)rint(dd / n.mu_step) - kw / 2;
                    k0 = k0 < 0 ? 0 : (k0 > n.nrbf - kw ? (int)n.nrbf - kw : k0);
                    ati(L.k0)[s] = k0;
                    for (int kk = 0; kk < kw; ++kk) {
                        const float tt = g.w - mus * (float)(k0 + kk);
                        at(L.rbf)[s * kw + kk] = expf(-gm * tt * tt);
                    }
                }
                count += __popc(msk);
            }
            if (lane == 0) ati(L.cnt)[a] = count;
        }
        __syncthreads();
    }

    // Filter of block t for slot s, channel cl: h_p = bf + sum_k Wf rbf_k; with mu: also sum_k Wf mu_k rbf_k
    template <bool MU>
    __device__ void filter(int t, int s, int cl, float h[3], float hm[3], float s0[3]) const {
        const float* wf = at(L.wf) + (size_t)t * (int)n.nrbf * 3 * CS;
        const float* bf = at(L.bf) + t * 3 * CS;
        const int k0 = ati(L.k0)[s];
        const float* r = at(L.rbf) + s * kw;
        const float mus = (float)n.mu_step;
        for (int p = 0; p < 3; ++p) { h[p] = 0.f; hm[p] = 0.f; }
        for (int kk = 0; kk < kw; ++kk) {
            const float rk = r[kk];
            const float mk = rk * (mus * (float)(k0 + kk));
            const float* w = wf + (k0 + kk) * 3 * CS + cl;
            for (int p = 0; p < 3; ++p) {
                h[p] = fmaf(w[p * CS], rk, h[p]);
                if (MU) hm[p] = fmaf(w[p * CS], mk, hm[p]);
            }
        }
        for (int p = 0; p < 3; ++p) { s0[p] = h[p]; h[p] += bf[p * CS + cl]; }  // h = Wf rbf + bf
    }

    // ---- message forward (block t): warp per target atom, lane = (slot group, channel)
    __device__ void msg_fwd(int t) {
        constexpr int SG = 32 / CS;
        const int warp = warp_id(), lane = lane_id(), sg = lane / CS, cl = lane % CS, NS = N > 1 ? N - 1 : 1;
        for (int a = warp; a < N; a += (NT / 32)) {
            const int cnt = ati(L.cnt)[a];
            float ds = 0.f, dv[3] = {0.f, 0.f, 0.f};
            for (int s0 = 0; s0 < cnt; s0 += SG) {
                const int sl = s0 + sg;
                if (sl < cnt) {
                    const int s = a * NS + sl, b = ati(L.nb)[s];
                    const float4 g = reinterpret_cast<const float4*>(at(L.geo))[s];
                    const float fcu = at(L.fc)[2 * s];
                    float h[3], hm[3], s0v[3];
                    filter<false>(t, s, cl, h, hm, s0v);
                    const float* pb = v3d(L.PHI, t, b, 0) + cl;
                    const float* vb = v3d(L.V, t, b, 0) + cl;
                    const float xvv = pb[0] * h[0] * fcu, xs = pb[CS] * h[1] * fcu, xvs = pb[2 * CS] * h[2] * fcu;
                    ds += xs;
                    dv[0] = fmaf(g.x, xvs, fmaf(xvv, vb[0], dv[0]));
                    dv[1] = fmaf(g.y, xvs, fmaf(xvv, vb[CS], dv[1]));
                    dv[2] = fmaf(g.z, xvs, fmaf(xvv, vb[2 * CS], dv[2]));
                }
            }
            for (int o = CS; o < 32; o <<= 1) {
                ds += __shfl_xor_sync(FULLMASK, ds, o);
                for (int x = 0; x < 3; ++x) dv[x] += __shfl_xor_sync(FULLMASK, dv[x], o);
            }
            if (sg == 0) {
                s1d(L.S1, 0, a)[cl] = s1d(L.S, 0, a)[cl] + ds;
                for (int x = 0; x < 3; ++x) {
                    const float v1 = v3d(L.V, t, a, x)[cl] + dv[x];
                    v3d(L.V1, 0, a, x)[cl] = v1;
                    if (FUSE) xin(cl, 3 * a + x, 3 * N, v1);  // L_UVU: rows (a, xyz)
                }
            }
        }
        xt_ready = FUSE;
        __syncthreads();
    }

    // ---- message backward (block t), as st_msg_bwd: row a computes both edges of each pair
    __device__ void msg_bwd(int t) {
        constexpr int SG = 32 / CS;
        const int warp = warp_id(), lane = lane_id(), sg = lane / CS, cl = lane % CS, NS = N > 1 ? N - 1 : 1;
        const bool first = t == T - 1;
        const float g2 = -2.0f * (float)n.gamma;
        for (int a = warp; a < N; a += (NT / 32)) {
            const int cnt = ati(L.cnt)[a];
            float pa[3], va[3], gva[3], ogv[3] = {0.f, 0.f, 0.f}, ogp[3] = {0.f, 0.f, 0.f};
            for (int p = 0; p < 3; ++p) {
                pa[p] = v3d(L.PHI, t, a, p)[cl];
                va[p] = v3d(L.V, t, a, p)[cl];
                gva[p] = v3d(L.GV1, 0, a, p)[cl];
            }
            const float gsa = s1d(L.GS1, 0, a)[cl];
            for (int s0 = 0; s0 < cnt; s0 += SG) {
                const int sl = s0 + sg;
                const bool ok = sl < cnt;
                const int s = a * NS + (ok ? sl : 0), b = ati(L.nb)[s];
                const float4 geo = reinterpret_cast<const float4*>(at(L.geo))[s];
                const float fcu = ok ? at(L.fc)[2 * s] : 0.f, dfcu = ok ? at(L.fc)[2 * s + 1] : 0.f;
                float h[3], hm[3], sw[3];
                filter<true>(t, s, cl, h, hm, sw);
                float pb[3], vb[3], gvb[3];
                for (int p = 0; p < 3; ++p) {
                    pb[p] = v3d(L.PHI, t, b, p)[cl];
                    vb[p] = v3d(L.V, t, b, p)[cl];
                    gvb[p] = v3d(L.GV1, 0, b, p)[cl];
                }
                const float gsb = s1d(L.GS1, 0, b)[cl];
                // the per-pair maths of the stage kernels (molten_stages.cuh): both directed edges of the pair
                const EdgeFilter f(g2, h, sw, hm, geo.w, fcu, dfcu, true);
                float gW[3], tu[3], su[3], gd = 0.f;
                edge_bwd_target(f, geo, gva, gsa, pb, vb, gW, tu);
                edge_bwd_source(f, geo, pa, va, gvb, gsb, t > 0, gW, su, ogv, ogp);
                edge_bwd_dd(f, gW, gd);
                float gux = tu[0] - su[0], guy = tu[1] - su[1], guz = tu[2] - su[2];
                for (int o = 1; o < CS; o <<= 1) {  // sum over this block's channels
                    gd += __shfl_xor_sync(FULLMASK, gd, o);
                    gux += __shfl_xor_sync(FULLMASK, gux, o);
                    guy += __shfl_xor_sync(FULLMASK, guy, o);
                    guz += __shfl_xor_sync(FULLMASK, guz, o);
                }
                if (ok && cl == 0) {
                    float4* acc = reinterpret_cast<float4*>(at(L.gacc)) + s;
                    float4 v4;
                    if (first) { v4.x = gd; v4.y = gux; v4.z = guy; v4.w = guz; }
                    else { v4 = *acc; v4.x += gd; v4.y += gux; v4.z += guy; v4.w += guz; }
                    *acc = v4;
                }
            }
            if (t > 0) {
                for (int o = CS; o < 32; o <<= 1) {
                    for (int p = 0; p < 3; ++p) {
                        ogv[p] += __shfl_xor_sync(FULLMASK, ogv[p], o);
                        ogp[p] += __shfl_xor_sync(FULLMASK, ogp[p], o);
                    }
                }
                if (sg == 0) {
                    for (int p = 0; p < 3; ++p) {
                        v3d(L.GV, 0, a, p)[cl] = gva[p] + ogv[p];
                        v3d(L.GPHI, 0, a, p)[cl] = ogp[p];
                        if (FUSE) xin(p * CS + cl, a, N, ogp[p]);  // L_PB1
                    }
                }
            }
        }
        xt_ready = FUSE && t > 0;
        __syncthreads();
    }

    // Element (k, r) of the next layer's input slice XT[k][R4(R)]. Its padding rows R..R4-1 need no
    // value: each row has accumulators of its own in small_push, and those of padding rows are never read.
    __device__ void xin(int k, int r, int R, float x) const { at(L.XL)[k * rows4(R) + r] = x; }

    // ---- prologue: this block's input slice of layer id, XT[k][r] (k = p*CSi + cl; rows padded to
    // R4 with zeros)
    __device__ void prologue(int id, int t, const SmallDesc& d, float* recv, float* bar) {
        if (id == L_UVV) return;  // the same input as L_UVU (V1), still in XT
        float* XT = at(L.XL);
        const int KS = d.PK * d.CSi, R4 = rows4(d.R), items = R4 * KS, cs = __ffs(d.CSi) - 1;
        for (int e = threadIdx.x; e < items; e += NT) {
            // e = (r * PK + p) * CSi + cl; CSi is a power of two, PK is 1, 2 or 3 (no division)
            const int rp = e >> cs, cl = e & (d.CSi - 1);
            const int r = d.PK == 1 ? rp : (d.PK == 2 ? rp >> 1 : (int)(((unsigned)rp * 0xAAABu) >> 17));
            const int p = rp - r * d.PK, k = p * d.CSi + cl;
            float x = 0.f;
            if (r < d.R) switch (id) {
                case L_PHI1: case L_READ: x = s1d(L.S, 0, r)[cl]; break;
                case L_PHI2: x = silu(s1d(L.Q, t, r)[cl]); break;
                case L_UVU: x = at(L.V1)[r * CS + cl]; break;  // rows (a, xyz)
                case L_MLP0:
                    if (p == 0) x = s1d(L.S1, 0, r)[cl];
                    else {  // |Vv| as vnorm: x*x + y*y + z*z + 1e-8
                        const float* u = at(L.UV) + ((t * N + r) * 3 * 2 + 1) * CS + cl;
                        x = sqrtf(u[0] * u[0] + u[2 * CS] * u[2 * CS] + u[4 * CS] * u[4 * CS] + 1e-8f);
                    }
                    break;
                case L_MLP2: x = silu(s1d(L.Z3, t, r)[cl]); break;
                case L_RBWD: {
                    const int c = rank * d.CSi + cl;
                    x = (float)n.scale * n.w[n.o_w6 + c] * dsilu(at(L.Z5)[r * d.CSi + cl]);
                    break;
                }
                case L_UB1: {
                    const float* u = at(L.UV) + ((t * N + r) * 3 * 2) * CS + cl;  // Uv_x, Vv_x, Uv_y, ...
                    const float g = s1d(L.GS, 0, r)[cl];
                    if (p == 2) x = g;
                    else if (p == 1) x = g * (u[0] * u[CS] + u[2 * CS] * u[3 * CS] + u[4 * CS] * u[5 * CS]);
                    else {
                        const float* q = v3d(L.GV, 0, r, 0) + cl;
                        x = q[0] * u[0] + q[CS] * u[2 * CS] + q[2 * CS] * u[4 * CS];
                    }
                    break;
                }
                case L_UB2: x = s1d(L.GZ3, 0, r)[cl]; break;
                case L_UB3: {
                    const int a = r / 3, xx = r - 3 * a;
                    const float* u3 = at(L.UV) + ((t * N + a) * 3 * 2) * CS + cl;
                    const float* u = u3 + xx * 2 * CS;  // this Cartesian row: Uv, Vv
                    const float* aa = v3d(L.AA, t, a, 0) + cl;
                    const float gsp = s1d(L.GS, 0, a)[cl] * aa[CS];
                    const float uu = u[0], vv = u[CS];
                    if (p == 0) x = at(L.GV)[r * CS + cl] * aa[0] + gsp * vv;
                    else {
                        const float nrm = sqrtf(u3[CS] * u3[CS] + u3[3 * CS] * u3[3 * CS] + u3[5 * CS] * u3[5 * CS] + 1e-8f);
                        x = gsp * uu + s1d(L.GN, 0, a)[cl] / nrm * vv;
                    }
                    break;
                }
                case L_PB1: x = v3d(L.GPHI, 0, r, p)[cl]; break;
                default: x = s1d(L.GQ, 0, r)[cl]; break;  // L_PB2
            }
            XT[k * R4 + r] = x;
        }
        if (id == L_RBWD) {  // partial atom energies y_a = sum over this block's readout channels w6 silu(z5)
            const int CSR = d.CSi;
            for (int e = threadIdx.x; e < N * MOLTEN_SMALL_CL; e += NT) {
                const int a = e / MOLTEN_SMALL_CL, dst = e - a * MOLTEN_SMALL_CL;
                float y = 0.f;
                for (int cl = 0; cl < CSR; ++cl) y += n.w[n.o_w6 + rank * CSR + cl] * silu(at(L.Z5)[a * CSR + cl]);
                st_async<1>(remote_ref(recv, bar, dst), L.eo + rank * N + a, &y);
            }
        }
    }

    // ---- epilogue of (r, cl) with the summed outputs v[po]; with FUSE, also the next layer's input
    // (as its prologue would compute it) where that is element-wise in this layer's output:
    // PHI1 -> PHI2, MLP0 -> MLP2, MLP2 -> PHI1 / READ, UB1 -> UB2, UB2 -> UB3, PB1 -> PB2, PB2 -> UB1.
    __device__ static bool fuses_next(int id) {
        return id == L_PHI1 || id == L_MLP0 || id == L_MLP2 || id == L_UB1 || id == L_UB2 || id == L_PB1 || id == L_PB2;
    }
    __device__ void epilogue(int id, int t, const SmallDesc& d, int r, int cl, const float* v) {
        const float* bi = at(L.bias) + t * 8 * CS + cl;  // b1, b2 (3 parts), b3, b4 (3 parts) of block t
        switch (id) {
            case L_PHI1: {
                const float q = v[0] + bi[0];
                s1d(L.Q, t, r)[cl] = q;
                if (FUSE) xin(cl, r, N, silu(q));
                break;
            }
            case L_PHI2: for (int p = 0; p < 3; ++p) v3d(L.PHI, t, r, p)[cl] = v[p] + bi[(1 + p) * CS]; break;
            case L_UVU: at(L.UV)[((t * 3 * N + r) * 2) * CS + cl] = v[0]; break;
            case L_UVV: at(L.UV)[((t * 3 * N + r) * 2 + 1) * CS + cl] = v[0]; break;
            case L_MLP0: {
                const float z = v[0] + bi[4 * CS];
                s1d(L.Z3, t, r)[cl] = z;
                if (FUSE) xin(cl, r, N, silu(z));
                break;
            }
            case L_MLP2: {
                const float avv = v[0] + bi[5 * CS], asv = v[1] + bi[6 * CS], ass = v[2] + bi[7 * CS];
                float* aa = v3d(L.AA, t, r, 0) + cl;
                aa[0] = avv; aa[CS] = asv; aa[2 * CS] = ass;
                const float* u = at(L.UV) + ((t * N + r) * 3 * 2) * CS + cl;
                const float sp = u[0] * u[CS] + u[2 * CS] * u[3 * CS] + u[4 * CS] * u[5 * CS];
                const float sn = s1d(L.S1, 0, r)[cl] + ass + asv * sp;
                s1d(L.S, 0, r)[cl] = sn;
                if (FUSE) xin(cl, r, N, sn);  // L_PHI1 of block t + 1, or L_READ
                if (t + 1 < T)
                    for (int x = 0; x < 3; ++x) v3d(L.V, t + 1, r, x)[cl] = v3d(L.V1, 0, r, x)[cl] + avv * u[2 * x * CS];
                break;
            }
            case L_READ: at(L.Z5)[r * d.CSo + cl] = v[0] + at(L.bias)[T * 8 * CS + cl]; break;
            case L_RBWD:
                s1d(L.GS, 0, r)[cl] = v[0];
                for (int x = 0; x < 3; ++x) v3d(L.GV, 0, r, x)[cl] = 0.f;
                break;
            case L_UB1: {
                const float g = v[0] * dsilu(s1d(L.Z3, t, r)[cl]);
                s1d(L.GZ3, 0, r)[cl] = g;
                if (FUSE) xin(cl, r, N, g);
                break;
            }
            case L_UB2: {
                const float gs = s1d(L.GS, 0, r)[cl];
                s1d(L.GS1, 0, r)[cl] = gs + v[0];
                s1d(L.GN, 0, r)[cl] = v[1];
                if (FUSE) {  // L_UB3: rows (r, xyz), parts Uv-gradient input (0) and Vv-gradient input (1)
                    const float* u3 = at(L.UV) + ((t * N + r) * 3 * 2) * CS + cl;
                    const float* aa = v3d(L.AA, t, r, 0) + cl;
                    const float gsp = gs * aa[CS];
                    const float nrm = sqrtf(u3[CS] * u3[CS] + u3[3 * CS] * u3[3 * CS] + u3[5 * CS] * u3[5 * CS] + 1e-8f);
                    for (int xx = 0; xx < 3; ++xx) {
                        const float* u = u3 + xx * 2 * CS;
                        const float uu = u[0], vv = u[CS];
                        xin(cl, 3 * r + xx, 3 * N, at(L.GV)[(3 * r + xx) * CS + cl] * aa[0] + gsp * vv);
                        xin(CS + cl, 3 * r + xx, 3 * N, gsp * uu + v[1] / nrm * vv);
                    }
                }
                break;
            }
            case L_UB3: at(L.GV1)[r * CS + cl] = at(L.GV)[r * CS + cl] + v[0]; break;
            case L_PB1: {
                const float g = v[0] * dsilu(s1d(L.Q, t, r)[cl]);
                s1d(L.GQ, 0, r)[cl] = g;
                if (FUSE) xin(cl, r, N, g);
                break;
            }
            default: {  // L_PB2
                const float g = s1d(L.GS1, 0, r)[cl] + v[0];
                s1d(L.GS, 0, r)[cl] = g;
                if (FUSE) {  // L_UB1 of block t - 1
                    const float* u = at(L.UV) + (((t - 1) * N + r) * 3 * 2) * CS + cl;
                    const float* q = v3d(L.GV, 0, r, 0) + cl;
                    xin(cl, r, N, q[0] * u[0] + q[CS] * u[2 * CS] + q[2 * CS] * u[4 * CS]);
                    xin(CS + cl, r, N, g * (u[0] * u[CS] + u[2 * CS] * u[3 * CS] + u[4 * CS] * u[5 * CS]));
                    xin(2 * CS + cl, r, N, g);
                }
                break;
            }
        }
    }

    __device__ float* wbuf(int p) const { return at(L.WB) + p * 3 * F * (CS + 4); }
    __device__ void push(const SmallDesc& d, float* recv, float* bar) {
        const float* XT = at(L.XL);
        const float* WB = wbuf(wpar);
        // two outputs per thread where there is more than one (output, row block) per thread
        const bool pair = PUSH_PAIRS && d.NPO * d.Fo * (rows4(d.R) / 4) > NT;
        if (d.CSi != CS) small_push<(CS / 2 > 0 ? CS / 2 : 1), NT, 1>(d, XT, WB, recv, bar, rank);
        else if (d.PK == 1) {
            if (pair) small_push<CS, NT, 2>(d, XT, WB, recv, bar, rank);
            else small_push<CS, NT, 1>(d, XT, WB, recv, bar, rank);
        } else if (d.PK == 2) {
            if (pair) small_push<2 * CS, NT, 2>(d, XT, WB, recv, bar, rank);
            else small_push<2 * CS, NT, 1>(d, XT, WB, recv, bar, rank);
        } else small_push<3 * CS, NT, 1>(d, XT, WB, recv, bar, rank);
    }
    __device__ void fetch(const SmallDesc& d, int p) {
        float* WB = wbuf(p);
        constexpr int CSR = CS / 2 > 0 ? CS / 2 : 1;
        if (d.CSi != CS) small_fetch_t<CSR, CSR, NT>(d, rank, WB);
        else if (d.PK == 1) small_fetch_t<CS, CS, NT>(d, rank, WB);
        else if (d.PK == 2) small_fetch_t<2 * CS, CS, NT>(d, rank, WB);
        else small_fetch_t<3 * CS, CS, NT>(d, rank, WB);
    }

    __device__ float* mbar(int par) const { return at(L.mb) + 4 * par; }
    // Thread 0 opens the receive of buffer par: its one arrival, and the bytes the 16 senders will store.
    __device__ void expect(int par, int bytes) {
        if (threadIdx.x == 0) mb_expect(mbar(par), bytes);
    }
    // Waits until this block has received everything of buffer par.
    __device__ void receive(int par) {
        mb_wait(mbar(par), (phase >> par) & 1u);
        phase ^= 1u << par;
    }

    // One dense layer: prologue, partial products into the owners' shared memory, exchange (the
    // next layer's weights are fetched meanwhile), sums of the 16 partials, epilogue.
    __device__ void layer(int id, int t, int& par) {
        const SmallDesc d = small_desc(n, id, t, N);
        float* recv = at(L.RB) + par * L.rbsize;
        const int R4 = rows4(d.R);
        expect(par, 4 * (R4 * d.NPO * d.Fo + (id == L_RBWD ? MOLTEN_SMALL_CL * N : 0)));
        if (!xt_ready) prologue(id, t, d, recv, mbar(par));  // else written by the previous phase
        xt_ready = false;
        cp_wait_all();    // this layer's weights (issued one layer ago)
        __syncthreads();  // ... of every thread, and the input slice
        int nid = id, nt = t;
        small_next(nid, nt, T);
        fetch(small_desc(n, nid, nt, N), wpar ^ 1);  // the next layer's, into the other buffer (read last one layer ago)
        push(d, recv, mbar(par));
        // Receiving all of this block's bytes does not mean that this block's threads have finished
        // their stores to the other blocks (which read XT): where the epilogue overwrites XT (FUSE) or
        // the energies use it as scratch (L_RBWD), every thread must be past its push first.
        if ((FUSE && fuses_next(id)) || id == L_RBWD) __syncthreads();
        receive(par);
        const int srcStride = d.NPO * d.CSo * R4, poStride = d.CSo * R4;
        // Sums of the 16 partials, one thread per (row, channel), in 4 interleaved chains (shorter
        // dependency chains) combined as (u0 + u1) + (u2 + u3).
        const int items = d.R * d.CSo;
        for (int e = threadIdx.x; e < items; e += NT) {
            const int cl = e / d.R, r = e - cl * d.R;
            float u[4][3];
            const float* q = recv + cl * R4 + r;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                u[j][0] = q[j * srcStride];
                u[j][1] = d.NPO > 1 ? q[j * srcStride + poStride] : 0.f;
                u[j][2] = d.NPO > 2 ? q[j * srcStride + 2 * poStride] : 0.f;
            }
#pragma unroll
            for (int src = 4; src < MOLTEN_SMALL_CL; ++src) {
                const float* qs = q + src * srcStride;
                u[src & 3][0] += qs[0];
                if (d.NPO > 1) u[src & 3][1] += qs[poStride];
                if (d.NPO > 2) u[src & 3][2] += qs[2 * poStride];
            }
            float v[3];
            for (int po = 0; po < 3; ++po) v[po] = (u[0][po] + u[1][po]) + (u[2][po] + u[3][po]);
            epilogue(id, t, d, r, cl, v);
        }
        xt_ready = FUSE && fuses_next(id);
        if (id == L_RBWD) {  // atom energies (float64): one thread per atom, then the sum in atom order
            double* ea = reinterpret_cast<double*>(at(L.XL));  // the input slice is no longer read
            if (rank == 0) {
                for (int a = threadIdx.x; a < N; a += NT) {
                    float y = 0.f;
                    for (int src = 0; src < MOLTEN_SMALL_CL; ++src) y += recv[L.eo + src * N + a];
                    ea[a] = n.scale * ((double)y + n.b6) + (double)n.w[n.o_atomref + ati(L.spec)[a]];
                    n.e_atom[a] = ea[a];
                }
            }
            __syncthreads();
            if (rank == 0 && threadIdx.x == 0) {
                double sum = 0.0;
                for (int a = 0; a < N; ++a) sum += ea[a];
                n.energy[0] = sum;
            }
        }
        __syncthreads();
        par ^= 1;
        wpar ^= 1;
    }

    // Partial forces of this block's channels, exchanged (16 bytes per atom and sender); closing half kick.
    __device__ void forces(int& par, unsigned long long step) {
        const int NS = N > 1 ? N - 1 : 1;
        float* recv = at(L.RB) + par * L.rbsize;
        expect(par, 16 * N * MOLTEN_SMALL_CL);
        for (int e = threadIdx.x; e < N * MOLTEN_SMALL_CL; e += NT) {
            const int a = e / MOLTEN_SMALL_CL, dst = e - a * MOLTEN_SMALL_CL;
            const int cnt = ati(L.cnt)[a];
            float f4[4] = {0.f, 0.f, 0.f, 0.f};
            for (int sl = 0; sl < cnt; ++sl) {
                const int s = a * NS + sl;
                const float4 acc = reinterpret_cast<const float4*>(at(L.gacc))[s];
                const float4 geo = reinterpret_cast<const float4*>(at(L.geo))[s];
                const float ug = geo.x * acc.y + geo.y * acc.z + geo.z * acc.w;
                const float inv = 1.0f / geo.w;
                f4[0] += acc.x * geo.x + (acc.y - ug * geo.x) * inv;
                f4[1] += acc.x * geo.y + (acc.z - ug * geo.y) * inv;
                f4[2] += acc.x * geo.z + (acc.w - ug * geo.z) * inv;
            }
            st_async<4>(remote_ref(recv, mbar(par), dst), (rank * N + a) * 4, f4);
        }
        receive(par);
        for (int a = threadIdx.x; a < N; a += NT) {
            float f[3] = {0.f, 0.f, 0.f};
            for (int src = 0; src < MOLTEN_SMALL_CL; ++src)
                for (int k = 0; k < 3; ++k) f[k] += recv[(src * N + a) * 4 + k];
            for (int k = 0; k < 3; ++k) at(L.frc)[3 * a + k] = f[k];
            if (rank == 0 && !(isfinite(f[0]) && isfinite(f[1]) && isfinite(f[2]))) {
                if (atomicCAS(n.flags + MOLTEN_FLAG_NONFINITE, 0, a + 1) == 0) n.flags[MOLTEN_FLAG_BADSTEP] = (int)step;
            }
            if (n.integrator != MOLTEN_INT_NONE) {
                const double half = 0.5 * n.dt * n.accel * atd(L.im)[a];
                for (int k = 0; k < 3; ++k) atd(L.vel)[3 * a + k] = state_round(n, atd(L.vel)[3 * a + k] + half * (double)f[k]);
            }
        }
        __syncthreads();
        par ^= 1;
    }

    __device__ __forceinline__ void run(int nsteps) {
        if (threadIdx.x == 0) {
            mb_init(mbar(0));
            mb_init(mbar(1));
            mb_init_fence();
        }
        setup();
        unsigned long long step = *n.step;
        int par = 0;
        fetch(small_desc(n, L_UVU, 0, N), 0);
        cg_cluster_sync_all();  // barriers initialised and every block's shared memory ready
        for (int st = 0; st < nsteps; ++st) {
            integrate1(step);
            search();
            for (int e = threadIdx.x; e < N * CS; e += NT) {  // s_0 = Emb[Z]
                const int a = e / CS, cl = e - a * CS;
                at(L.S)[e] = n.w[n.o_emb + (size_t)ati(L.spec)[a] * F + ch(cl)];
            }
            __syncthreads();
            int id = L_UVU, t = 0;
            while (true) {
                if (id == L_UVU) msg_fwd(t);
                layer(id, t, par);
                if (id == L_UB3) {
                    msg_bwd(t);
                    if (t == 0) break;
                }
                small_next(id, t, T);
            }
            forces(par, step);
            if (n.integrator != MOLTEN_INT_NONE) {
                ++step;
                if (CONS && sc.on()) sc.velocities(step);  // the stage path's k_constrain(velocities), after k_forces
                if (th.around()) th.rescale(MOLTEN_TS_AFTER, step);  // the stage path's k_thermostat(1), after k_forces
            }
        }
        if (rank == 0) {  // results back to global memory
            if (n.integrator != MOLTEN_INT_NONE) th.store();
            for (int e = threadIdx.x; e < 3 * N; e += NT) {
                n.pos[e] = atd(L.pos)[e];
                n.vel[e] = atd(L.vel)[e];
                n.force[e] = at(L.frc)[e];
            }
            if (threadIdx.x == 0) {
                *n.step = step;
                int mx = 0;
                for (int a = 0; a < N; ++a) mx = max(mx, ati(L.cnt)[a]);
                atomicMax(n.flags + MOLTEN_FLAG_MAXCOUNT, mx);
            }
        }
        cg_cluster_sync_all();  // no block leaves while a store into its shared memory may be in flight
    }

    __device__ static void cg_cluster_sync_all() {
#ifdef MOLTEN_EMU
        emu_cluster_sync();
#else
        cg::this_cluster().sync();
#endif
    }
};

// Shared memory (bytes) the kernel needs for N atoms; 0 when the model is not supported.
__device__ __forceinline__ long long small_smem_bytes(const Net& n, bool cons) {
    return 4LL * SmallLayout((int)n.n, (int)n.F, (int)n.T, (int)n.nrbf, (int)n.kw, cons ? small_cons_pairs(n) : 0,
                             cons ? small_cons_waters(n) : 0).total;
}
#endif  // sm_90 and the emulator
