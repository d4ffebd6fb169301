package org.molten.forcefield.bundled;

import org.junit.jupiter.api.Test;
import org.molten.core.ForceField;
import org.molten.forcefield.student.StudentWeights;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The shipped weights: what they declare (their agreement with the TorchScript export: forcefield-torchscript's BundledBaselineTest). */
class BundledModelTest {

    @Test
    void shippedWeightsDeclareArchitectureAndProvenance() throws IOException {
        StudentWeights w = BundledModel.weights();
        assertArrayEquals(new int[]{1, 6, 7, 8}, w.species());
        assertEquals(128, w.hidden());
        assertEquals(3, w.layers());
        assertEquals(20, w.nRbf());
        assertEquals(5.0, w.cutoffA());
        assertEquals(16.0, w.gammaPerA2());
        Map<String, String> md = w.metadata();
        assertEquals("painn", md.get("architecture"));
        assertEquals("GFN2-xTB (xtb 6.5.1)", md.get("teacher"));
        assertTrue(md.get("training_commit").matches("[0-9a-f]{40}"), md.get("training_commit"));
        assertTrue(md.get("created").matches("\\d{4}-\\d{2}-\\d{2}"), md.get("created"));
        assertTrue(md.get("dataset").contains("water clusters"), md.get("dataset"));
        assertSame(w, BundledModel.weights(), "weights are read once and shared");
    }

    @Test
    void theDefaultForceFieldIsTheOptimisedStudent() throws IOException {
        try (ForceField ff = BundledModel.forceField()) {
            assertEquals("student/optimised", ff.name());
        }
    }
}
