package org.molten.cli.ipi;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;

/**
 * How {@code molten serve} computes the virial it returns with each force (eV; the i-PI convention
 * W = -dE/dε, the strain derivative, so that the stress is -W/V). The student provides no analytic
 * stress, so a periodic cell costs 12 extra energy evaluations per step in {@link #AUTO}.
 */
public enum VirialMode {
    /**
     * An isolated system: W = Σ_i r_i ⊗ F_i (exact for a potential invariant under translations and
     * rotations, which the student's and the classical potential are). A periodic system: central
     * differences of the energy under the six symmetric strains ±{@value #STRAIN}, positions and cell
     * scaled together (error O(ε²); float32 arithmetic adds its energy noise divided by ε).
     */
    AUTO("auto"),
    /** Zeros: for drivers that never read the pressure (NVE, NVT, geometry optimisation at fixed cell). */
    NONE("none");

    /** Strain step of the central differences, dimensionless. */
    static final double STRAIN = 1e-4;

    final String cliName;

    VirialMode(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String toString() {
        return cliName;
    }

    /**
     * The virial of {@code atoms} (rows x, y, z; eV), given its forces (eV/Å) already computed by {@code ff}.
     * The periodic case evaluates {@code ff} on strained copies; the caller's atoms are left as they were.
     */
    double[][] virialEv(ForceField ff, Atoms atoms, double[] forcesEvPerA) {
        double[][] w = new double[3][3];
        if (this == NONE) {
            return w;
        }
        Cell cell = atoms.cellOrNull();
        if (cell == null || !cell.anyPeriodic()) {
            double[] r = atoms.positions();
            for (int i = 0; i < atoms.size(); i++) {
                for (int a = 0; a < 3; a++) {
                    for (int b = 0; b < 3; b++) {
                        w[a][b] += r[3 * i + a] * forcesEvPerA[3 * i + b];
                    }
                }
            }
            return w;
        }
        double[] scratch = new double[forcesEvPerA.length];
        for (int a = 0; a < 3; a++) {
            for (int b = a; b < 3; b++) {
                double plus = strainedEnergy(ff, atoms, a, b, STRAIN, scratch);
                double minus = strainedEnergy(ff, atoms, a, b, -STRAIN, scratch);
                // ε_ab = ε_ba = ±STRAIN moves both off-diagonal components: the difference counts dE/dε twice
                double dEdEps = (plus - minus) / (2 * STRAIN) / (a == b ? 1 : 2);
                w[a][b] = -dEdEps;
                w[b][a] = -dEdEps;
            }
        }
        return w;
    }

    /** The energy (eV) with positions and lattice vectors multiplied by 1 + ε, ε_ab = ε_ba = eps. */
    private static double strainedEnergy(ForceField ff, Atoms atoms, int a, int b, double eps, double[] forces) {
        double[][] strain = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        strain[a][b] += eps;
        if (a != b) {
            strain[b][a] += eps;
        }
        Cell cell = atoms.cellOrNull();
        double[][] h = cell.matrix();
        double[][] strained = new double[3][];
        for (int k = 0; k < 3; k++) {
            strained[k] = apply(strain, h[k][0], h[k][1], h[k][2]);
        }
        double[] r = atoms.positions();
        double[] rs = new double[r.length];
        for (int i = 0; i < atoms.size(); i++) {
            double[] p = apply(strain, r[3 * i], r[3 * i + 1], r[3 * i + 2]);
            System.arraycopy(p, 0, rs, 3 * i, 3);
        }
        Atoms s = Atoms.of(atoms.atomicNumbers(), atoms.massesAmu(), rs, new double[rs.length],
                Cell.of(strained, cell.pbc()));
        return ff.energyAndForces(s, forces);
    }

    private static double[] apply(double[][] m, double x, double y, double z) {
        return new double[] {m[0][0] * x + m[0][1] * y + m[0][2] * z, m[1][0] * x + m[1][1] * y + m[1][2] * z,
                m[2][0] * x + m[2][1] * y + m[2][2] * z};
    }
}
