package org.molten.validation.observables;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.molten.core.Atoms;
import org.molten.core.Bonds;

/**
 * The covalent graph of a start structure ({@link Bonds#perceive(Atoms)}: distance below 1.2 ×
 * the sum of Cordero covalent radii, minimum image in a periodic cell), with every bond and bond
 * angle named by its element types. The graph is perceived once, from the start, and kept for
 * the whole trajectory: a bond that breaks later still counts, which is what shows a broken bond
 * in the distributions.
 *
 * <p>Names: a bond type is its element pair in alphabetical order ("C-H", "C-O", "H-O"); an
 * angle type A-B-C has the central atom B in the middle and the outer pair in alphabetical order,
 * so H-O-C and C-O-H are both "C-O-H".
 */
public final class BondedTopology {
    /** A bond between atoms i &lt; j, with its type name and its length in the start structure, Å. */
    public record Bond(int i, int j, String type, double startLengthA) {
    }

    /** A bond angle i–j–k at the central atom j (i &lt; k), with its type name. */
    public record Angle(int i, int j, int k, String type) {
    }

    private final int atomCount;
    private final List<Bond> bonds;
    private final List<Angle> angles;
    private final List<List<Integer>> neighbours;
    private final String[] symbols;

    private BondedTopology(int atomCount, String[] symbols, List<Bond> bonds, List<Angle> angles,
                           List<List<Integer>> neighbours) {
        this.atomCount = atomCount;
        this.symbols = symbols;
        this.bonds = List.copyOf(bonds);
        this.angles = List.copyOf(angles);
        this.neighbours = neighbours;
    }

    /** The bonds and angles of {@code start} (its cell, if any, for the minimum image). */
    public static BondedTopology of(Atoms start) {
        int n = start.size();
        String[] sym = new String[n];
        for (int a = 0; a < n; a++) {
            sym[a] = start.element(a).symbol();
        }
        List<List<Integer>> nb = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            nb.add(new ArrayList<>());
        }
        List<Bond> bonds = new ArrayList<>();
        for (Bonds.Bond b : Bonds.perceive(start)) {
            bonds.add(new Bond(b.i(), b.j(), bondType(sym[b.i()], sym[b.j()]), b.lengthA()));
            nb.get(b.i()).add(b.j());
            nb.get(b.j()).add(b.i());
        }
        List<Angle> angles = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            List<Integer> around = new ArrayList<>(new TreeSet<>(nb.get(j)));
            for (int p = 0; p < around.size(); p++) {
                for (int q = p + 1; q < around.size(); q++) {
                    int i = around.get(p);
                    int k = around.get(q);
                    angles.add(new Angle(i, j, k, angleType(sym[i], sym[j], sym[k])));
                }
            }
        }
        List<List<Integer>> frozen = new ArrayList<>();
        for (List<Integer> l : nb) {
            frozen.add(List.copyOf(new TreeSet<>(l)));
        }
        return new BondedTopology(n, sym, bonds, angles, List.copyOf(frozen));
    }

    /** The canonical bond type of two element symbols: alphabetical order, "C-H". */
    public static String bondType(String a, String b) {
        return a.compareTo(b) <= 0 ? a + "-" + b : b + "-" + a;
    }

    /** The canonical angle type with {@code centre} in the middle: outer symbols in alphabetical order, "C-O-H". */
    public static String angleType(String outer1, String centre, String outer2) {
        return outer1.compareTo(outer2) <= 0 ? outer1 + "-" + centre + "-" + outer2 : outer2 + "-" + centre + "-" + outer1;
    }

    /** Atoms in the structure. */
    public int atomCount() {
        return atomCount;
    }

    /** Element symbol of atom {@code a}. */
    public String symbol(int a) {
        return symbols[a];
    }

    /** All bonds, in the order {@link Bonds#perceive(Atoms)} found them. */
    public List<Bond> bonds() {
        return bonds;
    }

    /** All bond angles, grouped by central atom. */
    public List<Angle> angles() {
        return angles;
    }

    /** The atoms bonded to {@code a}, ascending. */
    public List<Integer> neighbours(int a) {
        return neighbours.get(a);
    }

    /** The bond types present, alphabetical. */
    public List<String> bondTypes() {
        TreeSet<String> t = new TreeSet<>();
        bonds.forEach(b -> t.add(b.type()));
        return List.copyOf(t);
    }

    /** The angle types present, alphabetical. */
    public List<String> angleTypes() {
        TreeSet<String> t = new TreeSet<>();
        angles.forEach(a -> t.add(a.type()));
        return List.copyOf(t);
    }
}
