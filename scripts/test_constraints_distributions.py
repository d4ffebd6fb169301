"""Tests of constraints_distributions.py: its divergences are those of molten validate (Divergences,
ObservableSet), and a run directory is analysed end to end with both sides cut to the same simulated time.

/usr/bin/python3 -m unittest scripts/test_constraints_distributions.py      (numpy only; < 1 s)"""
import json
import math
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import constraints_distributions as cd  # noqa: E402

# Alanine dipeptide as bundled (structures/src/main/resources/org/molten/structures/molecules/alanine-dipeptide.xyz)
HERE = os.path.dirname(os.path.abspath(__file__))
ALA = os.path.join(HERE, "..", "structures", "src", "main", "resources", "org", "molten", "structures", "molecules",
                   "alanine-dipeptide.xyz")
WATER = np.array([[0.0, 0.0, 0.0], [0.957, 0.0, 0.0], [-0.240, 0.927, 0.0]])  # O, H, H in Å


def read_xyz(path):
    with open(path) as f:
        lines = f.read().splitlines()
    n = int(lines[0])
    rows = [l.split() for l in lines[2:2 + n]]
    return [r[0] for r in rows], np.array([[float(v) for v in r[1:4]] for r in rows])


def write_run(path, symbols, frames, dt_fs):
    """An extended XYZ trajectory as molten run writes it (species, pos, momenta; time_fs), frames dt_fs apart."""
    with open(path, "w") as f:
        for k, x in enumerate(frames):
            f.write(f"{len(symbols)}\nProperties=species:S:1:pos:R:3:momenta:R:3 step={k} time_fs={k * dt_fs} "
                    f'pbc="F F F"\n')
            for s, p in zip(symbols, x):
                f.write(f"{s} {p[0]:.8f} {p[1]:.8f} {p[2]:.8f} 0 0 0\n")


class DivergenceTest(unittest.TestCase):
    def test_wasserstein_of_a_shift_is_the_shift(self):
        a = np.random.default_rng(1).normal(1.5, 0.05, 500)
        self.assertAlmostEqual(cd.wasserstein1(a, a + 0.02), 0.02, places=12)
        self.assertAlmostEqual(cd.wasserstein1([0.0], [1.0, 3.0]), 2.0, places=12)   # |0-1|/2 + |0-3|/2

    def test_circular_wasserstein_takes_the_shorter_arc(self):
        # 179° and -179° are 2° apart across ±180, not 358°
        self.assertAlmostEqual(cd.circular_wasserstein1([179.0], [-179.0], -180.0, 360.0), 2.0, places=9)
        # a basin around ±180 rotated by 10° costs 10°, whatever side of the axis its values fall on
        a = np.random.default_rng(2).normal(175.0, 8.0, 400)
        self.assertAlmostEqual(cd.circular_wasserstein1(a, a + 10.0, -180.0, 360.0), 10.0, places=6)
        # values 5° apart all around the circle, every one rotated by 2°: each moves 2°
        u = np.linspace(-180, 180, 73)[:-1]
        self.assertAlmostEqual(cd.circular_wasserstein1(u, u + 2.0, -180.0, 360.0), 2.0, places=6)

    def test_jensen_shannon_in_bits(self):
        self.assertEqual(cd.jensen_shannon([1, 2, 3], [2, 4, 6]), 0.0)
        self.assertAlmostEqual(cd.jensen_shannon([1, 0], [0, 1]), 1.0, places=12)
        # p = (1, 0), q = (1/2, 1/2): 1/2 ln(4/3) + 1/4 ln(2/3) + 1/4 ln 2 nats
        expected = (0.5 * math.log(4 / 3) + 0.25 * math.log(2 / 3) + 0.25 * math.log(2)) / math.log(2)
        self.assertAlmostEqual(cd.jensen_shannon([1, 0], [0.5, 0.5]), expected, places=12)

    def test_histogram_keeps_outliers_and_wraps_dihedrals(self):
        p = cd.histogram([-1.0, 0.5, 1.5, 2.5, 99.0], 0.0, 1.0, 3, False)
        np.testing.assert_allclose(p, [0.2, 0.2, 0.2, 0.2, 0.2])          # 3 bins, underflow, overflow
        q = cd.histogram([190.0, -170.0], -180.0, 5.0, 72, True)
        self.assertEqual(q[2], 1.0)                                       # 190° is -170°, bin [-170, -165)

    def test_compare_applies_both_limits_of_the_kind(self):
        obs = ("angle H-C-H", "bond_angle", 0.0, 90, None)
        a = np.random.default_rng(3).normal(109.0, 4.0, 4000)
        self.assertTrue(cd.compare(obs, a, a + 0.5)["passed"])
        shifted = cd.compare(obs, a, a + 2.5)                            # W1 2.5° > 2°
        self.assertFalse(shifted["passed"])
        self.assertIn("W1", shifted["reason"])


class MinimumImageTest(unittest.TestCase):
    def test_a_bond_across_the_boundary_is_measured_at_its_nearest_image(self):
        # A triclinic cell (rows are lattice vectors, Å) and an O-H bond of 0.96 Å split across the boundary: the
        # atoms sit 0.45 and 0.51 Å inside opposite faces along a. Wrapped coordinates put them ~9 Å apart; the
        # nearest image is the bond. Rounding (not flooring) the fractional shift is what finds it from either side.
        cell = np.array([[10.0, 0.0, 0.0], [2.0, 9.0, 0.0], [1.0, 1.5, 8.0]])
        o = 0.51 / 10.0 * cell[0] + 0.3 * cell[1] + 0.6 * cell[2]
        h = (1.0 - 0.045) * cell[0] + 0.3 * cell[1] + 0.6 * cell[2]
        x = np.array([o, h])
        pairs = np.array([[0, 1]])
        self.assertAlmostEqual(float(cd.distances(x, cell, pairs)[0]), 0.96, places=9)
        self.assertAlmostEqual(float(cd.distances(x[::-1], cell, pairs)[0]), 0.96, places=9)
        self.assertGreater(float(cd.distances(x, None, pairs)[0]), 8.0)   # no cell: the plain distance
        # A whole trajectory (frames, atoms, 3) at once, the second frame shifted by a lattice vector.
        traj = np.stack([x, x + np.array([cell[1], [0.0, 0.0, 0.0]])])
        np.testing.assert_allclose(cd.distances(traj, cell, pairs)[:, 0], [0.96, 0.96], atol=1e-9)


class ObservableSetTest(unittest.TestCase):
    def test_alanine_dipeptide_has_the_validation_observables(self):
        symbols, x = read_xyz(ALA)
        names = [o[0] for o in cd.observable_set(symbols, x, None)]
        # ObservableSet.of(alanine dipeptide), as the project's Java lists it
        self.assertEqual(names, ["bond C-C", "bond C-H", "bond C-N", "bond C-O", "bond H-N", "angle C-C-C",
                                 "angle C-C-H", "angle C-C-N", "angle C-C-O", "angle C-N-C", "angle C-N-H",
                                 "angle H-C-H", "angle H-C-N", "angle N-C-O", "dihedral phi", "dihedral psi",
                                 "dihedral omega"])
        dihedrals = {o[0]: o[4] for o in cd.observable_set(symbols, x, None) if o[1] == "backbone_dihedral"}
        self.assertEqual([len(dihedrals[k]) for k in ("dihedral phi", "dihedral psi", "dihedral omega")], [1, 1, 2])
        for quad in dihedrals["dihedral omega"]:                        # trans amides of the minimum
            self.assertGreater(abs(cd.dihedrals_deg(x, None, np.array([quad]))[0]), 160.0)

    def test_held_observables_are_not_targets(self):
        symbols = ["O", "H", "H"] * 2
        x = np.concatenate([WATER, WATER + [3.0, 0.0, 0.0]])
        obs = cd.observable_set(symbols, x, None)
        nb = [[1, 2], [0], [0], [4, 5], [3], [3]]
        held = {o[0]: cd.held_by_constraints(o, symbols, nb) for o in obs}
        self.assertEqual(sorted(held), ["angle H-O-H", "bond H-O", "distance O-O"])
        self.assertTrue(held["angle H-O-H"] and held["bond H-O"])
        self.assertEqual(held["distance O-O"], "")
        symbols, x = read_xyz(ALA)
        nb = [[] for _ in symbols]
        for i, j, _ in cd.perceive_bonds(symbols, x, None):
            nb[i].append(j)
            nb[j].append(i)
        for o in cd.observable_set(symbols, x, None):
            if o[0] == "angle H-C-H":                                    # only the C-H bonds are held
                self.assertEqual(cd.held_by_constraints(o, symbols, nb), "")


class RunDirectoryTest(unittest.TestCase):
    def test_both_sides_cut_to_the_same_simulated_time(self):
        symbols = ["O", "H", "H"] * 3
        base = np.concatenate([WATER, WATER + [2.9, 0.0, 0.0], WATER + [0.0, 2.9, 0.0]])
        rng = np.random.default_rng(4)
        with tempfile.TemporaryDirectory() as d:
            for seed, frames in ((1, (30, 12)), (2, (20, 25))):        # frames of 10 fs: 0.5 fs side, 2 fs side
                for side, n in zip(cd.SIDES, frames):
                    write_run(os.path.join(d, f"cluster-{side}-s{seed}.extxyz"), symbols,
                              [base + rng.normal(0, 0.003, base.shape) for _ in range(n)], 10.0)
            out = os.path.join(d, "r.json")
            rc = cd.main([d, "--equil-ps", "0.05", "--json", out])
            r = json.load(open(out))["systems"][0]
        # seed 1 up to 110 fs, seed 2 up to 190 fs, both from 50 fs: 7 + 15 frames on each side
        self.assertEqual(r["frames"], {"0.5fs": 22, "2fs-hbonds": 22})
        self.assertEqual(r["seeds"], [1, 2])
        oo = [c for c in r["comparisons"] if c["name"] == "distance O-O"][0]
        self.assertTrue(oo["target"] and oo["passed"], oo["reason"])
        self.assertEqual(oo["samples"], [66, 66])
        self.assertEqual(rc, 0)


if __name__ == "__main__":
    unittest.main()
