/**
 * What a student model knows: the atom environments of its training data (an element and the sorted elements of
 * its bonded neighbours, {@link org.molten.forcefield.domain.AtomEnvironment}), carried by its weight file as the
 * {@code domain} metadata entry ({@link org.molten.forcefield.domain.ModelDomain}), and the check of a structure
 * against them ({@link org.molten.forcefield.domain.DomainReport}). docs/model.md defines both; the training
 * recipe's twin is forcefield/training/domain.py.
 */
package org.molten.forcefield.domain;
