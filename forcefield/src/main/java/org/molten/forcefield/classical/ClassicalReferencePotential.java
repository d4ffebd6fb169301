package org.molten.forcefield.classical;

import java.util.ArrayList;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Cell;
import org.molten.core.Checks;
import org.molten.forcefield.neighbours.VerletList;

/**
 * Builds the classical reference potential for any molecule or box from its starting geometry:
 * a harmonic bond for every covalent bond that {@link Bonds#perceive(Atoms)} finds (r₀ = its
 * starting length, one force constant for all), plus shifted-force Lennard-Jones between all
 * other pairs except 1-3 pairs (two atoms bonded to a common atom). There are no angle or
 * torsion terms: the molecule keeps its bond lengths and the non-bonded contacts keep it from
 * folding through itself, which is all an integrator test or a CLI smoke run needs; it is not a
 * chemically faithful force field.
 */
public final class ClassicalReferencePotential {
    /**
     * Default bond force constant, eV/Å²: about AMBER's C–H stretch (2 × 340 kcal/mol/Å²), a
     * period near 11 fs for C–H, so 0.5 fs steps resolve it.
     */
    public static final double DEFAULT_BOND_K_EV_PER_A2 = 30.0;

    /** Default (largest) Lennard-Jones cutoff in Å; smaller periodic cells get half their width. */
    public static final double DEFAULT_CUTOFF_A = 8.0;

    /**
     * From this many atoms on, Lennard-Jones pairs come from a Verlet list (skin
     * {@value org.molten.forcefield.neighbours.VerletList#DEFAULT_SKIN_A} Å) instead of the all-pairs
     * loop; the result is the same to the last bit in orthorhombic cells. Measured on water boxes
     * with an 8 Å cutoff (2-core development machine, shared, 2026-11-21): equal cost at 1000
     * atoms, the list 2.3 times faster at 3000, slower below 1000.
     */
    public static final int NEIGHBOUR_LIST_MIN_ATOMS = 2000;

    private ClassicalReferencePotential() {}

    /** The default potential: k = {@value #DEFAULT_BOND_K_EV_PER_A2} eV/Å², UFF Lennard-Jones. */
    public static SumForceField inferredFrom(Atoms atoms) {
        return inferredFrom(atoms, DEFAULT_BOND_K_EV_PER_A2, DEFAULT_CUTOFF_A, LennardJonesParameters.uff());
    }

    /**
     * The potential with explicit settings.
     *
     * @param atoms          the starting geometry (bonds and their r₀ come from it)
     * @param bondKEvPerA2   harmonic force constant k in eV/Å² for every bond
     * @param maxCutoffA     Lennard-Jones cutoff in Å; under a periodic cell the cutoff used is
     *                       min(maxCutoffA, half the smallest periodic width), so the minimum
     *                       image stays exact (the chosen value is in the force field's name)
     * @param ljParameters   per-element Lennard-Jones parameters and mixing rule
     * @throws IllegalArgumentException for an element without Lennard-Jones parameters, naming it
     */
    public static SumForceField inferredFrom(Atoms atoms, double bondKEvPerA2, double maxCutoffA,
                                             LennardJonesParameters ljParameters) {
        Checks.requireNonNegative(bondKEvPerA2, "bond k_eV_per_A2");
        Checks.requirePositive(maxCutoffA, "cutoff_A");
        for (int i = 0; i < atoms.size(); i++) {
            if (!ljParameters.has(atoms.atomicNumber(i))) {
                throw new IllegalArgumentException("atom " + i + " (" + atoms.element(i)
                        + ") has no Lennard-Jones parameters in the '" + ljParameters.label() + "' set");
            }
        }
        List<Bonds.Bond> perceived = Bonds.perceive(atoms);
        List<HarmonicBonds.Bond> bonds = new ArrayList<>(perceived.size());
        for (Bonds.Bond b : perceived) {
            bonds.add(new HarmonicBonds.Bond(b.i(), b.j(), bondKEvPerA2, b.lengthA()));
        }
        double cutoff = maxCutoffA;
        Cell cell = atoms.cellOrNull();
        if (cell != null && cell.anyPeriodic()) {
            cutoff = Math.min(cutoff, 0.5 * cell.minPeriodicWidth());
        }
        ExcludedPairs exclusions = ExcludedPairs.oneTwoAndOneThree(atoms.size(), perceived);
        LennardJones lj = LennardJones.of(ljParameters, cutoff, exclusions);
        if (atoms.size() >= NEIGHBOUR_LIST_MIN_ATOMS) {
            lj = lj.withNeighbourSearch(new VerletList());
        }
        return SumForceField.of(HarmonicBonds.of(bonds), lj);
    }
}
