"""Tests of the third coverage draw (organic/coverage3.csv, organic/enumerate_coverage.py --draw 3): the coverage pool's
rule continued past the second draw, counting the list's training molecules and every pool the shipped preview was
trained on (the second ring draw included), not the third ring draw (rings3.csv), which round 23 leaves out.
/usr/bin/python3 -m unittest forcefield/training/test_coverage3_pool.py

The row, test-set and starts checks are the first draw's (test_coverage_pool.CoveragePoolChecks); the gains are counted
here from the files, apart from the builder (test_coverage2_pool's counters). Both earlier draws' byte-for-byte rebuilds
and this one's run in test_coverage2_pool.Coverage2DrawTest, which builds every draw of enumerate_coverage.DRAWS.
"""
import os
import unittest

from test_organic import HAVE_RDKIT, ORGANIC, read_rows
from test_coverage_pool import CoveragePoolChecks, PoolDataChecks
from test_coverage2_pool import RARE, TRAINING as TRAINING2, gains_in_order, training_counts

if HAVE_RDKIT:
    from rdkit import RDLogger

# What the preview's data hold: molecules.csv's split=train rows and these eight pools (not rings3.csv)
TRAINING = TRAINING2 + ("coverage2.csv", "rings2.csv")


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class Coverage3PoolTest(CoveragePoolChecks, unittest.TestCase):
    """organic/coverage3.csv: new to the list and to the eight pools it counts; the first draw's checks."""
    POOL = "coverage3"
    FIRST_INDEX = 1200000
    SIZE = (700, 700)
    OTHER = TRAINING
    MAX_BYTES = 900000

    def test_no_name_is_in_the_list_or_another_pool(self):
        """organic_active.read_pool_molecules reads the pools by name: a name held twice would take another molecule.
        The third ring draw counts here too: a round may hold both."""
        names = {}
        for f in ("molecules.csv",) + TRAINING + ("rings3.csv",):
            names.update({r["name"]: f for r in read_rows(os.path.join(ORGANIC, f))})
        self.assertEqual([(r["name"], names[r["name"]]) for r in self.rows if r["name"] in names], [])

    def test_no_molecule_of_the_third_ring_draw(self):
        from test_organic import flat
        rings3 = {flat(r["smiles"]) for r in read_rows(os.path.join(ORGANIC, "rings3.csv"))}
        self.assertEqual([r["name"] for r in self.rows if flat(r["smiles"]) in rings3], [])


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class Coverage3DrawTest(unittest.TestCase):
    """The draw counts the preview's training molecules (the third ring draw's not), and its choice is the greedy one."""

    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows = read_rows(os.path.join(ORGANIC, "coverage3.csv"))
        cls.counts, cls.training = training_counts(TRAINING)

    def test_the_builders_counts_start_from_the_list_and_the_previews_eight_pools(self):
        import enumerate_coverage as ec
        self.assertEqual(sorted(os.path.basename(p) for p in ec.DRAWS[3]["pools"]), sorted(TRAINING))
        self.assertNotIn("rings3.csv", [os.path.basename(p) for p in ec.DRAWS[3]["pools"]])
        self.assertEqual(len(ec.training_rows(pools=ec.DRAWS[3]["pools"])), self.training)
        self.assertEqual(self.training, 4707)   # 1,525 + 778 + 600 + 424 + 700 + 680
        self.assertEqual((ec.DRAWS[3]["first"], ec.DRAWS[3]["split"], ec.DRAWS[3]["size"]),
                         (1200000, "coverage3", 700))

    def test_every_row_gains_and_the_gains_fall_in_the_order_taken(self):
        """Counted here with the second coverage and ring draws: every row, at its turn, brings environments held by
        fewer than 3 training molecules, and no row gains more than the one before it. A draw that left rings2.csv out
        of its counts would take molecules for environments it holds as if they were new: their gain here would fall
        below later rows'. Gains: first 2, 100th 2, 700th 4/3 (the second draw's: 3, 8/3, 2)."""
        g = gains_in_order(self.rows, self.counts)
        self.assertTrue(all(x > 0 for x in g), min(g))
        rises = [(k, self.rows[k]["name"], g[k - 1] / RARE, g[k] / RARE) for k in range(1, len(g)) if g[k] > g[k - 1]]
        self.assertEqual(rises, [])
        self.assertEqual((g[0], g[99], g[-1]), (6, 6, 4))


class Coverage3DataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --coverage3 beside --coverage2 (start ids from 1,200,000)."""
    POOL, FIRST, BEFORE = "coverage3", 1200000, ("--coverage2",)


if __name__ == "__main__":
    unittest.main()
