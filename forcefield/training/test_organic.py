#!/usr/bin/python3
"""Tests of the organic chemical space (forcefield/training/organic): the molecule list, its split and the starts.
/usr/bin/python3 -m unittest forcefield/training/test_organic.py

The checks are written here independently of enumerate.py's own filters, so that a broken filter is caught.
Without RDKit the tests skip; under CI=true they fail instead (as PeerTool does on the Java side).
"""
import csv
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ORGANIC = os.path.join(HERE, "organic")
sys.path.insert(0, HERE)
sys.path.insert(0, ORGANIC)

try:
    from rdkit import Chem, RDLogger
    from rdkit.Chem.Scaffolds import MurckoScaffold
    HAVE_RDKIT = True
except ImportError:
    HAVE_RDKIT = False
    if os.environ.get("CI") == "true":
        raise ImportError("python3-rdkit is required under CI=true (apt-get install python3-rdkit)")

MAX_ATOMS = 42
G2_TEST = ["CO", "O=CO", "CC(N)=O", "CC(C)=O", "COC", "CCN", "CCOC"]
V5_TRAIN = ["O", "CCO", "c1ccccc1", "CC(=O)N[C@@H](C)C(=O)NC"]
ACE_ALA5_NME = "CC(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)NC"


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def canon(smiles):
    return Chem.MolToSmiles(Chem.MolFromSmiles(smiles))


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class OrganicMoleculesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows = read_rows(os.path.join(ORGANIC, "molecules.csv"))
        cls.mols = [Chem.MolFromSmiles(r["smiles"]) for r in cls.rows]

    def test_columns_and_size(self):
        self.assertEqual(list(self.rows[0].keys()), ["name", "smiles", "category", "split"])
        self.assertGreaterEqual(len(self.rows), 800)
        n_test = sum(r["split"] == "test" for r in self.rows)
        self.assertTrue(100 <= n_test <= 150, f"{n_test} test molecules")
        self.assertEqual({r["split"] for r in self.rows}, {"train", "test"})
        for c in {r["category"] for r in self.rows}:
            self.assertTrue(any(r["category"] == c and r["split"] == "train" for r in self.rows), f"{c}: no training")

    def test_every_smiles_parses_and_sanitises(self):
        for r, m in zip(self.rows, self.mols):
            self.assertIsNotNone(m, f"{r['name']}: {r['smiles']} does not parse or sanitise")

    def test_only_hcno_neutral_closed_shell_one_fragment(self):
        for r, m in zip(self.rows, self.mols):
            self.assertLessEqual({a.GetSymbol() for a in m.GetAtoms()}, {"H", "C", "N", "O"}, r["name"])
            self.assertEqual(Chem.GetFormalCharge(m), 0, r["name"])
            self.assertEqual(sum(a.GetNumRadicalElectrons() for a in m.GetAtoms()), 0, r["name"])
            self.assertEqual(len(Chem.GetMolFrags(m)), 1, r["name"])
            # charge separation only inside nitro/nitrate groups: N+ with an O- neighbour and a =O
            for a in m.GetAtoms():
                if a.GetFormalCharge() == 1:
                    self.assertEqual(a.GetSymbol(), "N", r["name"])
                    self.assertEqual(sorted(n.GetFormalCharge() for n in a.GetNeighbors() if n.GetSymbol() == "O")[:1],
                                     [-1], r["name"])
                elif a.GetFormalCharge() == -1:
                    self.assertTrue(a.GetSymbol() == "O" and a.GetNeighbors()[0].GetFormalCharge() == 1, r["name"])
                else:
                    self.assertEqual(a.GetFormalCharge(), 0, r["name"])

    def test_atom_counts_with_hydrogens_within_the_limit(self):
        for r, m in zip(self.rows, self.mols):
            n = Chem.AddHs(m).GetNumAtoms()
            self.assertTrue(2 <= n <= MAX_ATOMS, f"{r['name']}: {n} atoms")

    def test_no_duplicates_by_canonical_smiles(self):
        seen = {}
        for r in self.rows:
            c = canon(r["smiles"])
            self.assertNotIn(c, seen, f"{r['name']} duplicates {seen.get(c)}")
            seen[c] = r["name"]

    def test_train_and_test_disjoint_by_canonical_smiles(self):
        train = {canon(r["smiles"]) for r in self.rows if r["split"] == "train"}
        test = {canon(r["smiles"]) for r in self.rows if r["split"] == "test"}
        self.assertFalse(train & test)

    def test_test_ring_scaffolds_absent_from_training(self):
        """The rule: every test molecule with rings has a Bemis-Murcko scaffold that no training molecule has
        (acyclic molecules, scaffold '', are split by canonical SMILES only)."""
        def scaffold(s):
            return MurckoScaffold.MurckoScaffoldSmiles(smiles=s, includeChirality=False)
        train = {scaffold(r["smiles"]) for r in self.rows if r["split"] == "train"}
        for r in self.rows:
            if r["split"] == "test":
                s = scaffold(r["smiles"])
                self.assertTrue(s == "" or s not in train, f"{r['name']}: scaffold {s} also in training")
        self.assertGreater(sum(r["split"] == "test" and scaffold(r["smiles"]) != "" for r in self.rows), 10)

    def test_g2_molecules_in_test_and_v5_molecules_in_training(self):
        split = {canon(r["smiles"]): r["split"] for r in self.rows}
        for s in G2_TEST:
            self.assertEqual(split.get(canon(s)), "test", s)
        for s in V5_TRAIN:
            self.assertEqual(split.get(canon(s)), "train", s)
        self.assertNotIn(canon(ACE_ALA5_NME), split)   # 62 atoms: above the limit

    def test_the_csv_is_the_enumerations_output(self):
        """Re-running the seeded enumeration (curated.csv + scaffolds x substituents) gives molecules.csv."""
        import enumerate as organic_enumerate
        rows = organic_enumerate.build()
        self.assertEqual([(r["name"], r["smiles"], r["category"], r["split"]) for r in rows],
                         [(r["name"], r["smiles"], r["category"], r["split"]) for r in self.rows])

    def test_curated_molecules_keep_their_names(self):
        names = {canon(r["smiles"]): r["name"] for r in self.rows}
        for r in read_rows(os.path.join(ORGANIC, "curated.csv")):
            self.assertEqual(names.get(canon(r["smiles"])), r["name"])


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class SmallPoolTest(unittest.TestCase):
    """organic/small.csv: the exhaustive pool of molecules of <= 4 heavy atoms, all for training."""
    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows = read_rows(os.path.join(ORGANIC, "small.csv"))
        cls.listed = read_rows(os.path.join(ORGANIC, "molecules.csv"))

    def test_every_smiles_parses_is_canonical_small_hcno_and_unique(self):
        self.assertEqual(list(self.rows[0].keys()), ["name", "smiles", "category"])
        self.assertGreater(len(self.rows), 100)
        seen = set()
        for r in self.rows:
            m = Chem.MolFromSmiles(r["smiles"])
            self.assertIsNotNone(m, r["smiles"])
            self.assertEqual(canon(r["smiles"]), r["smiles"])
            self.assertNotIn(r["smiles"], seen)
            seen.add(r["smiles"])
            self.assertLessEqual(m.GetNumAtoms(), 4, r["smiles"])
            self.assertLessEqual({a.GetSymbol() for a in m.GetAtoms()}, {"C", "N", "O"}, r["smiles"])
            self.assertTrue(all(a.GetFormalCharge() == 0 and a.GetNumRadicalElectrons() == 0 for a in m.GetAtoms()))
            self.assertEqual(len(Chem.GetMolFrags(m)), 1, r["smiles"])
            self.assertFalse(m.HasSubstructMatch(Chem.MolFromSmarts("[#8]~[#8]")), r["smiles"])   # no peroxide

    def test_disjoint_from_the_list_and_from_test_scaffolds(self):
        listed = {canon(r["smiles"]) for r in self.listed}
        test_scaffolds = {MurckoScaffold.MurckoScaffoldSmiles(smiles=r["smiles"], includeChirality=False)
                          for r in self.listed if r["split"] == "test"} - {""}
        for r in self.rows:
            self.assertNotIn(canon(r["smiles"]), listed, r["name"])
            self.assertNotIn(MurckoScaffold.MurckoScaffoldSmiles(smiles=r["smiles"], includeChirality=False),
                             test_scaffolds, r["name"])

    def test_it_reaches_the_test_tails_relatives(self):
        """Neighbours of the small test molecules the preview missed (methanimine, cyanamide, hydroxylamine,
        formamidine): an enumeration that lost them (e.g. a filter dropping every imine) fails here."""
        smiles = {r["smiles"] for r in self.rows}
        for s in ("C=NCC", "C=NN", "N#CNN", "CCNO", "CN=CN", "N"):
            self.assertIn(canon(s), smiles)

    def test_the_csv_is_the_enumerations_output(self):
        import enumerate_small
        self.assertEqual([(r["name"], r["smiles"], r["category"]) for r in enumerate_small.build()],
                         [(r["name"], r["smiles"], r["category"]) for r in self.rows])

    def test_small_starts_hold_every_small_molecule_with_its_own_seeds(self):
        import extxyz
        import make_starts
        frames = extxyz.read(os.path.join(ORGANIC, "starts.small.xyz.gz"))
        self.assertEqual(len(frames), 3 * len(self.rows))
        for k, fr in enumerate(frames):
            r = self.rows[k // 3]
            self.assertEqual((fr.info["name"], fr.info["split"], int(fr.info["index"]), int(fr.info["conformer"])),
                             (r["name"], "small", make_starts.SMALL_INDEX + k // 3, k % 3))


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class OrganicStartsTest(unittest.TestCase):
    def test_test_starts_hold_every_test_molecule_with_its_atoms(self):
        import extxyz
        rows = read_rows(os.path.join(ORGANIC, "molecules.csv"))
        frames = extxyz.read(os.path.join(ORGANIC, "starts.test.xyz.gz"))
        test = [(i, r) for i, r in enumerate(rows) if r["split"] == "test"]
        self.assertEqual(len(frames), 3 * len(test))
        for k, fr in enumerate(frames):
            i, r = test[k // 3]
            self.assertEqual((fr.info["name"], fr.info["smiles"], fr.info["split"], int(fr.info["index"]),
                              int(fr.info["conformer"])), (r["name"], r["smiles"], "test", i, k % 3))
            mol = Chem.AddHs(Chem.MolFromSmiles(r["smiles"]))
            self.assertEqual(sorted(fr.numbers.tolist()), sorted(a.GetAtomicNum() for a in mol.GetAtoms()), r["name"])

    def test_a_molecules_conformers_are_reproduced_from_its_row_seed(self):
        import numpy as np
        import extxyz
        import make_starts
        frames = [f for f in extxyz.read(os.path.join(ORGANIC, "starts.test.xyz.gz")) if f.info["name"] == "acetamide"]
        self.assertEqual(len(frames), 3)
        _, confs, _ = make_starts.conformers(frames[0].info["smiles"], 3,
                                             make_starts.seed_for(int(frames[0].info["index"])))
        for fr, p in zip(frames, confs):
            np.testing.assert_allclose(fr.positions, p, atol=2e-8)   # written with 8 decimals

    def test_train_starts_exist(self):
        self.assertGreater(os.path.getsize(os.path.join(ORGANIC, "starts.train.xyz.gz")), 100000)


if __name__ == "__main__":
    unittest.main()
