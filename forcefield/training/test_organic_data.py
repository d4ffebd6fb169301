"""Tests of the organic data generation: the in-process teacher and the sampling filters (organic_data.py)."""
import os
import shutil
import unittest

import numpy as np

import organic_data
from libxtb import XtbCalculator
from test_organic_active import libxtb_or_skip   # skipped without libxtb, a failure under CI=true

# ethanol near its GFN2-xTB minimum (Å), heavy atoms C C O then H
ETHANOL_Z = [6, 6, 8, 1, 1, 1, 1, 1, 1]
ETHANOL_X = np.array([
    [-0.0470, -0.0071, 0.0069], [1.4721, 0.0191, -0.0104], [1.9363, 1.3575, 0.0152],
    [-0.4185, -1.0345, -0.0221], [-0.4210, 0.4997, 0.8992], [-0.4227, 0.5343, -0.8635],
    [1.8388, -0.5035, -0.9010], [1.8416, -0.4982, 0.8794], [2.8986, 1.3582, 0.0022]])


class InProcessTeacherTest(unittest.TestCase):
    @unittest.skipUnless(shutil.which("xtb"), "the xtb program (the command-line teacher) is not installed")
    def test_libxtb_gives_the_command_line_teachers_labels(self):
        import teacher
        e_cli, f_cli = teacher.single_point(ETHANOL_Z, ETHANOL_X)
        with XtbCalculator(ETHANOL_Z, ETHANOL_X, "gfn2") as calc:
            e, f = calc.compute(ETHANOL_X)
        self.assertAlmostEqual(e, e_cli, delta=1e-5)                  # eV
        self.assertLess(np.abs(f - f_cli).max(), 2e-4)                 # eV/Å: xtb's engrad carries 1e-9 Eh/Bohr

    def test_forces_are_minus_the_energy_gradient(self):
        h = 1e-4
        with XtbCalculator(ETHANOL_Z, ETHANOL_X, "gfn2") as calc:
            _, f = calc.compute(ETHANOL_X)
            for atom, axis in ((2, 0), (8, 1)):
                xp, xm = ETHANOL_X.copy(), ETHANOL_X.copy()
                xp[atom, axis] += h
                xm[atom, axis] -= h
                fd = -(calc.compute(xp)[0] - calc.compute(xm)[0]) / (2 * h)
                self.assertAlmostEqual(fd, f[atom, axis], delta=2e-3)


class PoolOptionsTest(unittest.TestCase):
    def test_every_pool_has_its_option_and_every_option_a_pool(self):
        self.assertEqual(list(organic_data.POOL_HELP), list(organic_data.POOLS))


class MissingStartsTest(unittest.TestCase):
    def test_a_missing_starts_file_stops_the_run_naming_it_and_its_option(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "starts.coverage.xyz.gz")
            with self.assertRaises(SystemExit) as cm:
                organic_data.read_starts(path, "organic_data.py --coverage")
        self.assertEqual(str(cm.exception).split(" (")[0], f"organic_data.py --coverage: {path}: no such file")


class NamesTest(unittest.TestCase):
    def test_a_molecule_name_with_an_apostrophe_survives_the_extxyz_round_trip(self):
        import tempfile
        import extxyz
        name = "N,N'-diphenylurea"
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, organic_data.file_stem(name) + "_300K.xyz.gz")
            extxyz.write(path, [extxyz.Frame(ETHANOL_Z, ETHANOL_X, -1.0, 0 * ETHANOL_X, dict(system=name))])
            self.assertEqual(extxyz.read(path)[0].info["system"], name)
        self.assertEqual(organic_data.file_stem(name), "N_N_-diphenylurea")


class SamplingTest(unittest.TestCase):
    def task(self, temperature=300.0, positions=ETHANOL_X, seed=7):
        return dict(id=0, split="train", name="ethanol", conformer=0, temperature=temperature,
                    numbers=np.array(ETHANOL_Z), positions=positions, seed=seed, frames=4, every=10, equil=20,
                    jitter=True)

    def test_a_task_is_deterministic_and_labels_every_kept_frame(self):
        os.environ.setdefault("OMP_NUM_THREADS", "1")
        a = organic_data.run_task(self.task())
        b = organic_data.run_task(self.task())
        self.assertEqual(len(a["frames"]), 5)             # 4 MD frames + 1 jittered twin, nothing dropped at 300 K
        for (xa, fa, ea), (xb, fb, eb) in zip(a["frames"], b["frames"]):
            np.testing.assert_array_equal(xa, xb)
            self.assertEqual(ea, eb)
        with XtbCalculator(ETHANOL_Z, ETHANOL_X, "gfn2") as calc:
            e, f = calc.compute(a["frames"][0][0].astype(float))
        self.assertAlmostEqual(e, a["frames"][0][2], delta=1e-4)

    def test_frames_whose_bond_graph_changed_are_dropped_and_counted(self):
        # MD that returns the start, a frame with the hydroxyl H 1.7 Å from its O, and the start again
        broken = ETHANOL_X.copy()
        broken[8] += (broken[8] - broken[2]) / np.linalg.norm(broken[8] - broken[2]) * 0.75
        real = organic_data.gfnff_md
        organic_data.gfnff_md = lambda *a: [ETHANOL_X.copy(), broken, ETHANOL_X.copy() + 0.01]
        try:
            r = organic_data.run_task(dict(self.task(), jitter=False))
        finally:
            organic_data.gfnff_md = real
        self.assertEqual(r["drops"]["bond_graph"], 1)
        self.assertEqual(len(r["frames"]), 2)
        self.assertFalse(any(np.allclose(x, broken, atol=1e-3) for x, _, _ in r["frames"]))

    def test_bond_graph_uses_covalent_radii(self):
        g = organic_data.bond_graph(np.array(ETHANOL_Z), ETHANOL_X)
        self.assertEqual(len(g), 8)                       # C-C, C-O, 5 C-H, O-H
        self.assertIn((2, 8), g)


def run_data(out, *extra):
    """organic_data.py on the first 4 starts of each split and pool, 2 training frames a task: a few seconds."""
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    cmd = [sys.executable, os.path.join(here, "organic_data.py"), "--out", out, "--limit", "4", "--workers", "1",
           "--train-frames", "2", "--test-frames", "1", "--every", "5", "--equil", "5", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if p.returncode:
        raise AssertionError(f"{' '.join(cmd)} ended with {p.returncode}:\n{p.stdout}{p.stderr}")


class PoolDataTest(unittest.TestCase):
    """organic_data.py's pools beside the list (--small, --conjugated, --rare, --motifs): each its own training system
    and seeds, never in validation, every other task's frames as they were without it. One labelled run each: the list
    alone, with the small pool, with the small and conjugated pools, with those and the rare pool, with all four."""
    LIST_FILES = ("organic.train.npz", "organic.val.npz", "organic-test.npz")

    @classmethod
    def setUpClass(cls):
        import tempfile
        libxtb_or_skip()
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = {}
        for key, opts in (("list", ()), ("small", ("--small",)), ("both", ("--small", "--conjugated")),
                          ("all", ("--small", "--conjugated", "--rare")),
                          ("motifs", ("--small", "--conjugated", "--rare", "--motifs"))):
            cls.out[key] = os.path.join(cls.tmp.name, key)
            run_data(cls.out[key], *opts)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assertSameData(self, a, b, name):
        x, y = np.load(os.path.join(self.out[a], name)), np.load(os.path.join(self.out[b], name))
        self.assertEqual(sorted(x.files), sorted(y.files), name)
        for k in x.files:
            np.testing.assert_array_equal(x[k], y[k], f"{name}: {k} ({a} against {b})")

    def stats(self, key):
        import json
        with open(os.path.join(self.out[key], "organic-data.json")) as f:
            return json.load(f)

    def test_the_small_pool_leaves_the_lists_frames_alone_and_goes_to_its_own_system(self):
        for f in self.LIST_FILES:
            self.assertSameData("list", "small", f)
        self.assertFalse(os.path.exists(os.path.join(self.out["list"], "organic-small.train.npz")))
        small = np.load(os.path.join(self.out["small"], "organic-small.train.npz"))
        self.assertEqual([str(m) for m in small["molecules"]], ["small C#CC=N", "small C#CCN"])   # small.csv: first rows
        self.assertGreater(len(small["energy"]), 0)

    def assertTeacherLabels(self, run, name):
        """The first frame of run's NAME carries GFN2-xTB's energy (eV, to 1e-4: positions stored in float32) and forces
        (eV/Å, to 1e-3; forces of the order of 1), recomputed here."""
        d = np.load(os.path.join(self.out[run], name))
        n = int(d["n_atoms"][0])
        z, x = d["z"][:n].astype(int), d["pos"][:n].astype(float)
        with XtbCalculator(z, x, "gfn2") as calc:
            e, f = calc.compute(x)
        self.assertAlmostEqual(e, float(d["energy"][0]), delta=1e-4, msg=name)
        self.assertLess(np.abs(f - d["forces"][:n]).max(), 1e-3, name)

    def assertPoolAlone(self, before, after, pool, molecules, elements):
        """The run `after` is the run `before` with --<pool> added: every file of `before` (the list's, the testset's,
        the other pools') is unchanged, and the pool's own file holds the first rows' frames (4 starts), counted."""
        import extxyz
        for f in self.LIST_FILES + tuple(f for f in os.listdir(self.out[before]) if f.endswith(".train.npz")):
            self.assertSameData(before, after, f)
        testset = sorted(os.listdir(os.path.join(self.out[before], "testset")))
        self.assertEqual(sorted(os.listdir(os.path.join(self.out[after], "testset"))), testset)
        for t in testset:
            a, b = (extxyz.read(os.path.join(self.out[k], "testset", t)) for k in (before, after))
            self.assertEqual([(f.energy, f.positions.tobytes()) for f in a], [(f.energy, f.positions.tobytes()) for f in b])
        self.assertFalse(os.path.exists(os.path.join(self.out[before], f"organic-{pool}.train.npz")))
        data = np.load(os.path.join(self.out[after], f"organic-{pool}.train.npz"))
        self.assertEqual([str(m) for m in data["molecules"]], molecules)
        self.assertEqual(set(data["z"].tolist()), elements)
        stats, without = self.stats(after), self.stats(before)
        self.assertEqual((stats["starts"][pool], stats["frames"][pool], stats["molecules"][pool]),
                         (4, len(data["energy"]), len(molecules)))
        self.assertGreater(len(data["energy"]), 8)
        self.assertEqual(stats["val_molecules"], without["val_molecules"])   # never held out for validation
        self.assertNotIn(pool, without["starts"])   # the record as it was without the pool

    def test_the_conjugated_pool_leaves_every_other_tasks_frames_alone_and_goes_to_its_own_system(self):
        # conjugated.csv's first rows: the 4 starts are (Z)-1,3-pentadiene's 3 conformers and the next molecule's first
        self.assertPoolAlone("small", "both", "conjugated", ["(Z)-1,3-pentadiene", "2,3-dimethyl-1,3-butadiene"], {1, 6})
        for f in self.LIST_FILES:
            self.assertSameData("list", "both", f)

    def test_the_rare_pool_leaves_every_other_tasks_frames_alone_and_goes_to_its_own_system(self):
        # rare.csv's first rows: ethynamine's 3 conformers and ethynol's first (tiny molecules, the enumeration's order)
        self.assertPoolAlone("both", "all", "rare", ["tiny C#CN", "tiny C#CO"], {1, 6, 7, 8})
        self.assertTeacherLabels("all", "organic-rare.train.npz")

    def test_the_motif_pool_leaves_every_other_tasks_frames_alone_and_goes_to_its_own_system(self):
        # motifs.csv's first rows: 1-methoxy-4-(methoxymethoxy)benzene's 3 conformers and the next aryl acetal's first
        self.assertPoolAlone("all", "motifs", "motifs", ["1-(methoxymethoxy)-4-methylbenzene",
                                                         "1-methoxy-4-(methoxymethoxy)benzene"], {1, 6, 8})
        self.assertTeacherLabels("motifs", "organic-motifs.train.npz")

    def test_the_conjugated_frames_carry_the_teachers_labels(self):
        self.assertTeacherLabels("both", "organic-conjugated.train.npz")

    def test_the_pools_start_ids_never_meet_another_tasks(self):
        """Seeds come from (master seed, start id, temperature): each pool's start ids lie in a range of their own,
        after the list's training (0...) and test (100000...) starts, so no two tasks share a seed or an id."""
        import extxyz
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "organic")
        first = {"train": 0, "test": 100000, **organic_data.POOLS}
        size = {k: len(extxyz.read(os.path.join(here, f"starts.{k}.xyz.gz"))) for k in first}
        spans = sorted((first[k], first[k] + size[k], k) for k in first)
        for (a0, a1, ka), (b0, b1, kb) in zip(spans, spans[1:]):
            self.assertLessEqual(a1, b0, f"the start ids of {ka} and {kb} overlap")
        self.assertEqual(organic_data.POOLS["small"], 200000)   # round 5's small-pool frames depend on it


class DeviceExportTest(unittest.TestCase):
    """device_organic.sh's export_v6: the weight file's dataset entry names the pools DATA_OPTS adds, and their starts
    join the training starts in its domain (export.py stubbed: it prints what it was given)."""

    def test_the_export_names_the_pools_and_puts_their_starts_in_the_domain(self):
        import gzip
        import re
        import subprocess
        import tempfile
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "device_organic.sh")) as f:
            script = f.read()
        functions = "".join(re.search(rf"^{name}\(\) {{\n.*?^}}\n", script, re.S | re.M).group(0)
                            for name in ("pools_text", "export_v6"))
        # first frames taken of each file: every sum tells them apart
        starts = {"train": 6, "small": 4, "conjugated": 3, "rare": 10, "motifs": 20, "coverage": 40, "rings": 80,
                  "coverage2": 160, "rings2": 320, "rings3": 640, "coverage3": 1280}
        text = {"small": "the small-molecule pool (organic/small.csv)",
                "conjugated": "the conjugated pool (organic/conjugated.csv)", "rare": "the rare-bond pool (organic/rare.csv)",
                "motifs": "the motif pool (organic/motifs.csv)", "coverage": "the coverage pool (organic/coverage.csv)",
                "rings": "the ring-system pool (organic/rings.csv)",
                "coverage2": "the second coverage draw (organic/coverage2.csv)",
                "rings2": "the second ring-system draw (organic/rings2.csv)",
                "rings3": "the third ring-system draw (organic/rings3.csv)",
                "coverage3": "the third coverage draw (organic/coverage3.csv)"}
        with tempfile.TemporaryDirectory() as d:
            tr = os.path.join(d, "tr")
            os.mkdir(tr)
            for name in ("extxyz.py", "units.py"):
                os.symlink(os.path.join(here, name), os.path.join(tr, name))
            os.mkdir(os.path.join(tr, "organic"))
            for k, n in starts.items():   # the first n frames' text, as make_starts.py wrote it (unlabelled)
                name = f"starts.{k}.xyz.gz"
                with gzip.open(os.path.join(here, "organic", name), "rt") as f:
                    lines = f.readlines()
                end = 0
                for _ in range(n):
                    end += int(lines[end]) + 2
                with gzip.open(os.path.join(tr, "organic", name), "wt") as f:
                    f.writelines(lines[:end])
            with open(os.path.join(tr, "export.py"), "w") as f:
                f.write("import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
                        "import extxyz\na = sys.argv\nprint('dataset=' + a[a.index('--dataset') + 1])\n"
                        "print('domain=%d' % len(extxyz.read(a[-1])))\n")
            for opts, pools in (("", ()), ("--small", ("small",)), ("--small --conjugated", ("small", "conjugated")),
                                ("--conjugated --train-frames 16", ("conjugated",)),
                                ("--small --conjugated --rare", ("small", "conjugated", "rare")), ("--rare", ("rare",)),
                                ("--small --conjugated --rare --motifs", ("small", "conjugated", "rare", "motifs")),
                                ("--motifs --train-frames 16", ("motifs",)),
                                ("--small --conjugated --rare --motifs --coverage",
                                 ("small", "conjugated", "rare", "motifs", "coverage")),
                                ("--small --conjugated --rare --motifs --coverage --rings",
                                 ("small", "conjugated", "rare", "motifs", "coverage", "rings")),
                                ("--rings --train-frames 16", ("rings",)),
                                ("--small --conjugated --rare --motifs --coverage --rings --coverage2",
                                 ("small", "conjugated", "rare", "motifs", "coverage", "rings", "coverage2")),
                                ("--coverage2", ("coverage2",)), ("--coverage --train-frames 16", ("coverage",)),
                                ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2",
                                 ("small", "conjugated", "rare", "motifs", "coverage", "rings", "coverage2", "rings2")),
                                ("--rings2", ("rings2",)), ("--rings --train-frames 16", ("rings",)),
                                ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2 --rings3",
                                 ("small", "conjugated", "rare", "motifs", "coverage", "rings", "coverage2", "rings2",
                                  "rings3")),
                                ("--rings3", ("rings3",)),
                                # round 23's: the preview's data without the third ring draw, the third coverage draw
                                ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2 --coverage3",
                                 ("small", "conjugated", "rare", "motifs", "coverage", "rings", "coverage2", "rings2",
                                  "coverage3")),
                                ("--coverage3 --train-frames 16", ("coverage3",))):
                p = subprocess.run(["bash", "-c", f"set -euo pipefail; tr={tr}; work={d}\n{functions}\nexport_v6 run w ts"],
                                   capture_output=True, text=True, timeout=120, env=dict(os.environ, DATA_OPTS=opts))
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                dataset = "molten-gfn2-organic (forcefield/training/organic, organic_data.py)" + (
                    ", with " + " and ".join(text[k] for k in pools) if pools else "")
                self.assertIn(f"dataset={dataset}\n", p.stdout, opts)
                self.assertIn(f"domain={starts['train'] + sum(starts[k] for k in pools)}\n", p.stdout, opts)


class DeviceActiveStartsTest(unittest.TestCase):
    """device_organic.sh's active_starts: the active round runs the student's MD of every molecule the data hold, so
    its start files are the list's training starts and those of each pool DATA_OPTS adds, and no other."""

    def test_the_active_round_starts_from_every_pool_the_data_hold(self):
        import re
        import subprocess
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "device_organic.sh")) as f:
            function = re.search(r"^active_starts\(\) {\n.*?^}\n", f.read(), re.S | re.M).group(0)
        pools = ("small", "conjugated", "rare", "motifs", "coverage", "rings", "coverage2", "rings2", "rings3",
                 "coverage3")
        for opts, held in (("", ()), ("--small --conjugated --rare --motifs", pools[:4]),
                           ("--small --conjugated --rare --motifs --coverage", pools[:5]),
                           ("--small --conjugated --rare --motifs --coverage --rings", pools[:6]),
                           ("--small --conjugated --rare --motifs --coverage --rings --coverage2", pools[:7]),
                           ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2", pools[:8]),
                           ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2 --rings3",
                            pools[:9]),
                           ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2 --rings3 "
                            "--coverage3", pools),
                           ("--small --conjugated --rare --motifs --coverage --rings --coverage2 --rings2 --coverage3",
                            pools[:8] + ("coverage3",)),
                           ("--rings3 --train-frames 16", ("rings3",)),
                           ("--rings2 --train-frames 16", ("rings2",)),
                           ("--coverage --train-frames 16", ("coverage",)), ("--rings", ("rings",)),
                           ("--coverage2 --train-frames 16", ("coverage2",))):
            p = subprocess.run(["bash", "-c", f"set -euo pipefail; tr=T\n{function}\nactive_starts"],
                               capture_output=True, text=True, timeout=30, env=dict(os.environ, DATA_OPTS=opts))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.split(), ["T/organic/starts.train.xyz.gz"] +
                             [f"T/organic/starts.{k}.xyz.gz" for k in held], opts)
        for k in pools:   # every pool organic_data.py knows has its starts file here
            self.assertTrue(os.path.exists(os.path.join(here, "organic", f"starts.{k}.xyz.gz")), k)


class DeviceFiguresTest(unittest.TestCase):
    """device_organic.sh's figures: organic_eval.py on the test frames and the older six, its PyTorch stability loop only
    where EVAL_BUDGET_S > 0 (a window whose last call runs molten stability passes 0; python3 stubbed)."""

    def test_the_stability_loop_only_with_a_budget(self):
        import re
        import subprocess
        import tempfile
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "device_organic.sh")) as f:
            script = f.read()
        function = re.search(r"^figures\(\) {\n.*?^}\n", script, re.S | re.M).group(0)
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "bin"))
            with open(os.path.join(d, "bin", "python3"), "w") as f:
                f.write('#!/usr/bin/env bash\necho "python3 $*"\n')
            os.chmod(os.path.join(d, "bin", "python3"), 0o755)
            env = dict(os.environ, PATH=os.path.join(d, "bin") + os.pathsep + os.environ["PATH"])
            for budget, starts in (("0", False), ("120", True), (None, True)):
                e = dict(env, EVAL_BUDGET_S=budget) if budget is not None else {k: v for k, v in env.items()
                                                                               if k != "EVAL_BUDGET_S"}
                p = subprocess.run(["bash", "-c", f"set -euo pipefail; tr=TR; work=W\n{function}\nfigures S E.json log"],
                                   capture_output=True, text=True, timeout=60, env=e, cwd=d)
                self.assertEqual(0, p.returncode, p.stderr)
                line = p.stdout.strip()
                self.assertTrue(line.startswith("python3 TR/organic_eval.py --weights S --test W/data/organic-test.npz "
                                                "--independent TR/testset-independent"), line)
                self.assertTrue(line.endswith("--out E.json"), line)
                self.assertEqual(starts, "--starts TR/organic/starts.test.xyz.gz" in line, (budget, line))
                if starts:
                    self.assertIn(f"--budget-s {budget or 150}", line)
                with open(os.path.join(d, "log")) as f:
                    self.assertEqual(line, f.read().strip())


# A python3 for device_organic.sh's multi phase: logs each script it is asked to run (the GPUs it sees, its CPUs and
# its arguments) and writes what the phase reads next. organic_data.py waits up to 6 s (STUB_ACTIVE_WAIT tenths of a
# second; run_phase: 0 where no ACTIVE_ setting is given, since no active round can start then) for the active round
# to have started (and logs whether it had); organic_active.py marks its start, takes 1 s and writes its round's files;
# train.py logs whether the active round had finished; export.py writes a weight file naming the state it exported
# (and its --training line, where given) and says so; widen.py, deepen.py and interpolate.py write their --out; export.py and
# organic_eval.py take STUB_SLOW_S seconds (default 0) and then log their end (organic_eval.py: whether the phase's
# DONE was there by then). `-c` snippets: the core count, the phase's arithmetic (run by the real
# python), the others (torch's banner, export_v6's starts) nothing.
STUB_PYTHON = r"""#!/usr/bin/env bash
log=$STUB_DIR/calls.log
if [[ $1 == -c ]]; then
  if [[ $2 == *sched_getaffinity* ]]; then echo 4; elif [[ $2 == *'print(round('* ]]; then "$REAL_PYTHON" -c "$2"; fi
  exit 0
fi
script=$(basename "$1"); shift
opt() { local want=$1; shift; while (( $# )); do if [[ $1 == "$want" ]]; then echo "$2"; return; fi; shift; done; }
out=$(opt --out "$@")
cpus=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
echo "$script | CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-} | cpus=$cpus | $*" >> "$log"
case $script in
  organic_active.py)
    touch "$STUB_DIR/active-started"; sleep 1
    mkdir -p "$out"; r=$(opt --round "$@")
    touch "$out/organic-active-r$r.train.npz" "$out/organic-active-r$r.val.npz"
    echo {} > "$out/organic-active-r$r.json"
    touch "$STUB_DIR/active-done" ;;
  organic_data.py)
    for _ in $(seq "${STUB_ACTIVE_WAIT:-60}"); do [[ -e $STUB_DIR/active-started ]] && break; sleep 0.1; done
    echo "data: active started $([[ -e $STUB_DIR/active-started ]] && echo yes || echo no)" >> "$log"
    mkdir -p "$out/testset"; touch "$out/organic.train.npz" "$out/organic-test.npz"
    echo {} > "$out/organic-data.json" ;;
  export.py)
    t=$(opt --training "$@"); sleep "${STUB_SLOW_S:-0}"
    echo "weights of $(opt --state "$@")${t:+ | training: $t}" > "$(opt --weights "$@")"
    echo "export.py end $(opt --weights "$@")" >> "$log"; echo "exported" ;;
  organic_eval.py)
    sleep "${STUB_SLOW_S:-0}"; echo {} > "$out"
    echo "organic_eval.py end $(opt --weights "$@") | DONE $([[ -e $(dirname "$out")/DONE ]] && echo yes || echo no)" >> "$log" ;;
  widen.py) echo "widened $(opt --weights "$@")" > "$out" ;;
  deepen.py) echo "deepened $(opt --weights "$@") to $(opt --layers "$@")" > "$out" ;;
  interpolate.py)
    mkdir -p "$(dirname "$out")"; echo "soup of $(opt --a "$@") and $(opt --b "$@") at $(opt --alpha "$@")" > "$out" ;;
  train.py)
    echo "train: active done $([[ -e $STUB_DIR/active-done ]] && echo yes || echo no)" >> "$log"
    mkdir -p "$out"; touch "$out/state.npz"; echo {} > "$out/train_log.json" ;;
esac
exit 0
"""


def run_phase(phase, env, gpus=None):
    """device_organic.sh PHASE w o 900 in a fresh folder, python3 stubbed (STUB_PYTHON), and where gpus is given an
    nvidia-smi listing that many GPUs; (return code, stdout + stderr, the stub's log lines, {name: text} of o/)."""
    import shutil
    import subprocess
    import sys
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "bin"))
        stubs = {"python3": STUB_PYTHON}
        if gpus is not None:
            stubs["nvidia-smi"] = ("#!/usr/bin/env bash\nfor ((g = 0; g < %d; g++)); do "
                                   "echo \"GPU $g: NVIDIA H200 (UUID: GPU-$g)\"; done\n" % gpus)
        for name, body in stubs.items():
            with open(os.path.join(d, "bin", name), "w") as f:
                f.write(body)
            os.chmod(os.path.join(d, "bin", name), 0o755)
        os.makedirs(os.path.join(d, "w", "lib"))
        open(os.path.join(d, "w", "lib", "libxtb.so.6"), "w").close()   # no payload to unpack
        # the checks it sources from the checkout (cwd: here the temporary folder)
        os.makedirs(os.path.join(d, "forcefield", "training"))
        shutil.copy(os.path.join(here, "active_settings.sh"), os.path.join(d, "forcefield", "training"))
        base = {k: v for k, v in os.environ.items() if not k.startswith(("ACTIVE_", "GPU_GATE", "ENGINE_GPU", "TRAIN_",
                                                                          "DATA_", "SYSTEM_WEIGHTS", "ARM_GPUS",
                                                                          "BATCH", "LR", "WARMUP", "INIT", "V5DATA",
                                                                          "SOUP_ALPHA", "STUB_", "COMMIT"))}
        e = dict(base, PATH=os.path.join(d, "bin") + os.pathsep + os.environ["PATH"], STUB_DIR=d,
                 REAL_PYTHON=sys.executable, **{"EVAL_BUDGET_S": "0", **env})
        if not any(k.startswith("ACTIVE_") for k in env):
            e.setdefault("STUB_ACTIVE_WAIT", "0")
        # output to a file, not a pipe: the phase's minute saver leaves a `sleep 60` holding its output open
        with open(os.path.join(d, "out.txt"), "w") as f:
            p = subprocess.run(["bash", os.path.join(here, "device_organic.sh"), phase, "w", "o", "900"],
                               stdout=f, stderr=subprocess.STDOUT, timeout=120, env=e, cwd=d)
        with open(os.path.join(d, "out.txt")) as f:
            text = f.read()
        lines = []
        if os.path.exists(os.path.join(d, "calls.log")):
            with open(os.path.join(d, "calls.log")) as f:
                lines = f.read().splitlines()
        files = {}
        if os.path.isdir(os.path.join(d, "o")):
            for name in os.listdir(os.path.join(d, "o")):
                with open(os.path.join(d, "o", name), "rb") as f:
                    files[name] = f.read().decode("utf-8", "replace")
    return p.returncode, text, lines, files


class DeviceActiveWithDataTest(unittest.TestCase):
    """device_organic.sh multi with ACTIVE_WITH_DATA=1: the active round on the student's MD of every molecule the data
    hold starts before the data are labelled and runs beside them on ACTIVE_GPUS, the training waits for it and takes
    its frames as the sequential round's (organic-active-r<ACTIVE_ROUND>, ACTIVE_WEIGHT); ACTIVE_GPUS overlapping a GPU
    the measurements hold is refused before anything starts; without the setting the sequential round is as before.
    python3 stubbed (STUB_PYTHON)."""

    HERE = os.path.dirname(os.path.abspath(__file__))

    def multi(self, **env):
        """Runs the phase in a fresh folder; (return code, stdout + stderr, the stub's log lines)."""
        return run_phase("multi", env)[:3]

    @staticmethod
    def call(lines, script):
        found = [x for x in lines if x.startswith(script + " |")]
        return found

    def test_the_active_round_runs_while_the_data_are_labelled_and_joins_the_training(self):
        rc, text, lines = self.multi(ACTIVE_WITH_DATA="1", ACTIVE_GPUS="0,1", TRAIN_GPUS="0,1", DATA_CPUS="0",
                                     DATA_WORKERS="3", ACTIVE_ROUND="11", ACTIVE_WEIGHT="3", DATA_OPTS="--small --rare",
                                     ACTIVE_OPTS="--ps 1.5", SYSTEM_WEIGHTS="--system-weight water=2")
        self.assertEqual(0, rc, text)
        self.assertIn("data: active started yes", lines)                       # beside the data, not after
        active = self.call(lines, "organic_active.py")
        self.assertEqual(len(active), 1, lines)
        _, gpus, cpus, argv = active[0].split(" | ")
        self.assertEqual(gpus, "CUDA_VISIBLE_DEVICES=0,1")
        self.assertEqual(cpus, "cpus=0")                                        # pinned to DATA_CPUS
        tr = "forcefield/training"
        self.assertIn(f"--out w/active --round 11 --workers 3 --devices cuda:0,cuda:1 --budget-s 200 --starts "
                      f"{tr}/organic/starts.train.xyz.gz {tr}/organic/starts.small.xyz.gz "
                      f"{tr}/organic/starts.rare.xyz.gz --ps 1.5", argv)
        trains = self.call(lines, "train.py")
        self.assertEqual(len(trains), 2)                                        # one rank a training GPU
        self.assertIn("train: active done yes", lines)
        for t in trains:
            self.assertIn(" w/active ", t)
            self.assertIn("--system-weight water=2 --system-weight organic-active-r11=3", t)
        self.assertIn("active round joined", text)

    def test_active_gpus_that_the_measurements_hold_are_refused_before_anything_starts(self):
        rc, text, lines = self.multi(ACTIVE_WITH_DATA="1", ACTIVE_GPUS="0,1", TRAIN_GPUS="0,1", ENGINE_GPU="1",
                                     GPU_GATE="gate")
        self.assertEqual(2, rc, text)
        self.assertIn("ACTIVE_GPUS='0,1' and ENGINE_GPU='1' both name GPU 1", text)
        self.assertIn("nothing started", text)
        self.assertEqual([x for x in lines if x.endswith(".py") or " | " in x], [])   # no script ran

    def test_the_held_gpus_and_the_numeric_settings(self):
        """active_check alone (active_settings.sh, which device_organic.sh and the window source): which ACTIVE_GPUS
        pass beside which measurements; whole numbers of seconds."""
        import subprocess
        settings = os.path.join(self.HERE, "active_settings.sh")
        cases = [(dict(ACTIVE_GPUS="0,1"), 0),                                   # nothing measured
                 (dict(ACTIVE_GPUS="0", ENGINE_GPU="1"), 0),
                 (dict(ACTIVE_GPUS="1", ENGINE_GPU="1"), 2),                     # also without GPU_GATE
                 (dict(ACTIVE_GPUS="1", GPU_GATE="g"), 0),                       # the measurements' default: 0
                 (dict(ACTIVE_GPUS="0,1", GPU_GATE="g"), 2),
                 (dict(GPU_GATE="g", TRAIN_PROFILE="1", TRAIN_GPUS="0,1"), 2),   # the probe's GPU: named below
                 (dict(ACTIVE_GPUS="0", ENGINE_GPU="1", GPU_GATE="g", TRAIN_PROFILE="1", TRAIN_GPUS="0,1"), 2),
                 (dict(ACTIVE_GPUS="1", TRAIN_PROFILE="1", TRAIN_GPUS="0,1"), 0),  # no probe without the gate
                 (dict(TRAIN_GPUS="0,1", ENGINE_GPU="1"), 2),                     # ACTIVE_GPUS defaults to TRAIN_GPUS
                 (dict(ACTIVE_GPUS="0,x"), 2),
                 (dict(ACTIVE_MD_S="200", ACTIVE_BUDGET_S="480", ACTIVE_WEIGHT="2"), 0),
                 (dict(ACTIVE_MD_S="3m"), 2), (dict(ACTIVE_BUDGET_S="4.5"), 2)]
        base = {k: v for k, v in os.environ.items() if not k.startswith(("ACTIVE_", "ENGINE_GPU", "GPU_GATE",
                                                                          "TRAIN_PROFILE", "TRAIN_GPUS"))}
        for env, rc in cases:
            p = subprocess.run(["bash", "-c", f"set -euo pipefail\nsource '{settings}'\nactive_check"],
                               capture_output=True, text=True, timeout=60, env=dict(base, **env))
            self.assertEqual(rc, p.returncode, (env, p.stderr))
            self.assertEqual(rc != 0, "nothing started" in p.stderr, (env, p.stderr))
            if env.get("TRAIN_PROFILE") and rc:   # the setting that chose the GPU, not the gate's default device
                self.assertIn("and TRAIN_PROFILE=1 (the probe on the first of TRAIN_GPUS='0,1') both name GPU 0",
                              p.stderr)

    def test_the_sequential_round_stays_the_default(self):
        rc, text, lines = self.multi(TRAIN_GPUS="1", ACTIVE_OPTS="--only-weighted --weight-category imine=3",
                                     ACTIVE_ROUND="4")
        self.assertEqual(0, rc, text)
        self.assertIn("data: active started no", lines)
        active = self.call(lines, "organic_active.py")
        self.assertEqual(len(active), 1, lines)
        self.assertGreater(lines.index(active[0]), lines.index(self.call(lines, "organic_data.py")[0]))
        _, gpus, _, argv = active[0].split(" | ")
        self.assertEqual(gpus, "CUDA_VISIBLE_DEVICES=1")                        # the first training GPU
        self.assertTrue(argv.endswith("--out w/active --round 4 --workers 3 --only-weighted --weight-category "
                                      "imine=3"), argv)
        self.assertNotIn("--devices", argv)
        for t in self.call(lines, "train.py"):
            self.assertIn("--system-weight organic-active-r4=2", t)


class DeviceSoupTest(unittest.TestCase):
    """device_organic.sh multi with SOUP_ALPHA: once the training ended, INIT and the run's average (interpolate.py) is
    exported with the run's domain and dataset but a training line of its own, and evaluated on the second of
    TRAIN_GPUS, both at the same time as the run's export and figures, which the window's call3 then surveys; DONE only
    after both; the training ends 30 s earlier for it. Without SOUP_ALPHA no soup at all; a SOUP_ALPHA not in (0,1) is
    refused before anything starts. python3 stubbed (STUB_PYTHON)."""

    SETTINGS = dict(DATA_CPUS="0", DATA_WORKERS="3", DATA_OPTS="--small --rare", V5DATA="v5", COMMIT="abc123")

    @staticmethod
    def minutes(lines):
        (train,) = {x.split(" | ")[3] for x in lines if x.startswith("train.py |")}
        argv = train.split()
        return float(argv[argv.index("--minutes") + 1])

    def test_the_soup_is_built_exported_and_evaluated_beside_the_run_and_done_after_both(self):
        import hashlib
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            init = os.path.join(d, "preview.safetensors")
            with open(init, "wb") as f:
                f.write(b"the preview's weights")
            sha = hashlib.sha256(b"the preview's weights").hexdigest()
            for gpus, soup_gpu in (("0,1", "1"), ("0", "0")):
                rc, text, lines, files = run_phase("multi", dict(self.SETTINGS, TRAIN_GPUS=gpus, SOUP_ALPHA="0.5",
                                                                 INIT=init, STUB_SLOW_S="1"))
                self.assertEqual(0, rc, text)
                # the average of INIT and the run's best state, after the training
                (interp,) = [x for x in lines if x.startswith("interpolate.py |")]
                self.assertEqual(f"--a {init} --b w/run/state.npz --alpha 0.5 --out w/soup/state.npz",
                                 interp.split(" | ")[3])
                self.assertGreater(lines.index(interp), max(i for i, x in enumerate(lines) if x.startswith("train.py")))
                self.assertEqual(f"soup of {init} and w/run/state.npz at 0.5\n", files["state_soup.npz"])
                # two exports at once: the run's as before, the soup's with its training line and the run's domain
                exports = [x for x in lines if x.startswith("export.py |")]
                self.assertEqual(2, len(exports), lines)
                self.assertLess(max(lines.index(x) for x in exports),
                                min(i for i, x in enumerate(lines) if x.startswith("export.py end")), lines)
                self.assertEqual("weights of w/run/state.npz\n", files["student-gfn2-v6.safetensors"])
                training = (f"interpolate.py --alpha 0.5: (1 - 0.5) x INIT preview.safetensors (sha256 {sha}) + 0.5 x "
                            "its fine-tuning in this round (device_organic.sh multi, training commit abc123: {train})")
                self.assertEqual(f"weights of w/soup/state.npz | training: {training}\n",
                                 files["student-gfn2-v6-soup.safetensors"])
                (run_export,) = [x for x in exports if "--state w/run/state.npz " in x]
                (soup_export,) = [x for x in exports if "--state w/soup/state.npz " in x]
                self.assertEqual(run_export, soup_export.replace(f" --training {training}", "")
                                 .replace("w/soup/", "w/run/").replace("v6-soup", "v6"))
                self.assertIn("exported", files["export-soup_stdout.txt"])
                # two evaluations at once, the soup's on the second training GPU (the first where there is one)
                evals = {x.split(" | ")[3].split()[1]: x.split(" | ")[1] for x in lines
                         if x.startswith("organic_eval.py |")}
                self.assertEqual({"w/run/state.npz": "CUDA_VISIBLE_DEVICES=" + gpus.split(",")[0],
                                  "w/soup/state.npz": "CUDA_VISIBLE_DEVICES=" + soup_gpu}, evals, lines)
                (soup_eval,) = [x for x in lines if x.startswith("organic_eval.py |") and "w/soup/" in x]
                self.assertTrue(soup_eval.endswith("/o/eval-soup.json"), soup_eval)
                self.assertLess(max(i for i, x in enumerate(lines) if x.startswith("organic_eval.py |")),
                                min(i for i, x in enumerate(lines) if x.startswith("organic_eval.py end")), lines)
                # DONE after both evaluations ended
                self.assertIn("organic_eval.py end w/run/state.npz | DONE no", lines)
                self.assertIn("organic_eval.py end w/soup/state.npz | DONE no", lines)
                self.assertIn("DONE", files)
                for name in ("eval.json", "eval-soup.json", "eval-soup_stdout.txt"):
                    self.assertIn(name, files)
                # 30 s of the training for the soup: (900 - a few s - 120 - 30) / 60
                self.assertTrue(12.3 <= self.minutes(lines) <= 12.5, self.minutes(lines))

    def test_without_soup_alpha_no_soup(self):
        for env in ({}, {"SOUP_ALPHA": ""}):
            rc, text, lines, files = run_phase("multi", dict(self.SETTINGS, TRAIN_GPUS="0,1", **env))
            self.assertEqual(0, rc, text)
            self.assertEqual([], [x for x in lines if "interpolate.py" in x or "soup" in x], lines)
            exports = [x for x in lines if x.startswith("export.py |")]
            self.assertEqual(1, len(exports), lines)
            self.assertNotIn(" --training ", exports[0])
            evals = [x.split(" | ")[1] for x in lines if x.startswith("organic_eval.py |")]
            self.assertEqual(["CUDA_VISIBLE_DEVICES=0"], evals)
            self.assertEqual([], [name for name in files if "soup" in name])
            self.assertIn("DONE", files)
            self.assertTrue(12.8 <= self.minutes(lines) <= 13.0, self.minutes(lines))   # (900 - a few s - 120) / 60
            self.assertNotIn("TRAIN_MIN_S", text)   # above the training's floor (300 s) the deadline rules, silently

    def test_a_soup_alpha_not_between_0_and_1_is_refused_before_anything_starts(self):
        import subprocess
        for alpha in ("1", "0", "0.0", "1.5", "-0.5", "0,5", "half", "5e-1", "0.5 "):
            rc, text, lines, files = run_phase("multi", dict(self.SETTINGS, SOUP_ALPHA=alpha))
            self.assertEqual(2, rc, (alpha, text))
            self.assertIn(f"SOUP_ALPHA='{alpha}': expected a number between 0 and 1 (exclusive)", text)
            self.assertIn("(nothing started)", text)
            self.assertEqual([], lines, alpha)
        settings = os.path.join(os.path.dirname(os.path.abspath(__file__)), "active_settings.sh")
        for alpha in ("0.5", ".25", "0.999", "0.05"):
            p = subprocess.run(["bash", "-c", f"set -euo pipefail\nsource '{settings}'\nsoup_check"],
                               capture_output=True, text=True, timeout=30, env=dict(os.environ, SOUP_ALPHA=alpha))
            self.assertEqual(0, p.returncode, (alpha, p.stderr))


class DeviceTrainingFloorTest(unittest.TestCase):
    """device_organic.sh multi: the training gets at least TRAIN_MIN_S seconds (default 300) where the data left the
    deadline less (round 22: 2.5 min after 1,103 s of labelling), and says so; above the floor the deadline rules as
    before (DeviceSoupTest.test_without_soup_alpha_no_soup); a TRAIN_MIN_S that is not a whole number of seconds is
    refused before anything starts. python3 stubbed."""

    SETTINGS = dict(DATA_CPUS="0", DATA_WORKERS="3", V5DATA="v5", TRAIN_GPUS="0")

    def test_the_floor_holds_where_the_deadline_leaves_less(self):
        # EVAL_BUDGET_S=800: (900 - a few s - 800 - 120) / 60 < 0 min left by the deadline
        for env, minutes in (({}, 5.0), ({"TRAIN_MIN_S": "90"}, 1.5)):
            rc, text, lines, _ = run_phase("multi", dict(self.SETTINGS, EVAL_BUDGET_S="800", **env))
            self.assertEqual(0, rc, text)
            self.assertEqual(minutes, DeviceSoupTest.minutes(lines), lines)
            floor = env.get("TRAIN_MIN_S", "300")
            self.assertIn(f"under TRAIN_MIN_S={floor}: {minutes} min, ending past DEADLINE_S", text)
            self.assertIn(f"for {minutes} min from", text)

    def test_a_floor_that_is_not_whole_seconds_is_refused_before_anything_starts(self):
        for bad in ("4.5", "5m", "-60", " "):
            rc, text, lines, _ = run_phase("multi", dict(self.SETTINGS, TRAIN_MIN_S=bad))
            self.assertEqual(2, rc, (bad, text))
            self.assertIn(f"multi: TRAIN_MIN_S='{bad}': expected a whole number of seconds (nothing started)", text)
            self.assertEqual([], [x for x in lines if " | " in x], lines)   # no script ran


class DeviceWidthsTest(unittest.TestCase):
    """device_organic.sh widths: F = 128 from INIT against its widened F = 256 copy. With ARM_GPUS each arm trains alone
    on its GPU with multi's train.py options (the F = 128 arm is what multi trains on one GPU), pinned to its half of
    TRAIN_CPUS; ACTIVE_WITH_DATA=1's round joins both arms; a wrong ARM_GPUS is refused before anything starts; the
    F = 128 export is also the round's weight file. python3 (STUB_PYTHON) and nvidia-smi stubbed."""

    INIT = "forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors"
    SETTINGS = dict(DATA_CPUS="0", DATA_WORKERS="3", BATCH="512", LR="3e-4", LR_FINAL="1e-5", WARMUP="200",
                    DATA_OPTS="--small --rare", V5DATA="v5", SYSTEM_WEIGHTS="--system-weight water=2")

    @staticmethod
    def argv(line):
        return line.split(" | ")[3].split()

    @staticmethod
    def without(argv, *options):
        """argv without the options named and their values"""
        out, skip = [], False
        for a in argv:
            if skip:
                skip = False
            elif a in options:
                skip = True
            else:
                out.append(a)
        return out

    def test_each_arm_alone_on_its_gpu_with_multis_options(self):
        rc, text, lines, files = run_phase("widths", dict(self.SETTINGS, ARM_GPUS="0,1", TRAIN_CPUS="0-1"), gpus=2)
        self.assertEqual(0, rc, text)
        trains = [x for x in lines if x.startswith("train.py |")]
        self.assertEqual(2, len(trains), lines)
        by_gpu = {x.split(" | ")[1]: x for x in trains}
        self.assertEqual({"CUDA_VISIBLE_DEVICES=0", "CUDA_VISIBLE_DEVICES=1"}, set(by_gpu), trains)
        f128, f256 = self.argv(by_gpu["CUDA_VISIBLE_DEVICES=0"]), self.argv(by_gpu["CUDA_VISIBLE_DEVICES=1"])
        # each pinned to its half of TRAIN_CPUS
        self.assertEqual("cpus=0", by_gpu["CUDA_VISIBLE_DEVICES=0"].split(" | ")[2])
        self.assertEqual("cpus=1", by_gpu["CUDA_VISIBLE_DEVICES=1"].split(" | ")[2])
        self.assertEqual(["--hidden", "128", "--init", self.INIT, "--out", "w/run-f128"],
                         [f128[f128.index(o) + k] for o in ("--hidden", "--init", "--out") for k in (0, 1)])
        self.assertEqual(["--hidden", "256", "--init", "w/wide.npz", "--out", "w/run-f256"],
                         [f256[f256.index(o) + k] for o in ("--hidden", "--init", "--out") for k in (0, 1)])
        self.assertEqual(self.without(f128, "--hidden", "--init", "--out"),
                         self.without(f256, "--hidden", "--init", "--out"))
        # the widened copy is of INIT
        widen = [x for x in lines if x.startswith("widen.py |")]
        self.assertEqual(1, len(widen), lines)
        self.assertIn(f"--weights {self.INIT} --out w/wide.npz", widen[0])
        # the F = 128 arm is multi's training on one GPU: the same options but its folder and minutes
        rc, text, multi_lines, _ = run_phase("multi", dict(self.SETTINGS, TRAIN_GPUS="0"))
        self.assertEqual(0, rc, text)
        (multi,) = [self.argv(x) for x in multi_lines if x.startswith("train.py |")]
        self.assertEqual(self.without(multi, "--out", "--minutes"), self.without(f128, "--out", "--minutes"))
        # trained until DEADLINE_S less 150 s for the exports and evaluations, which run at once, one on each GPU
        minutes = float(f128[f128.index("--minutes") + 1])
        self.assertTrue(12.3 <= minutes <= 12.5, minutes)   # (900 - a few s - 150) / 60
        self.assertEqual(f128[f128.index("--minutes") + 1], f256[f256.index("--minutes") + 1])
        evals = {x.split(" | ")[1]: self.argv(x) for x in lines if x.startswith("organic_eval.py |")}
        self.assertEqual("w/run-f128/state.npz", evals["CUDA_VISIBLE_DEVICES=0"][1], evals)
        self.assertEqual("w/run-f256/state.npz", evals["CUDA_VISIBLE_DEVICES=1"][1], evals)
        # both exports, and F = 128's also as the round's weight file (call3's STABILITY=1 surveys that name)
        self.assertEqual("weights of w/run-f128/state.npz\n", files["student-gfn2-v6-f128.safetensors"])
        self.assertEqual("weights of w/run-f256/state.npz\n", files["student-gfn2-v6-f256.safetensors"])
        self.assertEqual(files["student-gfn2-v6-f128.safetensors"], files["student-gfn2-v6.safetensors"])
        self.assertIn("DONE", files)

    def test_both_arms_train_on_the_active_rounds_frames(self):
        for arm_gpus in ("0,1", None):   # on two GPUs, and side by side on one
            env = dict(self.SETTINGS, ACTIVE_WITH_DATA="1", ACTIVE_ROUND="12", ACTIVE_WEIGHT="2")
            if arm_gpus:
                env["ARM_GPUS"] = arm_gpus
            rc, text, lines, files = run_phase("widths", env, gpus=2)
            self.assertEqual(0, rc, text)
            self.assertIn("data: active started yes", lines)   # beside the data, not after
            (active,) = [x for x in lines if x.startswith("organic_active.py |")]
            # on ARM_GPUS by default (the round ends before the arms train); TRAIN_GPUS' default 0 without
            self.assertEqual("CUDA_VISIBLE_DEVICES=" + (arm_gpus or "0"), active.split(" | ")[1])
            trains = [x for x in lines if x.startswith("train.py |")]
            self.assertEqual(2, len(trains), lines)
            self.assertIn("train: active done yes", lines)
            for t in trains:
                self.assertIn(" w/active ", t)
                self.assertIn("--system-weight water=2 --system-weight organic-active-r12=2", t)
            self.assertIn("student-gfn2-v6.safetensors", files)

    def test_a_wrong_arm_gpus_is_refused_before_anything_starts(self):
        for arm_gpus, message in (("0,2", "ARM_GPUS='0,2' names GPU '2', not one of this machine's 2"),
                                  ("0,x", "ARM_GPUS='0,x' names GPU 'x', not one of this machine's 2"),
                                  ("1,1", "ARM_GPUS='1,1' names GPU 1 twice"),
                                  ("0", "ARM_GPUS='0': expected two GPU indices"),
                                  ("0,1,", "ARM_GPUS='0,1,': expected two GPU indices")):
            rc, text, lines, files = run_phase("widths", dict(self.SETTINGS, ARM_GPUS=arm_gpus, ACTIVE_WITH_DATA="1"),
                                               gpus=2)
            self.assertEqual(2, rc, text)
            self.assertIn(message, text)
            self.assertIn("(nothing started)", text)
            self.assertEqual([], lines, arm_gpus)   # no script ran: no data, no active round, no training
        rc, text, lines, _ = run_phase("widths", dict(self.SETTINGS, ARM_GPUS="0,1", TRAIN_CPUS="0-1;4"), gpus=2)
        self.assertEqual(2, rc, text)
        self.assertIn("TRAIN_CPUS='0-1;4': expected a taskset list of cores", text)
        self.assertEqual([], lines)

    def test_the_cores_halved_between_the_arms(self):
        import subprocess
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "device_organic.sh")) as f:
            script = f.read()
        import re
        function = re.search(r"^cpu_share\(\) {\n.*?^}\n", script, re.S | re.M).group(0)
        for spec, k, want in (("0-31", 0, "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"), ("0-31", 1, "16,17,18,19,20,21,22,"
                              "23,24,25,26,27,28,29,30,31"), ("0-1,4-5", 1, "4,5"), ("3", 1, "3"), ("", 0, "")):
            p = subprocess.run(["bash", "-c", f"set -euo pipefail\n{function}\ncpu_share '{spec}' {k} 2"],
                               capture_output=True, text=True, timeout=30)
            self.assertEqual(0, p.returncode, p.stderr)
            self.assertEqual(want, p.stdout.strip(), (spec, k))


class DeviceDepthsTest(unittest.TestCase):
    """device_organic.sh depths: T = 3 from INIT against its deepened T = 4 copy (deepen.py), each alone on its GPU of
    ARM_GPUS with multi's train.py options and its --layers, both at F = 128; exported and evaluated as widths' arms,
    t3's export also the round's weight file; without ARM_GPUS refused before anything starts. python3 (STUB_PYTHON)
    and nvidia-smi stubbed."""

    INIT = DeviceWidthsTest.INIT
    SETTINGS = DeviceWidthsTest.SETTINGS
    argv = staticmethod(DeviceWidthsTest.argv)
    without = staticmethod(DeviceWidthsTest.without)

    def test_t3_and_t4_each_alone_on_its_gpu_with_multis_options_and_their_layers(self):
        rc, text, lines, files = run_phase("depths", dict(self.SETTINGS, ARM_GPUS="1,0", TRAIN_CPUS="0-1",
                                                          ACTIVE_WITH_DATA="1", ACTIVE_ROUND="17"), gpus=2)
        self.assertEqual(0, rc, text)
        (deepen,) = [x for x in lines if x.startswith("deepen.py |")]
        self.assertIn(f"--weights {self.INIT} --out w/deep.npz --layers 4 --seed 1", deepen)
        (active,) = [x for x in lines if x.startswith("organic_active.py |")]
        self.assertEqual("CUDA_VISIBLE_DEVICES=1,0", active.split(" | ")[1])   # ACTIVE_GPUS' default: ARM_GPUS
        trains = {x.split(" | ")[1]: x for x in lines if x.startswith("train.py |")}
        self.assertEqual({"CUDA_VISIBLE_DEVICES=0", "CUDA_VISIBLE_DEVICES=1"}, set(trains), lines)
        t3, t4 = self.argv(trains["CUDA_VISIBLE_DEVICES=1"]), self.argv(trains["CUDA_VISIBLE_DEVICES=0"])
        self.assertEqual("cpus=0", trains["CUDA_VISIBLE_DEVICES=1"].split(" | ")[2])   # the first arm's half
        self.assertEqual("cpus=1", trains["CUDA_VISIBLE_DEVICES=0"].split(" | ")[2])
        pick = ("--hidden", "--layers", "--init", "--out")
        self.assertEqual(["--hidden", "128", "--layers", "3", "--init", self.INIT, "--out", "w/run-t3"],
                         [t3[t3.index(o) + k] for o in pick for k in (0, 1)])
        self.assertEqual(["--hidden", "128", "--layers", "4", "--init", "w/deep.npz", "--out", "w/run-t4"],
                         [t4[t4.index(o) + k] for o in pick for k in (0, 1)])
        self.assertEqual(self.without(t3, *pick), self.without(t4, *pick))
        self.assertIn("--system-weight organic-active-r17=2", " ".join(t4))
        # t3 is multi's training on one GPU, --layers 3 (train.py's default) named
        rc, text, multi_lines, _ = run_phase("multi", dict(self.SETTINGS, TRAIN_GPUS="0", ACTIVE_WITH_DATA="1",
                                                           ACTIVE_ROUND="17"))
        self.assertEqual(0, rc, text)
        (multi,) = [self.argv(x) for x in multi_lines if x.startswith("train.py |")]
        self.assertNotIn("--layers", multi)   # multi's options as they always were
        self.assertEqual(self.without(multi, "--out", "--minutes"), self.without(t3, "--out", "--minutes", "--layers"))
        minutes = float(t3[t3.index("--minutes") + 1])
        self.assertTrue(12.3 <= minutes <= 12.5, minutes)   # (900 - a few s - 150) / 60, as widths'
        self.assertEqual(t3[t3.index("--minutes") + 1], t4[t4.index("--minutes") + 1])
        evals = {x.split(" | ")[1]: self.argv(x) for x in lines if x.startswith("organic_eval.py |")}
        self.assertEqual("w/run-t3/state.npz", evals["CUDA_VISIBLE_DEVICES=1"][1], evals)
        self.assertEqual("w/run-t4/state.npz", evals["CUDA_VISIBLE_DEVICES=0"][1], evals)
        self.assertEqual({"eval_t3.json", "eval_t4.json"}, {f for f in files if f.startswith("eval_") and
                                                           f.endswith(".json")})
        self.assertEqual("weights of w/run-t3/state.npz\n", files["student-gfn2-v6-t3.safetensors"])
        self.assertEqual("weights of w/run-t4/state.npz\n", files["student-gfn2-v6-t4.safetensors"])
        self.assertEqual(files["student-gfn2-v6-t3.safetensors"], files["student-gfn2-v6.safetensors"])
        self.assertIn("DONE", files)

    def test_without_arm_gpus_or_with_a_wrong_one_nothing_starts(self):
        for env, message in (({}, "ARM_GPUS is not set: depths trains its two arms each alone on a GPU of its own"),
                             ({"ARM_GPUS": "0"}, "ARM_GPUS='0': expected two GPU indices, the T = 3 arm's and the "
                                                 "T = 4 arm's"),
                             ({"ARM_GPUS": "1,1"}, "ARM_GPUS='1,1' names GPU 1 twice: each arm has a GPU of its own "
                                                   "(nothing started)")):
            rc, text, lines, files = run_phase("depths", dict(self.SETTINGS, ACTIVE_WITH_DATA="1", **env), gpus=2)
            self.assertEqual(2, rc, text)
            self.assertIn(message, text)
            self.assertIn("(nothing started)", text)
            self.assertEqual([], lines, env)   # no script ran: no data, no active round, no deepening, no training


if __name__ == "__main__":
    unittest.main()
