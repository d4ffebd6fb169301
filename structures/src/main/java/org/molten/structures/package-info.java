/**
 * Starting structures for simulations: the built-in molecules ({@link org.molten.structures.BuiltInMolecules}:
 * water, ethanol, benzene, alanine dipeptide, Ace-(Ala)5-NMe, each at its GFN2-xTB minimum) and
 * periodic liquid water boxes at 1 g/cm³ ({@link org.molten.structures.WaterBox}). Positions in Å,
 * masses in amu. Structure files are in {@link org.molten.structures.io}.
 */
package org.molten.structures;
