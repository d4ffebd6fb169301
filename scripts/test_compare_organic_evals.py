#!/usr/bin/python3
"""scripts/probes/compare_organic_evals.py, the comparison a shipping decision of issue 27 reads: per temperature the
summary figures, and each run against the first molecule by molecule (better on how many, the mean difference in
eV/Å, the molecules moved across 0.05), with older files' names matched to newer ones.

    cd scripts && /usr/bin/python3 -m unittest test_compare_organic_evals
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "compare_organic_evals.py")


def eval_file(folder, name, maes, six=None):
    """An organic_eval.py output holding `maes` ({molecule@T: force MAE eV/Å}), energy errors 1 meV/atom."""
    doc = {"organic_test": {"molecules": {k: {"frames": 20, "force_mae": v, "energy_mae_mev_per_atom": 1.0}
                                          for k, v in maes.items()}}}
    if six is not None:
        doc["independent_six"] = {k: {"frames": 10, "force_mae": v} for k, v in six.items()}
    path = os.path.join(folder, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


class CompareOrganicEvalsTest(unittest.TestCase):
    def run_probe(self, *runs):
        r = subprocess.run([sys.executable, PROBE, *(f"{n}={p}" for n, p in runs)], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(0, r.returncode, r.stderr)
        return r.stdout

    def test_each_run_against_the_first_molecule_by_molecule(self):
        with tempfile.TemporaryDirectory() as d:
            # the older file names 1,2,4-triazine with commas, the newer one with underscores: one molecule
            old = eval_file(d, "old", {"1,2,4-triazine@300K": 0.052, "ethylene@300K": 0.150, "methanol@300K": 0.030,
                                       "acetone@300K": 0.012, "1,2,4-triazine@600K": 0.060, "ethylene@600K": 0.190,
                                       "methanol@600K": 0.040, "acetone@600K": 0.020},
                            six={"water@300K": 0.0015, "water@600K": 0.0020})
            new = eval_file(d, "new", {"1_2_4-triazine@300K": 0.049, "ethylene@300K": 0.140, "methanol@300K": 0.032,
                                       "acetone@300K": 0.011, "1_2_4-triazine@600K": 0.061, "ethylene@600K": 0.180,
                                       "methanol@600K": 0.041, "acetone@600K": 0.020},
                            six={"water@300K": 0.0014, "water@600K": 0.0021})
            out = self.run_probe(("old", old), ("new", new))
        lines = out.splitlines()
        self.assertEqual("runs: ['old', 'new']", lines[0])
        at300 = next(k for k, l in enumerate(lines) if l.startswith("300K median"))
        # 300 K: better on three of four (triazine, ethylene, acetone), mean (-0.003 - 0.010 + 0.002 - 0.001) / 4
        self.assertEqual("  new vs old: better on 3 of 4, mean -0.0030; across 0.05: 1_2_4-triazine@300K 0.052->0.049",
                         lines[at300 + 1])
        self.assertIn("<=0.05 [0.5  0.75]", lines[at300])
        at600 = next(k for k, l in enumerate(lines) if l.startswith("600K median"))
        # 600 K: acetone level, which is not better
        self.assertEqual("  new vs old: better on 1 of 4, mean -0.0020; across 0.05: none", lines[at600 + 1])
        # the first run's worst molecule first, each run's figure beside it
        self.assertEqual("ethylene@600K", lines[at600 + 2].split()[0])
        self.assertEqual(["0.190", "0.180"], lines[at600 + 2].split()[1:])
        self.assertIn("  water@300K                   0.0015 0.0014", lines)


if __name__ == "__main__":
    unittest.main()
