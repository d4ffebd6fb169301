"""Tests of domain.py (atom environments, the domain of a data set) and of the `domain` metadata entry of the
shipped v5 weights, whose tensor bytes must be those trained (the entry was added afterwards).

/usr/bin/python3 -m unittest forcefield/training/test_domain.py"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import domain  # noqa: E402
import export  # noqa: E402
import extxyz  # noqa: E402
import safetensors_io  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
STUDENT = os.path.join(REPO, "forcefield/src/main/resources/org/molten/forcefield/student")
V5 = export.bundled_weights("student-gfn2-v5")   # student-gfn2.safetensors, its file since it shipped
OUTSIDE = os.path.join(REPO, "forcefield/src/test/resources/org/molten/forcefield/domain")
MOLECULES = os.path.join(REPO, "structures/src/main/resources/org/molten/structures/molecules")
# SHA-256 of the tensor data region of v5 as trained (commit 1927a76, before its domain entry was added)
V5_DATA_SHA256 = "5627302c1df0ba6888ca7f13f22ff3f0e582e470eb2020207aad2273df544c8c"


def envs_of(path):
    fr = extxyz.read(path)[0]
    return domain.environments(fr.numbers, fr.positions)


class EnvironmentTest(unittest.TestCase):
    def test_ethanol_environments_are_element_and_sorted_neighbours(self):
        self.assertEqual(sorted(envs_of(os.path.join(MOLECULES, "ethanol.xyz"))),
                         sorted(["C(C,H,H,H)", "C(C,H,H,O)", "O(C,H)"] + ["H(C)"] * 5 + ["H(O)"]))

    def test_a_nitrile_and_a_nitro_group_have_their_own_environments(self):
        self.assertIn("C(C,N)", envs_of(os.path.join(OUTSIDE, "acetonitrile.xyz")))
        self.assertIn("N(C,O,O)", envs_of(os.path.join(OUTSIDE, "nitromethane.xyz")))

    def test_the_bond_rule_is_the_covalent_radii_sum_times_1_2(self):
        # O-H bonded below 1.2 (0.66 + 0.31) = 1.164 Å
        for r, env in ((1.16, "O(H)"), (1.17, "O()")):
            self.assertEqual(domain.environments([8, 1], [[0, 0, 0], [r, 0, 0]])[0], env, r)

    def test_a_data_set_counts_atoms_per_environment_and_names_its_molecules(self):
        with tempfile.TemporaryDirectory() as d:
            water = extxyz.Frame([8, 1, 1], [[0, 0, 0], [0.96, 0, 0], [-0.24, 0.93, 0]], -5.0, np.zeros((3, 3)),
                                 {"system": "water"})
            extxyz.write(os.path.join(d, "water.train.xyz.gz"), [water, water])
            stretched = water.copy()
            stretched.positions[1, 0] = 1.30   # O-H beyond 1.164 Å: O(H) and H() in this frame only
            extxyz.write(os.path.join(d, "water.val.xyz.gz"), [water, stretched])
            extxyz.write(os.path.join(d, "water.test.xyz.gz"), [water])  # not a training split: ignored
            dom = domain.of_files([d]).to_json()
        self.assertEqual(dom["environments"], {"H()": 1, "H(O)": 7, "O(H)": 1, "O(H,H)": 3})
        # typical of a molecule: in at least half of its frames (3 of 4 here); the stretched frame's are not
        self.assertEqual(dom["typical_in_molecules"], {"H(O)": 1, "O(H,H)": 1})
        self.assertEqual((dom["frames"], dom["atoms"], dom["molecules"], dom["elements"]), (4, 12, ["water"], ["H", "O"]))


    def test_a_flat_npz_archive_names_its_frames_by_their_molecule(self):
        # organic_data.py's layout: z, pos (Å), n_atoms, and per frame an index into `molecules`
        water = [[0, 0, 0], [0.96, 0, 0], [-0.24, 0.93, 0]]
        methane_like = [[0, 0, 0], [1.09, 0, 0], [-0.36, 1.03, 0], [-0.36, -0.51, 0.89], [-0.36, -0.51, -0.89]]
        with tempfile.TemporaryDirectory() as d:
            np.savez_compressed(os.path.join(d, "organic.train.npz"), z=np.array([8, 1, 1, 6, 1, 1, 1, 1], np.int8),
                                pos=np.array(water + methane_like, np.float32), n_atoms=np.array([3, 5], np.int32),
                                molecule=np.array([1, 0], np.int32), molecules=np.array(["methane", "water"]))
            dom = domain.of_files([d]).to_json()
        self.assertEqual(dom["molecules"], ["methane", "water"])
        self.assertEqual(dom["environments"], {"C(H,H,H,H)": 1, "H(C)": 4, "H(O)": 2, "O(H,H)": 1})


class PairTest(unittest.TestCase):
    """Bonded pairs: the two environments of a bond's atoms; ethylene's C=C is C(C,H,H)-C(C,H,H), which neither ethane
    nor propene holds though both of its environments occur in propene."""
    ETHYLENE, PROPENE, ETHANE = (os.path.join(OUTSIDE, m + ".xyz") for m in ("ethylene", "propene", "ethane"))

    def pairs_of(self, path):
        fr = extxyz.read(path)[0]
        return domain.bonded_pairs(fr.numbers, fr.positions)

    def test_ethylene_and_propene_pairs(self):
        self.assertEqual(self.pairs_of(self.ETHYLENE), [(0, 1, "C(C,H,H)-C(C,H,H)")]
                         + [(i, j, "C(C,H,H)-H(C)") for i, j in ((0, 2), (0, 3), (1, 4), (1, 5))])
        self.assertEqual(self.pairs_of(self.PROPENE), [
            (0, 1, "C(C,C,H)-C(C,H,H)"), (0, 3, "C(C,H,H)-H(C)"), (0, 4, "C(C,H,H)-H(C)"), (1, 2, "C(C,C,H)-C(C,H,H,H)"),
            (1, 5, "C(C,C,H)-H(C)"), (2, 6, "C(C,H,H,H)-H(C)"), (2, 7, "C(C,H,H,H)-H(C)"), (2, 8, "C(C,H,H,H)-H(C)")])

    def test_the_pair_text_is_sorted_whichever_atom_comes_first(self):
        self.assertEqual(domain.pair("H(C)", "C(C,H,H)"), domain.pair("C(C,H,H)", "H(C)"))
        self.assertEqual(domain.pair("H(C)", "C(C,H,H)"), "C(C,H,H)-H(C)")

    def test_a_domain_counts_bonds_per_pair_and_lacks_ethylenes_double_bond(self):
        dom = domain.of_files([self.ETHANE, self.PROPENE]).to_json()
        self.assertEqual(dom["pairs"], {"C(C,C,H)-C(C,H,H)": 1, "C(C,C,H)-C(C,H,H,H)": 1, "C(C,C,H)-H(C)": 1,
                                        "C(C,H,H)-H(C)": 2, "C(C,H,H,H)-C(C,H,H,H)": 1, "C(C,H,H,H)-H(C)": 9})
        self.assertEqual((dom["pairs_source"], dom["pair_definition"]), ("frames", domain.PAIR_DEFINITION))
        ethylene = {p for _, _, p in self.pairs_of(self.ETHYLENE)}
        self.assertEqual(ethylene - set(dom["pairs"]), {"C(C,H,H)-C(C,H,H)"})
        self.assertLessEqual(set(envs_of(self.ETHYLENE)), set(dom["environments"]))   # every atom's environment is common

    def test_add_pairs_keeps_tensors_and_every_other_metadata_byte(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "w.safetensors")
            run = subprocess.run([sys.executable, os.path.join(HERE, "domain.py"), "--add-pairs", V5, "--from", self.ETHANE,
                                  self.PROPENE, "--out", out], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("6 bonded pairs", run.stderr)
            t0, m0 = safetensors_io.read(V5)
            t1, m1 = safetensors_io.read(out)
            self.assertEqual(safetensors_io.data_sha256(out), V5_DATA_SHA256)
            self.assertEqual(list(t0), list(t1))
            for k in t0:
                self.assertEqual(t0[k].tobytes(), t1[k].tobytes(), k)
            self.assertEqual({k: v for k, v in m0.items() if k != "domain"}, {k: v for k, v in m1.items() if k != "domain"})
            self.assertTrue(m1["domain"].startswith(m0["domain"][:-1] + ","))   # the old entry's text kept byte for byte
            new = json.loads(m1["domain"])
            self.assertEqual({k: v for k, v in new.items() if k not in domain.PAIR_KEYS}, json.loads(m0["domain"]))
            self.assertEqual((new["pairs_source"], len(new["pairs"])), ("starts", 6))
            again = subprocess.run([sys.executable, os.path.join(HERE, "domain.py"), "--add-pairs", out, "--from",
                                    self.ETHANE, "--out", os.path.join(d, "x.safetensors")], capture_output=True, text=True)
            self.assertEqual(again.returncode, 2)
            self.assertIn("already has pairs", again.stderr)

    def test_add_pairs_refuses_bad_input_naming_it_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "w.safetensors")
            for args, message in ((["--add-pairs", os.path.join(d, "none.safetensors"), "--from", self.ETHANE],
                                   "none.safetensors: no such weight file"),
                                  (["--add-pairs", V5, "--from", os.path.join(d, "none.xyz")], "none.xyz: no such file"),
                                  (["--add-pairs", V5], "needs --from")):
                run = subprocess.run([sys.executable, os.path.join(HERE, "domain.py"), *args, "--out", out],
                                     capture_output=True, text=True)
                self.assertEqual(run.returncode, 2, run.stderr)
                self.assertIn(message, run.stderr)
                self.assertNotIn("Traceback", run.stderr)
                self.assertFalse(os.path.exists(out), args)


class ShippedV5DomainTest(unittest.TestCase):
    def test_v5_tensors_are_bit_identical_to_the_trained_ones(self):
        self.assertEqual(safetensors_io.data_sha256(V5), V5_DATA_SHA256)

    def test_v5_carries_the_domain_of_its_training_data(self):
        _, meta = safetensors_io.read(V5)
        stored = json.loads(meta[domain.METADATA_KEY])
        expected = domain.of_files([os.path.join(HERE, "data")]).to_json()
        self.assertEqual(expected["pairs_source"], "frames")
        self.assertIn("C(C,C,H)-C(C,C,H)", expected["pairs"])   # benzene's ring bonds
        for k in domain.PAIR_KEYS:   # v5's entry predates bonded pairs: every other key as written then
            self.assertNotIn(k, stored)
            expected.pop(k)
        self.assertEqual(stored, expected)
        self.assertEqual((stored["frames"], stored["molecule_count"]), (20394 + 2283, 6))
        self.assertNotIn("C(C,N)", stored["environments"])
        self.assertIn("C(C,H,H,O)", stored["environments"])

    def test_updating_metadata_keeps_every_tensor_byte_and_replaces_a_link(self):
        with tempfile.TemporaryDirectory() as d:
            copy = os.path.join(d, "w.safetensors")
            shutil.copy(V5, copy)
            link = os.path.join(d, "link.safetensors")
            os.symlink(copy, link)
            safetensors_io.update_metadata(link, {"note": "x"})
            self.assertFalse(os.path.islink(link))
            self.assertEqual(safetensors_io.data_sha256(link), V5_DATA_SHA256)
            self.assertNotIn("note", safetensors_io.read(copy)[1])  # written beside, not through the link
            self.assertEqual(safetensors_io.read(link)[1]["note"], "x")


if __name__ == "__main__":
    unittest.main()
