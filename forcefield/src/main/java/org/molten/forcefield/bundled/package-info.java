/**
 * The model that ships with Molten: a PaiNN student distilled from GFN2-xTB, in versions listed by ModelRegistry (weights
 * org/molten/forcefield/student/, v5 in student-gfn2.safetensors, listed in models.properties; recipe forcefield/training, model card
 * docs/model-card.md), its TorchScript baseline, the shipped test set with the teacher's labels,
 * and the accuracy of a force field against those labels.
 */
package org.molten.forcefield.bundled;
