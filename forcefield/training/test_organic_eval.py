"""organic_eval.py's stability summary: MLIPAudit's score of a replica needs the whole run, so a run cut by --budget-s
scores only the replicas that exploded or lost a hydrogen, and says so instead of a mean of nothing (nan)."""
import math
import unittest

import organic_eval


def run(outcomes, done=True):
    return dict(frames_planned=1000, frames_done=1000 if done else 121, ps_done=100.0 if done else 12.1, wall_s=1.0,
                replicas=len(outcomes), atoms=30, us_per_step=5.0,
                outcomes=[dict(molecule=m, replica=0, atoms=10, score=s, event=e) for m, s, e in outcomes])


class StabilitySummaryTest(unittest.TestCase):

    def test_a_whole_run_averages_every_replica(self):
        st = organic_eval.summarise_stability(run([("a", 1.0, "stable"), ("b", 0.25, "explosion at frame 500")]))
        self.assertAlmostEqual(0.625, st["mean_score"])
        self.assertEqual({"a": 1.0, "b": 0.25}, st["per_molecule"])
        self.assertIn("mean score 0.625; events: ['b: explosion at frame 500']", organic_eval.stability_line(st, 100.0))

    def test_a_cut_run_without_events_has_no_score_and_says_why(self):
        nan = float("nan")
        st = organic_eval.summarise_stability(run([("a", nan, "stable"), ("b", nan, "stable")], done=False))
        self.assertIsNone(st["mean_score"])
        self.assertEqual({}, st["per_molecule"])
        line = organic_eval.stability_line(st, 100.0)
        self.assertIn("12.1 of 100.0 ps", line)
        self.assertIn("no score (cut by --budget-s", line)
        self.assertNotIn("nan", line)

    def test_a_cut_run_scores_only_its_events(self):
        nan = float("nan")
        st = organic_eval.summarise_stability(run([("a", nan, "stable"), ("b", 0.04, "explosion at frame 80")], done=False))
        self.assertAlmostEqual(0.04, st["mean_score"])
        self.assertFalse(any(math.isnan(v) for v in st["per_molecule"].values()))
        self.assertIn("over the 1 scored replicas (cut by --budget-s)", organic_eval.stability_line(st, 100.0))


if __name__ == "__main__":
    unittest.main()
