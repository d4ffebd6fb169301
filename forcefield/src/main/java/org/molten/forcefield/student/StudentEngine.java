package org.molten.forcefield.student;

import org.molten.forcefield.neighbours.EdgeList;

/**
 * One precision of the optimised student's numerical core (generated from a template as
 * {@code StudentEngineF64} and {@code StudentEngineF32}). Given the species rows and the edge
 * list, it runs the fused forward and backward passes on a {@link PhasePool}.
 */
interface StudentEngine extends AutoCloseable {

    /**
     * Energy (eV), forces (eV/Å) and optionally per-atom energies (eV).
     *
     * @param atoms      number of atoms N
     * @param species    embedding row of each atom, length at least N
     * @param order      the order in which to process the atoms (a permutation, see
     *                   {@link SpatialOrder}), or null for 0..N-1; results are in atom order either way
     * @param edges      every directed edge within the cutoff (both directions of each pair)
     * @param forces     output, length 3N
     * @param perAtom    output, length N, or null
     * @param pool       worker threads (its size bounds the threads used)
     * @param threads    threads to use for this call, 1..pool.size()
     * @param useNd4j    whether the atom-wise dense layers go through ND4J GEMMs
     */
    double evaluate(int atoms, int[] species, int[] order, EdgeList edges, double[] forces, double[] perAtom,
                    PhasePool pool, int threads, boolean useNd4j);

    /**
     * Memory-saving layout on or off: the interaction blocks share one set of per-block buffers
     * and the backward pass recomputes each block's forward state (the forward
     * of T - 1 blocks twice, the same results bit for bit). Takes effect at the next call.
     */
    void setRecompute(boolean on);

    /** Releases ND4J buffers, if any were made. */
    @Override
    void close();
}
