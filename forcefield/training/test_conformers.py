#!/usr/bin/python3
"""Tests of the torsion driving and the student MD of the recipe:
/usr/bin/python3 -m unittest forcefield/training/test_conformers.py"""
import os
import sys
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import active_loop  # noqa: E402
import conformers  # noqa: E402
import extxyz  # noqa: E402
from model import PaiNN  # noqa: E402

MOLECULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                         "structures/src/main/resources/org/molten/structures/molecules")


def molecule(name):
    return extxyz.read(os.path.join(MOLECULES, name + ".xyz"))[0]


def bond_lengths(numbers, positions):
    nb = conformers.bonds(numbers, positions)
    return {(i, j): float(np.linalg.norm(positions[i] - positions[j])) for i in range(len(nb)) for j in nb[i] if i < j}


class ConformerTest(unittest.TestCase):
    def test_backbone_of_the_shipped_peptides(self):
        ala2 = conformers.backbone(*(lambda f: (f.numbers, f.positions))(molecule("alanine-dipeptide")))
        self.assertEqual((len(ala2["CA"]), len(ala2["N"])), (1, 2))
        ala5 = conformers.backbone(*(lambda f: (f.numbers, f.positions))(molecule("ace-ala5-nme")))
        self.assertEqual((len(ala5["CA"]), len(ala5["N"]), len(ala5["C"])), (5, 6, 5))

    def test_set_angles_are_reached_and_bonds_kept(self):
        fr = molecule("ace-ala5-nme")
        targets = dict(phi=[-63.0, -75.0, 60.0, -155.0, 70.0], psi=[-42.0, 145.0, 45.0, 160.0, -70.0],
                       omega=[0.0, 180.0, 180.0, 180.0, 180.0, 180.0])
        p = conformers.build(fr.numbers, fr.positions, targets["phi"], targets["psi"], targets["omega"])
        got = conformers.angles(fr.numbers, p)
        for key, want in targets.items():
            diff = (np.array(got[key]) - np.array(want) + 180.0) % 360.0 - 180.0
            self.assertLess(np.abs(diff).max(), 0.1, key)
        # a rigid rotation about a bond changes no bond length (Å)
        before, after = bond_lengths(fr.numbers, fr.positions), bond_lengths(fr.numbers, p)
        self.assertEqual(set(before), set(after))
        self.assertLess(max(abs(before[k] - after[k]) for k in before), 1e-9)

    def test_dihedral_sign_convention(self):
        # trans: 180; rotating the last atom by +60 about the b-c axis gives -120 (IUPAC sign)
        p = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.5], [-1.0, 0.0, 1.5]])
        self.assertAlmostEqual(abs(conformers.dihedral(p, 0, 1, 2, 3)), 180.0, places=9)
        p[3] = [0.0, 1.0, 1.5]
        self.assertAlmostEqual(conformers.dihedral(p, 0, 1, 2, 3), 90.0, places=9)


class EthanolStartTest(unittest.TestCase):
    def test_rotamer_reaches_its_torsions_and_keeps_bonds(self):
        fr = molecule("ethanol")
        p = active_loop.ethanol_rotamer(fr.numbers, fr.positions, [-170.0, 37.0])
        for t, want in zip(active_loop.ethanol_torsions(fr.numbers, fr.positions), [-170.0, 37.0]):
            diff = (conformers.dihedral(p, *t) - want + 180.0) % 360.0 - 180.0
            self.assertLess(abs(diff), 1e-6)
        before, after = bond_lengths(fr.numbers, fr.positions), bond_lengths(fr.numbers, p)
        self.assertEqual(set(before), set(after))
        self.assertLess(max(abs(before[k] - after[k]) for k in before), 1e-9)
        # the C-C-O frame stays; only the hydroxyl H and the methyl Hs move (Å)
        moved = np.linalg.norm(p - fr.positions, axis=1) > 1e-9
        self.assertEqual(set(np.nonzero(moved)[0]) - {3, 4, 5, 8}, set())

    def test_starts_are_seeded_by_round_and_leave_the_other_jobs_alone(self):
        mol = {n: molecule(n) for n in ("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme")}
        counts = dict(dipeptide=2, ala5=1, clusters=1, droplets=0)
        old = active_loop.plan_starts(2, mol, counts)
        new = active_loop.plan_starts(2, mol, dict(counts, ethanol=4))
        self.assertEqual([j["tag"] for j in new[:len(old)]], [j["tag"] for j in old])
        eth = [j["torsions"] for j in new[len(old):]]
        self.assertEqual(len(eth), 4)
        self.assertEqual(eth, [j["torsions"] for j in active_loop.plan_starts(2, mol, dict(counts, ethanol=4))[len(old):]])
        other = [j["torsions"] for j in active_loop.plan_starts(3, mol, dict(counts, ethanol=4))[len(old):]]
        self.assertNotEqual(eth, other)


class StudentMdTest(unittest.TestCase):
    def test_free_langevin_diffusion_matches_theory(self):
        # With zero forces (all weights zero) only the Langevin thermostat acts. Starting from equilibrium
        # velocities, the mean squared displacement per coordinate is 2 kT/(m g^2) (g t - 1 + exp(-g t))
        # (Ornstein-Uhlenbeck); units: kT eV, m amu, g 1/fs, t fs -> Å^2 through ACCEL_A_PER_FS2.
        model = PaiNN([1, 6, 7, 8], 16, 1, 8, 5.0, 16.0)
        for p in model.parameters():
            torch.nn.init.zeros_(p)
        w = molecule("water")
        starts = [dict(numbers=w.numbers, positions=w.positions + 20.0 * k, kind="as-is") for k in range(100)]
        steps, temperature = 400, 600.0
        snaps, stopped, n = active_loop.student_md(model, starts, (temperature,), 1, steps, steps, 7, torch.device("cpu"))
        self.assertEqual((stopped, n, len(snaps)), (0, 100, 100))
        msd = np.mean([np.sum((s[2] - starts[s[0]]["positions"]) ** 2, axis=1).mean() for s in snaps])
        g, t = active_loop.FRICTION_PER_FS, steps * active_loop.DT_FS
        kt = active_loop.BOLTZMANN_EV_PER_K * temperature
        expected = np.mean([3 * 2 * kt / (active_loop.MASSES_AMU[int(z)] * g * g) * active_loop.ACCEL_A_PER_FS2
                            * (g * t - 1 + np.exp(-g * t)) for z in w.numbers])
        self.assertLess(abs(msd / expected - 1.0), 0.2, f"MSD {msd:.2f} Å², expected {expected:.2f} Å²")

class ChangedStartTest(unittest.TestCase):
    def test_a_start_whose_hydrogen_moved_is_dropped_unless_kept(self):
        w = molecule("ethanol")
        z, p = np.asarray(w.numbers), np.asarray(w.positions)
        self.assertTrue(active_loop.same_bonds(z, p, p + 0.01))
        o = int(np.nonzero(z == 8)[0][0])
        h = max((i for i in np.nonzero(z == 1)[0] if np.linalg.norm(p[i] - p[o]) > 1.5),
                key=lambda i: np.linalg.norm(p[i] - p[o]))  # a methyl H, moved onto the oxygen
        q = p.copy()
        q[h] = p[o] + np.array([0.0, 0.0, 0.97])
        self.assertFalse(active_loop.same_bonds(z, p, q))
        starts = [dict(name="a", bonds_changed=False), dict(name="b", bonds_changed=True)]
        kept, n = active_loop.drop_changed_starts(starts, keep_changed=False)
        self.assertEqual(([s["name"] for s in kept], n), (["a"], 1))
        self.assertEqual(len(active_loop.drop_changed_starts(starts, keep_changed=True)[0]), 2)


if __name__ == "__main__":
    unittest.main()
