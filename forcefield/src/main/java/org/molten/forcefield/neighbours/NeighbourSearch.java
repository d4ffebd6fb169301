package org.molten.forcefield.neighbours;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Element;

/**
 * A radius search: fills an {@link EdgeList} with every directed edge (i &lt;- j), i != j, whose
 * minimum-image distance is strictly below the cutoff.
 */
public interface NeighbourSearch {

    /**
     * Finds the edges of {@code atoms} within {@code cutoffA}.
     *
     * @throws IllegalArgumentException if the cutoff exceeds half the shortest perpendicular
     *                                  width of a periodic cell, a coordinate is not finite, or
     *                                  two atoms coincide
     */
    void search(Atoms atoms, double cutoffA, EdgeList out);

    /**
     * Refuses a periodic cell too small for a single minimum image: with r_c at most half the
     * shortest perpendicular width, at most one image of each atom lies within r_c.
     *
     * @throws IllegalArgumentException naming the cutoff and the cell width
     */
    static void requireCutoffFits(Cell cell, double cutoffA) {
        if (cell == null || !cell.anyPeriodic()) {
            return;
        }
        double w = cell.minPeriodicWidth();
        if (cutoffA > 0.5 * w) {
            throw new IllegalArgumentException(String.format(
                    "cutoff %.4g Å exceeds half the shortest perpendicular width of the periodic cell "
                            + "(%.4g Å, half = %.4g Å); use a cell at least %.4g Å wide along every periodic axis",
                    cutoffA, w, 0.5 * w, 2 * cutoffA));
        }
    }

    /** Distance below which two atoms count as coinciding (Å): the edge direction is undefined. */
    double COINCIDENT_A = 1e-6;

    /** @throws IllegalArgumentException naming the atom whose coordinate is NaN or infinite */
    static void requireFinitePositions(Atoms atoms) {
        double[] r = atoms.positions();
        for (int k = 0; k < r.length; k++) {
            if (!Double.isFinite(r[k])) {
                int i = k / 3;
                throw new IllegalArgumentException("atom " + i + " (" + atoms.element(i) + "): coordinate "
                        + "xyz".charAt(k % 3) + " is " + r[k] + " Å");
            }
        }
    }

    /** The error for two atoms at the same place. */
    static IllegalArgumentException coincident(Atoms atoms, int i, int j, double d) {
        Element a = atoms.element(i);
        Element b = atoms.element(j);
        return new IllegalArgumentException(String.format(
                "atoms %d (%s) and %d (%s) coincide (%.3g Å apart): the force field is undefined", i, a, j, b, d));
    }
}
