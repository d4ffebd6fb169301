package org.molten.forcefield.neighbours;

import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * The O(N²) oracle: every ordered pair, minimum image through {@link Cell#minimumImage}.
 * Used by the reference student and to test faster searches.
 */
public final class AllPairsSearch implements NeighbourSearch {

    @Override
    public void search(Atoms atoms, double cutoffA, EdgeList out) {
        Cell cell = atoms.cellOrNull();
        boolean periodic = cell != null && cell.anyPeriodic();
        NeighbourSearch.requireCutoffFits(cell, cutoffA);
        NeighbourSearch.requireFinitePositions(atoms);
        int n = atoms.size();
        double[] r = atoms.positions();
        double[] d = new double[3];
        out.reset(n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) {
                    continue;
                }
                d[0] = r[3 * j] - r[3 * i];
                d[1] = r[3 * j + 1] - r[3 * i + 1];
                d[2] = r[3 * j + 2] - r[3 * i + 2];
                if (periodic) {
                    cell.minimumImage(d);
                }
                double dist = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                if (dist < COINCIDENT_A) {
                    throw NeighbourSearch.coincident(atoms, i, j, dist);
                }
                if (dist < cutoffA) {
                    out.add(i, j, d[0], d[1], d[2], dist);
                }
            }
        }
        out.finish();
    }
}
