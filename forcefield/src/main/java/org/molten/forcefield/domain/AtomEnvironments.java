package org.molten.forcefield.domain;

import java.util.ArrayList;
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
 * {@link Bonds#perceive(Atoms)} itself when the periodic cell is too narrow for the cell list's bins.
 */
public final class AtomEnvironments {
    private AtomEnvironments() {
    }

    /** One environment per atom, in atom order. */
    public static List<AtomEnvironment> of(Atoms atoms) {
        int n = atoms.size();
        double[] rc = new double[n];
        double maxR = 0;
        for (int i = 0; i < n; i++) {
            rc[i] = atoms.element(i).covalentRadiusA;
            maxR = Math.max(maxR, rc[i]);
        }
        List<List<String>> neighbours = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            neighbours.add(new ArrayList<>(4));
        }
        EdgeList edges = new EdgeList();
        boolean searched;
        try {
            new CellList().search(atoms, Bonds.DEFAULT_FACTOR * 2 * maxR + 1e-9, edges);
            searched = true;
        } catch (IllegalArgumentException narrowCell) {
            searched = false;
        }
        if (searched) {
            for (int i = 0; i < n; i++) {
                for (int e = edges.rowStart(i); e < edges.rowStart(i + 1); e++) {
                    int j = edges.neighbour(e);
                    if (edges.distance(e) < Bonds.DEFAULT_FACTOR * (rc[i] + rc[j])) {
                        neighbours.get(i).add(atoms.element(j).symbol());
                    }
                }
            }
        } else {
            for (Bonds.Bond b : Bonds.perceive(atoms)) {
                neighbours.get(b.i()).add(atoms.element(b.j()).symbol());
                neighbours.get(b.j()).add(atoms.element(b.i()).symbol());
            }
        }
        List<AtomEnvironment> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new AtomEnvironment(atoms.element(i).symbol(), neighbours.get(i)));
        }
        return out;
    }
}
