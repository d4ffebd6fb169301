package org.molten.forcefield.classical;

import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.ForceField;

/**
 * Harmonic bond stretching, E = Σ ½ k (r − r₀)² over a fixed list of bonds, with k in eV/Å² and
 * r₀ in Å (note the ½: k is the curvature d²E/dr², as in GROMACS and OpenMM's
 * HarmonicBondForce, not AMBER's k without the ½). Distances use the minimum image under a
 * periodic cell, so a molecule may straddle the boundary.
 */
public final class HarmonicBonds implements ForceField {

    /**
     * One bond between atoms {@code i} and {@code j}.
     *
     * @param kEvPerA2 force constant k = d²E/dr² in eV/Å² (≥ 0)
     * @param r0A      equilibrium length in Å (&gt; 0)
     */
    public record Bond(int i, int j, double kEvPerA2, double r0A) {
        public Bond {
            if (i < 0 || j < 0 || i == j) {
                throw new IllegalArgumentException("a bond needs two different atom indices, got " + i + " and " + j);
            }
            Checks.requireNonNegative(kEvPerA2, "bond k_eV_per_A2 (" + i + "-" + j + ")");
            Checks.requirePositive(r0A, "bond r0_A (" + i + "-" + j + ")");
        }
    }

    private final Bond[] bonds;
    private final int maxIndex;
    private final double[] d = new double[3];

    private HarmonicBonds(List<Bond> bonds) {
        this.bonds = bonds.toArray(new Bond[0]);
        int m = -1;
        for (Bond b : this.bonds) {
            m = Math.max(m, Math.max(b.i(), b.j()));
        }
        this.maxIndex = m;
    }

    /** Bonds from a list (copied). */
    public static HarmonicBonds of(List<Bond> bonds) {
        return new HarmonicBonds(List.copyOf(bonds));
    }

    /** The bonds, unmodifiable. */
    public List<Bond> bonds() {
        return List.of(bonds);
    }

    @Override
    public String name() {
        return String.format(Locale.ROOT, "harmonic-bonds(%d)", bonds.length);
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        return compute(atoms, forces, null);
    }

    @Override
    public boolean providesPerAtomEnergies() {
        return true;
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        if (perAtomEnergiesEv.length != atoms.size()) {
            throw new IllegalArgumentException("per-atom energy array has length " + perAtomEnergiesEv.length
                    + ", need " + atoms.size());
        }
        java.util.Arrays.fill(perAtomEnergiesEv, 0.0);
        return compute(atoms, forces, perAtomEnergiesEv);
    }

    private double compute(Atoms atoms, double[] forces, double[] perAtom) {
        int n = atoms.size();
        if (maxIndex >= n) {
            throw new IllegalArgumentException("a harmonic bond refers to atom " + maxIndex + " but the system has "
                    + n + " atoms");
        }
        if (forces.length < 3 * n) {
            throw new IllegalArgumentException("force array has length " + forces.length + ", need 3N = " + 3 * n);
        }
        java.util.Arrays.fill(forces, 0, 3 * n, 0.0);
        double energy = 0;
        for (Bond b : bonds) {
            atoms.displacement(b.i(), b.j(), d);
            double r = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double stretch = r - b.r0A();
            double e = 0.5 * b.kEvPerA2() * stretch * stretch;
            double g = -b.kEvPerA2() * stretch / r; // force on j per Å of d = r_j − r_i
            for (int k = 0; k < 3; k++) {
                forces[3 * b.j() + k] += g * d[k];
                forces[3 * b.i() + k] -= g * d[k];
            }
            energy += e;
            if (perAtom != null) {
                perAtom[b.i()] += 0.5 * e;
                perAtom[b.j()] += 0.5 * e;
            }
        }
        return energy;
    }
}
