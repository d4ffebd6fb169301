package org.molten.validation.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The progress line labels its times and extrapolates the time left from the steps done since it started. */
class ProgressLineTest {
    private final ProgressLine line = new ProgressLine("steps");

    @Test
    void labelsElapsedAndRemainingTime() {
        // 420 of 1000 steps in 12 s: 580 more at the same pace take 16.57 s
        String s = line.render("validate", 0, 420, 1000, Duration.ofSeconds(12), Duration.ofSeconds(12), "water NVE", 100);
        assertEquals(100, s.length(), s);
        assertTrue(s.startsWith("validate  42% [========"), s);
        assertTrue(s.endsWith("] 420/1000 steps | elapsed 0:00:12 | left ~0:00:16 | water NVE"), s);
    }

    @Test
    void aRestartExtrapolatesFromItsOwnStepsAndCountsAllElapsedTime() {
        // restarted at step 500, 100 steps in 10 s since: 400 left take 40 s; 1 h 2 min elapsed in all
        String s = line.render("molten run", 500, 600, 1000, Duration.ofSeconds(10), Duration.ofSeconds(3720), null, 120);
        assertTrue(s.endsWith(" 600/1000 steps | elapsed 1:02:00 | left ~0:00:40"), s);
        String none = line.render("molten run", 500, 500, 1000, Duration.ZERO, Duration.ZERO, "", 120);
        assertTrue(none.endsWith(" 500/1000 steps | elapsed 0:00:00"), "no estimate before a step: " + none);
        String done = line.render("validate", 0, 1000, 1000, Duration.ofSeconds(5), Duration.ofSeconds(5), "", 120);
        assertTrue(done.contains("100% [====") && done.endsWith("1000/1000 steps | elapsed 0:00:05 | done"), done);
    }

    @Test
    void aNarrowTerminalKeepsTheLabelledNumbers() {
        String s = line.render("validate", 0, 10, 1000, Duration.ofSeconds(1), Duration.ofSeconds(1), "", 60);
        assertTrue(s.length() <= 60, s);
        assertTrue(s.contains("elapsed 0:00:01"), s);
        assertTrue(!s.contains("["), "no room for a bar: " + s);
    }
}
