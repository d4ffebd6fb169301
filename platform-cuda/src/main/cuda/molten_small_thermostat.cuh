// Thermostats of the small-molecule kernel (molten_small.cuh): Langevin BAOAB, Bussi, Nose-Hoover chain and
// Berendsen inside the cluster's MD step, for its one replica (r = 0), with the definitions of the stage path's
// per-replica stages (molten_thermostat.cuh: bussi_factor_at, berendsen_factor_at, nhc_factor_at,
// langevin_o_atom), the same random streams (the replica's seed; Bussi counted by (step, stage), Langevin by
// (atom, step)), the same order within the step and the same variables (bath energy eV, xi, v_xi 1/fs in the
// replica's MOLTEN_RVAR doubles, so a checkpoint holds the same contents whichever path wrote it):
//   around Verlet:  T(dt/2) at step s (stage 0) | B A B | step s + 1 | T(dt/2) at step s + 1 (stage 1);
//   Langevin:       B A(dt/2) | O at step s (bath, centre-of-mass drift removal) | A(dt/2) | ... B.
// Every block of the cluster runs them redundantly on its own shared-memory copy of the velocities and of the
// thermostat variables: the same inputs and the same fixed-order sums give every block the same bits, so no
// exchange is needed; block 0 writes the variables back at the end of the launch.
// Sums over the atoms are trees over the power of two P >= N with atom a at leaf a: the stage path's block_sum_d
// over 256 leaves (one atom per thread, the rest zero) gives the same bits, since the leaves past P add zeros.
// The tree's levels w >= 32 pair through shared memory (one barrier each), the levels w <= 16 in warp 0's registers
// (x += shfl_down(x, w) is red[i] += red[i + w]): the total lands in thread 0, which computes the thermostat's factor
// and hands it to warp 0 by a shuffle; warp 0 scales. One barrier per half-step thermostat up to 32 atoms (there
// were 8 at 9-16 atoms), the Langevin O step 1 (there were 32 with the drift removal).
// Bussi's first five random draws (two normals, one uniform: its common path) are computed at once in three lanes of
// warp 0 before thread 0 runs bussi_factor_at (BussiAhead); the rest of the path, and a rejected attempt's draws, in
// thread 0 as on the stage path.
// The kinetic energy of the thermostats is computed in one place (kinetic below): a change of what is reported
// (e.g. a half-step kinetic energy) belongs there and in the host's reading of the state.
#pragma once
#include "molten_thermostat.cuh"
#include "molten_small_constraints.cuh"

template <int NT>
struct SmallThermostat {
    const Net& n;
    int N;
    double* vel;        // [N][3] Å/fs, shared
    double* pos;        // [N][3] Å, shared
    const double* im;   // [N] 1/amu, shared
    double* red;        // [P + 1] doubles, shared: the tree's levels above a warp (red[32, P), P >= 64)
    int P;
    double* tv;         // [MOLTEN_RVAR] doubles, shared: bath, xi[MAXCHAIN], v_xi[MAXCHAIN]

    __device__ bool around() const {
        return n.thermostat == MOLTEN_TS_BUSSI || n.thermostat == MOLTEN_TS_NHC || n.thermostat == MOLTEN_TS_BERENDSEN;
    }
    __device__ bool langevin() const { return n.thermostat == MOLTEN_TS_LANGEVIN && n.split_o; }

    // The replica's variables from global memory (every block), at the start of a launch.
    __device__ void load() {
        for (int k = threadIdx.x; k < MOLTEN_RVAR; k += NT) tv[k] = n.rvar == nullptr ? 0.0 : n.rvar[k];
    }
    // ... and back (one block), at the end.
    __device__ void store() const {
        if (n.rvar == nullptr) return;
        for (int k = threadIdx.x; k < MOLTEN_RVAR; k += NT) n.rvar[k] = tv[k];
    }

    // The tree over the atoms of x (thread a holds atom a's x; threads >= N give nothing): the total in thread 0
    // only. Every thread calls it. Levels w >= 32 (P >= 64) go through red[32, P) with a barrier each, and a barrier
    // after the last, so that back-to-back trees do not overwrite leaves still being read; the rest is shuffles.
    __device__ double tree(double x) const {
        const int t = threadIdx.x;
        double v = t < N ? x : 0.0;
        if (P > 32) {
            for (int w = P / 2; w >= 32; w >>= 1) {
                if (t >= w && t < 2 * w) red[t] = v;
                __syncthreads();
                if (t < w) v += red[t + w];
            }
            __syncthreads();
        }
        if (t < 32)
            for (int w = min(P / 2, 16); w > 0; w >>= 1) v += warp_down(v, w);
        return v;
    }

    // Thread a's leaf of the kinetic energy: m v^2 (amu Å^2/fs^2); 0.5 tree / accel is replica_kinetic's K, eV.
    __device__ double kinetic_leaf() const {
        const int a = threadIdx.x;
        if (a >= N) return 0.0;
        const double m = 1.0 / im[a];
        const double* v = vel + 3 * a;
        return m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }

    // Kinetic energy of the molecule, eV (replica_kinetic's definition), in thread 0 only.
    __device__ double kinetic0() const { return 0.5 * tree(kinetic_leaf()) / n.accel; }

    // Bussi, Nose-Hoover chain or Berendsen for dt/2 (st_thermostat's stages 0 and 1): thread 0 computes the factor,
    // warp 0 scales every velocity, one barrier.
    __device__ void rescale(int stage, unsigned long long step) {
        const double K = kinetic0();
        if (threadIdx.x < 32) {
            BussiAhead ahead{0.0, 0.0, 0.0};
            if (n.thermostat == MOLTEN_TS_BUSSI) ahead = bussi_ahead(step, stage);
            double f = 1.0;
            if (threadIdx.x == 0) {
                const double kT = n.rpar[0], dof = n.rpar[1], tau = n.rpar[3], h = 0.5 * n.dt;
                if (n.thermostat == MOLTEN_TS_BUSSI)
                    f = bussi_factor_at(K, h, kT, dof, tau, n.rseed[0], step, stage, tv, ahead, true);
                else if (n.thermostat == MOLTEN_TS_BERENDSEN) f = berendsen_factor_at(K, h, kT, dof, tau, tv);
                else f = nhc_factor_at(n, K, h, kT, dof, tau, tv + 1, tv + 1 + MOLTEN_MAXCHAIN);
            }
            f = warp_lane(f, 0);
            for (int e = threadIdx.x; e < 3 * N; e += 32) vel[e] = state_round(n, vel[e] * f);
        }
        __syncthreads();
    }

    // Bussi's first draws (BussiAhead) at once in warp 0: lane l draws 2l and 2l + 1 and their normal; lane 0's normal,
    // lane 1's and lane 2's first uniform are those the half step takes first (the other lanes' are not used).
    __device__ BussiAhead bussi_ahead(unsigned long long step, int stage) const {
        ReplicaRandom r{n.rseed[0], step, (unsigned int)stage, 2u * (unsigned int)lane_id(), BussiAhead{0.0, 0.0, 0.0},
                        false};
        const double u1 = r.uniform(), u2 = r.uniform();
        const double g = box_muller(u1, u2);
        return BussiAhead{warp_lane(g, 0), warp_lane(g, 1), warp_lane(u1, 2)};
    }

    // Lane w + i's double to lane i of a warp (every lane of the warp calls it).
    __device__ static double warp_down(double v, int w) {
#ifdef MOLTEN_EMU
        unsigned long long u;
        memcpy(&u, &v, 8);
        const int lane = lane_id();
        u = emu_warp_exchange(u, lane + w < 32 ? lane + w : lane);
        memcpy(&v, &u, 8);
        return v;
#else
        return __shfl_down_sync(FULLMASK, v, w);
#endif
    }
    // Lane src's double to every lane of the warp.
    __device__ static double warp_lane(double v, int src) {
#ifdef MOLTEN_EMU
        unsigned long long u;
        memcpy(&u, &v, 8);
        u = emu_warp_exchange(u, src);
        memcpy(&v, &u, 8);
        return v;
#else
        return __shfl_sync(FULLMASK, v, src);
#endif
    }

    // The O step of BAOAB (langevin_o's definition): noise, drift removal, rounding, the projection onto the
    // replica's constraints (if any), bath += K_before - K_after. The sums land in thread 0; warp 0 removes the drift.
    template <bool CONS>
    __device__ void langevin_o(unsigned long long step, const SmallConstraints& cons) {
        const double kT = n.rpar[0], friction = n.rpar[2];
        const double c1 = exp(-friction * n.dt);
        const double c2 = sqrt(1.0 - c1 * c1);
        const double before = kinetic0();
        const int a = threadIdx.x;
        double px = 0.0, py = 0.0, pz = 0.0, mt = 0.0;
        if (a < N) {
            double* v = vel + 3 * a;
            langevin_o_atom(c1, c2, kT, n.accel, im[a], n.rseed[0], a, step, v);
            const double m = 1.0 / im[a];
            px += m * v[0]; py += m * v[1]; pz += m * v[2]; mt += m;
        }
        if (n.com_drift) {
            // the trees' barriers (P > 32) make every atom's new velocity visible to warp 0; below, lane a has atom a
            px = tree(px); py = tree(py); pz = tree(pz); mt = tree(mt);
            if (a < 32) {
                const double ux = warp_lane(px / mt, 0), uy = warp_lane(py / mt, 0), uz = warp_lane(pz / mt, 0);
                for (int b = a; b < N; b += 32) {
                    double* v = vel + 3 * b;
                    v[0] = state_round(n, v[0] - ux);
                    v[1] = state_round(n, v[1] - uy);
                    v[2] = state_round(n, v[2] - uz);
                }
            }
        } else if (a < N) {
            for (int k = 0; k < 3; ++k) vel[3 * a + k] = state_round(n, vel[3 * a + k]);
        }
        __syncthreads();
        // with constraints the noise is projected onto the constraint surface before the kinetic energy after O is
        // taken (langevin_o's definition)
        if (CONS && cons.on()) cons.velocities(step + 1);
        const double after = kinetic0();
        if (threadIdx.x == 0) {
            tv[0] += before - after;
            tv[MOLTEN_RVAR_MID_KE] = after;   // the K a Langevin step reports (langevin_o's definition)
        }
        // no barrier: tv is read next by thread 0, or at the launch's end after drift_half's barrier
    }

    // The second half drift of a split BAOAB step (st_drift's definition).
    __device__ void drift_half() {
        for (int e = threadIdx.x; e < 3 * N; e += NT) pos[e] = state_round(n, pos[e] + 0.5 * n.dt * vel[e]);
        __syncthreads();
    }
};
