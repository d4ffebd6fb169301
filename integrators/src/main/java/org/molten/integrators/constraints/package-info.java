/**
 * Holonomic distance constraints in velocity Verlet: the rule ({@link org.molten.integrators.constraints.Constraints}:
 * none, h-bonds, all-bonds or given pairs), RATTLE and SETTLE
 * ({@link org.molten.integrators.constraints.ConstraintSolver}) and hydrogen mass repartitioning.
 */
package org.molten.integrators.constraints;
