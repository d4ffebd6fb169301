package org.molten.core;

import java.util.Arrays;
import java.util.Optional;

/**
 * The state of a simulation, as ASE's {@code Atoms}: atomic numbers, masses (amu), positions (Å)
 * and velocities (Å/fs) as flat arrays {@code [x0, y0, z0, x1, ...]}, and an optional periodic
 * {@link Cell}. Positions and velocities are mutable in place (integrators update them without
 * allocation); species, masses and the cell are fixed for the lifetime of the object.
 *
 * <p>Not thread-safe: one simulation owns one {@code Atoms}. Use {@link #copy()} to hand a
 * snapshot to another thread.
 */
public final class Atoms {
    private final int[] atomicNumbers;
    private final double[] massesAmu;
    private final double[] positionsA;
    private final double[] velocitiesAPerFs;
    private final Cell cell; // null when not periodic

    private Atoms(int[] z, double[] masses, double[] positions, double[] velocities, Cell cell) {
        this.atomicNumbers = z;
        this.massesAmu = masses;
        this.positionsA = positions;
        this.velocitiesAPerFs = velocities;
        this.cell = cell;
    }

    /**
     * Atoms with standard masses and zero velocities.
     *
     * @param atomicNumbers Z per atom (H to Kr)
     * @param positionsA    positions in Å, flat, length 3N
     * @param cell          periodic cell or {@code null} for an isolated molecule
     * @throws IllegalArgumentException for an unknown element, a length mismatch or a
     *                                  non-finite coordinate (naming the atom)
     */
    public static Atoms of(int[] atomicNumbers, double[] positionsA, Cell cell) {
        double[] m = new double[atomicNumbers.length];
        for (int i = 0; i < m.length; i++) {
            m[i] = Element.ofAtomicNumber(atomicNumbers[i]).massAmu;
        }
        return of(atomicNumbers, m, positionsA, new double[positionsA.length], cell);
    }

    /**
     * Atoms with explicit masses (amu) and velocities (Å/fs). Arrays are copied.
     *
     * @throws IllegalArgumentException for an unknown element, a length mismatch, a
     *                                  non-positive mass or a non-finite value (naming the atom)
     */
    public static Atoms of(int[] atomicNumbers, double[] massesAmu, double[] positionsA,
                           double[] velocitiesAPerFs, Cell cell) {
        int n = atomicNumbers.length;
        if (massesAmu.length != n || positionsA.length != 3 * n || velocitiesAPerFs.length != 3 * n) {
            throw new IllegalArgumentException("array lengths do not match " + n + " atoms: masses "
                    + massesAmu.length + ", positions " + positionsA.length + " (need 3N), velocities "
                    + velocitiesAPerFs.length + " (need 3N)");
        }
        for (int i = 0; i < n; i++) {
            Element.ofAtomicNumber(atomicNumbers[i]);
            if (!(massesAmu[i] > 0) || Double.isInfinite(massesAmu[i])) {
                throw new IllegalArgumentException("atom " + i + ": mass must be positive and finite, got "
                        + massesAmu[i] + " amu");
            }
            for (int k = 0; k < 3; k++) {
                if (!Double.isFinite(positionsA[3 * i + k])) {
                    throw new IllegalArgumentException("atom " + i + " (" + Element.ofAtomicNumber(atomicNumbers[i])
                            + "): position " + "xyz".charAt(k) + " is " + positionsA[3 * i + k]);
                }
                if (!Double.isFinite(velocitiesAPerFs[3 * i + k])) {
                    throw new IllegalArgumentException("atom " + i + " (" + Element.ofAtomicNumber(atomicNumbers[i])
                            + "): velocity " + "xyz".charAt(k) + " is " + velocitiesAPerFs[3 * i + k]);
                }
            }
        }
        return new Atoms(atomicNumbers.clone(), massesAmu.clone(), positionsA.clone(), velocitiesAPerFs.clone(), cell);
    }

    /** A deep copy (positions and velocities are independent of this object's). */
    public Atoms copy() {
        return new Atoms(atomicNumbers.clone(), massesAmu.clone(), positionsA.clone(), velocitiesAPerFs.clone(), cell);
    }

    /** The same atoms with another cell (or none); positions and velocities copied. */
    public Atoms withCell(Cell newCell) {
        return new Atoms(atomicNumbers.clone(), massesAmu.clone(), positionsA.clone(), velocitiesAPerFs.clone(), newCell);
    }

    /** Number of atoms. */
    public int size() {
        return atomicNumbers.length;
    }

    /** Atomic number of atom {@code i}. */
    public int atomicNumber(int i) {
        return atomicNumbers[i];
    }

    /** Element of atom {@code i}. */
    public Element element(int i) {
        return Element.ofAtomicNumber(atomicNumbers[i]);
    }

    /** Atomic numbers, a copy. */
    public int[] atomicNumbers() {
        return atomicNumbers.clone();
    }

    /** Mass of atom {@code i} in amu. */
    public double massAmu(int i) {
        return massesAmu[i];
    }

    /** Masses in amu, a copy. */
    public double[] massesAmu() {
        return massesAmu.clone();
    }

    /** Total mass in amu. */
    public double totalMassAmu() {
        double m = 0;
        for (double x : massesAmu) {
            m += x;
        }
        return m;
    }

    /** Positions in Å, flat [3N], <b>live</b>: writes change the state. */
    public double[] positions() {
        return positionsA;
    }

    /** Velocities in Å/fs, flat [3N], <b>live</b>: writes change the state. */
    public double[] velocities() {
        return velocitiesAPerFs;
    }

    /** The periodic cell, if any. */
    public Optional<Cell> cell() {
        return Optional.ofNullable(cell);
    }

    /** The periodic cell or {@code null}. */
    public Cell cellOrNull() {
        return cell;
    }

    /** Chemical formula in Hill order (C, H, then alphabetical), e.g. "C2H6O". */
    public String formula() {
        int[] count = new int[37];
        for (int z : atomicNumbers) {
            count[z]++;
        }
        StringBuilder sb = new StringBuilder();
        boolean hasC = count[6] > 0;
        if (hasC) {
            sb.append('C').append(count[6] > 1 ? count[6] : "");
            if (count[1] > 0) {
                sb.append('H').append(count[1] > 1 ? count[1] : "");
            }
        }
        String[] rest = Arrays.stream(Element.values())
                .filter(e -> count[e.atomicNumber] > 0 && !(hasC && (e == Element.C || e == Element.H)))
                .map(Element::symbol).sorted().toArray(String[]::new);
        for (String s : rest) {
            int c = count[Element.ofSymbol(s).atomicNumber];
            sb.append(s).append(c > 1 ? c : "");
        }
        return sb.toString();
    }

    /** Displacement r_j - r_i in Å into {@code out} (length 3), minimum image under the cell. */
    public void displacement(int i, int j, double[] out) {
        out[0] = positionsA[3 * j] - positionsA[3 * i];
        out[1] = positionsA[3 * j + 1] - positionsA[3 * i + 1];
        out[2] = positionsA[3 * j + 2] - positionsA[3 * i + 2];
        if (cell != null) {
            cell.minimumImage(out);
        }
    }

    /** Distance between atoms {@code i} and {@code j} in Å (minimum image). */
    public double distance(int i, int j) {
        double[] d = new double[3];
        displacement(i, j, d);
        return Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    }

    /**
     * Refuses a geometry that no force field should be asked about: non-finite coordinates, or
     * two atoms closer than {@code minDistanceA} (overlapping atoms).
     *
     * @throws IllegalArgumentException naming the atoms and their distance
     */
    public void requireNoOverlap(double minDistanceA) {
        int n = size();
        for (int i = 0; i < 3 * n; i++) {
            if (!Double.isFinite(positionsA[i])) {
                throw new IllegalArgumentException("atom " + (i / 3) + ": non-finite coordinate " + positionsA[i]);
            }
        }
        double[] d = new double[3];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                displacement(i, j, d);
                double r = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                if (r < minDistanceA) {
                    throw new IllegalArgumentException(String.format(
                            "atoms %d (%s) and %d (%s) overlap: %.4f Å apart (minimum %.2f Å)",
                            i, element(i), j, element(j), r, minDistanceA));
                }
            }
        }
    }
}
