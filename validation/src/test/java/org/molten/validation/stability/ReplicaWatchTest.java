package org.molten.validation.stability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;

/**
 * The protocol's view of one replica on synthetic trajectories of water (N = 10 frames of 100 fs): the frame of the
 * first hydrogen beyond 2.5 Å from its bonded O, of an explosion, both, neither; exact scores.
 */
class ReplicaWatchTest {
    private static final int N = 10;

    private static Atoms start() {
        return BuiltInMolecules.load("water");   // O0, H1, H2
    }

    /** Water with H1 moved along O-H1 to {@code distanceA} from the O. */
    private static Atoms stretched(double distanceA) {
        Atoms a = start();
        double[] r = a.positions();
        double[] d = {r[3] - r[0], r[4] - r[1], r[5] - r[2]};
        double len = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++) {
            r[3 + k] = r[k] + d[k] * distanceA / len;
        }
        return a;
    }

    private static ReplicaWatch watch() {
        return new ReplicaWatch(start(), 300, 300, N, 100);
    }

    @Test
    void aStableTrajectoryScoresOne() {
        ReplicaWatch w = watch();
        for (int f = 1; f <= N; f++) {
            assertFalse(w.observe(f, start(), 300));
        }
        assertEquals(1.0, w.result().score(), 0.0);
    }

    @Test
    void theFirstFrameBeyondTwoAndAHalfAngstromIsTheDetachmentEvenIfTheHydrogenComesBack() {
        ReplicaWatch w = watch();
        for (int f = 1; f <= N; f++) {
            Atoms frame = f == 4 ? stretched(2.6) : f == 7 ? stretched(3.0) : f == 3 ? stretched(2.45) : start();
            assertFalse(w.observe(f, frame, 300));
        }
        ReplicaStability r = w.result();
        assertEquals(StabilityEvent.HYDROGEN_DETACHED, r.event());
        assertEquals(4, r.detachmentFrame());
        assertEquals(0.5 + 0.5 * 4 / N, r.score(), 1e-15);
        assertTrue(r.detail().startsWith("hydrogen H1 is 2.600 Å from its bonded O0 (limit 2.5 Å) at 0.400 ps"), r.detail());
    }

    @Test
    void anExplosionAfterADetachmentScoresAsTheExplosion() {
        ReplicaWatch w = watch();
        for (int f = 1; f <= 5; f++) {
            assertFalse(w.observe(f, f >= 2 ? stretched(3.0) : start(), 300));
        }
        assertTrue(w.observe(6, stretched(3.0), 12_000), "12,000 K: more than 10,000 K above 300 K");
        ReplicaStability r = w.result();
        assertEquals(StabilityEvent.EXPLOSION, r.event());
        assertEquals(6, r.explosionFrame());
        assertEquals(2, r.detachmentFrame());
        assertEquals(0.5 * 6 / N, r.score(), 1e-15);
        assertTrue(r.detail().contains("earlier: hydrogen H1"), r.detail());
    }

    @Test
    void aNonFiniteCoordinateIsAnExplosion() {
        ReplicaWatch w = watch();
        assertFalse(w.observe(1, start(), 300));
        Atoms broken = start();
        broken.positions()[4] = Double.NaN;
        assertTrue(w.observe(2, broken, 300));
        assertEquals(0.1, w.result().score(), 1e-15);
    }

    @Test
    void theDriftRuleCountsAHydrogenOnlyFromWhereItStaysAwayFromEveryHeavyAtom() {
        ReplicaWatch w = new ReplicaWatch(start(), 300, 300, N, 100, HydrogenRule.DRIFT);
        ReplicaWatch bonded = watch();
        for (int f = 1; f <= N; f++) {
            // out at 2 and 3, back at 4 and 5, out again from 6 to the end
            Atoms frame = f == 2 || f == 3 || f >= 6 ? stretched(3.0) : start();
            assertFalse(w.observe(f, frame, 300));
            bonded.observe(f, frame, 300);
        }
        assertEquals(6, w.result().detachmentFrame(), w.result().detail());
        assertEquals(0.8, w.result().score(), 1e-15);
        assertTrue(w.result().detail().startsWith("hydrogen H1 farther than 2.5 Å from every heavy atom from frame 6 on"),
                w.result().detail());
        assertEquals(2, bonded.result().detachmentFrame(), "the bonded rule counts the first excursion");
        ReplicaWatch back = new ReplicaWatch(start(), 300, 300, N, 100, HydrogenRule.DRIFT);
        for (int f = 1; f <= N; f++) {
            back.observe(f, f < N ? stretched(3.0) : start(), 300);
        }
        assertEquals(1.0, back.result().score(), 0.0, "back at its atom in the last frame: no drift");
    }
}
