#!/usr/bin/python3
"""Unit tests of the training code: /usr/bin/python3 -m unittest forcefield/training/test_model.py"""
import math
import os
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extxyz  # noqa: E402
import safetensors_io  # noqa: E402
from model import PaiNN, ScriptedPaiNN, spec_state  # noqa: E402


def small_model(seed=0):
    torch.manual_seed(seed)
    m = PaiNN([1, 6, 7, 8], hidden=16, layers=2, n_rbf=8, cutoff=4.0, gamma=4.0).double()
    with torch.no_grad():
        for p in m.parameters():
            p.add_(0.1 * torch.randn_like(p))   # biases nonzero too
        m.atomref.copy_(torch.tensor([-13.6, -1030.0, -1485.0, -2040.0]))
        m.scale.fill_(0.7)
    return m


def molecule():
    z = torch.tensor([6, 6, 8, 1, 1, 1, 1, 1, 1, 7])
    g = torch.Generator().manual_seed(3)
    pos = torch.rand(10, 3, generator=g, dtype=torch.float64) * 3.5
    return z, pos


def energy_forces(m, z, pos):
    e, f = m(z, pos.clone(), torch.zeros_like(z), 1)
    return float(e[0]), f.detach()


class ModelTest(unittest.TestCase):
    def test_forces_match_central_differences(self):
        m, (z, pos) = small_model(), molecule()
        _, f = energy_forces(m, z, pos)
        h = 1e-5
        for a in range(len(z)):
            for c in range(3):
                p = pos.clone(); p[a, c] += h
                ep, _ = energy_forces(m, z, p)
                p[a, c] -= 2 * h
                em, _ = energy_forces(m, z, p)
                self.assertAlmostEqual(float(f[a, c]), -(ep - em) / (2 * h), delta=1e-6)

    def test_rotation_translation_permutation(self):
        m, (z, pos) = small_model(), molecule()
        e, f = energy_forces(m, z, pos)
        q, _ = torch.linalg.qr(torch.randn(3, 3, dtype=torch.float64, generator=torch.Generator().manual_seed(1)))
        e2, f2 = energy_forces(m, z, pos @ q.T + torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64))
        self.assertAlmostEqual(e, e2, delta=1e-9)
        self.assertTrue(torch.allclose(f @ q.T, f2, atol=1e-9))
        perm = torch.randperm(len(z), generator=torch.Generator().manual_seed(2))
        e3, f3 = energy_forces(m, z[perm], pos[perm])
        self.assertAlmostEqual(e, e3, delta=1e-9)
        self.assertTrue(torch.allclose(f[perm], f3, atol=1e-9))

    def test_energy_continuous_at_cutoff(self):
        m = small_model()
        z = torch.tensor([8, 1])
        r_c = m.cutoff
        def e_at(d):
            return energy_forces(m, z, torch.tensor([[0.0, 0, 0], [d, 0, 0]], dtype=torch.float64))
        e_in, f_in = e_at(r_c - 1e-6)
        e_out, f_out = e_at(r_c + 1e-6)
        self.assertAlmostEqual(e_in, e_out, delta=1e-9)
        self.assertLess(float(f_in.abs().max()), 1e-8)
        # isolated atoms give exactly the per-species constant scale*y(embedding) + atomref
        e_far, _ = e_at(10.0)
        self.assertNotEqual(e_far, e_at(2.0)[0])

    def test_batch_equals_single_structures(self):
        m, (z, pos) = small_model(), molecule()
        z2, pos2 = z[:6], pos[:6] + 0.3
        e1, f1 = energy_forces(m, z, pos)
        e2, f2 = energy_forces(m, z2, pos2)
        batch = torch.cat([torch.zeros(10, dtype=torch.long), torch.ones(6, dtype=torch.long)])
        e, f = m(torch.cat([z, z2]), torch.cat([pos, pos2]).clone(), batch, 2)
        self.assertAlmostEqual(float(e[0]), e1, delta=1e-9)
        self.assertAlmostEqual(float(e[1]), e2, delta=1e-9)
        self.assertTrue(torch.allclose(f[:10], f1, atol=1e-10) and torch.allclose(f[10:], f2, atol=1e-10))

    def test_block_pairs_equal_all_pairs_of_the_batch(self):
        # the training path's edges (every pair within each frame, then the cutoff) against cdist over the batch
        from dataset import block_pairs
        m, (z, pos) = small_model(), molecule()
        z2, pos2 = z[:6], pos[:6] + 0.3
        counts = torch.tensor([10, 6])
        batch = torch.repeat_interleave(torch.arange(2), counts)
        zz, pp = torch.cat([z, z2]), torch.cat([pos, pos2])
        e, f = m(zz, pp.clone(), batch, 2)
        e_b, f_b = m(zz, pp.clone(), batch, 2, pairs=block_pairs(counts))
        i, j = block_pairs(counts)
        self.assertEqual(len(i), 10 * 9 + 6 * 5)
        self.assertTrue(bool((batch[i] == batch[j]).all()) and bool((i != j).all()))
        self.assertTrue(torch.allclose(e, e_b, rtol=0, atol=1e-12) and torch.allclose(f, f_b, rtol=0, atol=1e-12))

    def test_first_layer_without_its_zero_vector_term_is_exact(self):
        # the first layer skips x_vv o v_j (v is zero there): energy, forces and the training loss's gradients (the
        # double backward) equal the full message in every layer
        from unittest import mock
        from model import Interaction

        def every_term(self, s, v, rbf, fcut, unit, idx_i, idx_j, v_is_zero=False):
            # the message block as the spec writes it, x_vv o v_j in every layer
            w = self.filter(rbf) * fcut.unsqueeze(-1)
            x = self.phi(s).index_select(0, idx_j) * w
            x_vv, x_s, x_vs = torch.split(x, self.hidden, dim=-1)
            ds = torch.zeros_like(s).index_add_(0, idx_i, x_s)
            dv_e = x_vv.unsqueeze(1) * v.index_select(0, idx_j) + unit.unsqueeze(-1) * x_vs.unsqueeze(1)
            return s + ds, v + torch.zeros_like(v).index_add_(0, idx_i, dv_e)

        def step(m):
            z, pos = molecule()
            m.zero_grad()
            e, f = m(z, pos.clone(), torch.zeros_like(z), 1, create_graph=True)
            (e.sum() + (f * f).sum()).backward()
            return [e.detach(), f.detach()] + [p.grad.clone() for p in m.parameters() if p.grad is not None]

        m = small_model()
        skipped = step(m)
        with mock.patch.object(Interaction, "forward", every_term):
            full = step(m)
        self.assertEqual(len(full), len(skipped))
        for a, b in zip(skipped, full):   # equal to float64 rounding (autograd sums the branches in another order)
            self.assertLessEqual(float((a - b).abs().max()), 1e-13 * max(1.0, float(b.abs().max())))

    def test_unknown_species_is_refused(self):
        m = small_model()
        with self.assertRaises(ValueError):
            energy_forces(m, torch.tensor([8, 9]), torch.zeros(2, 3, dtype=torch.float64))

    def test_scripted_module_matches_eager(self):
        m, (z, pos) = small_model(), molecule()
        s = torch.jit.script(ScriptedPaiNN(m))
        with tempfile.TemporaryDirectory() as d:
            s.save(os.path.join(d, "m.pt"))
            s = torch.jit.load(os.path.join(d, "m.pt"))
        e, f = s(z, pos)
        e2, f2 = energy_forces(m, z, pos)
        self.assertAlmostEqual(float(e), e2, delta=1e-10)
        self.assertTrue(torch.allclose(f, f2, atol=1e-12))

    def test_safetensors_round_trip_in_spec_order(self):
        m = small_model().float()
        tensors = [(k, v.detach().numpy()) for k, v in spec_state(m)]
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "w.safetensors")
            safetensors_io.write(p, tensors, {"architecture": "painn"})
            back, meta = safetensors_io.read(p)
            with open(p, "rb") as fh:
                n = int.from_bytes(fh.read(8), "little")
        self.assertEqual(n % 8, 0)
        self.assertEqual(meta, {"architecture": "painn"})
        self.assertEqual(list(back), [k for k, _ in tensors])
        for k, v in tensors:
            self.assertTrue(np.array_equal(back[k], v), k)
        self.assertEqual(back["interactions.1.phi.2.weight"].shape, (48, 16))
        self.assertEqual(back["updates.0.mlp.0.weight"].shape, (16, 32))


class ExtxyzTest(unittest.TestCase):
    def test_round_trip_and_ase_reads_it(self):
        fr = extxyz.Frame([8, 1, 1], [[0, 0, 0], [0.96, 0, 0], [-0.24, 0.93, 0]], energy=-137.5,
                          forces=[[0.1, -0.2, 0.3], [0, 0, 0], [-0.1, 0.2, -0.3]], info=dict(system="water", source="x"))
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "f.xyz.gz")
            extxyz.write(p, [fr, fr])
            back = extxyz.read(p)
            self.assertEqual(len(back), 2)
            self.assertTrue(np.allclose(back[1].forces, fr.forces) and back[1].energy == fr.energy)
            try:
                from ase.io import read
            except ImportError:
                return
            a = read(p, index=0)
            self.assertAlmostEqual(a.get_potential_energy(), -137.5)
            self.assertTrue(np.allclose(a.get_forces(), fr.forces))
            self.assertFalse(any(a.pbc))


if __name__ == "__main__":
    unittest.main()
