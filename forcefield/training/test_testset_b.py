#!/usr/bin/python3
"""Tests of the sealed independent test set B (organic/testset_b.csv, organic/starts.testb.xyz.gz; built by
organic/enumerate_testset_b.py). /usr/bin/python3 -m unittest forcefield/training/test_testset_b.py

The disjointness keys (canonical SMILES without stereo, Bemis-Murcko scaffolds) are written here, not taken from the
builder, so that a broken filter in the builder is caught. Without RDKit the tests skip; under CI=true they fail.
"""
import csv
import gzip
import hashlib
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# RDKit as the other organic tests have it (absent: skip; under CI=true: an error), and their paths
from test_organic import HAVE_RDKIT, ORGANIC  # noqa: E402

if HAVE_RDKIT:
    from rdkit import Chem, RDLogger
    from rdkit.Chem.Scaffolds import MurckoScaffold

TESTB = os.path.join(ORGANIC, "testset_b.csv")
STARTS = os.path.join(ORGANIC, "starts.testb.xyz.gz")
# Sealed (2026-11-30, before any model was evaluated on B): the list and the starts' text may not change. A change
# makes a new test set, whose figures are not comparable: build it under another name instead.
TESTB_SHA256 = "f75127c1572aab2787ac6e6e843f0870d1cd7817e9f71746aaa0080b9d45c35a"
STARTS_TEXT_SHA256 = "2ddb6112d46a085dc4430cd7884f6157dfd78da402df4e33abebd07559900db0"
# Every file of molecules that training reads or that test set A holds, and the start files: every organic/*.csv and
# starts.*.xyz.gz but B's own, so that a pool added later is held to B's rules too (at least these).
SOURCES = tuple(sorted(f for f in os.listdir(ORGANIC) if f.endswith(".csv") and f != "testset_b.csv"))
START_FILES = tuple(sorted(f[len("starts."):-len(".xyz.gz")] for f in os.listdir(ORGANIC)
                           if f.startswith("starts.") and f.endswith(".xyz.gz") and f != "starts.testb.xyz.gz"))
KNOWN_SOURCES = {"molecules.csv", "curated.csv", "small.csv", "conjugated.csv", "rare.csv", "motifs.csv"}
KNOWN_STARTS = {"train", "test", "small", "conjugated", "rare", "motifs"}
V5_SYSTEMS = ("O", "CCO", "c1ccccc1", "CC(=O)N[C@@H](C)C(=O)NC",
              "CC(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)NC")
FIRST_INDEX = 600000
MAX_ATOMS = 42
COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def flat(smiles):
    """Canonical SMILES with E/Z and R/S removed."""
    m = Chem.MolFromSmiles(smiles)
    Chem.RemoveStereochemistry(m)
    return Chem.MolToSmiles(m)


def ring_scaffold(smiles):
    """Bemis-Murcko scaffold, chirality ignored ('' without rings)."""
    return MurckoScaffold.MurckoScaffoldSmiles(mol=Chem.MolFromSmiles(smiles), includeChirality=False)


def sha256(data):
    return hashlib.sha256(data).hexdigest()


@unittest.skipUnless(HAVE_RDKIT, "python3-rdkit not installed")
class TestSetBTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        RDLogger.DisableLog("rdApp.*")
        cls.rows = read_rows(TESTB)
        cls.known = [(f, r["name"], r["smiles"], r.get("split", "train")) for f in SOURCES
                     for r in read_rows(os.path.join(ORGANIC, f))]
        cls.known += [("v5 systems", s, s, "train") for s in V5_SYSTEMS]
        cls.listed = read_rows(os.path.join(ORGANIC, "molecules.csv"))

    def test_every_source_is_read(self):
        self.assertLessEqual(KNOWN_SOURCES, set(SOURCES))
        self.assertLessEqual(KNOWN_STARTS, set(START_FILES))

    def test_columns_size_and_split(self):
        with open(TESTB) as f:
            self.assertEqual(f.readline().strip(), "name,smiles,category,split")
        self.assertEqual(len(self.rows), 144)
        self.assertEqual({r["split"] for r in self.rows}, {"testb"})

    def test_every_smiles_parses_sanitises_and_is_in_the_space(self):
        """Canonical, H/C/N/O, neutral (only a nitro group's N+/O- pair), closed shell, one fragment, 2..42 atoms,
        no molecule twice (stereo aside)."""
        nitro = Chem.MolFromSmarts("[N+](=O)[O-]")
        seen = {}
        for r in self.rows:
            m = Chem.MolFromSmiles(r["smiles"])
            self.assertIsNotNone(m, r["name"])
            self.assertEqual(Chem.MolToSmiles(m), r["smiles"], r["name"])
            self.assertLessEqual({a.GetSymbol() for a in m.GetAtoms()}, {"C", "N", "O"}, r["name"])
            self.assertEqual(Chem.GetFormalCharge(m), 0, r["name"])
            charged = {a.GetIdx() for a in m.GetAtoms() if a.GetFormalCharge()}
            in_nitro = {i for match in m.GetSubstructMatches(nitro) for i in (match[0], match[2])}
            self.assertLessEqual(charged, in_nitro, r["name"])
            self.assertFalse(any(a.GetNumRadicalElectrons() for a in m.GetAtoms()), r["name"])
            self.assertEqual(len(Chem.GetMolFrags(m)), 1, r["name"])
            self.assertTrue(2 <= Chem.AddHs(m).GetNumAtoms() <= MAX_ATOMS, r["name"])
            k = flat(r["smiles"])
            self.assertNotIn(k, seen, f"{r['name']} is {seen.get(k)}")
            seen[k] = r["name"]

    def test_disjoint_from_every_training_source_and_from_test_a_stereo_aside(self):
        """No molecule of B is a molecule (or an E/Z, R/S isomer) of molecules.csv (train and test A), curated.csv,
        the pools or the v5 systems."""
        known = {}
        for f, name, smiles, split in self.known:
            known.setdefault(flat(smiles), f"{f}: {name} ({split})")
        clash = [f"{r['name']} ({r['smiles']}) is {known[flat(r['smiles'])]}" for r in self.rows
                 if flat(r["smiles"]) in known]
        self.assertEqual(clash, [])
        self.assertGreater(len(known), 2400)

    def test_disjoint_from_every_start_file_stereo_aside(self):
        """The starts carry their SMILES: none of the training or test-A starts is a molecule of B."""
        import extxyz
        b = {flat(r["smiles"]): r["name"] for r in self.rows}
        clash, n = [], 0
        for k in START_FILES:
            for fr in extxyz.read(os.path.join(ORGANIC, f"starts.{k}.xyz.gz")):
                n += 1
                if flat(fr.info["smiles"]) in b:
                    clash.append(f"starts.{k}: {fr.info['name']} is B's {b[flat(fr.info['smiles'])]}")
        self.assertEqual(clash, [])
        self.assertGreater(n, 7000)

    def test_ring_scaffolds_absent_from_every_source(self):
        """Stricter than A: a ring molecule of B has a Bemis-Murcko scaffold that no molecule of any source has, train
        or test A (as written, and as RDKit's canonical tautomer, so 1H/2H ring tautomers count as one)."""
        from enumerate_motifs import tautomer
        known = {}
        for f, name, smiles, split in self.known:
            s = ring_scaffold(smiles)
            if s:
                known.setdefault(s, f"{f}: {name}")
        known_taut = {tautomer(s): w for s, w in known.items()}
        clash, rings = [], 0
        for r in self.rows:
            s = ring_scaffold(r["smiles"])
            if not s:
                continue
            rings += 1
            if s in known:
                clash.append(f"{r['name']}: scaffold {s} of {known[s]}")
            elif tautomer(s) in known_taut:
                clash.append(f"{r['name']}: scaffold {s}, a tautomer of {known_taut[tautomer(s)]}'s")
        self.assertEqual(clash, [])
        self.assertEqual(rings, 40)

    def test_counts_per_category_are_test_a_counts(self):
        """B mirrors A: the same number of molecules per category, and of ring molecules per category."""
        def counts(rows, ring=None):
            out = {}
            for r in rows:
                if ring is None or (ring_scaffold(r["smiles"]) != "") == ring:
                    out[r["category"]] = out.get(r["category"], 0) + 1
            return out
        a = [r for r in self.listed if r["split"] == "test"]
        self.assertEqual(counts(self.rows), counts(a))
        self.assertEqual(counts(self.rows, ring=True), counts(a, ring=True))
        self.assertEqual(counts(self.rows)["amide"], 13)

    def test_rows_are_the_builders_candidates(self):
        """Each row is a HAND candidate with its SMILES and category, or the scaffold x substituent product its name
        says, with enumerate.classify()'s category (the full build, 60 s, is enumerate_testset_b.py's main)."""
        import enumerate as organic_enumerate
        from enumerate_testset_b import HAND
        hand = {name: (Chem.MolToSmiles(Chem.MolFromSmiles(s)), c) for name, s, c in HAND}
        scaffolds, substituents = dict(organic_enumerate.SCAFFOLDS), dict(organic_enumerate.SUBSTITUENTS)
        n_hand = 0
        for r in self.rows:
            if r["name"] in hand:
                n_hand += 1
                self.assertEqual(hand[r["name"]], (r["smiles"], r["category"]), r["name"])
                continue
            sc, sub = r["name"].split(" + ")
            m = Chem.molzip(Chem.MolFromSmiles(scaffolds[sc] + "." + substituents[sub]))
            m = Chem.MolFromSmiles(Chem.MolToSmiles(m))
            self.assertEqual(Chem.MolToSmiles(m), r["smiles"], r["name"])
            self.assertEqual(organic_enumerate.classify(m), r["category"], r["name"])
        self.assertEqual(n_hand, 87)

    def test_starts_hold_every_molecule_with_its_atoms_seeds_and_an_intact_bond_graph(self):
        """3 conformers a row, in order, indexed from 600,000 (make_starts.seed_for), the atoms of the SMILES, the
        distance bond graph (covalent radii x 1.2) of the SMILES."""
        import numpy as np
        import extxyz
        frames = extxyz.read(STARTS)
        self.assertEqual(len(frames), 3 * len(self.rows))
        for k, fr in enumerate(frames):
            r = self.rows[k // 3]
            self.assertEqual((fr.info["name"], fr.info["smiles"], fr.info["split"], int(fr.info["index"]),
                              int(fr.info["conformer"])), (r["name"], r["smiles"], "testb", FIRST_INDEX + k // 3, k % 3))
            mol = Chem.AddHs(Chem.MolFromSmiles(r["smiles"]))
            self.assertEqual(fr.numbers.tolist(), [a.GetAtomicNum() for a in mol.GetAtoms()], r["name"])
            rad = np.array([COVALENT_RADIUS_A[int(z)] for z in fr.numbers])
            d = np.linalg.norm(fr.positions[:, None] - fr.positions[None], axis=-1)
            got = {(i, j) for i, j in zip(*np.where(np.triu(d < 1.2 * (rad[:, None] + rad[None]), 1)))}
            want = {tuple(sorted((b.GetBeginAtomIdx(), b.GetEndAtomIdx()))) for b in mol.GetBonds()}
            self.assertEqual(got, want, f"{r['name']}, conformer {k % 3}")
        self.assertLess(os.path.getsize(STARTS), 400000)

    def test_sealed(self):
        """The list and the starts are the ones committed before any model met them (see TESTB_SHA256)."""
        with open(TESTB, "rb") as f:
            self.assertEqual(sha256(f.read()), TESTB_SHA256)
        with gzip.open(STARTS, "rb") as f:
            self.assertEqual(sha256(f.read()), STARTS_TEXT_SHA256)


if __name__ == "__main__":
    unittest.main()
