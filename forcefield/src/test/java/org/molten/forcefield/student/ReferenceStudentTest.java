package org.molten.forcefield.student;

import org.molten.core.ForceField;

/** The physical contracts of the student model, for the reference implementation. */
class ReferenceStudentTest extends StudentForceFieldContract {
    @Override
    ForceField create(StudentWeights weights) {
        return new ReferenceStudent(weights);
    }
}
