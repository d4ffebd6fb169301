package org.molten.forcefield.student;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.forcefield.student.OptimisedStudent.DenseBackend;

import static org.junit.jupiter.api.Assertions.*;

/** ND4J is optional: when it is unavailable the ND4J path falls back to loops and stays correct. */
class Nd4jFallbackTest {
    @Test
    void unavailableNd4jFallsBackToLoopsWithTheSameResults() {
        StudentWeights w = StudentFixtures.smallWeights(41, 4.0);
        Atoms atoms = StudentFixtures.cluster(new RandomStream(41), 20, 0.95);
        ReferenceStudent ref = new ReferenceStudent(w);
        long before = Nd4jSupport.fallbackCount();
        try {
            Nd4jSupport.disable("simulated: natives could not be loaded");
            assertFalse(Nd4jSupport.available());
            assertEquals("simulated: natives could not be loaded", Nd4jSupport.status());
            try (OptimisedStudent opt = new OptimisedStudent(w, OptimisedStudentTest.threaded().withDense(DenseBackend.ND4J))) {
                OptimisedStudentTest.assertAgrees(ref, opt, atoms, 1e-10, "ND4J requested but unavailable");
                assertFalse(opt.lastCallUsedNd4j());
            }
            assertEquals(before + 1, Nd4jSupport.fallbackCount());
        } finally {
            Nd4jSupport.resetForTests();
        }
    }
}
