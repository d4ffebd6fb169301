package org.molten.validation.stability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** MLIPAudit's explosion rule: more than 10,000 K above the target, or 100x the previous frame, or non-finite. */
class ExplosionRuleTest {
    @Test
    void hotterThanTenThousandKelvinAboveTheTargetExplodes() {
        ExplosionRule r = new ExplosionRule(300, 300);
        assertFalse(r.check(9_000).isPresent(), "30x the previous frame and below target + 10,000 K");
        assertFalse(r.check(10_299).isPresent());
        assertTrue(r.check(10_301).isPresent());
    }

    @Test
    void aHundredfoldJumpFromThePreviousFrameExplodes() {
        ExplosionRule r = new ExplosionRule(300, 300);
        assertFalse(r.check(2).isPresent(), "a cold frame is no explosion");
        assertTrue(r.check(201).get().contains("jumped"), "201 K after 2 K: more than 100x");
        ExplosionRule s = new ExplosionRule(300, 2);
        assertFalse(s.check(199).isPresent(), "just under 100x the start");
    }

    @Test
    void aNonFiniteTemperatureExplodes() {
        assertTrue(new ExplosionRule(300, 300).check(Double.NaN).isPresent());
        assertTrue(new ExplosionRule(300, 300).check(Double.POSITIVE_INFINITY).isPresent());
    }
}
