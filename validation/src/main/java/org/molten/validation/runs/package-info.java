/**
 * The validation protocol: builds each system, draws Maxwell–Boltzmann velocities from the seed,
 * equilibrates with Langevin dynamics, then runs NVE and NVT production with the optimised
 * student and with the baseline from the identical state, sampling energies, temperatures and
 * frames, and turns the samples into {@link org.molten.validation.reports.RunReport}s.
 */
package org.molten.validation.runs;
