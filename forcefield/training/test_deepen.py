"""deepen.py: the deepened student (T -> T + 1) computes the original's energies and forces, keeps every original
tensor, trains, loads where train.py, organic_eval.py and export.py read it, and refuses a depth not above the input's."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from deepen import deepen  # noqa: E402
from export import build  # noqa: E402
from model import PaiNN, spec_state  # noqa: E402
from student_md import load_student  # noqa: E402
from train import SPECIES, model_arguments, student_and_ema  # noqa: E402
from test_widen import molecules  # noqa: E402


def trained(hidden=16, layers=2, n_rbf=8, seed=3):
    """A float64 student with every parameter away from its initial values, biases included (eV, eV/Å)."""
    torch.manual_seed(seed)
    model = PaiNN([1, 6, 7, 8], hidden=hidden, layers=layers, n_rbf=n_rbf).double()
    with torch.no_grad():
        for p in model.parameters():
            if p.requires_grad:
                p.add_(0.2 * torch.randn_like(p))
        model.atomref.copy_(torch.tensor([-13.6, -58.2, -80.4, -110.7], dtype=torch.float64))
        model.scale.fill_(1.3)
    return model


def save(model, path):
    np.savez(path, **{k: v.detach().cpu().float().numpy() for k, v in spec_state(model)})


class DeepenTest(unittest.TestCase):
    def setUp(self):
        self.model = trained()

    def test_the_deepened_model_computes_the_same_energies_and_forces(self):
        deep = deepen(self.model, 3, seed=1)
        self.assertEqual((deep.layers, len(deep.interactions), len(deep.updates)), (3, 3, 3))
        for seed in (5, 6, 7):
            z, pos, batch = molecules(seed)
            e0, f0 = self.model(z, pos.clone(), batch, 2)
            e1, f1 = deep(z, pos.clone(), batch, 2)
            torch.testing.assert_close(e1, e0, rtol=0, atol=1e-10)
            torch.testing.assert_close(f1, f0, rtol=0, atol=1e-10)
        two = deepen(self.model, 4, seed=1)   # two identity blocks appended
        z, pos, batch = molecules(8)
        torch.testing.assert_close(two(z, pos.clone(), batch, 2)[1], self.model(z, pos.clone(), batch, 2)[1],
                                   rtol=0, atol=1e-10)

    def test_the_new_blocks_output_layers_are_zero_and_every_original_tensor_is_copied(self):
        deep = deepen(self.model, 3, seed=1)
        old = dict(spec_state(self.model))
        new = dict(spec_state(deep))
        self.assertEqual(set(old), {k for k in new if not k.startswith(("interactions.2.", "updates.2."))})
        for k, t in old.items():
            self.assertTrue(torch.equal(new[k], t), k)
        for k in ("interactions.2.phi.2.weight", "interactions.2.phi.2.bias", "updates.2.mlp.2.weight",
                  "updates.2.mlp.2.bias"):
            self.assertEqual(0.0, float(new[k].abs().max()), k)
        # the other layers of the new block as a fresh PaiNN of the same seed and depth initialises them
        torch.manual_seed(1)
        fresh = dict(spec_state(PaiNN([1, 6, 7, 8], hidden=16, layers=3, n_rbf=8).double()))
        for k in ("interactions.2.phi.0.weight", "interactions.2.phi.0.bias", "interactions.2.filter.weight",
                  "interactions.2.filter.bias", "updates.2.U.weight", "updates.2.V.weight", "updates.2.mlp.0.weight",
                  "updates.2.mlp.0.bias"):
            self.assertTrue(torch.equal(new[k], fresh[k]), k)
            self.assertGreater(float(new[k].abs().max()), 0.0, k)
        other = dict(spec_state(deepen(self.model, 3, seed=2)))
        self.assertFalse(torch.equal(other["interactions.2.phi.0.weight"], new["interactions.2.phi.0.weight"]))

    def test_one_optimiser_step_moves_the_new_block_and_the_output(self):
        deep = deepen(self.model, 3, seed=1)
        z, pos, batch = molecules(9)
        target = torch.zeros(pos.shape, dtype=torch.float64)
        e0, f0 = deep(z, pos.clone(), batch, 2)
        opt = torch.optim.SGD([p for p in deep.parameters() if p.requires_grad], lr=1e-3)
        _, f = deep(z, pos.clone(), batch, 2, create_graph=True)   # a force loss, as train.py's
        loss = torch.mean((f - target) ** 2)
        opt.zero_grad()
        loss.backward()
        for lin in (deep.interactions[2].phi[2], deep.updates[2].mlp[2]):   # gradients reach the zero layers
            self.assertGreater(float(lin.weight.grad.abs().max()), 0.0)
        opt.step()
        self.assertGreater(float(deep.updates[2].mlp[2].weight.abs().max()), 0.0)
        e1, f1 = deep(z, pos.clone(), batch, 2)
        self.assertGreater(float((f1 - f0).abs().max()), 1e-9)
        self.assertGreater(float((e1 - e0).abs().max()), 1e-12)

    def test_train_py_organic_eval_and_export_load_the_deepened_state(self):
        deep = deepen(trained(hidden=8, layers=3, n_rbf=20, seed=4), 4, seed=1).float()   # the loaders' n_rbf
        z, pos, batch = molecules(10)
        pos = pos.float()
        e0, f0 = deep(z, pos.clone(), batch, 2)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "deep.npz")
            save(deep, path)
            # train.py --hidden 8 --layers 4 --init deep.npz: its model built and warm-started as train.py does
            ap = argparse.ArgumentParser()
            model_arguments(ap)
            args = ap.parse_args(["--hidden", "8", "--layers", "4"])
            args.init = path
            model, _ = student_and_ema(args, [0.0] * 4, 1.0, torch.device("cpu"), torch.float32)
            # organic_eval.py and organic_active.py: load_student, F and T from the state
            loaded = load_student(path, torch.device("cpu"))
            # export.py: the model of the run's train_log.json settings
            settings = {"species": SPECIES, "hidden": 8, "layers": 4, "n_rbf": 20, "cutoff": 5.0, "gamma": 16.0}
            exported = build(dict(np.load(path)), settings)
            for m in (model, loaded, exported):
                self.assertEqual(4, len(m.interactions))
                e1, f1 = m(z, pos.clone(), batch, 2)
                torch.testing.assert_close(f1, f0, rtol=0, atol=1e-6)
                torch.testing.assert_close(e1, e0, rtol=0, atol=1e-4)
            args3 = ap.parse_args(["--hidden", "8", "--layers", "3"])   # the wrong depth is not loaded silently
            args3.init = path
            with self.assertRaises(RuntimeError):
                student_and_ema(args3, [0.0] * 4, 1.0, torch.device("cpu"), torch.float32)

    def test_the_command_line_writes_a_state_of_one_more_block(self):
        with tempfile.TemporaryDirectory() as d:
            src, out = os.path.join(d, "in.npz"), os.path.join(d, "deep.npz")
            save(trained(hidden=8, layers=3, n_rbf=20, seed=5).float(), src)
            r = subprocess.run([sys.executable, os.path.join(HERE, "deepen.py"), "--weights", src, "--out", out],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(0, r.returncode, r.stderr)
            self.assertIn("F = 8, T = 3 -> 4", r.stdout)
            state = dict(np.load(out))
            self.assertIn("updates.3.mlp.2.bias", state)
            self.assertNotIn("updates.4.mlp.2.bias", state)
            self.assertEqual(0.0, float(np.abs(state["interactions.3.phi.2.weight"]).max()))

    def test_a_depth_not_above_the_inputs_is_refused(self):
        for layers in (2, 1):
            with self.assertRaisesRegex(ValueError, f"--layers {layers} is not more than the input's 2 interaction"):
                deepen(self.model, layers)
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "in.npz")
            save(trained(hidden=8, layers=3, n_rbf=20, seed=5).float(), src)
            r = subprocess.run([sys.executable, os.path.join(HERE, "deepen.py"), "--weights", src, "--out",
                                os.path.join(d, "deep.npz"), "--layers", "3"], capture_output=True, text=True,
                               timeout=60)
            self.assertEqual(2, r.returncode, r.stdout)
            self.assertIn("--layers 3 is not more than the 3 interaction blocks of", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "deep.npz")))


if __name__ == "__main__":
    unittest.main()
