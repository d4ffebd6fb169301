package org.molten.forcefield.domain;

import java.util.Objects;

/**
 * The environments of the two atoms of one bond, unordered: written canonically as the two environments' canonical
 * texts sorted and joined by "-", {@code C(C,H,H)-C(C,H,H)} for ethylene's C=C, {@code C(C,H,H,H)-H(C)} for a methyl
 * C-H; forcefield/training/domain.py writes the same text. A pair absent from a model's training data is a bond whose
 * chemistry the model never saw, though both atoms' environments may be common.
 *
 * @param first  the environment whose canonical text sorts first
 * @param second the other
 */
public record EnvironmentPair(AtomEnvironment first, AtomEnvironment second) implements Comparable<EnvironmentPair> {

    public EnvironmentPair {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(second, "second");
        if (first.compareTo(second) > 0) {
            AtomEnvironment t = first;
            first = second;
            second = t;
        }
    }

    /** The canonical text, {@code C(C,H,H)-H(C)}. */
    public String canonical() {
        return first.canonical() + "-" + second.canonical();
    }

    /**
     * Parses the canonical text; the two environments may come in either order.
     *
     * @throws IllegalArgumentException naming the text when it is not two environments joined by "-"
     */
    public static EnvironmentPair parse(String text) {
        String t = text == null ? "" : text.trim();
        int cut = t.indexOf(")-");
        if (cut < 0 || t.indexOf(")-", cut + 1) >= 0) {
            throw new IllegalArgumentException("not a bonded pair of environments: '" + text
                    + "' (expected e.g. C(C,H,H)-C(C,H,H))");
        }
        return new EnvironmentPair(AtomEnvironment.parse(t.substring(0, cut + 1)), AtomEnvironment.parse(t.substring(cut + 2)));
    }

    @Override
    public int compareTo(EnvironmentPair o) {
        return canonical().compareTo(o.canonical());
    }

    @Override
    public String toString() {
        return canonical();
    }
}
