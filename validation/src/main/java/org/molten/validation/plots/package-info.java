/**
 * PNG plots of validation runs drawn with XChart (no display needed): energies and temperature
 * against time with the optimised model and the baseline overlaid, and the RMSD between their
 * NVE trajectories.
 */
package org.molten.validation.plots;
