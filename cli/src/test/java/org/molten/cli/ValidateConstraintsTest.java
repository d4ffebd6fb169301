package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code molten validate --constraints --timestep}: every run, the teacher's own MD included, holds the same
 * constraints, and the degrees of freedom the temperature criteria use subtract them. Water with rigid water
 * (SETTLE) keeps only its rigid-body motion: 9 − 3 (momentum) − 3 (the rigid triangle) = 3.
 */
class ValidateConstraintsTest {

    @Test
    void everyRunOfARigidWaterCountsThreeDegreesOfFreedom(@TempDir Path dir) throws Exception {
        ValidateCommandTest.Result r = ValidateCommandTest.run(new ValidateCommandTest.SpringModels(20, 20, 20.0), dir,
                "--systems", "water", "--constraints", "h-bonds", "--timestep", "2", "--steps", "400",
                "--equilibration-steps", "100", "--replicas", "1", "--teacher-frames", "5", "--baseline", "teacher");
        assertNotNull(r.json(), r.out() + r.err());
        JsonNode runs = r.json().path("systems").get(0).path("runs");
        int production = 0;
        for (JsonNode run : runs) {
            String label = run.path("label").asText();
            if (label.contains("equilibration")) {
                continue;
            }
            production++;
            assertEquals(3, run.path("degrees_of_freedom").asInt(), label + ": " + run);
        }
        assertEquals(4, production, "optimised and teacher, NVE and NVT: " + runs);
        assertTrue(runs.toString().contains("teacher NVT"), runs.toString());
        // a rigid rotor's kinetic energy does not fluctuate: its constant energy is no drift
        assertFalse(r.json().path("summary").path("failures").toString().contains("drift-to-kinetic-sigma"),
                r.json().path("summary").path("failures").toString());
    }

    @Test
    void anUnknownRuleIsNamed(@TempDir Path dir) throws Exception {
        ValidateCommandTest.Result r = ValidateCommandTest.run(new ValidateCommandTest.SpringModels(20, 20), dir,
                "--systems", "water", "--constraints", "angles");
        assertNotEquals(0, r.exit());
        assertTrue(r.err().contains("--constraints") && r.err().contains("angles"), r.err());
    }
}
