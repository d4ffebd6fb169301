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
    double* red;        // [P + 1] doubles, shared: the reduction leaves, then the broadcast slot
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

    // Sum of x over the atoms (thread a holds atom a's x; threads >= N give nothing); every thread gets it.
    __device__ double sum(double x) {
        if (threadIdx.x < P) red[threadIdx.x] = threadIdx.x < N ? x : 0.0;
        __syncthreads();
        for (int w = P / 2; w > 0; w >>= 1) {
            if (threadIdx.x < w) red[threadIdx.x] += red[threadIdx.x + w];
            __syncthreads();
        }
        const double s = red[0];
        __syncthreads();
        return s;
    }

    // Kinetic energy of the molecule, eV (replica_kinetic's definition).
    __device__ double kinetic() {
        double s = 0.0;
        const int a = threadIdx.x;
        if (a < N) {
            const double m = 1.0 / im[a];
            const double* v = vel + 3 * a;
            s += m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        }
        return 0.5 * sum(s) / n.accel;
    }

    // Bussi, Nose-Hoover chain or Berendsen for dt/2 (st_thermostat's stages 0 and 1).
    __device__ void rescale(int stage, unsigned long long step) {
        const double K = kinetic();
        if (threadIdx.x == 0) {
            const double kT = n.rpar[0], dof = n.rpar[1], tau = n.rpar[3], h = 0.5 * n.dt;
            double f = 1.0;
            if (n.thermostat == MOLTEN_TS_BUSSI) f = bussi_factor_at(K, h, kT, dof, tau, n.rseed[0], step, stage, tv);
            else if (n.thermostat == MOLTEN_TS_BERENDSEN) f = berendsen_factor_at(K, h, kT, dof, tau, tv);
            else f = nhc_factor_at(n, K, h, kT, dof, tau, tv + 1, tv + 1 + MOLTEN_MAXCHAIN);
            red[P] = f;
        }
        __syncthreads();
        const double f = red[P];
        for (int e = threadIdx.x; e < 3 * N; e += NT) vel[e] = state_round(n, vel[e] * f);
        __syncthreads();
    }

    // The O step of BAOAB (langevin_o's definition): noise, drift removal, rounding, the projection onto the
    // replica's constraints (if any), bath += K_before - K_after.
    template <bool CONS>
    __device__ void langevin_o(unsigned long long step, const SmallConstraints& cons) {
        const double kT = n.rpar[0], friction = n.rpar[2];
        const double c1 = exp(-friction * n.dt);
        const double c2 = sqrt(1.0 - c1 * c1);
        const double before = kinetic();
        const int a = threadIdx.x;
        double px = 0.0, py = 0.0, pz = 0.0, mt = 0.0;
        if (a < N) {
            double* v = vel + 3 * a;
            langevin_o_atom(c1, c2, kT, n.accel, im[a], n.rseed[0], a, step, v);
            const double m = 1.0 / im[a];
            px += m * v[0]; py += m * v[1]; pz += m * v[2]; mt += m;
        }
        if (n.com_drift) {
            px = sum(px); py = sum(py); pz = sum(pz); mt = sum(mt);
            if (a < N) {
                vel[3 * a] -= px / mt; vel[3 * a + 1] -= py / mt; vel[3 * a + 2] -= pz / mt;
            }
        }
        if (a < N)
            for (int k = 0; k < 3; ++k) vel[3 * a + k] = state_round(n, vel[3 * a + k]);
        __syncthreads();
        // with constraints the noise is projected onto the constraint surface before the kinetic energy after O is
        // taken (langevin_o's definition)
        if (CONS && cons.on()) cons.velocities(step + 1);
        const double after = kinetic();
        if (threadIdx.x == 0) {
            tv[0] += before - after;
            tv[MOLTEN_RVAR_MID_KE] = after;   // the K a Langevin step reports (langevin_o's definition)
        }
        __syncthreads();
    }

    // The second half drift of a split BAOAB step (st_drift's definition).
    __device__ void drift_half() {
        for (int e = threadIdx.x; e < 3 * N; e += NT) pos[e] = state_round(n, pos[e] + 0.5 * n.dt * vel[e]);
        __syncthreads();
    }
};
