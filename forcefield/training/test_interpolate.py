"""interpolate.py: the ends are the two students, the midpoint is the tensors' mean, mismatched states are refused."""
import os
import sys
import tempfile
import unittest

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export import training_description  # noqa: E402
from interpolate import interpolate  # noqa: E402
from model import PaiNN, spec_state  # noqa: E402
from student_md import load_student  # noqa: E402


def state_of(seed, hidden=8):
    torch.manual_seed(seed)
    m = PaiNN([1, 6, 7, 8], hidden=hidden)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(0.1 * torch.randn_like(p))
    return {k: v.detach().numpy().astype(np.float32) for k, v in spec_state(m)}


class InterpolateTest(unittest.TestCase):
    def test_the_ends_are_the_two_students(self):
        a, b = state_of(1), state_of(2)
        for k, v in interpolate(a, b, 0.0).items():
            np.testing.assert_array_equal(v, a[k])
        for k, v in interpolate(a, b, 1.0).items():
            np.testing.assert_array_equal(v, b[k])

    def test_the_midpoint_is_the_mean_and_loads_as_a_student(self):
        a, b = state_of(1), state_of(2)
        mid = interpolate(a, b, 0.5)
        w = "interactions.0.phi.0.weight"
        np.testing.assert_allclose(mid[w], 0.5 * (a[w] + b[w]), rtol=0, atol=1e-7)
        self.assertGreater(float(np.abs(mid[w] - a[w]).max()), 1e-3)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mid.npz")
            np.savez(path, **mid)
            model = load_student(path, torch.device("cpu"))
        self.assertEqual(model.hidden, 8)

    def test_students_of_different_widths_are_refused(self):
        with self.assertRaises(SystemExit):
            interpolate(state_of(1, 8), state_of(2, 16), 0.5)

    def test_an_interpolated_student_says_so_in_its_metadata(self):
        # export.py --training: the weight file of an average must not claim the child's train.py run as its own
        settings = dict(steps=10, batch=4, lr=1e-3, lr_final=1e-5, w_forces=1.0, w_energy=10.0, ema=0.999, seed=1,
                        torch="2", device_name="cpu")
        self.assertTrue(training_description(settings).startswith("train.py: 10 steps, batch 4"))
        self.assertEqual(training_description(settings, "interpolate.py: 0.5 x A + 0.5 x B"),
                         "interpolate.py: 0.5 x A + 0.5 x B")
        # device_organic.sh's soup names the run it averaged with INIT: {train} stands for the log's own line
        self.assertEqual(training_description(settings, "interpolate.py --alpha 0.5: A + its fine-tuning ({train})"),
                         "interpolate.py --alpha 0.5: A + its fine-tuning (" + training_description(settings) + ")")


if __name__ == "__main__":
    unittest.main()
