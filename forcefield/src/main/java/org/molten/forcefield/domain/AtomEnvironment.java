package org.molten.forcefield.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The chemical environment of one atom: its element and the sorted multiset of the elements of its bonded
 * neighbours (bonds by {@link org.molten.core.Bonds#DEFAULT_FACTOR} times the sum of covalent radii). Written
 * canonically as {@code C(C,H,H,O)}, {@code H(O)}, {@code O(H,H)}, or {@code H()} for an atom without bonds, with the
 * neighbour symbols in alphabetical order; forcefield/training/domain.py writes the same text.
 *
 * @param element    the atom's element symbol ("C")
 * @param neighbours the symbols of its bonded neighbours, sorted alphabetically
 */
public record AtomEnvironment(String element, List<String> neighbours) implements Comparable<AtomEnvironment> {

    public AtomEnvironment {
        Objects.requireNonNull(element, "element");
        List<String> sorted = new ArrayList<>(neighbours);
        Collections.sort(sorted);
        neighbours = List.copyOf(sorted);
    }

    /** The canonical text, {@code C(C,H,H,O)}. */
    public String canonical() {
        return element + "(" + String.join(",", neighbours) + ")";
    }

    /**
     * Parses the canonical text ({@code C(C,H,H,O)}, {@code H()}); the neighbours may come in any order.
     *
     * @throws IllegalArgumentException naming the text when it is not of that form
     */
    public static AtomEnvironment parse(String text) {
        String t = text == null ? "" : text.trim();
        int open = t.indexOf('(');
        if (open < 1 || !t.endsWith(")") || t.indexOf('(', open + 1) >= 0) {
            throw new IllegalArgumentException("not an atom environment: '" + text + "' (expected e.g. C(C,H,H,O) or H())");
        }
        String inner = t.substring(open + 1, t.length() - 1).trim();
        List<String> n = inner.isEmpty() ? List.of() : List.of(inner.split("\\s*,\\s*"));
        return new AtomEnvironment(t.substring(0, open), n);
    }

    @Override
    public int compareTo(AtomEnvironment o) {
        return canonical().compareTo(o.canonical());
    }

    @Override
    public String toString() {
        return canonical();
    }
}
