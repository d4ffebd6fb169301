package org.molten.structures.io;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Number formatting for structure files: fixed-point columns written without
 * {@code String.format} (trajectory writing of 10⁵ atoms must not be dominated by formatting), and
 * the shortest decimal that reads back to the same double, for cells and energies.
 */
final class FixedDecimal {
    private static final long[] POW10 = {1L, 10L, 100L, 1000L, 10000L, 100000L, 1000000L, 10000000L,
            100000000L, 1000000000L, 10000000000L, 100000000000L, 1000000000000L};

    private FixedDecimal() {}

    /**
     * Appends {@code x} with {@code decimals} digits after the point, right-aligned in {@code width}
     * characters (wider when needed), as C's {@code %width.decimalsf} (ties round away from zero).
     */
    static void append(StringBuilder sb, double x, int width, int decimals) {
        int start = sb.length();
        double scaled = Math.abs(x) * POW10[decimals];
        if (!Double.isFinite(x) || scaled >= 9.0e15) {
            sb.append(String.format(Locale.ROOT, "%" + width + "." + decimals + "f", x));
            return;
        }
        long units = Math.round(scaled);
        boolean negative = x < 0 && units != 0;
        long intPart = units / POW10[decimals];
        long frac = units % POW10[decimals];
        if (negative) {
            sb.append('-');
        }
        sb.append(intPart);
        if (decimals > 0) {
            sb.append('.');
            String f = Long.toString(frac);
            for (int i = f.length(); i < decimals; i++) {
                sb.append('0');
            }
            sb.append(f);
        }
        int len = sb.length() - start;
        if (len < width) {
            sb.insert(start, " ".repeat(width - len));
        }
    }

    /** The shortest plain decimal (no exponent) that parses back to exactly {@code x}. */
    static String exact(double x) {
        if (x == 0) {
            return "0.0";
        }
        String s = new BigDecimal(Double.toString(x)).toPlainString();
        return s.indexOf('.') < 0 ? s + ".0" : s;
    }
}
