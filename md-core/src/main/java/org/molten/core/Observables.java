package org.molten.core;

/**
 * Instantaneous observables of a state. Units: energy eV, temperature K, momentum amu·Å/fs,
 * angular momentum amu·Å²/fs, positions Å.
 */
public final class Observables {
    private Observables() {}

    /** Kinetic energy 1/2 Σ m v² in eV. */
    public static double kineticEnergyEv(Atoms atoms) {
        double[] v = atoms.velocities();
        double s = 0;
        for (int i = 0; i < atoms.size(); i++) {
            double vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
            s += atoms.massAmu(i) * (vx * vx + vy * vy + vz * vz);
        }
        return 0.5 * s * Units.MV2_TO_EV;
    }

    /**
     * Number of degrees of freedom: 3N minus {@code removedConstraints} (3 when the total
     * momentum is removed or conserved, 6 when rotation is removed as well).
     *
     * @throws IllegalArgumentException if nothing would be left
     */
    public static int degreesOfFreedom(int atomCount, int removedConstraints) {
        int dof = 3 * atomCount - removedConstraints;
        if (dof <= 0) {
            throw new IllegalArgumentException("no degrees of freedom left: 3 x " + atomCount
                    + " atoms minus " + removedConstraints + " constraints");
        }
        return dof;
    }

    /** Instantaneous temperature 2 KE / (dof k_B) in K. */
    public static double temperatureK(Atoms atoms, int degreesOfFreedom) {
        return 2.0 * kineticEnergyEv(atoms) / (degreesOfFreedom * Units.BOLTZMANN_EV_PER_K);
    }

    /** Total linear momentum Σ m v in amu·Å/fs, length 3. */
    public static double[] linearMomentum(Atoms atoms) {
        double[] v = atoms.velocities();
        double[] p = new double[3];
        for (int i = 0; i < atoms.size(); i++) {
            for (int k = 0; k < 3; k++) {
                p[k] += atoms.massAmu(i) * v[3 * i + k];
            }
        }
        return p;
    }

    /** Centre of mass in Å (plain mass-weighted mean of the stored, unwrapped positions). */
    public static double[] centreOfMass(Atoms atoms) {
        double[] r = atoms.positions();
        double[] c = new double[3];
        double m = 0;
        for (int i = 0; i < atoms.size(); i++) {
            double mi = atoms.massAmu(i);
            m += mi;
            for (int k = 0; k < 3; k++) {
                c[k] += mi * r[3 * i + k];
            }
        }
        for (int k = 0; k < 3; k++) {
            c[k] /= m;
        }
        return c;
    }

    /** Angular momentum Σ m (r - r_com) × v about the centre of mass, amu·Å²/fs. */
    public static double[] angularMomentum(Atoms atoms) {
        double[] com = centreOfMass(atoms);
        double[] r = atoms.positions();
        double[] v = atoms.velocities();
        double[] l = new double[3];
        for (int i = 0; i < atoms.size(); i++) {
            double m = atoms.massAmu(i);
            double x = r[3 * i] - com[0], y = r[3 * i + 1] - com[1], z = r[3 * i + 2] - com[2];
            double vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
            l[0] += m * (y * vz - z * vy);
            l[1] += m * (z * vx - x * vz);
            l[2] += m * (x * vy - y * vx);
        }
        return l;
    }

    /** Inertia tensor about the centre of mass, amu·Å², 3x3. */
    public static double[][] inertiaTensor(Atoms atoms) {
        double[] com = centreOfMass(atoms);
        double[] r = atoms.positions();
        double[][] t = new double[3][3];
        for (int i = 0; i < atoms.size(); i++) {
            double m = atoms.massAmu(i);
            double[] d = {r[3 * i] - com[0], r[3 * i + 1] - com[1], r[3 * i + 2] - com[2]};
            double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) {
                    t[a][b] += m * ((a == b ? d2 : 0) - d[a] * d[b]);
                }
            }
        }
        return t;
    }
}
