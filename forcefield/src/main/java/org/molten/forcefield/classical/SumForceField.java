package org.molten.forcefield.classical;

import java.util.List;
import java.util.stream.Collectors;
import org.molten.core.Atoms;
import org.molten.core.ForceField;

/**
 * The sum of several force fields (OpenMM's System with several Forces): energies and forces
 * add. Owns its terms: {@link #close()} closes each of them. Not thread-safe (scratch arrays).
 */
public final class SumForceField implements ForceField {
    private final ForceField[] terms;
    private double[] scratchForces = new double[0];
    private double[] scratchPerAtom = new double[0];

    private SumForceField(ForceField[] terms) {
        if (terms.length == 0) {
            throw new IllegalArgumentException("a sum force field needs at least one term");
        }
        this.terms = terms;
    }

    /** The sum of {@code terms} (at least one). */
    public static SumForceField of(ForceField... terms) {
        return new SumForceField(terms.clone());
    }

    /** The terms, unmodifiable. */
    public List<ForceField> terms() {
        return List.of(terms);
    }

    @Override
    public String name() {
        return List.of(terms).stream().map(ForceField::name).collect(Collectors.joining(" + "));
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        int n3 = 3 * atoms.size();
        if (scratchForces.length != n3) {
            scratchForces = new double[n3];
        }
        double e = terms[0].energyAndForces(atoms, forces);
        for (int t = 1; t < terms.length; t++) {
            e += terms[t].energyAndForces(atoms, scratchForces);
            for (int k = 0; k < n3; k++) {
                forces[k] += scratchForces[k];
            }
        }
        return e;
    }

    @Override
    public boolean providesPerAtomEnergies() {
        for (ForceField t : terms) {
            if (!t.providesPerAtomEnergies()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        if (!providesPerAtomEnergies()) {
            throw new UnsupportedOperationException(name() + " does not provide per-atom energies");
        }
        int n = atoms.size();
        if (scratchForces.length != 3 * n) {
            scratchForces = new double[3 * n];
        }
        if (scratchPerAtom.length != n) {
            scratchPerAtom = new double[n];
        }
        double e = terms[0].energyAndForces(atoms, forces, perAtomEnergiesEv);
        for (int t = 1; t < terms.length; t++) {
            e += terms[t].energyAndForces(atoms, scratchForces, scratchPerAtom);
            for (int k = 0; k < 3 * n; k++) {
                forces[k] += scratchForces[k];
            }
            for (int i = 0; i < n; i++) {
                perAtomEnergiesEv[i] += scratchPerAtom[i];
            }
        }
        return e;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (ForceField t : terms) {
            try {
                t.close();
            } catch (Exception ex) {
                if (first == null) {
                    first = ex instanceof RuntimeException re ? re : new IllegalStateException(ex);
                } else {
                    first.addSuppressed(ex);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
