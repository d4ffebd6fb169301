/**
 * The simulation core shared by every module: units (Å, eV, eV/Å, amu, fs, K), elements,
 * the periodic {@link org.molten.core.Cell}, the state {@link org.molten.core.Atoms}, the
 * {@link org.molten.core.ForceField} contract, observables and a checkpointable random stream.
 */
package org.molten.core;
