package org.molten.forcefield.classical;

import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Checks;
import org.molten.core.ForceField;
import org.molten.forcefield.neighbours.EdgeList;
import org.molten.forcefield.neighbours.NeighbourSearch;

/**
 * Lennard-Jones pair potential V(r) = 4ε[(σ/r)¹² − (σ/r)⁶] with a <b>shifted-force</b> cutoff:
 * for r &lt; r_c the pair energy is V(r) − V(r_c) − (r − r_c) V'(r_c), and zero beyond. Both the
 * energy and the force go to zero continuously at r_c, so a pair crossing the cutoff neither
 * jumps in energy (which would spoil energy conservation) nor receives an impulse (Allen and
 * Tildesley, <i>Computer Simulation of Liquids</i>, 2nd ed. 2017, §1.4.3; Toxvaerd and Dyre,
 * J. Chem. Phys. 134, 081102 (2011)). The price is a slightly altered potential inside r_c; its
 * curvature still jumps at r_c.
 *
 * <p>Parameters per element with a {@link MixingRule}; pairs in {@link ExcludedPairs} are skipped.
 * Periodic cells use the minimum image, which requires r_c ≤ half the smallest periodic
 * perpendicular width (refused otherwise).
 *
 * <p>By default pairs are found by the plain O(N²) double loop, the reference that is obviously
 * right; {@link #withNeighbourSearch} swaps in an O(N) cell or Verlet list for large systems.
 * Either way the pairs are summed in the same order (i ascending, then j ascending), so the two
 * paths agree to the last bit for orthorhombic cells, and a neighbour list rebuilt at another
 * moment (after a restart) cannot change the result.
 *
 * <p>Not thread-safe (scratch vector and edge list).
 */
public final class LennardJones implements ForceField {
    private final LennardJonesParameters parameters;
    private final double cutoffA;
    private final ExcludedPairs exclusions;
    private final NeighbourSearch search;   // null: all pairs
    private final EdgeList edges = new EdgeList();
    // Pair tables by (zi, zj), flattened [37 * zi + zj]; NaN where an element has no parameters.
    private final double[] fourEpsilon;
    private final double[] sigmaSquared;
    private final double[] energyAtCutoff;     // V(r_c), eV
    private final double[] slopeAtCutoff;      // V'(r_c), eV/Å
    private final double[] d = new double[3];

    private LennardJones(LennardJonesParameters parameters, double cutoffA, ExcludedPairs exclusions,
                         NeighbourSearch search) {
        this.parameters = parameters;
        this.cutoffA = Checks.requirePositive(cutoffA, "cutoff_A");
        this.exclusions = exclusions;
        this.search = search;
        int nz = 37;
        fourEpsilon = new double[nz * nz];
        sigmaSquared = new double[nz * nz];
        energyAtCutoff = new double[nz * nz];
        slopeAtCutoff = new double[nz * nz];
        java.util.Arrays.fill(fourEpsilon, Double.NaN);
        for (int zi = 1; zi < nz; zi++) {
            for (int zj = 1; zj < nz; zj++) {
                if (!parameters.has(zi) || !parameters.has(zj)) {
                    continue;
                }
                int k = nz * zi + zj;
                double eps = parameters.pairEpsilonEv(zi, zj);
                double sig = parameters.pairSigmaA(zi, zj);
                fourEpsilon[k] = 4 * eps;
                sigmaSquared[k] = sig * sig;
                double s6 = Math.pow(sig / cutoffA, 6);
                energyAtCutoff[k] = 4 * eps * (s6 * s6 - s6);
                slopeAtCutoff[k] = 4 * eps * (-12 * s6 * s6 + 6 * s6) / cutoffA;
            }
        }
    }

    /** All pairs interact (a cluster of atoms, a noble-gas liquid). */
    public static LennardJones of(LennardJonesParameters parameters, double cutoffA) {
        return new LennardJones(parameters, cutoffA, ExcludedPairs.none(), null);
    }

    /** All pairs except {@code exclusions} interact. */
    public static LennardJones of(LennardJonesParameters parameters, double cutoffA, ExcludedPairs exclusions) {
        return new LennardJones(parameters, cutoffA, exclusions, null);
    }

    /**
     * The same potential with pairs found by {@code search} (a
     * {@link org.molten.forcefield.neighbours.CellList} or
     * {@link org.molten.forcefield.neighbours.VerletList}, owned by the new instance from now on)
     * instead of the all-pairs loop.
     */
    public LennardJones withNeighbourSearch(NeighbourSearch search) {
        return new LennardJones(parameters, cutoffA, exclusions, java.util.Objects.requireNonNull(search, "search"));
    }

    /** True when pairs come from a neighbour search rather than the all-pairs loop. */
    public boolean usesNeighbourSearch() {
        return search != null;
    }

    /** The cutoff radius r_c in Å. */
    public double cutoffA() {
        return cutoffA;
    }

    /** The parameters. */
    public LennardJonesParameters parameters() {
        return parameters;
    }

    /** The excluded pairs. */
    public ExcludedPairs exclusions() {
        return exclusions;
    }

    @Override
    public String name() {
        return String.format(Locale.ROOT, "lj-shifted-force(%s, rc=%.2f A%s)", parameters.label(), cutoffA,
                exclusions.isEmpty() ? "" : ", " + exclusions.pairCount() + " excluded pairs");
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
        requireCompatible(atoms, forces);
        java.util.Arrays.fill(forces, 0, 3 * n, 0.0);
        return search == null ? allPairs(atoms, forces, perAtom) : fromEdges(atoms, forces, perAtom);
    }

    private double allPairs(Atoms atoms, double[] forces, double[] perAtom) {
        int n = atoms.size();
        double[] r = atoms.positions();
        Cell cell = atoms.cellOrNull();
        boolean periodic = cell != null && cell.anyPeriodic();
        double rc2 = cutoffA * cutoffA;
        double energy = 0;
        for (int i = 0; i < n; i++) {
            int zi = atoms.atomicNumber(i);
            int[] skip = exclusions.partnersOf(i);
            int s = 0;
            for (int j = i + 1; j < n; j++) {
                while (s < skip.length && skip[s] < j) {
                    s++;
                }
                if (s < skip.length && skip[s] == j) {
                    continue;
                }
                d[0] = r[3 * j] - r[3 * i];
                d[1] = r[3 * j + 1] - r[3 * i + 1];
                d[2] = r[3 * j + 2] - r[3 * i + 2];
                if (periodic) {
                    cell.minimumImage(d);
                }
                double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if (r2 >= rc2) {
                    continue;
                }
                energy += pair(i, j, 37 * zi + atoms.atomicNumber(j), d[0], d[1], d[2], Math.sqrt(r2), forces, perAtom);
            }
        }
        return energy;
    }

    private double fromEdges(Atoms atoms, double[] forces, double[] perAtom) {
        search.search(atoms, cutoffA, edges);
        int n = atoms.size();
        int[] nbr = edges.neighbourArray();
        double[] vec = edges.vectorArray();
        double[] dist = edges.distanceArray();
        double energy = 0;
        for (int i = 0; i < n; i++) {
            int zi = atoms.atomicNumber(i);
            int[] skip = exclusions.partnersOf(i);
            int s = 0;
            for (int e = edges.rowStart(i); e < edges.rowStart(i + 1); e++) {
                int j = nbr[e];
                if (j <= i) {
                    continue; // each pair once, from its lower index, as in the all-pairs loop
                }
                while (s < skip.length && skip[s] < j) {
                    s++;
                }
                if (s < skip.length && skip[s] == j) {
                    continue;
                }
                energy += pair(i, j, 37 * zi + atoms.atomicNumber(j), vec[3 * e], vec[3 * e + 1], vec[3 * e + 2],
                        dist[e], forces, perAtom);
            }
        }
        return energy;
    }

    /** One pair within the cutoff: adds its forces (d = r_j − r_i, Å) and returns its energy, eV. */
    private double pair(int i, int j, int k, double dx, double dy, double dz, double rij, double[] forces,
                        double[] perAtom) {
        double s2 = sigmaSquared[k] / (rij * rij);
        double s6 = s2 * s2 * s2;
        double energy = fourEpsilon[k] * (s6 * s6 - s6) - energyAtCutoff[k] - (rij - cutoffA) * slopeAtCutoff[k];
        // dV/dr = 4ε(−12 s¹² + 6 s⁶)/r; the shifted force subtracts V'(r_c).
        double dvdr = fourEpsilon[k] * (-12 * s6 * s6 + 6 * s6) / rij - slopeAtCutoff[k];
        double g = -dvdr / rij; // force on j along d, per Å of d
        double fx = g * dx, fy = g * dy, fz = g * dz;
        forces[3 * j] += fx;
        forces[3 * j + 1] += fy;
        forces[3 * j + 2] += fz;
        forces[3 * i] -= fx;
        forces[3 * i + 1] -= fy;
        forces[3 * i + 2] -= fz;
        if (perAtom != null) {
            perAtom[i] += 0.5 * energy;
            perAtom[j] += 0.5 * energy;
        }
        return energy;
    }

    private void requireCompatible(Atoms atoms, double[] forces) {
        int n = atoms.size();
        if (forces.length < 3 * n) {
            throw new IllegalArgumentException("force array has length " + forces.length + ", need 3N = " + 3 * n);
        }
        if (!exclusions.isEmpty() && exclusions.atomCount() != n) {
            throw new IllegalArgumentException("Lennard-Jones exclusions were built for " + exclusions.atomCount()
                    + " atoms, the system has " + n);
        }
        for (int i = 0; i < n; i++) {
            int z = atoms.atomicNumber(i);
            if (!parameters.has(z)) {
                throw new IllegalArgumentException("atom " + i + " (" + atoms.element(i)
                        + ") has no Lennard-Jones parameters in the '" + parameters.label() + "' set");
            }
        }
        Cell cell = atoms.cellOrNull();
        if (cell != null && cell.anyPeriodic() && cutoffA > 0.5 * cell.minPeriodicWidth()) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "Lennard-Jones cutoff %.3f A exceeds half the smallest periodic cell width (%.3f A):"
                            + " the minimum image would miss pairs; use a cutoff <= %.3f A or a larger cell",
                    cutoffA, cell.minPeriodicWidth(), 0.5 * cell.minPeriodicWidth()));
        }
    }
}
