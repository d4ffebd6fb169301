package org.molten.forcefield.teacher;

/**
 * The settings of one {@link XtbTeacher}, checked by its builder.
 *
 * @param charge                 total charge in e
 * @param unpairedElectrons      number of unpaired electrons (xtb's uhf; 2S)
 * @param accuracy               xtb's accuracy factor (1.0 is xtb's default; smaller is tighter)
 * @param electronicTemperatureK electronic temperature for the Fermi smearing in K (xtb's default 300)
 * @param maxScfIterations       SCF iteration limit, or 0 for xtb's default (250)
 */
record XtbSettings(int charge, int unpairedElectrons, double accuracy, double electronicTemperatureK,
                   int maxScfIterations) {
}
