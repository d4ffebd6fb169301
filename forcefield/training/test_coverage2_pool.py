"""Tests of the second coverage draw (organic/coverage2.csv, organic/enumerate_coverage.py --draw 2): the coverage pool's
rule continued past its 600 molecules, counting everything the training data hold since, the ring-system pool included.
/usr/bin/python3 -m unittest forcefield/training/test_coverage2_pool.py

The row, test-set and starts checks are the first draw's (test_coverage_pool.CoveragePoolChecks: test_organic.py's
stereo-free keys, tautomers and scaffolds, test A and the sealed test B). The counts of atom environments are made here
from the files, apart from the builder, so that a draw that left a pool out of its counts is caught.
"""
import os
import tempfile
import unittest

from test_organic import HAVE_RDKIT, ORGANIC, read_rows
from test_coverage_pool import OTHER_POOLS, CoveragePoolChecks, PoolDataChecks

if HAVE_RDKIT:
    from rdkit import Chem, RDLogger
    from rdkit.Chem import AllChem

# Everything the training data hold: molecules.csv's split=train rows and these six pools (the ring pool came after the
# first draw)
TRAINING = OTHER_POOLS + ("coverage.csv", "rings.csv")
RARE = 3   # an environment held by fewer training molecules is rare; a new one gains 1, once held 2/3, twice 1/3


def environments(smiles):
    """The molecule's distinct Morgan environments of radius 1 and 2 (unhashed ids, chirality ignored)."""
    info = {}
    AllChem.GetMorganFingerprint(Chem.MolFromSmiles(smiles), 2, bitInfo=info)
    return {(r, k) for k, hits in info.items() for _, r in hits if r in (1, 2)}


def training_counts(files):
    """{environment: molecules holding it} of molecules.csv's training rows and the files."""
    rows = [r for r in read_rows(os.path.join(ORGANIC, "molecules.csv")) if r["split"] == "train"]
    for f in files:
        rows += read_rows(os.path.join(ORGANIC, f))
    counts = {}
    for r in rows:
        for e in environments(r["smiles"]):
            counts[e] = counts.get(e, 0) + 1
    return counts, len(rows)


def gains_in_order(rows, counts):
    """Each row's gain, in thirds of a new environment, at its turn: counts as given, raised by the rows before it."""
    counts, out = dict(counts), []
    for r in rows:
        envs = environments(r["smiles"])
        out.append(sum(RARE - counts.get(e, 0) for e in envs if counts.get(e, 0) < RARE))
        for e in envs:
            counts[e] = counts.get(e, 0) + 1
    return out


class UniqueNameChecks:
    """A later draw's names against molecules.csv, the pools it counts (OTHER) and ALSO_NAMED (pools a round may hold
    beside it though the draw does not count them), for a CoveragePoolChecks test case."""
    ALSO_NAMED = ()

    def test_no_name_is_in_the_list_or_another_pool(self):
        """organic_active.read_pool_molecules reads the pools by name: a name held twice would take another molecule."""
        names = {}
        for f in ("molecules.csv",) + self.OTHER + self.ALSO_NAMED:
            names.update({r["name"]: f for r in read_rows(os.path.join(ORGANIC, f))})
        self.assertEqual([(r["name"], names[r["name"]]) for r in self.rows if r["name"] in names], [])


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class Coverage2PoolTest(UniqueNameChecks, CoveragePoolChecks, unittest.TestCase):
    """organic/coverage2.csv: new to the list and to all six pools; the first draw's checks."""
    POOL = "coverage2"
    FIRST_INDEX = 900000
    SIZE = (700, 700)
    OTHER = TRAINING
    MAX_BYTES = 900000


class CoverageDrawChecks:
    """A coverage draw's choice, counted here apart from the builder (for a unittest.TestCase): the builder counts the
    files TRAINING (besides molecules.csv's training rows), TRAINED molecules in all, and every row of CSV gains at its
    turn, no row more than the one before it (greedy: the largest gain is taken first), the gains of the first, 100th
    and last rows GAINS (in thirds of a new environment). A draw that left a pool out of its counts would take molecules
    for environments that pool holds as if they were new: their gain here would fall below later rows'."""
    DRAW = CSV = None
    TRAINING = ()
    TRAINED = 0
    GAINS = ()

    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows = read_rows(os.path.join(ORGANIC, cls.CSV))
        cls.counts, cls.training = training_counts(cls.TRAINING)

    def test_the_builders_counts_start_from_the_list_and_the_pools_before_it(self):
        import enumerate_coverage as ec
        self.assertEqual(sorted(os.path.basename(p) for p in ec.DRAWS[self.DRAW]["pools"]), sorted(self.TRAINING))
        self.assertEqual(len(ec.training_rows(pools=ec.DRAWS[self.DRAW]["pools"])), self.training)
        self.assertEqual(self.training, self.TRAINED)

    def test_every_row_gains_and_the_gains_fall_in_the_order_taken(self):
        g = gains_in_order(self.rows, self.counts)
        self.assertTrue(all(x > 0 for x in g), min(g))
        rises = [(k, self.rows[k]["name"], g[k - 1] / RARE, g[k] / RARE) for k in range(1, len(g)) if g[k] > g[k - 1]]
        self.assertEqual(rises, [])
        self.assertEqual((g[0], g[99], g[-1]), self.GAINS)


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class Coverage2DrawTest(CoverageDrawChecks, unittest.TestCase):
    """The draw counts every training molecule, the ring pool's too (leaving rings.csv out of its counts changes 44 of
    its 700 molecules), and its choice is the greedy one: gains first 3, 100th 8/3, 700th 2."""
    DRAW, CSV, TRAINING = 2, "coverage2.csv", TRAINING
    TRAINED = 3327   # 1,525 + 778 + 600 + 424
    GAINS = (9, 8, 6)

    def test_every_draw_rebuilds_byte_for_byte(self):
        """The whole build of each draw of enumerate_coverage.DRAWS (candidates, exclusions, choice: ~20 s each; the
        third draw's too) writes its csv byte for byte; the second draw's TEACHER_BROKEN entries leave the first draw
        as it was, and no draw holds one."""
        import enumerate_coverage as ec
        self.assertEqual(sorted(ec.DRAWS), [1, 2, 3])
        for draw in ec.DRAWS.values():
            rows = read_rows(draw["out"])
            self.assertEqual([r["smiles"] for r in rows if r["smiles"] in ec.TEACHER_BROKEN], [], draw["out"])
        self.assertIn("N#CCC(=N)N", ec.TEACHER_BROKEN)   # the second draw's MD check (organic/README.md)
        with tempfile.TemporaryDirectory() as d:
            for k, draw in sorted(ec.DRAWS.items()):
                path = os.path.join(d, os.path.basename(draw["out"]))
                ec.write(ec.build(pools=draw["pools"], size=draw["size"]), path)
                with open(path, "rb") as f, open(draw["out"], "rb") as g:
                    self.assertEqual(f.read(), g.read(), f"draw {k}")

    def test_rows_that_are_not_rows_of_the_csv_are_refused_before_any_teacher_runs(self):
        """--teacher-check --md-steps N --rows: a bad or out-of-range row number exits 2 with a message naming --rows,
        the value and the csv (no traceback, no GFN2-xTB run)."""
        import contextlib
        import io
        from unittest import mock
        import enumerate_coverage as ec
        for rows, bad in (("3,x", "'x'"), ("700", "'700'"), ("-1", "'-1'")):
            err = io.StringIO()
            with mock.patch.object(ec, "print_md_check") as md, contextlib.redirect_stderr(err), \
                    self.assertRaises(SystemExit) as cm:
                ec.main(["--draw", "2", "--teacher-check", "--md-steps", "1", "--rows", rows])
            self.assertEqual(cm.exception.code, 2)
            self.assertIn(f"--rows: {bad} is not a row of", err.getvalue())
            self.assertIn("coverage2.csv (0-based, 0..699)", err.getvalue())
            md.assert_not_called()
        with mock.patch.object(ec, "print_md_check") as md:
            ec.main(["--draw", "2", "--teacher-check", "--md-steps", "1", "--rows", "0, 699"])
        self.assertEqual(list(md.call_args.args[1]), [0, 699])


class Coverage2DataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --coverage2 beside --coverage (start ids from 900,000)."""
    POOL, FIRST, BEFORE = "coverage2", 900000, ("--coverage",)


if __name__ == "__main__":
    unittest.main()
