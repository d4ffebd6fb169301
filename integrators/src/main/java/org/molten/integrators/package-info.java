/**
 * Molecular dynamics: {@link org.molten.integrators.Simulation} (the running state, as OpenMM's
 * Context), {@link org.molten.integrators.VelocityVerlet} (NVE, or NVT with a
 * {@link org.molten.integrators.Thermostat} strategy from the {@code thermostats} package),
 * Maxwell–Boltzmann initial velocities, the per-step {@link org.molten.integrators.BlowUpGuard},
 * binary {@link org.molten.integrators.Checkpoint}s for bit-for-bit restarts, and the
 * {@link org.molten.integrators.Reporter} observer interface (implementations in
 * {@code reporters}). Units: Å, Å/fs, eV, eV/Å, amu, fs, K. Nothing here knows which force-field
 * backend computes the forces.
 */
package org.molten.integrators;
