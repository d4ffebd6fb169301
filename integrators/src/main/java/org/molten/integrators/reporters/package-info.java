/**
 * Reporters attached to a {@link org.molten.integrators.Simulation} at an interval: the energy
 * log (CSV with ASE MDLogger's columns), the extended-XYZ trajectory and periodic checkpoints.
 * File reporters can continue a file from where a checkpoint left it (restart).
 */
package org.molten.integrators.reporters;
