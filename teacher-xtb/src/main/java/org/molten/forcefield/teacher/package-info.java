/**
 * The teacher in-process: GFN2-xTB through the xtb C API (libxtb 6.x, Debian package libxtb6) called through JNA,
 * as a {@link org.molten.core.ForceField} in eV and eV/Å ({@link org.molten.forcefield.teacher.XtbTeacher}), for
 * checking the student against its teacher along trajectories and for teacher-driven baseline MD. See
 * docs/teacher.md for units, options, thread-safety, failures and cost.
 */
package org.molten.forcefield.teacher;
