/**
 * The classical reference potential: Lennard-Jones with a shifted-force cutoff, harmonic bonds,
 * and their sum. It is cheap, analytic and exactly differentiable, so it is the oracle the
 * integrators are tested against (energy conservation, O(dt²) scaling, canonical sampling) and a
 * stand-in force field for {@code molten run} until the student model is trained.
 * {@link org.molten.forcefield.classical.ClassicalReferencePotential#inferredFrom} builds one for
 * any molecule from its starting geometry. Units: Å, eV, eV/Å, eV/Å².
 */
package org.molten.forcefield.classical;
