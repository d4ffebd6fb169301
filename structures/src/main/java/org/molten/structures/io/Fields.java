package org.molten.structures.io;

import java.util.Locale;

import org.molten.core.Element;

/**
 * Strict parsing of the numeric and element fields of structure files. Java's
 * {@code Double.parseDouble} would accept "1.0f", "0x1p3" and "NaN"; a structure file must not,
 * so the token is checked first and the refusal quotes it.
 */
final class Fields {
    private Fields() {}

    /**
     * A finite decimal number ("1.5", "-2e-3", Fortran's "1.5D0").
     *
     * @param what what the field is, for the message ("x coordinate", "energy")
     */
    static double parseFinite(String token, String what, LineSource in, long line) throws StructureFormatException {
        String t = token.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        String unsigned = lower.startsWith("+") || lower.startsWith("-") ? lower.substring(1) : lower;
        if (unsigned.equals("nan") || unsigned.startsWith("inf")) {
            throw in.error(line, what + " '" + token + "' is not a finite number");
        }
        boolean digit = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if ("+-.eEdD".indexOf(c) < 0) {
                throw in.error(line, "non-numeric " + what + " '" + token + "'");
            }
        }
        if (!digit) {
            throw in.error(line, "non-numeric " + what + " '" + token + "'");
        }
        double v;
        try {
            v = Double.parseDouble(t.replace('d', 'e').replace('D', 'E'));
        } catch (NumberFormatException e) {
            throw in.error(line, "non-numeric " + what + " '" + token + "'");
        }
        if (!Double.isFinite(v)) {
            throw in.error(line, what + " '" + token + "' overflows a double");
        }
        return v;
    }

    /** A non-negative decimal integer. */
    static int parseCount(String token, String what, LineSource in, long line) throws StructureFormatException {
        String t = token.trim();
        if (t.isEmpty() || t.length() > 10 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw in.error(line, "expected " + what + " (a non-negative integer), found '" + token + "'");
        }
        long v = Long.parseLong(t);
        if (v > Integer.MAX_VALUE / 3) {
            throw in.error(line, what + " " + v + " is too large");
        }
        return (int) v;
    }

    /** The atomic number of an element symbol (case-insensitive) or of a bare atomic number. */
    static int element(String token, LineSource in, long line) throws StructureFormatException {
        String t = token.trim();
        if (!t.isEmpty() && t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            int z = t.length() <= 3 ? Integer.parseInt(t) : -1;
            if (!Element.isKnown(z)) {
                throw in.error(line, "unknown element: atomic number '" + token + "' (Molten knows H to Kr, 1..36)");
            }
            return z;
        }
        try {
            return Element.ofSymbol(t).atomicNumber;
        } catch (IllegalArgumentException e) {
            throw in.error(line, "unknown element symbol '" + token + "' (Molten knows H to Kr)");
        }
    }

    /** Splits a line on runs of spaces and tabs. */
    static String[] split(String line) {
        String t = line.strip();
        return t.isEmpty() ? new String[0] : t.split("[ \\t]+");
    }
}
