"""Tests of the device scripts that time issue 28's constraints on a GPU machine, run here with a stand-in `java`: a
device call is a few minutes of a 30-minute budget, so a script that selects the wrong runs, puts the wrong kernels
on the class path or misreads `molten run`'s summary must fail here, not there.

/usr/bin/python3 -m unittest scripts/test_device_scripts.py      (bash, tar, timeout; < 5 s)"""
import glob
import os
import re
import stat
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# A stand-in for the bundle's jre/bin/java: records its arguments, writes the energy log that --log names and prints
# the summary lines of `molten run` in their real form (taken from an H200 run of 2026-11-28). With
# -Dmolten.cuda.serialConstraints=true its energies differ by 1e-6 eV in the first ps after the first row, 3e-6 later.
FAKE_JAVA = r'''#!/usr/bin/env bash
echo "$*" >> "$(dirname "$0")/../../args.log"
log=""; serial=0; replicas=""
while (( $# )); do
  case $1 in
    --log) log=$2; shift ;;
    --replicas) replicas=$2; shift ;;
    -Dmolten.cuda.serialConstraints=true) serial=1 ;;
  esac
  shift
done
if [[ -n $log ]]; then
  { echo "# T[K] = 2 Ekin / (dof kB) with dof = 51"; echo "Time[ps],Etot[eV],Epot[eV],Ekin[eV],T[K]"
    for t in 0.000000 0.500000 2.000000; do
      e=$(python3 -c "print(f'{-896.5 - 0.01 * $t + $serial * (0 if $t == 0 else 1e-6 if $t <= 1 else 3e-6):.8f}')")
      echo "$t,$e,-897.2,0.65,300.0"
    done; } > "$log"
fi
if [[ -n $replicas ]]; then
  echo "molten run: replica 0: 2000 steps (fresh start) to step 2000, t = 4000.0 fs | C2H6O, 9 atoms | cuda | Etot -309.66 eV, T 268.7 K | seed 1 | 327 steps/s"
  echo "molten run: $replicas replicas on cuda, 333589 replica-steps/s"
else
  echo "molten run: 40000 steps (fresh start) to step 40000, t = 80000.0 fs | C6H12N2O2, 22 atoms | velocity-verlet + langevin-baoab | student/optimised | cuda | Etot -895.551450 eV, T 300.8 K | seed 1 | 4873 steps/s"
fi
'''


def bundle(tmp):
    """A bundle folder (jre/bin/java, lib/) with the fake java, and a checkout-like tree beside it."""
    b = os.path.join(tmp, "bundle")
    os.makedirs(os.path.join(b, "jre", "bin"))
    os.makedirs(os.path.join(b, "lib"))
    java = os.path.join(b, "jre", "bin", "java")
    with open(java, "w") as f:
        f.write(FAKE_JAVA)
    os.chmod(java, os.stat(java).st_mode | stat.S_IEXEC)
    tree = os.path.join(tmp, "tree")
    for d in ("forcefield/src/main/resources", "platform-cuda/src/main/resources"):
        os.makedirs(os.path.join(tree, d))
    return b, tree


def run(script, cwd, env, timeout=60):
    e = dict(os.environ, PATH=os.environ.get("PATH", "/usr/bin:/bin"), **env)
    return subprocess.run(["bash", script], cwd=cwd, env=e, capture_output=True, text=True, timeout=timeout)


class ShellScriptsTest(unittest.TestCase):

    def test_every_shell_script_parses(self):
        scripts = sorted(glob.glob(os.path.join(HERE, "*.sh")))
        self.assertGreater(len(scripts), 20)
        for s in scripts:
            r = subprocess.run(["bash", "-n", s], capture_output=True, text=True)
            self.assertEqual(0, r.returncode, os.path.basename(s) + ": " + r.stderr)


class ConstraintsFiguresRunTest(unittest.TestCase):

    def test_selected_runs_with_the_prefixed_kernels_and_their_ns_per_day(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            script = os.path.join(b, "constraints-figures-run.sh")
            with open(os.path.join(HERE, "constraints-figures-run.sh")) as src, open(script, "w") as dst:
                dst.write(src.read())
            out = os.path.join(tmp, "out")
            r = run(script, tree, {"OUT": out, "TREE": tree, "RUNS": "ala-2fs-hbonds eth1024-2fs-hbonds",
                                   "CP_PREFIX": "/opt/other-kernels", "BUDGET": "60"})
            log = open(os.path.join(out, "constraints-figures.log")).read()
            # 4,873 steps/s x 2 fs x 86,400 s/day / 1e6 fs/ns; 333,589 replica-steps/s likewise
            self.assertIn("ala-2fs-hbonds: on cuda: 4873 steps/s = 842.05 ns/day (exit 0)", log, r.stderr)
            self.assertIn("eth1024-2fs-hbonds: 1024 replicas on cuda: 333589 replica-steps/s = 57644.2 replica-ns/day",
                          log)
            self.assertEqual(2, len(re.findall(r"^\S+: .*(steps/s|no summary)", log, re.M)), log)
            self.assertNotIn("ala-0.5fs", log)
            calls = open(os.path.join(b, "args.log")).read().splitlines()
            self.assertEqual(2, len(calls))
            for c in calls:
                self.assertRegex(c, r"-cp /opt/other-kernels:" + re.escape(b) + r"/lib/\*:")
                self.assertIn("--constraints h-bonds", c)
                self.assertIn("--timestep 2", c)
            self.assertTrue(os.path.isfile(os.path.join(out, "raw.tar.gz")))

    def test_every_run_without_a_selection(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            script = os.path.join(b, "constraints-figures-run.sh")
            with open(os.path.join(HERE, "constraints-figures-run.sh")) as src, open(script, "w") as dst:
                dst.write(src.read())
            out = os.path.join(tmp, "out")
            run(script, tree, {"OUT": out, "TREE": tree, "BUDGET": "60"})
            log = open(os.path.join(out, "constraints-figures.log")).read()
            labels = re.findall(r"^([\w.-]+): (?:on |\d+ replicas|no summary)", log, re.M)
            self.assertEqual(["ala-0.5fs", "ala-0.5fs-stages", "ala-2fs-hbonds", "eth1024-0.5fs", "eth1024-2fs-hbonds",
                              "ala-2fs-hbonds-stages"], labels, log)
            for c in open(os.path.join(b, "args.log")).read().splitlines():
                self.assertRegex(c, r"-cp " + re.escape(b) + r"/lib/\*:")


class ConstraintGroupsCheckRunTest(unittest.TestCase):

    def test_grouped_and_serial_logs_compared_within_rounding(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            out = os.path.join(tmp, "out")
            r = run(os.path.join(HERE, "constraint-groups-check-run.sh"), tree, {"OUT": out, "HERE": b})
            text = open(os.path.join(out, "constraint-groups-check.log")).read()
            self.assertIn("cluster-grouped: exit 0 4873 steps/s", text, r.stderr)
            self.assertIn("stages-serial: exit 0 4873 steps/s", text)
            for path in ("cluster", "stages"):
                self.assertIn(f"{path}: grouped 3 and serial 3 log lines; |Etot(grouped) - Etot(serial)| first "
                              f"0.00e+00 eV, max over the first 1 ps 1.00e-06 eV, over the run 3.00e-06 eV", text)
            calls = open(os.path.join(b, "args.log")).read().splitlines()
            self.assertEqual(2, sum("-Dmolten.cuda.serialConstraints=true" in c for c in calls))
            self.assertEqual(2, sum("-Dmolten.cuda.mode=stages" in c for c in calls))


if __name__ == "__main__":
    unittest.main()
