package org.molten.forcefield.student;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent.Precision;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trained weights that ship with Molten (not random ones) on the optimised path, against the
 * reference: the real weight scales and the F32-stored values must not change the agreement.
 */
class BundledModelAgreementTest {
    @Test
    void optimisedAgreesWithReferenceOnTheBundledModel() throws IOException {
        StudentWeights w = BundledModel.weights();
        ReferenceStudent ref = new ReferenceStudent(w);
        // Displaced from the minima (0.1 Å rms per coordinate) so that forces are of order 1 eV/Å:
        // at a minimum they nearly vanish and any relative comparison measures rounding alone.
        Atoms[] systems = {BuiltInMolecules.load("ethanol"), BuiltInMolecules.load("alanine-dipeptide"),
                WaterBox.forAtomCount(111, 5)};   // 37 waters, 10.4 Å: just above 2 r_c
        RandomStream rng = new RandomStream(42);
        for (Atoms a : systems) {
            double[] r = a.positions();
            for (int k = 0; k < r.length; k++) {
                r[k] += 0.1 * rng.nextGaussian();
            }
        }
        try (ForceField f64 = new OptimisedStudent(w, OptimisedStudentTest.threaded());
             ForceField f32 = new OptimisedStudent(w, OptimisedStudentTest.threaded().withPrecision(Precision.FLOAT32))) {
            for (Atoms atoms : systems) {
                OptimisedStudentTest.assertAgrees(ref, f64, atoms, 1e-10, "bundled f64 " + atoms.formula());
                OptimisedStudentTest.assertAgrees(ref, f32, atoms, 1e-5, "bundled f32 " + atoms.formula());
            }
        }
        assertTrue(w.hidden() >= 2);
    }
}
