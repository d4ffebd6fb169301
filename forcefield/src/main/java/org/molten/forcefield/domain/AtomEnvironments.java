package org.molten.forcefield.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.forcefield.neighbours.CellList;
import org.molten.forcefield.neighbours.EdgeList;

/**
 * The {@link AtomEnvironment} of every atom of a structure. Bonds are {@link Bonds}'s rule, d &lt;
 * {@link Bonds#DEFAULT_FACTOR} (r_cov,i + r_cov,j) with the minimum image in a periodic cell; the pairs are found with
 * a {@link CellList} (O(N): 1.5-5 s for a 200,000-atom water box on the shared 2-core machine, where Bonds's all-pairs
 * loop would take minutes), or by
 * {@link Bonds#perceive(Atoms)} itself when the periodic cell is too narrow for the cell list's bins. The bonds also give
 * each bond's {@link EnvironmentPair}.
 */
public final class AtomEnvironments {
    private static final Comparator<Bonds.Bond> BY_ATOMS =
            Comparator.comparingInt(Bonds.Bond::i).thenComparingInt(Bonds.Bond::j);

    private AtomEnvironments() {
    }

    /** One environment per atom, in atom order. */
    public static List<AtomEnvironment> of(Atoms atoms) {
        return of(atoms, bonds(atoms));
    }

    /** One environment per atom, in atom order, from the given bonds (of {@link #bonds(Atoms)}). */
    public static List<AtomEnvironment> of(Atoms atoms, List<Bonds.Bond> bonds) {
        int n = atoms.size();
        List<List<String>> neighbours = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            neighbours.add(new ArrayList<>(4));
        }
        for (Bonds.Bond b : bonds) {
            neighbours.get(b.i()).add(atoms.element(b.j()).symbol());
            neighbours.get(b.j()).add(atoms.element(b.i()).symbol());
        }
        List<AtomEnvironment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new AtomEnvironment(atoms.element(i).symbol(), neighbours.get(i)));
        }
        return out;
    }

    /** The bonded pair of environments of every bond, in the order of {@code bonds}. */
    public static List<EnvironmentPair> pairs(List<AtomEnvironment> environments, List<Bonds.Bond> bonds) {
        List<EnvironmentPair> out = new ArrayList<>(bonds.size());
        for (Bonds.Bond b : bonds) {
            out.add(new EnvironmentPair(environments.get(b.i()), environments.get(b.j())));
        }
        return out;
    }

    /** Every bond i &lt; j of the structure by {@link Bonds}'s rule, ordered by i, then j. */
    public static List<Bonds.Bond> bonds(Atoms atoms) {
        int n = atoms.size();
        double[] rc = new double[n];
        double maxR = 0;
        for (int i = 0; i < n; i++) {
            rc[i] = atoms.element(i).covalentRadiusA;
            maxR = Math.max(maxR, rc[i]);
        }
        EdgeList edges = new EdgeList();
        boolean searched;
        try {
            new CellList().search(atoms, Bonds.DEFAULT_FACTOR * 2 * maxR + 1e-9, edges);
            searched = true;
        } catch (IllegalArgumentException narrowCell) {
            searched = false;
        }
        if (!searched) {
            List<Bonds.Bond> out = new ArrayList<>(Bonds.perceive(atoms));
            out.sort(BY_ATOMS);
            return out;
        }
        List<Bonds.Bond> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int first = out.size();
            for (int e = edges.rowStart(i); e < edges.rowStart(i + 1); e++) {
                int j = edges.neighbour(e);
                if (j > i && edges.distance(e) < Bonds.DEFAULT_FACTOR * (rc[i] + rc[j])) {
                    out.add(new Bonds.Bond(i, j, edges.distance(e)));
                }
            }
            out.subList(first, out.size()).sort(BY_ATOMS);
        }
        return out;
    }
}
