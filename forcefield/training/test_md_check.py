"""Tests of md_check.py's trajectory bond check (a transient stretch is not a broken bond; a lasting one is).

/usr/bin/python3 -m unittest forcefield/training/test_md_check.py"""
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import md_check  # noqa: E402

WATER = np.array([[0.0, 0.0, 0.0], [0.957, 0.0, 0.0], [-0.240, 0.927, 0.0]])  # O, H, H in Å


def write_trajectory(path, oh_lengths):
    """A water trajectory whose first O-H bond takes the given lengths (Å), one frame each."""
    with open(path, "w") as f:
        for r in oh_lengths:
            x = WATER.copy()
            x[1, 0] = r
            f.write("3\nProperties=species:S:1:pos:R:3 pbc=\"F F F\"\n")
            for s, p in zip("OHH", x):
                f.write(f"{s} {p[0]:.6f} {p[1]:.6f} {p[2]:.6f}\n")


class TrajectoryBondCheckTest(unittest.TestCase):
    # O-H is bonded below 1.2 (0.66 + 0.31) = 1.164 Å
    def check(self, lengths):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "w.xyz")
            write_trajectory(p, lengths)
            return md_check.analyse_trajectory(p)

    def test_one_stretched_frame_between_bonded_ones_is_transient(self):
        r = self.check([0.96, 1.0, 1.20, 0.98, 0.95])
        self.assertTrue(r["intact"])
        self.assertEqual(r["transient_frames"], 1)

    def test_a_bond_broken_in_two_consecutive_frames_is_a_topology_change(self):
        r = self.check([0.96, 1.0, 1.20, 1.30, 0.98])
        self.assertFalse(r["intact"])
        self.assertEqual(r["topology_changed_at_frame"], 2)

    def test_a_bond_broken_in_the_last_frame_counts_as_changed(self):
        r = self.check([0.96, 1.0, 0.97, 1.25])
        self.assertFalse(r["intact"])
        self.assertEqual(r["topology_changed_at_frame"], 3)


if __name__ == "__main__":
    unittest.main()
