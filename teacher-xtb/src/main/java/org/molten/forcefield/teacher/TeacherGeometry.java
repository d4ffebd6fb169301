package org.molten.forcefield.teacher;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;

import java.util.Locale;

/**
 * The checks a geometry passes before it reaches xtb, so that a broken state is refused with the atoms named
 * instead of becoming an SCF failure or, worse, a number.
 */
final class TeacherGeometry {
    private TeacherGeometry() {
    }

    /**
     * @param atoms     the state (for its cell)
     * @param z         its atomic numbers
     * @param positions its positions in Å, flat [3N]
     * @param settings  the teacher's charge and unpaired electrons
     * @throws IllegalArgumentException naming the atoms and the problem
     */
    static void requireEvaluable(Atoms atoms, int[] z, double[] positions, XtbSettings settings) {
        int n = z.length;
        if (n == 0) {
            throw new IllegalArgumentException("no atoms: the teacher needs at least one");
        }
        Cell cell = atoms.cellOrNull();
        if (cell != null && cell.anyPeriodic()) {
            throw new IllegalArgumentException("periodic cells are not supported: libxtb 6.5.1 stops GFN2-xTB with a"
                    + " lattice (\"Multipoles not available with PBC\"); the teacher evaluates isolated molecules and"
                    + " clusters only");
        }
        long electrons = -settings.charge();
        for (int i = 0; i < n; i++) {
            if (z[i] < 1 || z[i] > XtbTeacher.MAX_ATOMIC_NUMBER) {
                throw new IllegalArgumentException("atom " + i + ": atomic number " + z[i]
                        + " is not covered by GFN2-xTB (H to Rn, Z 1-" + XtbTeacher.MAX_ATOMIC_NUMBER + ")");
            }
            electrons += z[i];
            for (int k = 0; k < 3; k++) {
                double x = positions[3 * i + k];
                if (!Double.isFinite(x)) {
                    throw new IllegalArgumentException("atom " + i + " (" + symbol(z[i]) + "): position "
                            + "xyz".charAt(k) + " is " + x + " Å");
                }
            }
        }
        double min2 = XtbTeacher.MIN_DISTANCE_A * XtbTeacher.MIN_DISTANCE_A;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double dx = positions[3 * j] - positions[3 * i];
                double dy = positions[3 * j + 1] - positions[3 * i + 1];
                double dz = positions[3 * j + 2] - positions[3 * i + 2];
                double d2 = dx * dx + dy * dy + dz * dz;
                if (d2 < min2) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT,
                            "atoms %d (%s) and %d (%s) are %.4f Å apart, closer than %.1f Å: not a geometry the"
                                    + " teacher evaluates", i, symbol(z[i]), j, symbol(z[j]), Math.sqrt(d2),
                            XtbTeacher.MIN_DISTANCE_A));
                }
            }
        }
        int uhf = settings.unpairedElectrons();
        if (electrons < 0 || uhf > electrons || (electrons - uhf) % 2 != 0) {
            throw new IllegalArgumentException("charge " + settings.charge() + " e and " + uhf + " unpaired electron(s)"
                    + " do not fit " + atoms.formula() + " (" + electrons + " electrons): the number of unpaired"
                    + " electrons must be at most the electron count and have its parity");
        }
    }

    private static String symbol(int z) {
        return Element.isKnown(z) ? Element.ofAtomicNumber(z).symbol() : "Z=" + z;
    }
}
