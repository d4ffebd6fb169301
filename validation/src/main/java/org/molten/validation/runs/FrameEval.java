package org.molten.validation.runs;

import org.molten.validation.metrics.TeacherErrors;

/**
 * The teacher's evaluation of one frame of a student trajectory: the frame (positions Å), the
 * student's energy (eV) and forces (eV/Å) there, the teacher's, and the frame's largest per-atom
 * force error (eV/Å); or, when the teacher could not evaluate it, why.
 */
record FrameEval(TeacherErrors.FrameRef where, double[] positionsA, double studentEnergyEv, double[] studentForces,
                 double teacherEnergyEv, double[] teacherForces, double maxAtomErrorEvPerA, String failure) {
}
