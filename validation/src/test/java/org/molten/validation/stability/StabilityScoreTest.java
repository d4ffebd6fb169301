package org.molten.validation.stability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MLIPAudit's score on synthetic outcomes, exact: ½·f/N on an explosion at frame f, ½ + ½·f/N on a hydrogen detached
 * at frame f, 1 when stable, the explosion scoring when both happen, and a molecule's score the mean of its replicas.
 */
class StabilityScoreTest {
    private static final int N = 1000;

    @Test
    void explosionAtFrameFScoresHalfFOverN() {
        ReplicaStability r = new ReplicaStability(250, -1, N, 250, "hot");
        assertEquals(StabilityEvent.EXPLOSION, r.event());
        assertEquals(250, r.eventFrame());
        assertEquals(0.125, r.score(), 0.0);
        assertEquals(0.0, new ReplicaStability(0, -1, N, 0, "refused start").score(), 0.0);
    }

    @Test
    void hydrogenDetachedAtFrameFScoresHalfPlusHalfFOverN() {
        ReplicaStability r = new ReplicaStability(-1, 400, N, N, "H far");
        assertEquals(StabilityEvent.HYDROGEN_DETACHED, r.event());
        assertEquals(400, r.eventFrame());
        assertEquals(0.7, r.score(), 1e-15);
        assertEquals(0.5 + 0.5 / N, new ReplicaStability(-1, 1, N, N, "").score(), 1e-15);
    }

    @Test
    void anExplosionAfterADetachmentScoresAsTheExplosion() {
        // MLIPAudit looks for an explosion first: the hydrogen event at 100 does not save the replica that blows up at 600
        ReplicaStability later = new ReplicaStability(600, 100, N, 600, "");
        assertEquals(StabilityEvent.EXPLOSION, later.event());
        assertEquals(0.3, later.score(), 1e-15);
        assertEquals(0.05, new ReplicaStability(100, 100, N, 100, "").score(), 1e-15);
    }

    @Test
    void stableToTheLastFrameScoresOneAndUnfinishedRunsHaveNoScoreYet() {
        assertEquals(1.0, new ReplicaStability(-1, -1, N, N, "").score(), 0.0);
        assertEquals(StabilityEvent.STABLE, new ReplicaStability(-1, -1, N, N, "").event());
        assertTrue(Double.isNaN(new ReplicaStability(-1, -1, N, 999, "").score()), "stable so far is not a score");
        assertTrue(Double.isNaN(new ReplicaStability(-1, 5, N, 999, "").score()), "a later explosion could still come");
        assertFalse(new ReplicaStability(-1, 5, N, 999, "").complete());
        assertTrue(new ReplicaStability(7, -1, N, 7, "").complete(), "an explosion is final at once");
    }

    @Test
    void aMoleculeScoresTheMeanOfItsReplicasAndShowsTheWorst() {
        MoleculeStability m = new MoleculeStability("ethanol", "f frame 0", 9, List.of(
                new ReplicaStability(-1, -1, N, N, ""),           // 1
                new ReplicaStability(-1, 200, N, N, ""),          // 0.6
                new ReplicaStability(500, -1, N, 500, ""),        // 0.25
                new ReplicaStability(-1, 100, N, N, "")));        // 0.55
        assertEquals((1 + 0.6 + 0.25 + 0.55) / 4, m.score(), 1e-15);
        assertEquals(StabilityEvent.EXPLOSION, m.worst().event());
        assertEquals(1, m.count(StabilityEvent.STABLE));
        assertEquals(2, m.count(StabilityEvent.HYDROGEN_DETACHED));
        MoleculeStability twoDetached = new MoleculeStability("x", "f", 3, List.of(
                new ReplicaStability(-1, 300, N, N, ""), new ReplicaStability(-1, 20, N, N, "")));
        assertEquals(20, twoDetached.worst().eventFrame(), "the earlier of two detachments is the worse");
    }

    @Test
    void theReportsMeanIsOverEveryReplicaAndPassesAtMinScore() {
        StabilitySettings s = new StabilitySettings(300, 100, 0.5, 0.01, 2, 1, N, "cpu");
        MoleculeStability a = new MoleculeStability("a", "f", 3, List.of(new ReplicaStability(-1, -1, N, N, ""),
                new ReplicaStability(-1, -1, N, N, "")));
        MoleculeStability b = new MoleculeStability("b", "f", 3, List.of(new ReplicaStability(-1, -1, N, N, ""),
                new ReplicaStability(-1, 800, N, N, "")));
        StabilityReport r = new StabilityReport("v5", s, "cpu", "complete", N, 1, List.of(a, b), 0.95);
        assertEquals((3 + 0.9) / 4, r.meanScore(), 1e-15);
        assertTrue(r.passed());
        assertEquals("PASS", r.verdict());
        assertEquals(1, r.molecules(StabilityEvent.HYDROGEN_DETACHED));
        assertEquals(3, r.replicas(StabilityEvent.STABLE));
        assertEquals(100.0, r.timePs(N), 1e-12);
        assertEquals("FAIL", new StabilityReport("v5", s, "cpu", "complete", N, 1, List.of(a, b), 0.98).verdict());
        assertEquals("INCOMPLETE", new StabilityReport("v5", s, "cpu", "interrupted", 10, 1, List.of(a, b), 0.5).verdict());
    }
}
