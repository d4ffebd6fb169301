"""Tests of the ring-system pool (organic/rings.csv, organic/enumerate_rings.py) and of its second and third draws
(organic/rings2.csv, rings3.csv; --draw 2, 3): molecules on ring systems the training data never held, drawn from a systematic enumeration by a seeded
rule, never by a model's error.
/usr/bin/python3 -m unittest forcefield/training/test_ring_pool.py

The ring-system key is written here (system_keys: RDKit FragmentOnBonds, not enumerate_rings.ring_systems), so that a
broken key in the builder is caught; the row checks are test_organic.py's (stereo-free keys, tautomers, scaffolds).
"""
import csv
import os
import unittest

from test_organic import (HAVE_RDKIT, ORGANIC, assert_new_pool_row, assert_pool_starts, flat, read_molecules, read_rows,
                          tautomer)
from test_coverage_pool import CATEGORIES, PoolDataChecks, test_molecules

if HAVE_RDKIT:
    from rdkit import Chem, RDLogger

TESTSET_B = os.path.join(ORGANIC, "testset_b.csv")
TRAINING = ("small.csv", "conjugated.csv", "rare.csv", "motifs.csv", "coverage.csv")   # the pools before the first draw
FIRST_INDEX = 800000
MAX_ATOMS = 40
COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}


def system_keys(smiles):
    """The molecule's ring systems, each with the atoms doubly bonded to it outside its rings, every other bond cut and
    capped with H: canonical SMILES without stereo. Written apart from the builder: cut every bond that is in no ring
    and is not a double bond from a ring atom to an atom outside every ring, keep the pieces holding a ring atom."""
    m = Chem.MolFromSmiles(smiles)
    ri = m.GetRingInfo()
    cut = [b.GetIdx() for b in m.GetBonds() if not ri.NumBondRings(b.GetIdx()) and not (
        b.GetBondType() == Chem.BondType.DOUBLE
        and (ri.NumAtomRings(b.GetBeginAtomIdx()) == 0) != (ri.NumAtomRings(b.GetEndAtomIdx()) == 0))]
    pieces = Chem.FragmentOnBonds(m, cut, addDummies=True) if cut else Chem.Mol(m)
    out, atoms = set(), []
    frags = Chem.GetMolFrags(pieces, asMols=True, sanitizeFrags=False, fragsMolAtomMapping=atoms)
    for piece, idx in zip(frags, atoms):
        if not any(i < m.GetNumAtoms() and ri.NumAtomRings(i) for i in idx):
            continue   # a chain between ring systems, or a substituent
        rw = Chem.RWMol(piece)
        for a in rw.GetAtoms():
            if a.GetAtomicNum() == 0:
                a.SetAtomicNum(1)
                a.SetIsotope(0)
        piece = Chem.RemoveHs(rw.GetMol())
        Chem.RemoveStereochemistry(piece)
        out.add(Chem.MolToSmiles(Chem.MolFromSmiles(Chem.MolToSmiles(piece))))
    return out


def systems_of(rows):
    """{key: name} and {tautomer of a key: name} of the ring systems of rows."""
    keys = {}
    for r in rows:
        for k in system_keys(r["smiles"]):
            keys.setdefault(k, r.get("name", r["smiles"]))
    return keys, {tautomer(k): v for k, v in keys.items()}


class RingDrawChecks:
    """A draw's checks (mixed into a TestCase): DRAW (enumerate_rings.DRAWS' key), CSV, SPLIT, FIRST (the starts'
    first index), TRAINING (the pools before it, its training data with molecules.csv split=train), ROWS and SYSTEMS
    (the ranges its rows and ring systems fall in), TEST_ONLY (test A's and B's ring systems the training data lack)."""

    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows, cls.mols = read_molecules(cls.CSV)
        listed = read_rows(os.path.join(ORGANIC, "molecules.csv"))
        cls.known = {flat(r["smiles"]) for r in listed}
        train = [r for r in listed if r["split"] == "train"]
        for f in cls.TRAINING:
            pool = read_rows(os.path.join(ORGANIC, f))
            cls.known |= {flat(r["smiles"]) for r in pool}
            train += pool
        with open(TESTSET_B, newline="") as f:
            cls.test_b_rows = list(csv.DictReader(f))
        cls.test_a_rows = [r for r in listed if r["split"] == "test"]
        cls.train = systems_of(train)
        cls.test_systems = {"test A": systems_of(cls.test_a_rows), "test B": systems_of(cls.test_b_rows)}

    def test_every_row_is_a_new_neutral_closed_shell_hcno_molecule_of_at_most_40_atoms(self):
        """Parses, sanitises, canonical, H/C/N/O, neutral, closed shell, one fragment, <= 40 atoms with H, an
        enumerate.py category; none in molecules.csv (train or test) or another pool, none twice, stereo aside."""
        self.assertEqual(list(self.rows[0]), ["name", "smiles", "category"])
        self.assertTrue(self.ROWS[0] <= len(self.rows) <= self.ROWS[1], len(self.rows))
        seen = set()
        for r, m in zip(self.rows, self.mols):
            assert_new_pool_row(self, r, m, seen, self.known)
            self.assertLessEqual(Chem.AddHs(m).GetNumAtoms(), MAX_ATOMS, r["name"])
            self.assertIn(r["category"], CATEGORIES, r["name"])
        self.assertEqual(len({r["name"] for r in self.rows}), len(self.rows))

    def test_the_key_written_here_is_the_builders(self):
        """system_keys (here) and enumerate_rings.ring_systems agree on every molecule of the list, test set B and this
        pool: the disjointness below is the builder's rule."""
        import enumerate_rings
        rows = read_rows(os.path.join(ORGANIC, "molecules.csv")) + self.test_b_rows + self.rows
        differ = [r["smiles"] for r in rows if system_keys(r["smiles"]) != enumerate_rings.ring_systems(r["smiles"])]
        self.assertEqual(differ, [])
        self.assertEqual(system_keys("CCc1cccc2[nH]ccc12"), {"c1ccc2[nH]ccc2c1"})
        self.assertEqual(system_keys("CN1CCCC1=O"), {"O=C1CCCN1"})
        self.assertEqual(system_keys("C=C1CCC2(CC1)OCCO2"), {"C=C1CCC2(CC1)OCCO2"})
        self.assertEqual(system_keys("c1ccccc1-c1ccncc1"), {"c1ccccc1", "c1ccncc1"})

    def test_no_test_a_or_b_molecule_stereoisomer_or_tautomer(self):
        for which, rows in (("test A", self.test_a_rows), ("test B", self.test_b_rows)):
            smiles, tautomers, _ = test_molecules(rows)
            self.assertGreater(len(smiles), 100)
            clash = [f"{r['name']} is {which}'s {smiles.get(flat(r['smiles'])) or tautomers[tautomer(r['smiles'])]}"
                     for r in self.rows if flat(r["smiles"]) in smiles or tautomer(r["smiles"]) in tautomers]
            self.assertEqual(clash, [], which)

    def test_no_ring_system_of_a_test_a_or_b_molecule(self):
        """B's ring-system tail (1,2,4-triazine, furazan, pyrazolo[1,5-a]pyrimidine, glycoluril, ...) stays an honest
        test of generalisation: no row holds a ring system of a test molecule, as written or as a tautomer, but those the
        training data held before this pool (benzene, cyclopropane of a phenyl or cyclopropyl substituent)."""
        self.assertIn("c1cnon1", self.test_systems["test B"][0])   # furazan, B's
        self.assertIn("c1cnc2ccnn2c1", self.test_systems["test B"][0])   # pyrazolo[1,5-a]pyrimidine, B's
        clash = []
        for which, (keys, tauts) in self.test_systems.items():
            for r in self.rows:
                for k in system_keys(r["smiles"]) - set(self.train[0]):
                    if k in keys or tautomer(k) in tauts:
                        clash.append(f"{r['name']}: ring system {k} of {which}'s {keys.get(k) or tauts[tautomer(k)]}")
        self.assertEqual(clash, [])

    def test_every_ring_system_of_test_a_and_b_is_refused_as_one(self):
        """The builder's exclusions hold every ring system of test A and B that the training data lack, as a test
        molecule's ring system (not only through enumerate_coverage's Bemis-Murcko scaffold of a whole test molecule,
        which misses a ring system of a test molecule with two), as written and as a tautomer, and refuse it."""
        import enumerate_rings
        ex = enumerate_rings.exclusions(pools=enumerate_rings.DRAWS[self.DRAW]["pools"])
        n = {}
        for which, (keys, _) in self.test_systems.items():
            for k in keys:
                if k in self.train[0]:
                    continue
                n[which] = n.get(which, 0) + 1
                self.assertTrue(ex["avoid"].get(k, "").startswith("a ring system of a test molecule"), f"{which}: {k}")
                self.assertIn(tautomer(k), ex["avoid_taut"], f"{which}: {k}")
                self.assertIsNotNone(enumerate_rings.why_not(k, ex, broken={}), f"{which}: {k}")
        self.assertEqual(n, self.TEST_ONLY)

    def test_every_row_brings_one_ring_system_the_training_data_never_held(self):
        """A row 'ring <key>[ + substituents]' holds the ring system key, absent from the training data before this pool
        (as written and as a tautomer), and no other ring system the training data lack; every system has its
        H-capped row (the key itself) first; SYSTEMS' range of systems, each in at most two rows."""
        keys, tauts = self.train
        self.assertGreater(len(keys), 300)
        rows_of = {}
        for r in self.rows:
            key = r["name"][len("ring "):].split(" + ")[0]
            self.assertTrue(r["name"].startswith("ring "), r["name"])
            self.assertFalse(key in keys or tautomer(key) in tauts, f"{r['name']}: {key} is in the training data")
            self.assertEqual({k for k in system_keys(r["smiles"]) if k not in keys}, {key}, r["name"])
            rows_of.setdefault(key, []).append(r)
        self.assertTrue(self.SYSTEMS[0] <= len(rows_of) <= self.SYSTEMS[1], len(rows_of))
        for key, rs in rows_of.items():
            self.assertEqual(rs[0]["smiles"], key)
            self.assertLessEqual(len(rs), 2, key)
        self.assertEqual(len({tautomer(k) for k in rows_of}), len(rows_of))   # no two systems are tautomers

    def test_the_csv_is_the_builds_output(self):
        """The whole build of the draw (enumeration, exclusions, draw, substitutions: ~30-45 s) writes its csv byte for
        byte."""
        import tempfile
        import enumerate_rings
        draw = enumerate_rings.DRAWS[self.DRAW]
        self.assertEqual(os.path.basename(draw["out"]), self.CSV)
        rows = enumerate_rings.build(pools=draw["pools"], quota=draw["quota"])
        self.assertEqual([(r["name"], r["smiles"], r["category"]) for r in rows],
                         [(r["name"], r["smiles"], r["category"]) for r in self.rows])
        with tempfile.TemporaryDirectory() as d:
            enumerate_rings.write([dict(name=r["name"], smiles=r["smiles"], category=r["category"]) for r in rows],
                                  os.path.join(d, self.CSV))
            with open(os.path.join(d, self.CSV), "rb") as f, open(os.path.join(ORGANIC, self.CSV), "rb") as g:
                self.assertEqual(f.read(), g.read())

    def test_the_starts_hold_3_conformers_a_row_with_its_atoms_seeds_and_bond_graph(self):
        """3 conformers a row, in order, indexed from FIRST, split=SPLIT, the atoms of the SMILES in its order, its
        stereo (test_organic.assert_pool_starts) and the distance bond graph (covalent radii x 1.2) of the SMILES."""
        import numpy as np
        import extxyz
        import enumerate_rings
        draw = enumerate_rings.DRAWS[self.DRAW]
        self.assertEqual((draw["first"], draw["split"]), (self.FIRST, self.SPLIT))
        self.assertEqual(os.path.basename(draw["starts"]), f"starts.{self.SPLIT}.xyz.gz")
        assert_pool_starts(self, self.rows, self.SPLIT, self.FIRST, max_bytes=self.MAX_BYTES)
        for k, fr in enumerate(extxyz.read(os.path.join(ORGANIC, f"starts.{self.SPLIT}.xyz.gz"))):
            mol = Chem.AddHs(Chem.MolFromSmiles(self.rows[k // 3]["smiles"]))
            rad = np.array([COVALENT_RADIUS_A[int(z)] for z in fr.numbers])
            d = np.linalg.norm(fr.positions[:, None] - fr.positions[None], axis=-1)
            got = {(i, j) for i, j in zip(*np.where(np.triu(d < 1.2 * (rad[:, None] + rad[None]), 1)))}
            want = {tuple(sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))) for b in mol.GetBonds()}
            self.assertEqual(got, want, f"{fr.info['name']}, conformer {k % 3}")


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class RingPoolTest(RingDrawChecks, unittest.TestCase):
    """organic/rings.csv, the first draw: 6 ring systems a stratum."""
    DRAW, CSV, SPLIT, FIRST, TRAINING = 1, "rings.csv", "rings", FIRST_INDEX, TRAINING
    ROWS, SYSTEMS, TEST_ONLY, MAX_BYTES = (300, 500), (150, 250), {"test A": 20, "test B": 20}, 600000


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class RingDraw2Test(RingDrawChecks, unittest.TestCase):
    """organic/rings2.csv, the second draw: the same rule continued with the first draw's molecules and the second
    coverage draw's counted as training data, 10 ring systems a stratum."""
    DRAW, CSV, SPLIT, FIRST, TRAINING = 2, "rings2.csv", "rings2", 1000000, TRAINING + ("rings.csv", "coverage2.csv")
    ROWS, SYSTEMS, TEST_ONLY, MAX_BYTES = (600, 750), (300, 400), {"test A": 20, "test B": 20}, 900000

    def test_the_second_draw_continues_the_first_in_each_stratum(self):
        """In each (class, kind) stratum's seeded order the first draw's systems come before every one of the second's:
        the second draw takes the next systems of the same rule, not a new shuffle (a draw with another seed, or one that
        left rings.csv out of the training data and drew its systems again, fails here or above)."""
        assert_draws_continue(self, ("rings.csv", "rings2.csv"))


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class RingDraw3Test(RingDrawChecks, unittest.TestCase):
    """organic/rings3.csv, the third draw: the rule continued again with the second draw's molecules counted too."""
    DRAW, CSV, SPLIT, FIRST = 3, "rings3.csv", "rings3", 1100000
    TRAINING = TRAINING + ("rings.csv", "coverage2.csv", "rings2.csv")
    ROWS, SYSTEMS, TEST_ONLY, MAX_BYTES = (600, 750), (300, 400), {"test A": 20, "test B": 20}, 900000

    def test_the_third_draw_continues_the_first_two_in_each_stratum(self):
        """The first draw's systems, then the second's, then the third's, in each stratum's seeded order (leaving
        rings2.csv out of the third draw's training data draws the second's systems again and fails here or above)."""
        assert_draws_continue(self, ("rings.csv", "rings2.csv", "rings3.csv"))


def assert_draws_continue(test, csvs):
    """The draws csvs (in order) hold disjoint ring systems, each the H-capped row of its system, and in every (class,
    kind) stratum's seeded order each draw's systems come after every one of the draw before it, which took its whole
    quota there (a stratum gives a later draw systems only after the earlier ones had theirs)."""
    import enumerate_rings
    cands = enumerate_rings.candidates()   # the csvs are the builds' output (test_the_csv_is_the_builds_output)
    stratum_of = {key: stratum for stratum, cs in cands.items() for _, _, key in cs}
    draws = []
    for name in csvs:
        rows = read_rows(os.path.join(ORGANIC, name))
        systems = {r["smiles"]: stratum_of[r["smiles"]] for r in rows if r["name"] == "ring " + r["smiles"]}
        test.assertEqual(len(systems), len({r["name"].split(" + ")[0] for r in rows}), name)
        for earlier in draws:
            test.assertEqual(set(earlier) & set(systems), set(), name)
        draws.append(systems)
    quotas = [enumerate_rings.DRAWS[k + 1]["quota"] for k in range(len(csvs))]
    for stratum in cands:
        order = [key for _, _, key in enumerate_rings.stratum_order(cands[stratum], stratum,
                                                                     enumerate_rings.MASTER_SEED)]
        pos = {k: i for i, k in enumerate(order)}
        for k in range(1, len(draws)):
            a = [pos[key] for key, st in draws[k - 1].items() if st == stratum]
            b = [pos[key] for key, st in draws[k].items() if st == stratum]
            if b:
                test.assertLess(max(a), min(b), (csvs[k], stratum))
                test.assertEqual(len(a), quotas[k - 1], (csvs[k - 1], stratum))   # the draw before took its quota


class RingTestSetBTest(unittest.TestCase):
    def test_a_missing_test_set_b_is_refused_not_skipped(self):
        """A pool built without B's exclusions would train on B's ring systems: a named B file that is missing stops
        the build with its name; only an explicit '' leaves B out."""
        import enumerate_rings
        missing = os.path.join(ORGANIC, "no_such_testset_b.csv")
        with self.assertRaises(SystemExit) as cm:
            enumerate_rings.test_systems(testset_b=missing)
        self.assertIn("no_such_testset_b.csv: no such file", str(cm.exception))
        with self.assertRaises(SystemExit):
            enumerate_rings.build(testset_b=missing)
        self.assertLess(len(enumerate_rings.test_systems(testset_b="")), len(enumerate_rings.test_systems()))


class RingRowsTest(unittest.TestCase):
    def test_a_row_not_in_the_draws_csv_is_refused_before_any_teacher_run(self):
        """--rows names 0-based rows of the draw's csv: one past its end stops the MD check with the option, the value
        and the file's range (not an IndexError after the rows before it have run)."""
        import contextlib
        import io
        import enumerate_rings
        n = len(read_rows(os.path.join(ORGANIC, "rings2.csv")))
        err = io.StringIO()
        with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
            enumerate_rings.main(["--draw", "2", "--teacher-check", "--md-steps", "1", "--rows", f"0,{n}"])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn(f"--rows: '{n}' is not a row of", err.getvalue())
        self.assertIn(f"rings2.csv (0-based, 0..{n - 1})", err.getvalue())


class RingDataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --rings beside the list alone (start ids from 800,000)."""
    POOL, FIRST = "rings", 800000


class RingDraw2DataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --rings2 beside --rings (start ids from 1,000,000)."""
    POOL, FIRST, BEFORE = "rings2", 1000000, ("--rings",)


class RingDraw3DataTest(PoolDataChecks, unittest.TestCase):
    """organic_data.py --rings3 beside --rings2 (start ids from 1,100,000)."""
    POOL, FIRST, BEFORE = "rings3", 1100000, ("--rings2",)


if __name__ == "__main__":
    unittest.main()
