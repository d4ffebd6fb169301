"""Tests of the organic data generation: the in-process teacher and the sampling filters (organic_data.py)."""
import os
import shutil
import unittest

import numpy as np

import organic_data
from libxtb import XtbCalculator

# ethanol near its GFN2-xTB minimum (Å), heavy atoms C C O then H
ETHANOL_Z = [6, 6, 8, 1, 1, 1, 1, 1, 1]
ETHANOL_X = np.array([
    [-0.0470, -0.0071, 0.0069], [1.4721, 0.0191, -0.0104], [1.9363, 1.3575, 0.0152],
    [-0.4185, -1.0345, -0.0221], [-0.4210, 0.4997, 0.8992], [-0.4227, 0.5343, -0.8635],
    [1.8388, -0.5035, -0.9010], [1.8416, -0.4982, 0.8794], [2.8986, 1.3582, 0.0022]])


class InProcessTeacherTest(unittest.TestCase):
    @unittest.skipUnless(shutil.which("xtb"), "the xtb program (the command-line teacher) is not installed")
    def test_libxtb_gives_the_command_line_teachers_labels(self):
        import teacher
        e_cli, f_cli = teacher.single_point(ETHANOL_Z, ETHANOL_X)
        with XtbCalculator(ETHANOL_Z, ETHANOL_X, "gfn2") as calc:
            e, f = calc.compute(ETHANOL_X)
        self.assertAlmostEqual(e, e_cli, delta=1e-5)                  # eV
        self.assertLess(np.abs(f - f_cli).max(), 2e-4)                 # eV/Å: xtb's engrad carries 1e-9 Eh/Bohr

    def test_forces_are_minus_the_energy_gradient(self):
        h = 1e-4
        with XtbCalculator(ETHANOL_Z, ETHANOL_X, "gfn2") as calc:
            _, f = calc.compute(ETHANOL_X)
            for atom, axis in ((2, 0), (8, 1)):
                xp, xm = ETHANOL_X.copy(), ETHANOL_X.copy()
                xp[atom, axis] += h
                xm[atom, axis] -= h
                fd = -(calc.compute(xp)[0] - calc.compute(xm)[0]) / (2 * h)
                self.assertAlmostEqual(fd, f[atom, axis], delta=2e-3)


class NamesTest(unittest.TestCase):
    def test_a_molecule_name_with_an_apostrophe_survives_the_extxyz_round_trip(self):
        import tempfile
        import extxyz
        name = "N,N'-diphenylurea"
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, organic_data.file_stem(name) + "_300K.xyz.gz")
            extxyz.write(path, [extxyz.Frame(ETHANOL_Z, ETHANOL_X, -1.0, 0 * ETHANOL_X, dict(system=name))])
            self.assertEqual(extxyz.read(path)[0].info["system"], name)
        self.assertEqual(organic_data.file_stem(name), "N_N_-diphenylurea")


class SamplingTest(unittest.TestCase):
    def task(self, temperature=300.0, positions=ETHANOL_X, seed=7):
        return dict(id=0, split="train", name="ethanol", conformer=0, temperature=temperature,
                    numbers=np.array(ETHANOL_Z), positions=positions, seed=seed, frames=4, every=10, equil=20,
                    jitter=True)

    def test_a_task_is_deterministic_and_labels_every_kept_frame(self):
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        a = organic_data.run_task(self.task())
        b = organic_data.run_task(self.task())
        self.assertEqual(len(a["frames"]), 5)             # 4 MD frames + 1 jittered twin, nothing dropped at 300 K
        for (xa, fa, ea), (xb, fb, eb) in zip(a["frames"], b["frames"]):
            np.testing.assert_array_equal(xa, xb)
            self.assertEqual(ea, eb)
        with XtbCalculator(ETHANOL_Z, ETHANOL_X, "gfn2") as calc:
            e, f = calc.compute(a["frames"][0][0].astype(float))
        self.assertAlmostEqual(e, a["frames"][0][2], delta=1e-4)

    def test_frames_whose_bond_graph_changed_are_dropped_and_counted(self):
        # MD that returns the start, a frame with the hydroxyl H 1.7 Å from its O, and the start again
        broken = ETHANOL_X.copy()
        broken[8] += (broken[8] - broken[2]) / np.linalg.norm(broken[8] - broken[2]) * 0.75
        real = organic_data.gfnff_md
        organic_data.gfnff_md = lambda *a: [ETHANOL_X.copy(), broken, ETHANOL_X.copy() + 0.01]
        try:
            r = organic_data.run_task(dict(self.task(), jitter=False))
        finally:
            organic_data.gfnff_md = real
        self.assertEqual(r["drops"]["bond_graph"], 1)
        self.assertEqual(len(r["frames"]), 2)
        self.assertFalse(any(np.allclose(x, broken, atol=1e-3) for x, _, _ in r["frames"]))

    def test_bond_graph_uses_covalent_radii(self):
        g = organic_data.bond_graph(np.array(ETHANOL_Z), ETHANOL_X)
        self.assertEqual(len(g), 8)                       # C-C, C-O, 5 C-H, O-H
        self.assertIn((2, 8), g)


class SmallPoolDataTest(unittest.TestCase):
    def run_data(self, out, *extra):
        import subprocess
        import sys
        here = os.path.dirname(os.path.abspath(__file__))
        cmd = [sys.executable, os.path.join(here, "organic_data.py"), "--out", out, "--limit", "4", "--workers", "1",
               "--train-frames", "2", "--test-frames", "1", "--every", "5", "--equil", "5", *extra]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_the_small_pool_leaves_the_lists_frames_alone_and_goes_to_its_own_system(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a"), os.path.join(d, "b")
            self.run_data(a)
            self.run_data(b, "--small")
            for f in ("organic.train.npz", "organic.val.npz", "organic-test.npz"):
                x, y = np.load(os.path.join(a, f)), np.load(os.path.join(b, f))
                for k in ("z", "pos", "forces", "energy"):
                    np.testing.assert_array_equal(x[k], y[k], f"{f}: {k}")
            self.assertFalse(os.path.exists(os.path.join(a, "organic-small.train.npz")))
            small = np.load(os.path.join(b, "organic-small.train.npz"))
            self.assertEqual([str(m) for m in small["molecules"]], ["small C#CC=N", "small C#CCN"])   # small.csv: first rows
            self.assertGreater(len(small["energy"]), 0)


if __name__ == "__main__":
    unittest.main()
