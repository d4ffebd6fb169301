"""Tests of the third coverage draw (organic/coverage3.csv, organic/enumerate_coverage.py --draw 3): the coverage pool's
rule continued past the second draw, counting the list's training molecules and every pool the shipped preview was
trained on (the second ring draw included), not the third ring draw (rings3.csv), which round 23 leaves out.
/usr/bin/python3 -m unittest forcefield/training/test_coverage3_pool.py

The row, test-set and starts checks are the first draw's (test_coverage_pool.CoveragePoolChecks); the gains are counted
here from the files, apart from the builder (test_coverage2_pool's counters). The byte-for-byte rebuild of this draw
runs with the earlier two in test_coverage2_pool.Coverage2DrawTest.test_every_draw_rebuilds_byte_for_byte.
"""
import os
import unittest

from test_organic import HAVE_RDKIT, ORGANIC, read_rows
from test_coverage_pool import CoveragePoolChecks, PoolDataChecks
from test_coverage2_pool import TRAINING as TRAINING2, CoverageDrawChecks, UniqueNameChecks

# What the preview's data hold: molecules.csv's split=train rows and these eight pools (not rings3.csv)
TRAINING = TRAINING2 + ("coverage2.csv", "rings2.csv")


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class Coverage3PoolTest(UniqueNameChecks, CoveragePoolChecks, unittest.TestCase):
    """organic/coverage3.csv: new to the list and to the eight pools it counts; the first draw's checks; no name of the
    third ring draw's either (a round may hold both)."""
    POOL = "coverage3"
    FIRST_INDEX = 1200000
    SIZE = (700, 700)
    OTHER = TRAINING
    ALSO_NAMED = ("rings3.csv",)
    MAX_BYTES = 900000

    def test_no_molecule_of_the_third_ring_draw(self):
        from test_organic import flat
        rings3 = {flat(r["smiles"]) for r in read_rows(os.path.join(ORGANIC, "rings3.csv"))}
        self.assertEqual([r["name"] for r in self.rows if flat(r["smiles"]) in rings3], [])


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class Coverage3DrawTest(CoverageDrawChecks, unittest.TestCase):
    """The draw counts the preview's training molecules, the second ring draw's too and the third ring draw's not, and
    its choice is the greedy one: gains first 2, 100th 2, 700th 4/3 (the second draw's: 3, 8/3, 2)."""
    DRAW, CSV, TRAINING = 3, "coverage3.csv", TRAINING
    TRAINED = 4707   # 1,525 + 778 + 600 + 424 + 700 + 680
    GAINS = (6, 6, 4)

    def test_not_the_third_ring_draw_and_the_draws_settings(self):
        import enumerate_coverage as ec
        self.assertNotIn("rings3.csv", [os.path.basename(p) for p in ec.DRAWS[3]["pools"]])
        self.assertEqual((ec.DRAWS[3]["first"], ec.DRAWS[3]["split"], ec.DRAWS[3]["size"]),
                         (1200000, "coverage3", 700))


class Coverage3DataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --coverage3 beside --coverage2 (start ids from 1,200,000)."""
    POOL, FIRST, BEFORE = "coverage3", 1200000, ("--coverage2",)


if __name__ == "__main__":
    unittest.main()
