"""probes/pool_fit_probe.py: the force MAE of a weight file on a pool's frames, per molecule and over molecules (median,
p90), with the hetero-chain flag; bad input refused by name before any model is read.
/usr/bin/python3 -m unittest scripts/test_pool_fit_probe.py
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINING = os.path.join(HERE, "..", "forcefield", "training")
PREVIEW = os.path.join(HERE, "..", "forcefield", "src", "main", "resources", "org", "molten", "forcefield", "student",
                       "student-gfn2-organic-preview.safetensors")
try:
    import torch  # noqa: F401
    from rdkit import Chem  # noqa: F401
except ImportError:   # python3-torch and python3-rdkit are in CI; elsewhere the test says why it is skipped
    torch = None


@unittest.skipIf(torch is None, "python3-torch or python3-rdkit is not installed")
class PoolFitProbeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(HERE, "probes"))
        import pool_fit_probe
        from organic_eval import load, predict
        from dataset import _NpzFrame
        cls.probe = pool_fit_probe
        # two molecules of a pool at 300 K, one frame each: water (force labels = the model's own, error 0) and
        # C1NONO1 (labels 0.1 eV/Å off on every component, either way, error 0.1; a hetero chain)
        water = (np.array([8, 1, 1]), np.array([[0, 0, 0], [0.96, 0, 0], [-0.24, 0.93, 0]], float))
        ring = (np.array([6, 7, 8, 7, 8, 1, 1, 1, 1]),
                np.array([[0.0, 1.2, 0], [1.15, 0.37, 0], [0.7, -0.95, 0], [-0.7, -0.95, 0], [-1.15, 0.37, 0],
                          [0.0, 1.8, 0.9], [0.0, 1.8, -0.9], [2.1, 0.6, 0.3], [-1.3, -1.5, 0.5]], float))
        model = load(PREVIEW, "cpu")
        frames = [_NpzFrame(z, x, 0 * x, 0.0, "t") for z, x in (water, ring)]
        preds = predict(model, frames, "cpu")
        off = 0.1 * np.where(np.arange(27).reshape(9, 3) % 2 == 0, 1.0, -1.0)   # |0.1| each, of both signs
        forces = [preds[0][1], preds[1][1] + off]
        cls.tmp = tempfile.TemporaryDirectory()
        np.savez(os.path.join(cls.tmp.name, "organic-rings2.train.npz"),
                 z=np.concatenate([water[0], ring[0]]).astype(np.int8),
                 pos=np.concatenate([water[1], ring[1]]).astype(np.float32),
                 forces=np.concatenate(forces).astype(np.float32), energy=np.zeros(2), n_atoms=np.array([3, 9]),
                 molecule=np.array([0, 1]), molecules=np.array(["water", "ring C1NONO1"]),
                 temperature=np.array([300.0, 300.0], np.float32))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_probe(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.probe.main(list(argv))
        return out.getvalue()

    def test_median_p90_and_each_molecule_with_its_hetero_chain(self):
        out = self.run_probe("--data", self.tmp.name, "--molecules", "rings2", f"preview={PREVIEW}")
        self.assertIn("preview    (2 molecules; median / p90)  300 K 0.0500 / 0.0900", out)
        lines = out.splitlines()
        ring = next(x for x in lines if x.strip().startswith("ring C1NONO1"))
        self.assertEqual(ring.split()[2:5], ["0.1000", "yes", "C1NONO1"])
        water = next(x for x in lines if x.strip().startswith("water"))
        self.assertEqual(water.split()[1:3], ["0.0000", "no"])

    def test_bad_input_is_refused_by_name(self):
        for argv, why in ((["--data", self.tmp.name, "preview"], "'preview': expected NAME=FILE"),
                          (["--data", self.tmp.name, "p=/no/such.safetensors"], "p: no weight file /no/such.safetensors"),
                          (["--data", os.path.join(self.tmp.name, "none"), f"p={PREVIEW}"], "no organic*.npz there"),
                          (["--data", self.tmp.name, "--molecules", "rings9", f"p={PREVIEW}"],
                           "--molecules rings9: no organic-rings9.train.npz")):
            err = io.StringIO()
            with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as e:
                self.probe.main(argv)
            self.assertEqual(2, e.exception.code)
            self.assertIn(why, err.getvalue())


if __name__ == "__main__":
    unittest.main()
