/**
 * The student force field: a PaiNN-style equivariant message-passing network (Schütt et al.,
 * ICML 2021) distilled from GFN2-xTB. {@link org.molten.forcefield.student.StudentWeights} holds
 * the weights (safetensors file, layout in docs/model.md); {@code ReferenceStudent} is the
 * float64 all-pairs oracle written operation by operation; {@code OptimisedStudent} is the fast
 * CPU path (cell list, fused message passing and backward, threads, optional ND4J GEMMs) tested
 * against it.
 */
package org.molten.forcefield.student;
