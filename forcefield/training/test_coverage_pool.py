"""Tests of the coverage pool (organic/coverage.csv, organic/enumerate_coverage.py): training molecules chosen by a count
of atom environments, never by a test molecule's error.
/usr/bin/python3 -m unittest forcefield/training/test_coverage_pool.py

The row checks are test_organic.py's (assert_new_pool_row; stereo-free keys, tautomers and scaffolds written there, not
enumerate.py's). Test set B (organic/testset_b.csv, sealed) is checked whenever the file exists. CoveragePoolChecks and
assert_pool_data serve the second draw too (test_coverage2_pool.py: coverage2.csv).
"""
import csv
import os
import unittest

from test_organic import (HAVE_RDKIT, MAX_ATOMS, ORGANIC, assert_first_frame_labelled, assert_new_pool_row,
                          assert_pool_starts, canon, flat, read_molecules, read_rows, scaffold, tautomer)

if HAVE_RDKIT:
    from rdkit import Chem, RDLogger

TESTSET_B = os.path.join(ORGANIC, "testset_b.csv")
OTHER_POOLS = ("small.csv", "conjugated.csv", "rare.csv", "motifs.csv")
CATEGORIES = {"nitro", "urea", "carbamate", "hydrazine", "oxime", "lactam", "amide", "lactone", "ester",
              "carboxylic_acid", "nitrile", "imine", "aldehyde", "ketone", "amine", "phenol", "alcohol", "ether",
              "heteroaromatic", "aromatic", "alkyne", "alkene", "alkane"}   # enumerate.CATEGORY_RULES' names


def test_molecules(rows):
    """({flat SMILES: name}, {tautomer: name}, {ring scaffold: name}) of rows."""
    return ({flat(r["smiles"]): r.get("name", r["smiles"]) for r in rows},
            {tautomer(r["smiles"]): r.get("name", r["smiles"]) for r in rows},
            {s: r.get("name", r["smiles"]) for r in rows for s in [scaffold(r["smiles"])] if s})


class CoveragePoolChecks:
    """The checks of a coverage draw (organic/<POOL>.csv and its starts), for a unittest.TestCase: CoveragePoolTest
    (the first draw) here, test_coverage2_pool.Coverage2PoolTest (the second)."""
    POOL = "coverage"
    FIRST_INDEX = 500000          # its starts' first index (enumerate_coverage.DRAWS)
    SIZE = (500, 700)             # the rows' bounds
    OTHER = OTHER_POOLS           # the pools before it, besides molecules.csv
    MAX_BYTES = 800000            # the starts file's bound (committed)

    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows, cls.mols = read_molecules(f"{cls.POOL}.csv")
        listed = read_rows(os.path.join(ORGANIC, "molecules.csv"))
        cls.known = {flat(r["smiles"]) for r in listed}
        for f in cls.OTHER:
            cls.known |= {flat(r["smiles"]) for r in read_rows(os.path.join(ORGANIC, f))}
        cls.test_a = test_molecules([r for r in listed if r["split"] == "test"])

    def test_every_row_is_a_new_neutral_closed_shell_hcno_molecule_of_at_most_42_atoms(self):
        self.assertEqual(list(self.rows[0]), ["name", "smiles", "category"])
        self.assertTrue(self.SIZE[0] <= len(self.rows) <= self.SIZE[1], len(self.rows))
        seen = set()
        for r, m in zip(self.rows, self.mols):
            assert_new_pool_row(self, r, m, seen, self.known)
            self.assertEqual(len(Chem.GetMolFrags(m)), 1, r["name"])
            self.assertLessEqual(Chem.AddHs(m).GetNumAtoms(), MAX_ATOMS, r["name"])
            self.assertIn(r["category"], CATEGORIES, r["name"])
        self.assertEqual(len({r["name"] for r in self.rows}), len(self.rows))

    def assertDisjoint(self, tests, which):
        smiles, tautomers, scaffolds = tests
        clash = []
        for r in self.rows:
            if flat(r["smiles"]) in smiles:
                clash.append(f"{r['name']} ({r['smiles']}) is {which} molecule {smiles[flat(r['smiles'])]}, stereo aside")
            elif tautomer(r["smiles"]) in tautomers:
                clash.append(f"{r['name']} ({r['smiles']}): a tautomer of {which} molecule "
                             f"{tautomers[tautomer(r['smiles'])]}")
            elif scaffold(r["smiles"]) in scaffolds:
                clash.append(f"{r['name']} ({r['smiles']}): the ring scaffold of {which} molecule "
                             f"{scaffolds[scaffold(r['smiles'])]}")
        self.assertEqual(clash, [])

    def test_no_test_a_molecule_stereoisomer_tautomer_or_ring_scaffold(self):
        self.assertGreater(len(self.test_a[0]), 100)
        self.assertDisjoint(self.test_a, "test-A")

    def test_no_test_b_molecule_stereoisomer_tautomer_or_ring_scaffold(self):
        with open(TESTSET_B, newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertGreater(len(rows), 0)
        self.assertDisjoint(test_molecules(rows), "test-B")

    def test_every_row_is_the_product_its_name_says(self):
        """A name is enumerate.py's 'scaffold + substituent' or 'linker: substituent, substituent' (LINKERS); the
        product, made again here by molzip, is the row's SMILES (no hand-written molecule slips in)."""
        import enumerate as en
        import enumerate_coverage as ec
        sc, sub, link = dict(en.SCAFFOLDS), dict(en.SUBSTITUENTS), {n: s for n, s, _ in ec.LINKERS}
        for r in self.rows:
            if ": " in r["name"]:
                ln, pair = r["name"].split(": ")
                a, b = pair.split(", ")
                smi = link[ln] + "." + sub[a] + "." + sub[b].replace("[*:1]", "[*:2]")
            else:
                a, b = r["name"].split(" + ")
                smi = sc[a] + "." + sub[b]
            m = Chem.molzip(Chem.MolFromSmiles(smi))
            Chem.SanitizeMol(m)
            self.assertEqual(canon(Chem.MolToSmiles(m)), r["smiles"], r["name"])

    def test_the_starts_hold_every_molecule_with_its_own_seeds_and_atoms(self):
        """3 conformers a row, in order, indexed from FIRST_INDEX (the first draw's 500,000, the motif pool's 400,000),
        split=POOL, the atoms of the SMILES in its order and its E/Z and R/S (test_organic.assert_pool_starts); the
        builder's draw writes them there."""
        import enumerate_coverage as ec
        draw = {d["split"]: d for d in ec.DRAWS.values()}[self.POOL]
        self.assertEqual((draw["first"], os.path.basename(draw["out"]), os.path.basename(draw["starts"])),
                         (self.FIRST_INDEX, f"{self.POOL}.csv", f"starts.{self.POOL}.xyz.gz"))
        assert_pool_starts(self, self.rows, self.POOL, self.FIRST_INDEX, max_bytes=self.MAX_BYTES)


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class CoveragePoolTest(CoveragePoolChecks, unittest.TestCase):
    """organic/coverage.csv, the first draw."""


class CoverageTestSetBTest(unittest.TestCase):
    def test_a_missing_test_set_b_is_refused_not_skipped(self):
        """A pool built without B's exclusions would train on B's molecules: a named B file that is missing stops the
        build with its name; only an explicit '' leaves B out."""
        import enumerate_coverage as ec
        with self.assertRaises(SystemExit) as cm:
            ec.test_sets(testset_b=os.path.join(ORGANIC, "no_such_testset_b.csv"))
        self.assertIn("no_such_testset_b.csv: no such file", str(cm.exception))
        self.assertFalse(ec.test_sets(testset_b="")["b"])
        self.assertTrue(ec.test_sets()["b"])


def assert_pool_data(test, before, after, pool, first_id):
    """organic_data.py run (test_organic_data.run_data) without a pool (before) and with it (after): the pool's start ids
    from first_id (organic_data.POOLS), its frames in organic-<pool>.train.npz only, of its csv's first two molecules
    (4 starts), every other npz array for array as before, the same validation molecules."""
    import json
    import numpy as np
    import organic_data
    test.assertEqual(organic_data.POOLS[pool], first_id)
    files = sorted(f for f in os.listdir(before) if f.endswith(".npz"))
    test.assertEqual(sorted(f for f in os.listdir(after) if f.endswith(".npz")),
                     sorted(files + [f"organic-{pool}.train.npz"]))
    for name in files:   # array for array (an npz's zip entries carry the time they were written)
        a, b = (np.load(os.path.join(d, name)) for d in (before, after))
        test.assertEqual(sorted(a.files), sorted(b.files), name)
        for k in a.files:
            np.testing.assert_array_equal(a[k], b[k], f"{name}: {k}")
    data = np.load(os.path.join(after, f"organic-{pool}.train.npz"))
    first = read_rows(os.path.join(ORGANIC, f"{pool}.csv"))[:2]
    test.assertEqual(sorted(str(m) for m in data["molecules"]), sorted(r["name"] for r in first))
    stats = []
    for d in (before, after):
        with open(os.path.join(d, "organic-data.json")) as f:
            stats.append(json.load(f))
    test.assertEqual(stats[1]["starts"][pool], 4)
    test.assertEqual(stats[1]["val_molecules"], stats[0]["val_molecules"])
    test.assertGreater(len(data["energy"]), 8)


class PoolDataChecks:
    """organic_data.py with a pool (POOL, its start ids from FIRST) against the same run without it (BEFORE, the options
    of both runs besides --POOL): its own system, seeds and file, never in validation; every other file as it is
    without the option (assert_pool_data); the pool's first frame carries GFN2-xTB's labels. Mixed into a
    unittest.TestCase by each pool's tests."""
    POOL = FIRST = None
    BEFORE = ()

    @classmethod
    def setUpClass(cls):
        import tempfile
        from test_organic_data import libxtb_or_skip, run_data
        libxtb_or_skip()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = {k: os.path.join(cls.tmp.name, k) for k in ("before", "after")}
        run_data(cls.out["before"], *cls.BEFORE)
        run_data(cls.out["after"], *cls.BEFORE, "--" + cls.POOL)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_pool_leaves_every_other_file_alone_and_goes_to_its_own_system(self):
        assert_pool_data(self, self.out["before"], self.out["after"], self.POOL, self.FIRST)

    def test_the_pools_first_frame_carries_gfn2_xtb_labels(self):
        assert_first_frame_labelled(self, os.path.join(self.out["after"], f"organic-{self.POOL}.train.npz"))


class CoverageDataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --coverage beside --motifs (start ids from 700,000; test set B's tasks, organic_testb_data.py,
    use 600,000...)."""
    POOL, FIRST, BEFORE = "coverage", 700000, ("--motifs",)


if __name__ == "__main__":
    unittest.main()
