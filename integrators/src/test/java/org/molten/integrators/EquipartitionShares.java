package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.Observables;

/**
 * Each atom's share of the degrees of freedom once the centre-of-mass momentum (and, for 3N − 6,
 * the rigid rotation) is removed: in mass-weighted velocity space the canonical distribution is
 * isotropic on the subspace orthogonal to the removed directions, so ⟨m_i v_i²⟩ = kT (3 − Σ_c |P_c(i)|²)
 * with translations contributing 3 m_i/M and a rotation about principal axis a (moment I_a)
 * m_i |e_a × (r_i − r_com)|² / I_a. Exact for the instantaneous geometry; the shares sum to dof.
 */
final class EquipartitionShares {
    private EquipartitionShares() {}

    static double[] of(Atoms a, int dof) {
        int n = a.size();
        double total = a.totalMassAmu();
        double[] share = new double[n];
        boolean rotation = dof == 3 * n - 6;
        if (dof != 3 * n - 3 && !rotation) {
            throw new IllegalArgumentException("shares for 3N-3 or 3N-6 only, not " + dof);
        }
        double[][] axes = new double[3][3];
        double[] moments = new double[3];
        double[] com = Observables.centreOfMass(a);
        if (rotation) {
            SymmetricEigen3.decompose(Observables.inertiaTensor(a), moments, axes);
        }
        double[] r = a.positions();
        for (int i = 0; i < n; i++) {
            double m = a.massAmu(i);
            double s = 3 - 3 * m / total;
            if (rotation) {
                double[] d = {r[3 * i] - com[0], r[3 * i + 1] - com[1], r[3 * i + 2] - com[2]};
                for (int k = 0; k < 3; k++) {
                    double[] e = {axes[0][k], axes[1][k], axes[2][k]};
                    double cx = e[1] * d[2] - e[2] * d[1], cy = e[2] * d[0] - e[0] * d[2], cz = e[0] * d[1] - e[1] * d[0];
                    s -= m * (cx * cx + cy * cy + cz * cz) / moments[k];
                }
            }
            share[i] = s;
        }
        return share;
    }
}
