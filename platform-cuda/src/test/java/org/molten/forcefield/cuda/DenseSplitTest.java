package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The K-split choice of the tiled dense stages: its bounds, its property, and what its model decides. */
class DenseSplitTest {
    @AfterEach
    void clear() {
        System.clearProperty(DenseSplit.PROPERTY);
    }

    @Test
    void splitsStayWithinTheChunksAndTheScratchBound() {
        for (int sms : new int[] {8, 132}) {
            DenseSplit auto = DenseSplit.fromProperty(sms);
            long maxUnits = (long) DenseSplit.MAX_UNITS_PER_SM * sms;
            for (int tiles = 1; tiles <= 2000; tiles += 7) {
                for (int k = 32; k <= 512; k += 32) {
                    int s = auto.splits(tiles, k);
                    assertTrue(s >= 1 && s <= Math.min(k / 32, DenseSplit.MAX_SPLITS), tiles + " tiles, K " + k + ": " + s);
                    assertTrue(s == 1 || (long) tiles * s <= maxUnits, tiles + " tiles x " + s + " splits > " + maxUnits);
                    assertTrue(s == 1 || (long) tiles * s * 32 * 128 <= auto.scratchFloats());
                    assertTrue(s == 1 || tiles <= auto.counters());
                }
            }
        }
    }

    @Test
    void theModelSplitsOnlyWhereTilesLeaveTheGpuIdle() {
        DenseSplit h200 = DenseSplit.fromProperty(132);
        // a 201-atom layer in narrow tiles (28 tiles, K = 3F = 384): the chain of 12 chunks is cut
        assertTrue(h200.splits(28, 384) >= 4);
        // a 3,000-atom F-wide layer (94 tiles for 264 block slots)
        assertEquals(2, h200.splits(94, 384));
        // two waves of tiles with a short K (the U.v layer of 3,000 atoms): nothing to gain
        assertEquals(1, h200.splits(564, 128));
        // one chunk: nothing to split
        assertEquals(1, h200.splits(3, 32));
        // the chosen count is the model's minimum
        for (int tiles : new int[] {7, 28, 94, 282}) {
            int s = h200.splits(tiles, 256);
            for (int t = 1; t <= 8; t++) {
                if ((long) tiles * t <= 8L * 132) {
                    assertTrue(h200.cost(tiles, 8, s) <= h200.cost(tiles, 8, t), tiles + " tiles: " + s + " vs " + t);
                }
            }
        }
    }

    @Test
    void aFixedCountIsClampedAndABadOneIsRefusedByName() {
        System.setProperty(DenseSplit.PROPERTY, "6");
        DenseSplit six = DenseSplit.fromProperty(132);
        assertEquals(6, six.splits(28, 384));
        assertEquals(4, six.splits(28, 128));  // 4 chunks
        assertEquals(1, six.splits(1000, 384));  // beyond the scratch bound
        for (String bad : new String[] {"0", "17", "two", "-3", ""}) {
            System.setProperty(DenseSplit.PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DenseSplit.fromProperty(132));
            assertTrue(e.getMessage().contains(DenseSplit.PROPERTY) && e.getMessage().contains("not " + bad), e.getMessage());
        }
    }
}
