// Bond constraints inside the small-molecule cluster kernel (molten_small.cuh, issue 28): RATTLE for pairs and SETTLE
// for rigid waters at the points of the step where the stage path runs them (k_constrain after each drift and after
// the closing kick; the projection inside Langevin's O step, molten_thermostat.cuh langevin_o), with the functions of
// molten_constraints.cuh on the block's shared-memory copy of the state: the same definitions, order (the pairs'
// constraint groups one per lane of warp 0, each in order; one water per thread), tolerance, iteration cap, float32 rounding and failure flags
// (flags[MOLTEN_FLAG_CONSTRAINT], its kind and step; the host stops the run at the end of the launch).
// Every block of the cluster runs them redundantly on its own copy of the state, as it runs the integrator and the
// thermostats: the same inputs and the same serial order give every block the same bits, so nothing is exchanged;
// the failure flag is a compare-and-swap, so the first block's code stands (all blocks write the same one).
// The kernel holds one replica (atoms 0..N-1, pairs and waters from index 0): its local indices are the global ones.
#pragma once
#include "molten_constraints.cuh"

// Pairs and rigid waters of the kernel's one replica while an MD step holds constraints; 0 otherwise (force
// evaluations, unconstrained runs): the shared-memory layout (SmallLayout) then has no room for them.
__device__ __forceinline__ int small_cons_pairs(const Net& n) {
    return n.cons_on && n.integrator != MOLTEN_INT_NONE ? n.cons_rpair[1] - n.cons_rpair[0] : 0;
}
__device__ __forceinline__ int small_cons_waters(const Net& n) {
    return n.cons_on && n.integrator != MOLTEN_INT_NONE ? n.cons_rwater[1] - n.cons_rwater[0] : 0;
}

// One solve on the kernel's shared-memory state (velocities, or positions after a drift with perFs), then the float32
// rounding of Net.fp32_state; every thread calls it. Outlined: inlined at its five call sites the solvers' registers
// crowd the kernel's (ptxas spilled at 255 registers). The views by value and the Net through __grid_constant__
// (k_small_c16_cons), so that neither the kernel's objects nor its parameter block move to local memory for the call.
__device__ __noinline__ void small_cons_solve(const Net& n, PairView p, WaterView w, int N, bool velocities, double perFs,
                                              unsigned long long stepno) {
    if (threadIdx.x < 32 && p.P > 0) rattle_view(n, p, velocities, perFs, stepno);
    settle_view(n, w, velocities, perFs, stepno);
    __syncthreads();
    cons_round_view(n, p.r, p.v, N, !velocities);
    __syncthreads();
}

struct SmallConstraints {
    const Net& n;
    int N;
    double* start;     // shared: [N][3] positions at the start of the drift, Å
    int* pair;         // shared: [P][2]
    int* gpair;        // shared: [P] the pairs group after group (Net.cons_gpair)
    int* gstart;       // shared: [P + 1] the groups' first slots (Net.cons_gstart)
    double* len2;      // shared: [P] Å^2
    int* water;        // shared: [W][3]
    double* wlen;      // shared: [W][2] Å
    PairView pairs;    // the block's state (shared) with the above and the solver's scratch (vec, lambda)
    WaterView waters;

    __device__ SmallConstraints(const Net& n_, int N_, double* pos, double* vel, const double* im, double* start_,
                                int* pair_, double* len2_, double* vec, double* lambda, int* gpair_, int* gstart_,
                                int* water_, double* wlen_, int P, int W, int* counter)
        : n(n_), N(N_), start(start_), pair(pair_), gpair(gpair_), gstart(gstart_), len2(len2_), water(water_), wlen(wlen_),
          pairs{pos, vel, start_, im, pair_, len2_, vec, lambda, P, 0, gpair_, gstart_, counter},
          waters{pos, vel, start_, im, water_, wlen_, W, 0} {}

    __device__ bool on() const { return pairs.P + waters.W > 0; }

    // The pair and water lists into shared memory (every thread; the caller's barrier follows).
    __device__ void load() const {
        for (int k = threadIdx.x; k < pairs.P; k += MOLTEN_THREADS) {
            pair[2 * k] = n.cons_pair[2 * k];
            pair[2 * k + 1] = n.cons_pair[2 * k + 1];
            len2[k] = n.cons_len2[k];
            gpair[k] = n.cons_gpair[k];
        }
        if (pairs.P > 0)
            for (int g = threadIdx.x; g <= pairs.P; g += MOLTEN_THREADS) gstart[g] = n.cons_gstart[g];
        for (int k = threadIdx.x; k < waters.W; k += MOLTEN_THREADS) {
            for (int x = 0; x < 3; ++x) water[3 * k + x] = n.cons_water[3 * k + x];
            wlen[2 * k] = n.cons_wlen[2 * k];
            wlen[2 * k + 1] = n.cons_wlen[2 * k + 1];
        }
    }

    // The positions at the start of a drift (st_drift's saving of cons_ref); every thread, a barrier after.
    __device__ void save_start() const {
        for (int e = threadIdx.x; e < 3 * N; e += MOLTEN_THREADS) start[e] = pairs.r[e];
        __syncthreads();
    }

    // After a drift of 1 / perFs fs (k_constrain's position stages): positions onto the constraints, velocities
    // corrected by the displacements * perFs. stepno: the step being made. Every thread calls it.
    __device__ __forceinline__ void positions(double perFs, unsigned long long stepno) const {
        small_cons_solve(n, pairs, waters, N, false, perFs, stepno);
    }

    // Velocities tangent to the constraints (k_constrain's velocity stage, constrain_velocities_replica); every thread
    // calls it after a barrier.
    __device__ __forceinline__ void velocities(unsigned long long stepno) const {
        small_cons_solve(n, pairs, waters, N, true, 0.0, stepno);
    }
};
