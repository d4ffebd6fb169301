// Per-replica stages of the MD step: thermostats, the second half drift of a split BAOAB step and
// the potential energy of each replica. One block per replica (grid-stride over replicas); every
// reduction over a replica's atoms is a fixed-order tree in shared memory, so results do not
// depend on timing, on the other replicas or on how steps are grouped into launches.
//
// The definitions are those of the host integrators (integrators/.../VelocityVerlet.java and
// thermostats/*.java), term for term:
//   Bussi:      K' = c K + (1 - c) K0 (r1^2 + S) / dof + 2 r1 sqrt(c (1 - c) K K0 / dof),
//               c = exp(-h / tau), K0 = dof kT / 2, S ~ chi^2(dof - 1); alpha = sign * sqrt(K'/K).
//   NHC:        MTK 1996 Trotter propagation, n_c multiple time steps x n_ys Suzuki-Yoshida weights.
//   Berendsen:  lambda = sqrt(1 + h/tau (T0/T - 1)) clamped to [0.8, 1.25].
//   Langevin O: v = c v + sqrt((1 - c^2) kT / m) xi, c = exp(-gamma dt); optional removal of the
//               centre-of-mass velocity; bath += K_before - K_after; the kinetic energy reported
//               for the step is K_after (rvar[MOLTEN_RVAR_MID_KE]): the mid-step
//               velocities are free of the full-step ones' O(dt^2) bias (LangevinThermostat.java).
// Units: Å, fs, eV, amu; accel = Å/fs^2 per eV/Å/amu, so K = m v^2 / (2 accel).
#pragma once
#include "molten_stages.cuh"
#include "molten_constraints.cuh"

#define MOLTEN_TS_BEFORE 0   // k_thermostat stage: dt/2 before the first half kick
#define MOLTEN_TS_AFTER 1    // dt/2 after the second half kick
#define MOLTEN_TS_MID 2      // the O step of BAOAB, dt

// Sum over the block in a fixed order (every thread gets it). sm: MOLTEN_THREADS doubles.
__device__ double block_sum_d(double x, double* sm) {
    sm[threadIdx.x] = x;
    __syncthreads();
    for (int w = MOLTEN_THREADS / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w) sm[threadIdx.x] += sm[threadIdx.x + w];
        __syncthreads();
    }
    const double r = sm[0];
    __syncthreads();
    return r;
}

// Kinetic energy of atoms [lo, hi), eV.
__device__ double replica_kinetic(const Net& n, int lo, int hi, double* sm) {
    double s = 0.0;
    for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS) {
        const double m = 1.0 / n.inv_mass[a];
        const double* v = n.vel + 3 * a;
        s += m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    return 0.5 * block_sum_d(s, sm) / n.accel;
}

__device__ void replica_scale(const Net& n, int lo, int hi, double f) {
    for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS)
        for (int k = 0; k < 3; ++k) n.vel[3 * a + k] = state_round(n, n.vel[3 * a + k] * f);
}

// Box-Muller: a standard normal from two uniforms in (0, 1), one of the pair.
__device__ __forceinline__ double box_muller(double u1, double u2) {
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

// The draws a Bussi half step's common path takes first, in its order: the normal of draws 0-1 (r1), the normal of
// draws 2-3 (the chi-squared's first normal) and the uniform of draw 4 (its acceptance test). The small-molecule
// kernel computes them ahead in three lanes at once (molten_small_thermostat.cuh); the stage path draws them as they
// come. The same draws and the same arithmetic: the same bits.
struct BussiAhead {
    double g0, g2, u4;
};

// A replica's own random numbers for the thermostat (Bussi): Philox4x32-10 keyed by the replica's
// seed, counted by (draw, step, stage); the tag keeps them apart from the Langevin noise.
struct ReplicaRandom {
    unsigned long long seed, step;
    unsigned int stage, draw;
    BussiAhead ahead;    // draws 0-4 computed ahead (has_ahead)
    bool has_ahead;
    __device__ double uniform() {  // in (0, 1), 53 bits
        if (has_ahead && draw == 4) { ++draw; return ahead.u4; }
        unsigned int c[4] = {draw++, (unsigned int)step, (unsigned int)(step >> 32), 0x42550000u | stage};
        philox4x32(c, (unsigned int)seed, (unsigned int)(seed >> 32));
        const unsigned long long m = ((unsigned long long)(c[0] >> 5) << 26) | (c[1] >> 6);
        return ((double)m + 0.5) / 9007199254740992.0;
    }
    __device__ double gaussian() {  // Box-Muller, one of the pair
        if (has_ahead && (draw == 0 || draw == 2)) {
            const double g = draw == 0 ? ahead.g0 : ahead.g2;
            draw += 2;
            return g;
        }
        const double u1 = uniform(), u2 = uniform();
        return box_muller(u1, u2);
    }
    // Gamma(shape, 1): Marsaglia and Tsang (2000), the boost U^(1/a) below 1 (as ChiSquared.java)
    __device__ double gamma(double shape) {
        double boost = 1.0;
        if (shape < 1.0) {
            boost = pow(uniform(), 1.0 / shape);
            shape += 1.0;
        }
        const double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
        while (true) {
            double x, v;
            do {
                x = gaussian();
                v = 1.0 + c * x;
            } while (v <= 0.0);
            v = v * v * v;
            const double u = uniform(), x2 = x * x;
            if (u < 1.0 - 0.0331 * x2 * x2) return boost * d * v;
            if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return boost * d * v;
        }
    }
    __device__ double chi_squared(int k) {  // sum of k squared standard normals
        if (k <= 0) return 0.0;
        if (k == 1) { const double g = gaussian(); return g * g; }
        return 2.0 * gamma(0.5 * k);
    }
};

// Bussi for h: the new kinetic energy's scale factor; bath += K - K'. K == 0: no change (the host
// refuses a system at rest before binding). Parameters explicit (kT eV, dof, tau fs, the replica's seed, the
// step counter and stage of its random numbers), so that the small-molecule kernel calls the same definition.
// ahead: its first draws computed ahead (BussiAhead), if has_ahead.
__device__ double bussi_factor_at(double K, double h, double kT, double dof, double tau, unsigned long long seed,
                                  unsigned long long step, int stage, double* bath,
                                  BussiAhead ahead = BussiAhead{0.0, 0.0, 0.0}, bool has_ahead = false) {
    if (!(K > 0.0)) return 1.0;
    ReplicaRandom rng{seed, step, (unsigned int)stage, 0u, ahead, has_ahead};
    const double target = 0.5 * dof * kT;
    const double c = exp(-h / tau);
    const double r1 = rng.gaussian();
    const double sum = rng.chi_squared((int)dof - 1);
    const double kNew = c * K + (1.0 - c) * target * (r1 * r1 + sum) / dof + 2.0 * r1 * sqrt(c * (1.0 - c) * K * target / dof);
    double alpha = sqrt(kNew / K);
    if (r1 + sqrt(c * dof * K / ((1.0 - c) * target)) < 0.0) alpha = -alpha;
    *bath += K - kNew;
    return alpha;
}

__device__ double bussi_factor(const Net& n, int r, double K, double h, int stage, double* bath) {
    return bussi_factor_at(K, h, n.rpar[MOLTEN_RPAR * r], n.rpar[MOLTEN_RPAR * r + 1], n.rpar[MOLTEN_RPAR * r + 3],
                           n.rseed[r], *(volatile unsigned long long*)n.step, stage, bath);
}

__device__ double berendsen_factor_at(double K, double h, double kT, double dof, double tau, double* bath) {
    if (!(K > 0.0)) return 1.0;
    const double ratio = dof * kT / (2.0 * K);  // T0 / T
    const double l2 = 1.0 + h / tau * (ratio - 1.0);
    const double l = fmin(1.25, fmax(0.8, sqrt(fmax(0.0, l2))));
    *bath += K * (1.0 - l * l);
    return l;
}

__device__ double berendsen_factor(const Net& n, int r, double K, double h, double* bath) {
    return berendsen_factor_at(K, h, n.rpar[MOLTEN_RPAR * r], n.rpar[MOLTEN_RPAR * r + 1], n.rpar[MOLTEN_RPAR * r + 3], bath);
}

// Nose-Hoover chain for h (NoseHooverChain.apply): chain variables in rvar, Q1 = dof kT tau^2,
// Qk = kT tau^2; returns the velocity scale factor. The bath energy of the chain is computed from
// xi and v_xi when read (CudaMdEngine), so rvar[0] is not used.
// xi, v_xi: the chain's variables wherever they are held (global rvar here, shared memory in the small-molecule kernel).
// Each weight makes m exp()s and m divisions (it made 2m - 1 and 2m), with the same bits as the full propagation:
//  - the outward sweep's factor exp(-qq v_xi[k+1]) is the inward sweep's (v_xi[k+1] is final for the weight before
//    the inward sweep reaches k, and the outward sweep changes it only after k), so e[k] is kept;
//  - the forces g at a weight's start are those the previous weight ended with (g[0] of the same K after the scaling,
//    g[k+1] of the same v_xi[k] after the outward sweep; the last chain velocity, updated after them, enters no g),
//    so they are computed once before the first weight.
__device__ double nhc_factor_at(const Net& n, double K, double h_total, double kT, double dof, double tau, double* xi,
                                double* vxi) {
    const int m = (int)n.nhc_m;
    double q[MOLTEN_MAXCHAIN], g[MOLTEN_MAXCHAIN], e[MOLTEN_MAXCHAIN];
    q[0] = dof * kT * tau * tau;
    for (int k = 1; k < m; ++k) q[k] = kT * tau * tau;
    g[0] = (2.0 * K - dof * kT) / q[0];
    for (int k = 1; k < m; ++k) g[k] = (q[k - 1] * vxi[k - 1] * vxi[k - 1] - kT) / q[k];
    double scale = 1.0;
    for (int c = 0; c < (int)n.nhc_nc; ++c) {
        for (int w = 0; w < (int)n.nhc_nys; ++w) {
            const double h = n.sy_w[w] * h_total / (double)n.nhc_nc;
            const double qq = 0.25 * h;
            vxi[m - 1] += 0.5 * h * g[m - 1];
            for (int k = m - 2; k >= 0; --k) {  // inward
                e[k] = exp(-qq * vxi[k + 1]);
                vxi[k] = (vxi[k] * e[k] + 0.5 * h * g[k]) * e[k];
            }
            const double f = exp(-h * vxi[0]);
            scale *= f;
            K *= f * f;
            for (int k = 0; k < m; ++k) xi[k] += h * vxi[k];
            g[0] = (2.0 * K - dof * kT) / q[0];
            for (int k = 0; k < m - 1; ++k) {  // outward, with the inward sweep's factors
                vxi[k] = (vxi[k] * e[k] + 0.5 * h * g[k]) * e[k];
                g[k + 1] = (q[k] * vxi[k] * vxi[k] - kT) / q[k + 1];
            }
            vxi[m - 1] += 0.5 * h * g[m - 1];
        }
    }
    return scale;
}

__device__ double nhc_factor(const Net& n, int r, double K, double h_total) {
    double* xi = n.rvar + MOLTEN_RVAR * r + 1;
    return nhc_factor_at(n, K, h_total, n.rpar[MOLTEN_RPAR * r], n.rpar[MOLTEN_RPAR * r + 1], n.rpar[MOLTEN_RPAR * r + 3],
                         xi, xi + MOLTEN_MAXCHAIN);
}

// One atom's O step: v = c1 v + c2 sqrt(kT / m) xi, xi from the replica's stream at (atom within the replica, step).
__device__ __forceinline__ void langevin_o_atom(double c1, double c2, double kT, double accel, double im,
                                                unsigned long long seed, int atom, unsigned long long step, double* v) {
    double g[3];
    gaussian3_seeded(seed, atom, step, g);
    const double sig = c2 * sqrt(kT * accel * im);
    for (int k = 0; k < 3; ++k) v[k] = c1 * v[k] + sig * g[k];
}

// Langevin O step of replica r (atoms [lo, hi)), with the bath energy and the drift removal.
__device__ void langevin_o(const Net& n, int r, int lo, int hi, double* sm) {
    const double kT = n.rpar[MOLTEN_RPAR * r], friction = n.rpar[MOLTEN_RPAR * r + 2];
    const double c1 = exp(-friction * n.dt);
    const double c2 = sqrt(1.0 - c1 * c1);
    const unsigned long long seed = n.rseed[r];
    const unsigned long long step = *(volatile unsigned long long*)n.step;
    const double before = replica_kinetic(n, lo, hi, sm);
    double px = 0.0, py = 0.0, pz = 0.0, mt = 0.0;
    for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS) {
        const double im = n.inv_mass[a];
        langevin_o_atom(c1, c2, kT, n.accel, im, seed, a - lo, step, n.vel + 3 * a);
        const double m = 1.0 / im;
        px += m * n.vel[3 * a]; py += m * n.vel[3 * a + 1]; pz += m * n.vel[3 * a + 2]; mt += m;
    }
    if (n.com_drift) {
        px = block_sum_d(px, sm); py = block_sum_d(py, sm); pz = block_sum_d(pz, sm); mt = block_sum_d(mt, sm);
        const double ux = px / mt, uy = py / mt, uz = pz / mt;
        for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS) {
            n.vel[3 * a] -= ux; n.vel[3 * a + 1] -= uy; n.vel[3 * a + 2] -= uz;
        }
    }
    for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS)
        for (int k = 0; k < 3; ++k) n.vel[3 * a + k] = state_round(n, n.vel[3 * a + k]);
    // with constraints the noise is projected onto the constraint surface (Leimkuhler and Matthews 2016), before
    // the kinetic energy after O is taken, as the host's LangevinThermostat
    if (n.cons_on) constrain_velocities_replica(n, r, lo, hi, step + 1, n.cons_smem != 0, sm + MOLTEN_THREADS + 2);
    __syncthreads();
    const double after = replica_kinetic(n, lo, hi, sm);
    if (threadIdx.x == 0) {
        n.rvar[MOLTEN_RVAR * r] += before - after;
        n.rvar[MOLTEN_RVAR * r + MOLTEN_RVAR_MID_KE] = after;
    }
}

__device__ __forceinline__ int replica_lo(const Net& n, int r) { return n.rep_start == nullptr ? 0 : n.rep_start[r]; }
__device__ __forceinline__ int replica_hi(const Net& n, int r) { return n.rep_start == nullptr ? (int)n.n : n.rep_start[r + 1]; }

__device__ void st_thermostat(const Net& n, int stage, int wi, int wn, float* smf) {
    double* sm = reinterpret_cast<double*>(smf);   // [MOLTEN_THREADS] reduction, [2] broadcast
    for (int r = wi; r < (int)n.replicas; r += wn) {
        const int lo = replica_lo(n, r), hi = replica_hi(n, r);
        if (n.thermostat == MOLTEN_TS_LANGEVIN) {
            if (stage == MOLTEN_TS_MID) langevin_o(n, r, lo, hi, sm);
            continue;
        }
        if (stage == MOLTEN_TS_MID) continue;
        const double K = replica_kinetic(n, lo, hi, sm);
        if (threadIdx.x == 0) {
            const double h = 0.5 * n.dt;
            double* bath = n.rvar + MOLTEN_RVAR * r;
            double f = 1.0;
            if (n.thermostat == MOLTEN_TS_BUSSI) f = bussi_factor(n, r, K, h, stage, bath);
            else if (n.thermostat == MOLTEN_TS_BERENDSEN) f = berendsen_factor(n, r, K, h, bath);
            else if (n.thermostat == MOLTEN_TS_NHC) f = nhc_factor(n, r, K, h);
            sm[MOLTEN_THREADS] = f;
        }
        __syncthreads();
        const double f = sm[MOLTEN_THREADS];
        __syncthreads();
        replica_scale(n, lo, hi, f);
    }
}

// Second half drift of a split BAOAB step (x += dt/2 v), and the cell counting of k_integrate1.
__device__ void st_drift(const Net& n, int wi, int wn) {
    for (int a = wi * MOLTEN_THREADS + threadIdx.x; a < n.n; a += wn * MOLTEN_THREADS) {
        double x[3];
        for (int k = 0; k < 3; ++k) {
            if (n.cons_on) n.cons_ref[3 * a + k] = n.pos[3 * a + k];  // the start of the drift (k_constrain)
            x[k] = state_round(n, n.pos[3 * a + k] + 0.5 * n.dt * n.vel[3 * a + k]);
            n.pos[3 * a + k] = x[k];
        }
        if (n.search == 1 && !n.cons_on) {  // with constraints k_constrain counts, after them
            const int c = cell_of(n, x[0], x[1], x[2]);
            n.atom_cell[a] = c;
            atomicAdd(n.cell_count + c, 1);
        }
    }
}

// Potential energy of each replica (float64, fixed summation order), energy[r].
__device__ void st_energy_rep(const Net& n, int wi, int wn, float* smf) {
    double* sm = reinterpret_cast<double*>(smf);
    const int reps = n.replicas < 1 ? 1 : (int)n.replicas;
    for (int r = wi; r < reps; r += wn) {
        const int lo = replica_lo(n, r), hi = replica_hi(n, r);
        double s = 0.0;
        for (int a = lo + threadIdx.x; a < hi; a += MOLTEN_THREADS) s += ldad(n.e_atom + a);
        s = block_sum_d(s, sm);
        if (threadIdx.x == 0) n.energy[r] = s;
        __syncthreads();
    }
}
