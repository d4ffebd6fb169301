// Molten student force field on NVIDIA GPUs: shared definitions.
//
// One parameter block (struct Net, passed by value to every kernel) describes the model, the
// system and every device buffer. All of its fields are 8 bytes wide, so its layout is the same
// in C and in the Java code that fills it (org.molten.forcefield.cuda.NetLayout, checked by a test
// that parses this file).
//
// Precision: model arithmetic in float32; positions, velocities, displacements and the energy
// sum in float64 (see docs/benchmarks.md for the NVE drift this protects).
#pragma once

#ifdef MOLTEN_EMU
#include "emu_cuda.h"
#else
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#endif

#define MOLTEN_MAXT 4         // interaction blocks supported on the GPU
#define MOLTEN_THREADS 256    // threads per block, every kernel
#define MOLTEN_WARPS 8
#define MOLTEN_MAXM 8         // hidden width F <= 32 * MOLTEN_MAXM = 256
#define MOLTEN_MAXKW 32       // radial-basis window <= 32 terms
#define MOLTEN_MAXCAP 512     // neighbour slots per atom
#define MOLTEN_MG_SMALL 4     // channels per lane in the message stages of small systems (mg <= 4)
#define MOLTEN_SU_SMALL 2      // neighbour slots a warp loads at once, small systems (mg > 1)
#define MOLTEN_STAGE_BATCH 16 // prologue elements a thread loads at once when staging rows
#define MOLTEN_RBS 16         // rows staged per work item in the warp-per-output dense layers

// Integrators (Net.integrator)
#define MOLTEN_INT_NONE 0
#define MOLTEN_INT_VERLET 1
#define MOLTEN_INT_BAOAB 2

// Thermostats of the stage path (Net.thermostat; molten_thermostat.cuh), per replica
#define MOLTEN_TS_NONE 0
#define MOLTEN_TS_LANGEVIN 1      // O step of BAOAB in its own stage (split_o), bath and drift removal
#define MOLTEN_TS_BUSSI 2         // around the Verlet step, dt/2 each
#define MOLTEN_TS_NHC 3
#define MOLTEN_TS_BERENDSEN 4
#define MOLTEN_RPAR 4             // Net.rpar per replica: kT (eV), degrees of freedom, friction (1/fs), tau (fs)
#define MOLTEN_MAXCHAIN 10        // Nose-Hoover chain length
#define MOLTEN_RVAR 24            // Net.rvar per replica: bath (eV), xi[MAXCHAIN], v_xi[MAXCHAIN] (1/fs), ...
#define MOLTEN_RVAR_MID_KE 21     // rvar slot: Langevin's K just after the last O step, eV, the K reported

// Net.flags[] slots (int)
#define MOLTEN_FLAG_OVERFLOW 0    // number of atoms whose neighbour count exceeded cap
#define MOLTEN_FLAG_MAXCOUNT 1    // largest neighbour count seen
#define MOLTEN_FLAG_NONFINITE 2   // first atom (+1) with a non-finite force, 0 if none
#define MOLTEN_FLAG_BADSTEP 3     // the step counter when that force was found
#define MOLTEN_FLAG_UNPAIRED 4    // neighbour slots whose reverse slot (b's slot of a) was not found
#define MOLTEN_FLAG_CONSTRAINT 5  // first constraint not met (molten_constraints.cuh): pair k + 1, rigid water -(w + 1)
#define MOLTEN_FLAG_CONSKIND 6    // what failed: 1 RATTLE positions, 2 RATTLE velocities, 3 SETTLE
#define MOLTEN_FLAG_CONSSTEP 7    // the step it failed in
#define MOLTEN_FLAG_CONSSWEEPS 8  // small constraint groups whose direct solve handed over to the sweeps (molten_constraints.cuh)
#define MOLTEN_NFLAGS 9

struct Net {
    // ---- sizes
    long long n;            // atoms
    long long cap;          // neighbour slots per atom
    long long F;            // hidden width (multiple of 32, <= 256)
    long long FR;           // readout hidden width F/2
    long long T;            // interaction blocks (<= MOLTEN_MAXT)
    long long nrbf;         // radial basis functions
    long long kw;           // radial-basis window actually evaluated (<= nrbf, <= MOLTEN_MAXKW)
    long long mg;           // channels per lane in the message stages (min(F/32, 4) small systems, 1 large)
    long long integrator;   // MOLTEN_INT_*
    long long search;       // 0 all pairs, 1 cell list (orthorhombic, all axes periodic)
    long long pbc;          // bit k set: axis k periodic
    long long ortho;        // 1: lattice vectors along x, y, z
    long long ncell[3];     // cells per axis (cell list)
    long long fp32_state;   // 1: round positions and velocities to float32 after each update
    // ---- model scalars and geometry
    double cutoff;          // Å
    double gamma;           // Å^-2
    double mu_step;         // Å, spacing of the radial-basis centres
    double scale;           // eV per readout unit
    double b6;              // readout.2.bias
    double h[9];            // lattice vectors as rows, Å: h[3*i + k]
    double hinv[9];         // inverse: fractional_j = sum_k r_k hinv[3*k + j]
    // ---- integrator
    double dt;              // fs
    double c1;              // BAOAB: exp(-friction dt)
    double c2;              // BAOAB: sqrt(1 - c1^2)
    double kT;              // eV
    double accel;           // Å/fs^2 per (eV/Å / amu)
    unsigned long long seed;
    // ---- weights (float32, one buffer) and offsets in floats
    const float* w;
    long long o_emb, o_phi0, o_atomref, o_w5, o_w5t, o_b5, o_w6;
    long long o_w1[MOLTEN_MAXT], o_w1t[MOLTEN_MAXT], o_b1[MOLTEN_MAXT];
    long long o_w2[MOLTEN_MAXT], o_w2t[MOLTEN_MAXT], o_b2[MOLTEN_MAXT];
    long long o_wft[MOLTEN_MAXT], o_bf[MOLTEN_MAXT];
    long long o_wf4[MOLTEN_MAXT];  // filter weights [n_rbf][F][4] = (Wf[c][k], Wf[F + c][k], Wf[2F + c][k], 0)
    long long o_uv[MOLTEN_MAXT], o_uvt[MOLTEN_MAXT];
    long long o_w3[MOLTEN_MAXT], o_w3t[MOLTEN_MAXT], o_b3[MOLTEN_MAXT];
    long long o_w4[MOLTEN_MAXT], o_w4t[MOLTEN_MAXT], o_b4[MOLTEN_MAXT];
    // ---- state
    double* pos;            // [n][3] Å
    double* vel;            // [n][3] Å/fs
    const double* inv_mass; // [n] 1/amu
    const int* species;     // [n] embedding row
    float* force;           // [n][3] eV/Å
    double* e_atom;         // [n] eV
    double* energy;         // [R] eV per replica, written by the energy reduction
    unsigned long long* step;  // [1] MD step counter (RNG counter)
    int* flags;             // MOLTEN_FLAG_*
    // ---- neighbours
    int* nbr_count;         // [n]
    int* nbr_idx;           // [n][cap]
    float* geo;             // [n][cap][4]: u_ab (x, y, z), d_ab (Å), with r_ab = r_b - r_a minimum image
    float* fc;              // [n][cap][2]: fcut(d), fcut'(d)
    int* kidx;              // [n][cap]: first radial-basis index of the window
    float* rbf;             // [n][cap][kw]: radial basis values in the window
    float* gacc;            // [n][cap][F/32/mg][4]: dE/dd, dE/du (x, y, z) partial sums per channel group
    int* order;             // [n]: processing order (cell-sorted atoms, or 0..n-1)
    // ---- cell list
    int* cell_count;        // [ncells]
    int* cell_start;        // [ncells + 1]
    int* cell_atoms;        // [n]
    int* atom_cell;         // [n]
    // ---- activations (float32, one buffer) and offsets in floats
    float* act;
    long long o_s[MOLTEN_MAXT + 1], o_v[MOLTEN_MAXT + 1];
    long long o_q[MOLTEN_MAXT], o_phi[MOLTEN_MAXT];
    long long o_s1[MOLTEN_MAXT], o_v1[MOLTEN_MAXT], o_uvv[MOLTEN_MAXT];
    long long o_z3[MOLTEN_MAXT], o_a[MOLTEN_MAXT], o_z5;
    long long o_gs, o_gv, o_gz3, o_gs1, o_gn, o_gv1, o_gphi, o_gq;
    // ---- split-K scratch of the tiled dense layers (dense_tile): partial tiles, and per tile the
    // number of splits done (zero between launches)
    float* kpart;
    int* kcount;
    // ---- replicas and thermostats (molten_thermostat.cuh). R independent systems share the atom
    // arrays, replica r owning atoms [rep_start[r], rep_start[r + 1]); the neighbour search pairs only
    // atoms of one replica. rep == nullptr: one replica, every atom (force evaluations of CudaStudent).
    long long replicas;     // R
    long long thermostat;   // MOLTEN_TS_*
    long long split_o;      // 1: k_integrate1 does B A(dt/2) only; O is k_thermostat(2), the second A k_drift
    long long com_drift;    // 1: Langevin removes each replica's centre-of-mass velocity after O
    long long nhc_m, nhc_nc, nhc_nys;  // chain length, multiple time steps, Suzuki-Yoshida weights
    double sy_w[7];         // the Suzuki-Yoshida weights
    const int* rep;         // [n] replica of each atom
    const int* rep_start;   // [R + 1] first atom of each replica
    const unsigned long long* rseed;  // [R] seed of each replica's random numbers
    const double* rpar;     // [R][MOLTEN_RPAR]
    double* rvar;           // [R][MOLTEN_RVAR]
    // ---- constraints (molten_constraints.cuh), stage path only; global atom indices, replica r's pairs
    // [cons_rpair[r], cons_rpair[r + 1]) and rigid waters [cons_rwater[r], cons_rwater[r + 1])
    long long cons_on;      // 1: the MD step holds constraints (k_constrain stages, projection after O)
    double cons_tol;        // RATTLE's tolerance (ConstraintSet.tolerance): relative length, relative rate (1/fs)
    long long cons_smem;    // bytes of shared memory staging the largest replica's pair solve (0: solved in global memory)
    const int* cons_pair;   // [P][2] atoms i, j
    const double* cons_len2;  // [P] length^2, Å^2
    const int* cons_rpair;  // [R + 1]
    const int* cons_water;  // [W][3] O, H1, H2
    const double* cons_wlen;  // [W][2] O-H, H-H, Å
    const int* cons_rwater; // [R + 1]
    double* cons_ref;       // [n][3] positions at the start of the drift, Å (saved by k_integrate1 / k_drift)
    double* cons_vec;       // [P][3] bond vectors, Å
    double* cons_lambda;    // [P] accumulated position corrections, amu
    const int* cons_gpair;  // [P] constraint groups: replica r's local pair indices group after group, from cons_rpair[r]
    const int* cons_gstart; // [P + R] replica r's group g starts at its slot cons_gstart[cons_rpair[r] + r + g] (g <= P_r)
    // ---- replica groups on chip (molten_group.cuh, k_group_n12 / k_group_n24): a block per replica computes its
    // energy and forces; null group_w: the stage kernels compute the forces
    const float* group_w;   // the weights in the group kernel's order (GroupWeights.java), float32
    long long group_ar, group_lay, group_ro;  // offsets (floats) of atomref, layer 0 and the readout in group_w
    float* group_scr;       // [R][T][group_n][17][F] backward activations, a slice per block
    long long group_n;      // atoms per replica the scratch and shared memory were sized for (every replica: <= it)
    long long group_smem;   // bytes of dynamic shared memory of the launch (the kernel checks its layout against it)
};

#define FULLMASK 0xffffffffu

__device__ __forceinline__ float silu(float z) { return z / (1.0f + expf(-z)); }

// d/dz SiLU(z) = sig(z) (1 + z (1 - sig(z)))
__device__ __forceinline__ float dsilu(float z) {
    float s = 1.0f / (1.0f + expf(-z));
    return s * (1.0f + z * (1.0f - s));
}

__device__ __forceinline__ float warp_sum(float x) {
#ifdef MOLTEN_EMU
    return emu_warp_sum(x);  // same butterfly, one coroutine switch instead of five
#else
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(FULLMASK, x, o);
    return x;
#endif
}

// Activations read through L2 only (ld.global.cg), never from a possibly stale L1 line: needed where
// other blocks of the same kernel wrote them (the former cluster and grid megakernels); the stage
// kernels kept these loads (whether the read-only path is faster there has not been measured).
__device__ __forceinline__ float lda(const float* p) { return __ldcg(p); }
__device__ __forceinline__ int ldai(const int* p) { return __ldcg(p); }
__device__ __forceinline__ double ldad(const double* p) { return __ldcg(p); }
// Weights never change during a kernel.
__device__ __forceinline__ float ldw(const float* p) { return __ldg(p); }

// Non-blocking hint: bring a line into L1 ahead of its use.
__device__ __forceinline__ void prefetch_l1(const void* p) {
#ifndef MOLTEN_EMU
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#endif
}

// First statement of every stage kernel. Programmatic dependent launch (sm_90; the host launches the stage
// kernels with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION where it can, KernelLauncher.java): the
// kernel is launched while the one before it in the stream is still running, and its blocks wait here until that
// kernel has finished and its memory is visible. Nothing is read or written before the wait, so results do not
// depend on how the kernels were launched; without the attribute the wait returns at once.
// There is deliberately no griddepcontrol.launch_dependents: the next kernel is then launched as this one's blocks
// exit, which hides most of the launch latency. Triggering it at the start of every block was 3 us per step faster
// at 26-50 atoms but 30-40 us slower at 200 and 3,000 atoms (docs/benchmarks.md, fifth session): the next
// kernel's blocks are then placed on the multiprocessors while the current kernel still holds them.
// griddepcontrol is an sm_90 instruction: below it the host launches plainly (KernelLauncher) and there is
// nothing to wait for.
__device__ __forceinline__ void stage_entry() {
#if !defined(MOLTEN_EMU) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// atomicAdd with release and acquire semantics at device scope (atom.acq_rel.gpu): what this thread, and
// every thread that synchronised with it through a block barrier, stored before becomes visible to whoever
// reads the new count; what they stored before their own increments becomes visible to this thread.
__device__ __forceinline__ int atomic_add_acq_rel_gpu(int* p, int v) {
#ifdef MOLTEN_EMU
    return atomicAdd(p, v);  // the emulator runs one thread at a time: every order holds
#else
    int old;
    asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
#endif
}

__device__ __forceinline__ int lane_id() { return threadIdx.x & 31; }
__device__ __forceinline__ int warp_id() { return threadIdx.x >> 5; }
