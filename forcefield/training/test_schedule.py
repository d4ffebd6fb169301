#!/usr/bin/python3
"""schedule.StepPlan: the learning rate's warm-up and decay, and plans made again as the speed changes.

    /usr/bin/python3 -m unittest forcefield/training/test_schedule.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schedule import StepPlan  # noqa: E402


class StepPlanTest(unittest.TestCase):
    def test_warm_up_then_exponential_decay_to_the_final_rate_at_the_last_step(self):
        plan = StepPlan(3e-4, 1e-5, 300, 14444)
        self.assertAlmostEqual(3e-4 / 300, plan.rate(0))
        self.assertAlmostEqual(3e-4, plan.rate(299))
        self.assertAlmostEqual(3e-4, plan.rate(300))
        self.assertAlmostEqual(1e-5, plan.rate(14444))
        self.assertAlmostEqual(1e-5, plan.rate(20000))   # past the plan: the final rate
        mid = 300 + (14444 - 300) // 2   # halfway in steps: the geometric mean of the two rates
        self.assertAlmostEqual((3e-4 * 1e-5) ** 0.5, plan.rate(mid), delta=1e-8)

    def test_without_a_plan_the_rate_stays_at_lr_after_the_warm_up(self):
        plan = StepPlan(3e-4, 1e-5, 10, 0)
        self.assertAlmostEqual(3e-4, plan.rate(5000))

    def test_a_new_plan_keeps_the_rate_continuous_and_ends_at_the_final_rate(self):
        plan = StepPlan(3e-4, 1e-5, 300, 0)
        plan.replan(937, 14444)        # after epoch 1 (no plan yet: the rate was lr)
        self.assertAlmostEqual(3e-4, plan.rate(937))
        before = plan.rate(1874)
        plan.replan(1874, 6921)        # a slow epoch 2: fewer steps
        self.assertAlmostEqual(before, plan.rate(1874))
        self.assertAlmostEqual(1e-5, plan.rate(6921))
        before = plan.rate(3748)
        plan.replan(3748, 10500)       # the GPU is ours again: more steps
        self.assertAlmostEqual(before, plan.rate(3748))
        self.assertLess(plan.rate(6921), before)
        self.assertGreater(plan.rate(6921), 1e-5)   # no longer the end
        self.assertAlmostEqual(1e-5, plan.rate(10500))
        self.assertEqual([(937, 14444), (1874, 6921), (3748, 10500)], plan.history)

    def test_the_plan_follows_the_last_epochs_speed(self):
        # shaped like round 18's call (2026-11-30): 937 steps an epoch, 52.5 ms a step alone, 118.9 ms beside a
        # stability survey on the same GPU. Planned once after the slow epoch, the run ended 234 s early
        plan = StepPlan(3e-4, 1e-5, 300, 0)
        slow = plan.steps_for(1874, 788 - 165, 111.4, 937)
        fast = plan.steps_for(3748, 788 - 392, 0.0525 * 937, 937)
        self.assertEqual(1874 + int(0.96 * 623 / 111.4 * 937), slow)
        self.assertGreater(fast, slow + 2000)   # the speed recovered: the rest of the budget is planned
        self.assertEqual(3748 + int(0.96 * 396 / (0.0525 * 937) * 937), fast)

    def test_a_plan_never_ends_before_the_warm_up_or_the_current_step(self):
        plan = StepPlan(3e-4, 1e-5, 300, 0)
        self.assertEqual(301, plan.steps_for(40, 0.5, 60.0, 40))
        self.assertEqual(5001, plan.steps_for(5000, 0.0, 60.0, 900))


class TrainPlansAgainTest(unittest.TestCase):
    def test_a_budget_run_plans_after_every_epoch_and_records_each_plan(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "data")
            os.makedirs(data)
            for split in ("train", "val"):   # water, 1,193 training frames: 4 steps an epoch at 256
                shutil.copy(os.path.join(here, "data", f"water.{split}.xyz.gz"), data)
            out = os.path.join(tmp, "out")
            cmd = [sys.executable, os.path.join(here, "train.py"), "--data", data, "--out", out, "--minutes", "0.1",
                   "--batch", "256", "--warmup", "2", "--hidden", "16", "--layers", "2", "--n-rbf", "8",
                   "--patience", "100000", "--device", "cpu", "--seed", "7"]
            run = subprocess.run(cmd, env=dict(os.environ, OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES=""),
                                 capture_output=True, text=True, timeout=240)
            self.assertEqual(0, run.returncode, run.stdout[-2000:] + run.stderr[-2000:])
            with open(os.path.join(out, "train_log.json")) as f:
                settings = json.load(f)["settings"]
        epochs, plans = settings["epochs"], [tuple(p) for p in settings["plans"]]
        self.assertGreaterEqual(epochs, 3, settings["stop_reason"])
        # one plan after each epoch the run went on from (the last may have ended on the budget's clock)
        self.assertIn(len(plans), (epochs - 1, epochs))
        self.assertEqual([4 * (k + 1) for k in range(len(plans))], [s for s, _ in plans])
        self.assertEqual(settings["planned_steps"], plans[-1][1])


if __name__ == "__main__":
    unittest.main()
