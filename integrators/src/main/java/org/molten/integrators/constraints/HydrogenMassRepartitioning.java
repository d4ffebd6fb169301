package org.molten.integrators.constraints;

import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Checks;
import org.molten.core.Element;

/**
 * Hydrogen mass repartitioning (Feenstra, Hess and Berendsen, J. Comput. Chem. 20, 786 (1999);
 * OpenMM's {@code hydrogenMass}): every hydrogen bonded to a heavier atom gets the given mass, the
 * difference taken from that atom, so the total mass and the centre of mass of each bond stay
 * where the masses sum the same. Slows the fastest (X–H) motions so that 4 fs steps hold with
 * h-bonds constraints. Waters are left alone, as OpenMM does (rigid water has no X–H vibration
 * to slow). Bonds from {@link Bonds#perceive} of the given positions.
 */
public final class HydrogenMassRepartitioning {
    private HydrogenMassRepartitioning() {}

    /**
     * A copy of {@code atoms} with hydrogens of {@code hydrogenMassAmu} (amu).
     *
     * @throws IllegalArgumentException for a non-positive mass, or a heavy atom that would be left
     *                                  with less than 1 amu (naming it)
     */
    public static Atoms apply(Atoms atoms, double hydrogenMassAmu) {
        Checks.requirePositive(hydrogenMassAmu, "hydrogen mass (amu)");
        double[] m = atoms.massesAmu();
        List<Bonds.Bond> bonds = Bonds.perceive(atoms);
        int[] waterOf = new int[atoms.size()];
        java.util.Arrays.fill(waterOf, -1);
        Constraints.waters(atoms, bonds, waterOf);
        boolean[] done = new boolean[atoms.size()];
        for (Bonds.Bond b : bonds) {
            int h, heavy;
            if (atoms.element(b.i()) == Element.H && atoms.element(b.j()) != Element.H) {
                h = b.i();
                heavy = b.j();
            } else if (atoms.element(b.j()) == Element.H && atoms.element(b.i()) != Element.H) {
                h = b.j();
                heavy = b.i();
            } else {
                continue;
            }
            if (done[h] || waterOf[h] >= 0) {
                continue;
            }
            done[h] = true;
            double transfer = hydrogenMassAmu - m[h];
            m[h] = hydrogenMassAmu;
            m[heavy] -= transfer;
            if (!(m[heavy] >= 1.0)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "hydrogen mass %s amu leaves atom %d (%s) with %.3f amu after its hydrogens' share: use a smaller mass",
                        hydrogenMassAmu, heavy, atoms.element(heavy), m[heavy]));
            }
        }
        return Atoms.of(atoms.atomicNumbers(), m, atoms.positions(), atoms.velocities(), atoms.cellOrNull());
    }
}
