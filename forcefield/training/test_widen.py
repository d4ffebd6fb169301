"""widen.py: the widened student computes the original's energies and forces; noise breaks the copies' symmetry."""
import os
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import PaiNN, spec_state  # noqa: E402
from student_md import load_student  # noqa: E402
from widen import perturb, widen  # noqa: E402


def molecules(seed):
    """Two random H/C/N/O structures of 7 and 5 atoms, spread so that some pairs fall beyond the cutoff (Å)."""
    g = torch.Generator().manual_seed(seed)
    z = torch.tensor([6, 6, 8, 1, 1, 7, 1, 8, 1, 1, 6, 1])
    pos = torch.rand(12, 3, generator=g, dtype=torch.float64) * 4.0
    batch = torch.tensor([0] * 7 + [1] * 5)
    return z, pos, batch


class WidenTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(3)
        self.model = PaiNN([1, 6, 7, 8], hidden=16, layers=2, n_rbf=8).double()
        with torch.no_grad():   # every parameter away from its initial symmetric values, biases included
            for p in self.model.parameters():
                if p.requires_grad:
                    p.add_(0.2 * torch.randn_like(p))
            self.model.atomref.copy_(torch.tensor([-13.6, -58.2, -80.4, -110.7], dtype=torch.float64))
            self.model.scale.fill_(1.3)

    def test_the_widened_model_computes_the_same_energies_and_forces(self):
        wide = widen(self.model)
        self.assertEqual(wide.hidden, 32)
        z, pos, batch = molecules(5)
        e0, f0 = self.model(z, pos.clone(), batch, 2)
        e1, f1 = wide(z, pos.clone(), batch, 2)
        torch.testing.assert_close(e1, e0, rtol=0, atol=1e-10)
        torch.testing.assert_close(f1, f0, rtol=0, atol=1e-10)

    def test_noise_breaks_the_copies_but_keeps_the_function_near(self):
        wide = perturb(widen(self.model), 1e-3, 7)
        z, pos, batch = molecules(6)
        e0, f0 = self.model(z, pos.clone(), batch, 2)
        e1, f1 = wide(z, pos.clone(), batch, 2)
        self.assertGreater(float((f1 - f0).abs().max()), 1e-9)
        self.assertLess(float((f1 - f0).abs().max()), 0.05 * float(f0.abs().max()))
        w = wide.interactions[0].phi[0].weight
        self.assertGreater(float((w[:16] - w[16:]).abs().max()), 0.0)

    def test_a_widened_state_loads_at_its_own_width(self):
        # organic_eval.py and the MD helpers load students through load_student; a state written as widen.py writes it
        # must come back at its width, computing what it computed
        torch.manual_seed(4)
        narrow = PaiNN([1, 6, 7, 8], hidden=8).double()   # the loaders' layers, radial basis and cutoff
        wide = widen(narrow).float()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "wide.npz")
            np.savez(path, **{k: v.detach().cpu().float().numpy() for k, v in spec_state(wide)})
            loaded = load_student(path, torch.device("cpu"))
        self.assertEqual(loaded.hidden, 16)
        z, pos, batch = molecules(8)
        pos = pos.float()
        e0, f0 = wide(z, pos.clone(), batch, 2)
        e1, f1 = loaded(z, pos.clone(), batch, 2)
        torch.testing.assert_close(f1, f0, rtol=0, atol=1e-6)


if __name__ == "__main__":
    unittest.main()
