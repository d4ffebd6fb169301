"""The PyTorch baseline of issue 29 (torch_painn_bench.PaiNN, also torch_replica_bench's model) computes the student
of forcefield/training/model.py: the same energy and autograd forces from the same weights, so that the GPU figures
compare like with like (its first layer skips the zero vector term, as Molten's kernels do)."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import torch
except ImportError:   # the recipe's packages (python3-torch) are in CI; elsewhere this test says why it is skipped
    torch = None


@unittest.skipIf(torch is None, "python3-torch is not installed")
class TorchBaselineModelTest(unittest.TestCase):

    def test_energy_and_forces_equal_the_training_model(self):
        sys.path.insert(0, HERE)
        sys.path.insert(0, os.path.join(HERE, "..", "forcefield", "training"))
        import torch_painn_bench
        from model import PaiNN
        torch.manual_seed(7)
        ref = PaiNN([1, 6, 7, 8], hidden=16, layers=3, n_rbf=8, cutoff=4.0, gamma=4.0).double()
        with torch.no_grad():
            for p in ref.parameters():
                p.add_(0.1 * torch.randn_like(p))
            ref.atomref.copy_(torch.tensor([-13.6, -1030.0, -1485.0, -2040.0]))
            ref.scale.fill_(0.7)
        bench = torch_painn_bench.PaiNN(4, 16, 3, 8, 4.0, 4.0).double()
        missing, unexpected = bench.load_state_dict(ref.state_dict(), strict=False)
        self.assertEqual([], missing)
        z = torch.tensor([6, 6, 8, 1, 1, 1, 1, 1, 1, 7])
        g = torch.Generator().manual_seed(3)
        pos = torch.rand(10, 3, generator=g, dtype=torch.float64) * 3.5
        e_ref, f_ref = ref(z, pos.clone(), torch.zeros_like(z), 1)
        x = pos.clone().requires_grad_(True)
        d = torch.cdist(pos, pos)
        i, j = torch.nonzero((d < 4.0) & ~torch.eye(10, dtype=torch.bool), as_tuple=True)
        e = bench.energy(x, ref.species_index(z), i, j, None)
        (grad,) = torch.autograd.grad(e, x)
        self.assertLess(abs(float(e) - float(e_ref[0])), 1e-9)
        self.assertLess(float((-grad - f_ref).abs().max()), 1e-10)


if __name__ == "__main__":
    unittest.main()
