package org.molten.forcefield.domain;

import java.util.ArrayList;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.Bonds;

/** The {@link AtomEnvironment} of every atom of a structure, from the bonds {@link Bonds#perceive(Atoms)} finds. */
public final class AtomEnvironments {
    private AtomEnvironments() {
    }

    /**
     * One environment per atom, in atom order: bonds by {@link Bonds#DEFAULT_FACTOR} times the sum of Cordero covalent
     * radii, minimum image in a periodic cell.
     */
    public static List<AtomEnvironment> of(Atoms atoms) {
        int n = atoms.size();
        List<List<String>> neighbours = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            neighbours.add(new ArrayList<>());
        }
        for (Bonds.Bond b : Bonds.perceive(atoms)) {
            neighbours.get(b.i()).add(atoms.element(b.j()).symbol());
            neighbours.get(b.j()).add(atoms.element(b.i()).symbol());
        }
        List<AtomEnvironment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new AtomEnvironment(atoms.element(i).symbol(), neighbours.get(i)));
        }
        return out;
    }
}
