/**
 * Thermostats, the strategies that turn {@link org.molten.integrators.VelocityVerlet} into an NVT
 * integrator: Langevin (BAOAB), Nosé–Hoover chain, Bussi stochastic velocity rescaling (all three
 * sample the canonical ensemble) and Berendsen (which does not; it is kept for equilibration and
 * comparison). Each targets ⟨KE⟩ = dof k_B T / 2 with the simulation's degrees of freedom, draws
 * random numbers only from the simulation's checkpointed stream and writes its state variables to
 * checkpoints. Units: K, fs, 1/fs, eV.
 */
package org.molten.integrators.thermostats;
