"""Tests of organic_validate_survey.py's reading of one `molten validate` report (issue 27's survey over the
independent molecules): what it counts as a domain warning.

/usr/bin/python3 -m unittest scripts/test_organic_validate_survey.py      (numpy; < 1 s)"""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import organic_validate_survey as survey  # noqa: E402


def report(folder, domain):
    """A report.json of one system with one passed criterion and DOMAIN as validate writes it (a list of systems)."""
    with open(os.path.join(folder, "report.json"), "w") as f:
        json.dump({"summary": {"verdict": "PASS"}, "warnings": [],
                   "systems": [{"criteria": [{"criterion": "teacher-force-mae", "passed": True, "value": 0.02}]}],
                   "domain": domain}, f)


class DomainWarningsTest(unittest.TestCase):

    def row(self, domain):
        with tempfile.TemporaryDirectory() as tmp:
            report(tmp, domain)
            return survey.validate_row(tmp)

    def test_an_unseen_bond_is_a_domain_warning_as_an_unseen_environment_is(self):
        # hydroxylamine under the organic preview (2026-11-30): every atom's environment trained, its N-O bond's pair
        # never; the survey counted it as "no domain warning" until the bond was read too
        r = self.row([{"system": "hydroxylamine", "known": True, "atoms": 5, "unseen": [],
                       "summary": "1 bond between environments never bonded in the training data: N(H,H,O)-O(H,N) "
                                  "(atoms 0-1)",
                       "unseen_bonds": [{"i": 0, "j": 1, "pair": "N(H,H,O)-O(H,N)"}]}])
        self.assertEqual(["0-1:N(H,H,O)-O(H,N)"], r["domain_unseen"])
        r = self.row([{"system": "x", "known": True, "atoms": 6,
                       "unseen": [{"index": 2, "environment": "N(C,C,C,C)"}], "summary": "1 atom",
                       "unseen_bonds": [{"i": 2, "j": 3, "pair": "C(H,H,N)-N(C,H)"}]}])
        self.assertEqual(["2:N(C,C,C,C)", "2-3:C(H,H,N)-N(C,H)"], r["domain_unseen"])

    def test_a_trained_molecule_has_none(self):
        r = self.row([{"system": "ethanol", "known": True, "atoms": 9, "unseen": [], "unseen_bonds": [],
                       "summary": "every atom's environment is in the training data"}])
        self.assertEqual([], r["domain_unseen"])
        self.assertEqual("every atom's environment is in the training data", r["domain_summary"])
        r = self.row([{"system": "ethanol", "known": True, "atoms": 9, "unseen": [],
                       "summary": "every atom's environment is in the training data"}])   # a report before pairs
        self.assertEqual([], r["domain_unseen"])


if __name__ == "__main__":
    unittest.main()
