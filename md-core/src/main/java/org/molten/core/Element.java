package org.molten.core;

import java.util.Locale;

/**
 * Chemical elements H to Kr: symbol, atomic number, standard atomic mass (amu, IUPAC 2016
 * conventional values, the ones ASE uses) and single-bond covalent radius (Å, Cordero et al.,
 * Dalton Trans. 2008, 2832; low-spin values for Mn, Fe, Co). Covalent radii serve bond
 * perception (bonded when d &lt; 1.2 (r_a + r_b)).
 */
public enum Element {
    H(1, 1.008, 0.31), He(2, 4.002602, 0.28),
    Li(3, 6.94, 1.28), Be(4, 9.0121831, 0.96), B(5, 10.81, 0.84), C(6, 12.011, 0.76),
    N(7, 14.007, 0.71), O(8, 15.999, 0.66), F(9, 18.998403163, 0.57), Ne(10, 20.1797, 0.58),
    Na(11, 22.98976928, 1.66), Mg(12, 24.305, 1.41), Al(13, 26.9815385, 1.21), Si(14, 28.085, 1.11),
    P(15, 30.973761998, 1.07), S(16, 32.06, 1.05), Cl(17, 35.45, 1.02), Ar(18, 39.948, 1.06),
    K(19, 39.0983, 2.03), Ca(20, 40.078, 1.76), Sc(21, 44.955908, 1.70), Ti(22, 47.867, 1.60),
    V(23, 50.9415, 1.53), Cr(24, 51.9961, 1.39), Mn(25, 54.938044, 1.39), Fe(26, 55.845, 1.32),
    Co(27, 58.933194, 1.26), Ni(28, 58.6934, 1.24), Cu(29, 63.546, 1.32), Zn(30, 65.38, 1.22),
    Ga(31, 69.723, 1.22), Ge(32, 72.630, 1.20), As(33, 74.921595, 1.19), Se(34, 78.971, 1.20),
    Br(35, 79.904, 1.20), Kr(36, 83.798, 1.16);

    private static final Element[] BY_Z = new Element[37];
    static {
        for (Element e : values()) {
            BY_Z[e.atomicNumber] = e;
        }
    }

    /** Atomic number Z. */
    public final int atomicNumber;
    /** Standard atomic mass in amu. */
    public final double massAmu;
    /** Single-bond covalent radius in Å. */
    public final double covalentRadiusA;

    Element(int atomicNumber, double massAmu, double covalentRadiusA) {
        this.atomicNumber = atomicNumber;
        this.massAmu = massAmu;
        this.covalentRadiusA = covalentRadiusA;
    }

    /** The symbol as chemists write it ("H", "Cl"). */
    public String symbol() {
        return name();
    }

    /**
     * The element of atomic number {@code z}.
     *
     * @throws IllegalArgumentException if Molten has no data for {@code z} (only H to Kr)
     */
    public static Element ofAtomicNumber(int z) {
        if (z < 1 || z >= BY_Z.length) {
            throw new IllegalArgumentException("unknown element: atomic number " + z
                    + " (Molten knows H to Kr, Z = 1..36)");
        }
        return BY_Z[z];
    }

    /**
     * The element with this symbol; case-insensitive ("CL", "cl" and "Cl" are chlorine).
     *
     * @throws IllegalArgumentException naming the symbol if it is not an element from H to Kr
     */
    public static Element ofSymbol(String symbol) {
        String s = symbol == null ? "" : symbol.trim();
        if (!s.isEmpty() && s.length() <= 2) {
            String norm = s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1).toLowerCase(Locale.ROOT);
            for (Element e : values()) {
                if (e.name().equals(norm)) {
                    return e;
                }
            }
        }
        throw new IllegalArgumentException("unknown element symbol '" + symbol
                + "' (Molten knows H to Kr)");
    }

    /** True when {@code z} is an atomic number Molten knows. */
    public static boolean isKnown(int z) {
        return z >= 1 && z < BY_Z.length;
    }
}
