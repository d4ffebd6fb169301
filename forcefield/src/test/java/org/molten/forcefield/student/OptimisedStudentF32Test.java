package org.molten.forcefield.student;

import org.molten.core.ForceField;
import org.molten.forcefield.student.OptimisedStudent.Precision;

/**
 * The physical contracts on the float32 path, with tolerances for single precision: central
 * differences of a float32 energy carry rounding noise of ~1e-7 relative / step, so the step is
 * larger and the bound looser; invariances hold to float32 rounding.
 */
class OptimisedStudentF32Test extends StudentForceFieldContract {
    @Override
    ForceField create(StudentWeights weights) {
        return new OptimisedStudent(weights, OptimisedStudentTest.threaded().withPrecision(Precision.FLOAT32));
    }

    @Override
    double finiteDifferenceTolerance() {
        return 2e-3;
    }

    @Override
    double finiteDifferenceStep() {
        return 2e-3;
    }

    @Override
    double invarianceTolerance() {
        return 1e-6;
    }
}
