/**
 * Radius search: the directed edges (i &lt;- j) of every ordered pair closer than a cutoff, with the
 * minimum-image displacement r_ij = r_j - r_i under periodic cells.
 * {@link org.molten.forcefield.neighbours.AllPairsSearch} checks every pair (O(N²), the oracle);
 * {@link org.molten.forcefield.neighbours.CellList} bins atoms into cells at least one cutoff wide
 * (O(N), Allen and Tildesley, Computer Simulation of Liquids, 2nd ed., sec. 5.3);
 * {@link org.molten.forcefield.neighbours.VerletList} keeps a cell-list pair list built at
 * cutoff + skin and rebuilds it only when some atom has moved more than half the skin
 * (Verlet, Phys. Rev. 159, 98 (1967)). Every search produces the same edge set.
 */
package org.molten.forcefield.neighbours;
