"""Tests of parallel_unittest.py, the runner TrainingRecipeTest starts for this folder and scripts/: every test_*.py
module runs, a failing or unimportable module fails the run by name, the counts add up, and JOBS modules really run
at once.
/usr/bin/python3 -m unittest forcefield/training/test_parallel_unittest.py
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parallel_unittest.py")

PASSING = """
import unittest
class T(unittest.TestCase):
    def test_one(self):
        self.assertEqual(1, 1)
    def test_two(self):
        self.assertTrue(True)
"""

FAILING = """
import unittest
class T(unittest.TestCase):
    def test_wrong(self):
        self.assertEqual(1, 2, "the failing module's message")
"""

# Each of two modules leaves its mark and waits (at most 60 s) for the other's: they pass only when run at once.
RENDEZVOUS = """
import os, time, unittest
class T(unittest.TestCase):
    def test_meets_the_other(self):
        open("{me}.mark", "w").close()
        for _ in range(600):
            if os.path.exists("{other}.mark"):
                return
            time.sleep(0.1)
        self.fail("{other} never ran beside {me}")
"""


def write(d, files):
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(textwrap.dedent(text))


def run(d, *opts):
    p = subprocess.run([sys.executable, RUNNER, "--start", d, *opts], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=300)
    return p.returncode, p.stdout


class ParallelUnittestTest(unittest.TestCase):
    def test_every_module_runs_and_the_counts_add_up(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, {"test_a.py": PASSING, "test_b.py": PASSING, "helper.py": "raise SystemExit('not a test')"})
            rc, out = run(d, "--jobs", "2")
            self.assertEqual(0, rc, out)
            self.assertIn("== test_a: 2 tests", out)
            self.assertIn("== test_b: 2 tests", out)
            self.assertNotIn("helper", out)
            self.assertRegex(out, r"Ran 4 tests in [0-9.]+s \(2 modules, 2 at a time\)\n\nOK\n$")

    def test_a_failing_or_unimportable_module_fails_the_run_by_name_with_its_output(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, {"test_a.py": PASSING, "test_b.py": FAILING, "test_c.py": "import no_such_module_here\n"})
            rc, out = run(d)
            self.assertEqual(1, rc, out)
            self.assertIn("the failing module's message", out)
            self.assertIn("no_such_module_here", out)
            self.assertTrue(out.rstrip().endswith("FAILED (modules=test_b,test_c)"), out)

    def test_jobs_modules_run_at_once(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, {"test_x.py": RENDEZVOUS.format(me="x", other="y"),
                      "test_y.py": RENDEZVOUS.format(me="y", other="x")})
            rc, out = run(d, "--jobs", "2")
            self.assertEqual(0, rc, out)

    def test_no_module_and_a_bad_option_are_refused(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out = run(d)
            self.assertEqual(1, rc, out)
            self.assertIn("FAILED (no test_*.py module in", out)
            rc, out = run(d, "--jobs", "0")
            self.assertNotEqual(0, rc)
            self.assertIn("--jobs 0", out)
            rc, out = run(os.path.join(d, "missing"))
            self.assertNotEqual(0, rc)
            self.assertIn("no such folder", out)


if __name__ == "__main__":
    unittest.main()
