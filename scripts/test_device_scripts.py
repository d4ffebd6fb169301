"""Tests of the device scripts that time issue 28's constraints on a GPU machine, run here with a stand-in `java`: a
device call is a few minutes of a 30-minute budget, so a script that selects the wrong runs, puts the wrong kernels
on the class path or misreads `molten run`'s summary must fail here, not there.

/usr/bin/python3 -m unittest scripts/test_device_scripts.py      (bash, tar, timeout; < 5 s)"""
import glob
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

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
    for d in ("forcefield/src/main/resources", "platform-cuda/src/main/resources", "scripts"):
        os.makedirs(os.path.join(tree, d))
    with open(os.path.join(HERE, "energy_logs.py")) as src, open(os.path.join(tree, "scripts", "energy_logs.py"), "w") as dst:
        dst.write(src.read())
    return b, tree


def unpacked_bundle(tmp):
    """The window's unpacked bundle as call3 finds it (BUNDLE_ROOT=TMP/bundle: g3/jre/bin/java, an empty stand-in); its
    g3 folder."""
    g3 = os.path.join(tmp, "bundle", "g3")
    os.makedirs(os.path.join(g3, "jre", "bin"))
    open(os.path.join(g3, "jre", "bin", "java"), "w").close()
    os.chmod(os.path.join(g3, "jre", "bin", "java"), 0o755)
    return g3


def stand_in_survey(tmp, body):
    """The window's unpacked bundle and a stand-in scripts/organic-stability-run.sh (which call2 and call3 copy into it)
    running the shell lines BODY, where LOG stands for the path of its log; that path."""
    unpacked_bundle(tmp)
    os.makedirs(os.path.join(tmp, "scripts"))
    log = os.path.join(tmp, "surveys.txt")
    with open(os.path.join(tmp, "scripts", "organic-stability-run.sh"), "w") as fh:
        fh.write(body.replace("LOG", log))
    return log


def read(path):
    with open(path) as f:
        return f.read()


def installed(b, name):
    """scripts/NAME copied into the bundle folder b, as the device windows do (the script finds jre/ and lib/ there)."""
    script = os.path.join(b, name)
    with open(os.path.join(HERE, name)) as src, open(script, "w") as dst:
        dst.write(src.read())
    return script


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


class DeviceWindowRefusalsTest(unittest.TestCase):
    """A window's first call that would start a round without what it must carry refuses before anything starts: a
    round begun without its INIT or v1-v5's data would spend the window's labelling and training on the wrong start."""

    def window(self, tmp, phase, env, files=(), data_dir=False):
        os.makedirs(os.path.join(tmp, "scripts"), exist_ok=True)
        subprocess.run(["cp", os.path.join(HERE, "device-window-h200.sh"), os.path.join(tmp, "scripts")], check=True)
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
            open(os.path.join(tmp, f), "w").close()
        if data_dir:
            os.makedirs(os.path.join(tmp, "forcefield", "training", "data"))
        e = dict(os.environ, OUT=os.path.join(tmp, "out"), **env)
        return subprocess.run(["bash", "scripts/device-window-h200.sh", phase], cwd=tmp, env=e, capture_output=True,
                              text=True, timeout=30)

    def test_round1_refuses_a_missing_init_or_data_before_anything_starts(self):
        cases = [({}, (), True, ".model-payload/xtblib.tar.xz"),
                 ({"INIT": ".model-payload/s.npz"}, (".model-payload/xtblib.tar.xz",), True, ".model-payload/s.npz"),
                 ({}, (".model-payload/xtblib.tar.xz",), False, ".device/data.tar.xz")]
        for env, files, data_dir, missing in cases:
            with tempfile.TemporaryDirectory() as tmp:
                r = self.window(tmp, "round1", env, files, data_dir)
                self.assertEqual(2, r.returncode, r.stderr)
                self.assertIn("round1: " + missing + " was not carried (nothing started)", r.stderr)
                self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "pipeline.log")), missing)

    def test_a_train_gpu_the_machine_lacks_is_refused_before_anything_starts(self):
        # a stand-in nvidia-smi that lists one GPU, as on an nvidia-h200 machine
        for phase, gpus, bad in (("round1", "0,1", "1"), ("round-and-engine", "0,1", "1"), ("round1", "0;1", "0;1")):
            with tempfile.TemporaryDirectory() as tmp:
                bin_dir = os.path.join(tmp, "bin")
                os.makedirs(bin_dir)
                smi = os.path.join(bin_dir, "nvidia-smi")
                with open(smi, "w") as fh:
                    fh.write("#!/usr/bin/env bash\necho 'GPU 0: NVIDIA H200 (UUID: GPU-0)'\n")
                os.chmod(smi, 0o755)
                files = (".model-payload/xtblib.tar.xz",)
                r = self.window(tmp, phase, {"TRAIN_GPUS": gpus, "PATH": bin_dir + os.pathsep + os.environ["PATH"]},
                                files, data_dir=True)
                self.assertEqual(2, r.returncode, r.stderr)
                self.assertIn(f"{phase}: TRAIN_GPUS='{gpus}' names GPU '{bad}', not one of this machine's 1 "
                              "(nothing started)", r.stderr)
                self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "pipeline.log")))

    def test_call3_bounds_the_stability_survey_by_what_is_left_of_the_call(self):
        # a finished pipeline and a stand-in survey that records the budget it is given: the survey gets STABILITY_S
        # or what is left of CALL_S less 30 s, whichever is less, and is not started under 60 s
        for call_s, stability_s, expect in (("400", "230", "230"), ("200", "230", "170"), ("80", "230", None)):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, ".organic-run", "out")
                os.makedirs(out)
                for f in ("DONE", "student-gfn2-v6.safetensors"):
                    open(os.path.join(out, f), "w").close()
                unpacked_bundle(tmp)
                os.makedirs(os.path.join(tmp, "scripts"))
                with open(os.path.join(tmp, "scripts", "organic-stability-run.sh"), "w") as fh:
                    fh.write('echo "$BUDGET" > "$(dirname "$0")/../../budget.txt"\n')
                r = self.window(tmp, "call3", {"CALL_S": call_s, "STABILITY": "1", "STABILITY_S": stability_s,
                                                "BUNDLE_ROOT": os.path.join(tmp, "bundle")})
                self.assertEqual(0, r.returncode, r.stderr)
                budget = os.path.join(tmp, "budget.txt")
                if expect is None:
                    self.assertFalse(os.path.exists(budget))
                    self.assertIn("too little for the stability survey (not started)", r.stdout)
                else:   # bash's SECONDS may tick once or twice while the call runs: within 2 s below
                    self.assertIn(int(read(budget)), range(int(expect) - 2, int(expect) + 1), call_s)
                self.assertTrue(glob.glob(os.path.join(tmp, "out", "window-call3.tar.gz.*")))

    def surveys(self, tmp, env, extra=(), gpus=None):
        """call3 STABILITY=1 after a finished pipeline whose output holds the export and the files EXTRA, a stand-in
        survey recording its model, GPU and budget at its start and its model at its end (SURVEY_S later, default
        1 s), exiting 124 (cut) for the file named by FAIL_MODEL; where gpus is
        given, an nvidia-smi listing that many GPUs. (result, the survey's log lines, the archive's listing)"""
        out = os.path.join(tmp, ".organic-run", "out")
        os.makedirs(out, exist_ok=True)   # a test may have put the pipeline's figures there
        for f in ("DONE", "student-gfn2-v6.safetensors") + tuple(extra):
            open(os.path.join(out, f), "w").close()
        log = stand_in_survey(tmp, 'echo "start $(basename "$MODEL") gpu=${CUDA_VISIBLE_DEVICES:-} $BUDGET" >> LOG\n'
                                   'mkdir -p "$OUT" && echo {} > "$OUT/stability.json"; sleep "${SURVEY_S:-1}"\n'
                                   'echo "end $(basename "$MODEL")" >> LOG\n'
                                   '[[ $(basename "$MODEL") != "${FAIL_MODEL:-}" ]] || exit 124\n')
        env = dict({"CALL_S": "400", "STABILITY": "1", "STABILITY_S": "230", "BUNDLE_ROOT": os.path.join(tmp, "bundle")},
                   **env)
        if gpus is not None:
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            with open(os.path.join(bin_dir, "nvidia-smi"), "w") as fh:
                fh.write("#!/usr/bin/env bash\nfor ((g = 0; g < %d; g++)); do echo \"GPU $g: NVIDIA H200 (UUID: "
                         "GPU-$g)\"; done\n" % gpus)
            os.chmod(os.path.join(bin_dir, "nvidia-smi"), 0o755)
            env["PATH"] = bin_dir + os.pathsep + os.environ["PATH"]
        r = self.window(tmp, "call3", env)
        self.assertEqual(0, r.returncode, r.stderr)
        parts = sorted(glob.glob(os.path.join(tmp, "out", "window-call3.tar.gz.*")))
        listing = subprocess.run("cat " + " ".join(parts) + " | tar -tz", shell=True, capture_output=True,
                                 text=True).stdout.split()
        return r, read(log).splitlines(), listing

    def assert_beside(self, r, lines, listing, name, gpus, exit_line):
        """The survey of student-gfn2-v6-NAME.safetensors started at the same time as the export's, on the second of
        GPUS (default 0,1) against the first, with the same budget, both archived, its exit reported."""
        first, second = (gpus or "0,1").split(",")
        starts = sorted(x for x in lines if x.startswith("start "))
        budget = starts[0].split()[-1]
        self.assertIn(int(budget), range(228, 231), starts)
        self.assertEqual([f"start student-gfn2-v6-{name}.safetensors gpu={second} {budget}",
                          f"start student-gfn2-v6.safetensors gpu={first} {budget}"], starts)
        self.assertTrue(all(x.startswith("start ") for x in lines[:2]), lines)   # at the same time
        self.assertIn(f"./stability-{name}/stability.json", listing)
        self.assertIn("./stability/stability.json", listing)
        self.assertIn(exit_line, r.stdout)

    def test_call3_surveys_the_f256_export_beside_the_f128_one_on_the_second_gpu(self):
        # STABILITY_F256=1 after widths: a stand-in survey records its model, GPU and budget at its start and end; the
        # F = 256 export's runs on the second of ARM_GPUS at the same time as F = 128's on the first, with the same
        # budget, its files in the archive's stability-f256/; without the F = 256 file, or the setting, F = 128's alone
        # as before (no GPU named)
        for f256_file, setting, arm_gpus in ((True, "1", None), (True, "1", "1,0"), (False, "1", None),
                                             (True, None, None)):
            with tempfile.TemporaryDirectory() as tmp:
                env = {}
                if setting:
                    env["STABILITY_F256"] = setting
                if arm_gpus:
                    env["ARM_GPUS"] = arm_gpus
                r, lines, listing = self.surveys(tmp, env, ("student-gfn2-v6-f256.safetensors",) if f256_file else ())
                starts = sorted(x for x in lines if x.startswith("start "))
                if f256_file and setting:
                    self.assert_beside(r, lines, listing, "f256", arm_gpus, "F = 256's survey: exit 0")
                else:
                    self.assertEqual(1, len(starts), lines)
                    self.assertTrue(starts[0].startswith("start student-gfn2-v6.safetensors gpu= "), starts)
                    self.assertNotIn("./stability-f256/stability.json", listing)
                    if setting:
                        self.assertIn("no student-gfn2-v6-f256.safetensors in the pipeline's output", r.stdout)

    def test_call3_surveys_the_t4_export_beside_the_t3_one_when_asked(self):
        # STABILITY_ARM=t4 after depths: the T = 4 export's survey on the second of ARM_GPUS at the same time as the
        # round's weight file's (T = 3's copy) on the first, its files in stability-t4/; STABILITY_ARM=f256 is
        # STABILITY_F256=1's survey; without the T = 4 file, T = 3's alone; a value neither names is refused
        for arm_gpus in (None, "1,0"):
            with tempfile.TemporaryDirectory() as tmp:
                env = {"STABILITY_ARM": "t4"}
                if arm_gpus:
                    env["ARM_GPUS"] = arm_gpus
                r, lines, listing = self.surveys(tmp, env, ("student-gfn2-v6-t4.safetensors",
                                                            "student-gfn2-v6-t3.safetensors"))
                self.assert_beside(r, lines, listing, "t4", arm_gpus, "T = 4's survey: exit 0")
                self.assertNotIn("./stability-t3/stability.json", listing)
        with tempfile.TemporaryDirectory() as tmp:
            r, lines, listing = self.surveys(tmp, {"STABILITY_ARM": "f256"}, ("student-gfn2-v6-f256.safetensors",))
            self.assert_beside(r, lines, listing, "f256", None, "F = 256's survey: exit 0")
        with tempfile.TemporaryDirectory() as tmp:
            r, lines, listing = self.surveys(tmp, {"STABILITY_ARM": "t4"}, ("student-gfn2-v6-f256.safetensors",))
            self.assertEqual(1, len([x for x in lines if x.startswith("start ")]), lines)
            self.assertIn("no student-gfn2-v6-t4.safetensors in the pipeline's output: T = 3's survey alone", r.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            r = self.window(tmp, "call3", {"STABILITY": "1", "STABILITY_ARM": "T4"})
            self.assertEqual(2, r.returncode, r.stdout + r.stderr)
            self.assertIn("call3: STABILITY_ARM='T4': expected f256 or t4 (nothing started)", r.stderr)
            self.assertFalse(glob.glob(os.path.join(tmp, "out", "window-call3.tar.gz.*")))

    def test_call3_surveys_the_soup_beside_the_export_on_the_second_train_gpu(self):
        # a round with SOUP_ALPHA left student-gfn2-v6-soup.safetensors (INIT and the run's average): surveyed at the
        # same time as the export on the second of TRAIN_GPUS (default 0,1), the export's on the first, with the same
        # budget, its files in the archive's stability-soup/; without the file the export's alone as before (covered
        # above: no GPU named)
        for train_gpus in (None, "1,0"):
            with tempfile.TemporaryDirectory() as tmp:
                r, lines, listing = self.surveys(tmp, {"TRAIN_GPUS": train_gpus} if train_gpus else {},
                                                 ("student-gfn2-v6-soup.safetensors",), gpus=2)
                self.assert_beside(r, lines, listing, "soup", train_gpus, "the soup's survey: exit 0")
                self.assertIn("./stability-soup.txt", listing)
        # one GPU (TRAIN_GPUS names one, or the machine has one): the soup's after the export's there, which runs as
        # it did alone (no GPU named where TRAIN_GPUS is not given), in what is left of the call
        for env, gpus, gpu in (({"TRAIN_GPUS": "0"}, None, "0"), ({}, 1, "0")):
            with tempfile.TemporaryDirectory() as tmp:
                r, lines, listing = self.surveys(tmp, env, ("student-gfn2-v6-soup.safetensors",), gpus=gpus)
                self.assertEqual(4, len(lines), lines)
                self.assertTrue(lines[0].startswith("start student-gfn2-v6.safetensors gpu= "), lines)
                self.assertEqual("end student-gfn2-v6.safetensors", lines[1])
                self.assertTrue(lines[2].startswith(f"start student-gfn2-v6-soup.safetensors gpu={gpu} "), lines)
                self.assertIn(int(lines[2].split()[-1]), range(226, 231), lines)
                self.assertIn("./stability-soup/stability.json", listing)
        with tempfile.TemporaryDirectory() as tmp:   # too little left after the export's: not started
            # 62 s for the export's survey (61 should SECONDS tick), which takes 3 s: under 60 s left for the soup's
            r, lines, listing = self.surveys(tmp, {"TRAIN_GPUS": "0", "CALL_S": "92", "SURVEY_S": "3"},
                                             ("student-gfn2-v6-soup.safetensors",))
            self.assertEqual(2, len(lines), lines)
            self.assertIn("too little for the soup's stability survey after the export's on its one GPU (not started)",
                          r.stdout)
            self.assertNotIn("./stability-soup/stability.json", listing)

    def test_call3_on_one_gpu_surveys_the_better_of_export_and_soup_first_when_asked(self):
        # STABILITY_ORDER=better on one GPU: the pipeline's figures (eval.json, eval-soup.json: 300 K and 600 K
        # medians and p95 summed) pick the survey that is sure of its time; the other follows in what is left, each in
        # its own folder. Export better, figures missing or no setting: the export's first, as before
        def figures(path, med, p95):
            with open(path, "w") as fh:
                json.dump({"organic_test": {"summary": {t: {"median_force_mae": med, "p95_force_mae": p95}
                                                         for t in ("300K", "600K")}}}, fh)
        for order, soup_better, with_figures, soup_first in (("better", True, True, True),
                                                            ("better", False, True, False),
                                                            ("better", True, False, False),
                                                            (None, True, True, False)):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, ".organic-run", "out")
                os.makedirs(out)
                if with_figures:
                    figures(os.path.join(out, "eval.json"), 0.0200, 0.0450)
                    figures(os.path.join(out, "eval-soup.json"), 0.0195 if soup_better else 0.0210, 0.0450)
                first, second = (("student-gfn2-v6-soup", "student-gfn2-v6") if soup_first
                                 else ("student-gfn2-v6", "student-gfn2-v6-soup"))
                env = {"TRAIN_GPUS": "0", "FAIL_MODEL": second + ".safetensors"}   # the later survey is cut
                if order:
                    env["STABILITY_ORDER"] = order
                r, lines, listing = self.surveys(tmp, env, ("student-gfn2-v6-soup.safetensors",))
                self.assertEqual(4, len(lines), lines)
                self.assertTrue(lines[0].startswith(f"start {first}.safetensors gpu= "), lines)
                self.assertEqual(f"end {first}.safetensors", lines[1])
                self.assertTrue(lines[2].startswith(f"start {second}.safetensors gpu=0 "), lines)
                self.assertIn("./stability-soup/stability.json", listing)
                self.assertIn("./stability/stability.json", listing)
                if soup_first:
                    self.assertIn("export 0.1300, soup 0.1290 eV/A: the soup's survey first", r.stdout)
                    self.assertIn("the export's survey (after the soup's, on GPU 0): exit 124", r.stdout)
                else:
                    self.assertIn("the soup's survey (after the export's, on GPU 0): exit 124", r.stdout)
                    if order and not with_figures:
                        self.assertIn("STABILITY_ORDER=better: no figures to compare", r.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            r = self.window(tmp, "call3", {"STABILITY": "1", "STABILITY_ORDER": "best"})
            self.assertEqual(2, r.returncode, r.stdout + r.stderr)
            self.assertIn("call3: STABILITY_ORDER='best': expected export or better (nothing started)", r.stderr)

    def test_call2_surveys_init_on_the_first_train_gpu_while_the_training_runs(self):
        # STABILITY_INIT=1: a shipped preview with no survey of its own (round 14's midpoint) surveyed in call2, on the
        # first of TRAIN_GPUS, started before the pipeline is DONE (the stand-in records whether DONE existed at its
        # start; the pipeline here finishes 2 s into the call), its files in the archive's stability-init/; without
        # the setting, no survey
        preview = "forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors"
        for env, gpu in (({}, "0"), ({"TRAIN_GPUS": "1,0"}, "1"), (None, None)):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, ".organic-run", "out")
                os.makedirs(out)
                unpacked_bundle(tmp)
                os.makedirs(os.path.join(tmp, "scripts"))
                os.makedirs(os.path.dirname(os.path.join(tmp, preview)))
                open(os.path.join(tmp, preview), "w").close()
                log = os.path.join(tmp, "surveys.txt")
                with open(os.path.join(tmp, "scripts", "organic-stability-run.sh"), "w") as fh:
                    fh.write(f'echo "start $(basename "$MODEL") gpu=${{CUDA_VISIBLE_DEVICES:-}} $BUDGET '
                             f'done=$([[ -f {out}/DONE ]] && echo yes || echo no)" >> {log}\n'
                             f'mkdir -p "$OUT" && echo {{}} > "$OUT/stability.json"\n')
                finisher = subprocess.Popen(["bash", "-c", f"sleep 2; touch {out}/DONE"])
                self.addCleanup(finisher.wait)
                with open(os.path.join(tmp, ".organic-run", "pipeline.pid"), "w") as fh:
                    fh.write(f"{finisher.pid}\n")   # as start_pipeline records the running round
                e = {"CALL_S": "400", "STABILITY_S": "230", "BUNDLE_ROOT": os.path.join(tmp, "bundle")}
                if env is not None:
                    e.update(env, STABILITY_INIT="1")
                r = self.window(tmp, "call2", e)
                self.assertEqual(0, r.returncode, r.stderr)
                parts = sorted(glob.glob(os.path.join(tmp, "out", "window-call2.tar.gz.*")))
                listing = subprocess.run("cat " + " ".join(parts) + " | tar -tz", shell=True, capture_output=True,
                                         text=True).stdout.split()
                if env is None:
                    self.assertFalse(os.path.exists(log))
                    self.assertNotIn("./stability-init/stability.json", listing)
                    continue
                lines = read(log).splitlines()
                self.assertEqual(1, len(lines), lines)
                self.assertRegex(lines[0], rf"^start student-gfn2-organic-preview.safetensors gpu={gpu} 2(2[89]|30) "
                                           r"done=no$")
                self.assertIn("INIT's survey: exit 0", r.stdout)
                self.assertIn("./stability-init/stability.json", listing)

    def test_call2_and_call3_stop_at_once_where_the_machine_runs_no_round(self):
        # 2026-12-01: the tool gave the warm machine back between round1 and call2, and call2 waited its 530 s on a
        # bare machine for a DONE that could not come. Now a call finding no round (no pipeline.pid: a fresh machine)
        # or a dead one (its process gone, no DONE) says so at once, packs what there is and exits 3; a live one
        # is waited for (test_call2_surveys_init_on_the_first_train_gpu_while_the_training_runs)
        for phase, state in (("call2", "fresh"), ("call3", "fresh"), ("call2", "dead"), ("call3", "dead")):
            with tempfile.TemporaryDirectory() as tmp:
                os.makedirs(os.path.join(tmp, ".organic-run", "out"))
                if state == "dead":
                    gone = subprocess.run(["bash", "-c", "echo $$"], capture_output=True, text=True).stdout.strip()
                    with open(os.path.join(tmp, ".organic-run", "pipeline.pid"), "w") as fh:
                        fh.write(gone + "\n")
                    with open(os.path.join(tmp, ".organic-run", "pipeline.log"), "w") as fh:
                        fh.write("train.py: CUDA out of memory\n")
                # waiting for DONE as before would end the call after CALL_S with exit 0 (here the helper's 30 s
                # timeout fails it first)
                r = self.window(tmp, phase, {"CALL_S": "400", "STABILITY": "1"})
                self.assertEqual(3, r.returncode, (phase, state, r.stderr))
                if state == "fresh":
                    self.assertIn(f"{phase}: no round on this machine (.organic-run/pipeline.pid absent", r.stderr)
                else:
                    self.assertIn(f"{phase}: the pipeline (PID {gone}) ended without DONE", r.stderr)
                    self.assertIn("train.py: CUDA out of memory", r.stderr)
                self.assertTrue(glob.glob(os.path.join(tmp, "out", f"window-{phase}.tar.gz.*")))

    def test_call2_surveys_the_init_call1_started_from_where_call2_is_not_given_one(self):
        # round 18's window starts from a candidate (.model-payload/...), not the shipped preview: call1 records its
        # INIT (start_pipeline), and call2's STABILITY_INIT=1 without INIT surveys that file, not the preview it
        # would otherwise default to; an INIT given to call2 still wins
        preview = "forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors"
        for given, expect in ((None, "candidate.safetensors"), ("other.safetensors", "other.safetensors")):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, ".organic-run", "out")
                os.makedirs(out)
                with open(os.path.join(tmp, ".organic-run", "init-path"), "w") as fh:
                    fh.write(".model-payload/candidate.safetensors\n")   # as start_pipeline writes it
                for f in (preview, ".model-payload/candidate.safetensors", "other.safetensors"):
                    os.makedirs(os.path.dirname(os.path.join(tmp, f)) or tmp, exist_ok=True)
                    open(os.path.join(tmp, f), "w").close()
                log = stand_in_survey(tmp, 'echo "start $(basename "$MODEL")" >> LOG\n'
                                           'mkdir -p "$OUT" && echo {} > "$OUT/stability.json"\n')
                open(os.path.join(out, "DONE"), "w").close()
                e = {"CALL_S": "400", "STABILITY_S": "230", "STABILITY_INIT": "1",
                     "BUNDLE_ROOT": os.path.join(tmp, "bundle")}
                if given:
                    e["INIT"] = given
                r = self.window(tmp, "call2", e)
                self.assertEqual(0, r.returncode, r.stderr)
                self.assertEqual(["start " + expect], read(log).splitlines())

    def test_call3_checks_the_engine_in_what_is_left_of_the_call_and_packs_its_logs(self):
        # CHECK_ENGINE=1: a stand-in group-engine-run.sh in the unpacked bundle writes into its OUT and records its
        # time limit (the fake timeout's first argument is what the call leaves: CALL_S - SECONDS - 30); its files come
        # back in the archive's engine/; under 30 s it is not started
        for call_s, expect in (("200", 170), ("50", None)):
            with tempfile.TemporaryDirectory() as tmp:
                os.makedirs(os.path.join(tmp, ".organic-run", "out"))
                open(os.path.join(tmp, ".organic-run", "out", "DONE"), "w").close()   # the pipeline finished
                g3 = unpacked_bundle(tmp)
                with open(os.path.join(g3, "group-engine-run.sh"), "w") as fh:
                    fh.write('echo "PASS ethanol replica 0, group (k_group_n12)" > "$OUT/group-check.txt"\n')
                bin_dir = os.path.join(tmp, "bin")
                os.makedirs(bin_dir)
                with open(os.path.join(bin_dir, "timeout"), "w") as fh:
                    fh.write('#!/usr/bin/env bash\necho "$1" > "' + os.path.join(tmp, "limit.txt") + '"\nshift\n"$@"\n')
                os.chmod(os.path.join(bin_dir, "timeout"), 0o755)
                r = self.window(tmp, "call3", {"CALL_S": call_s, "CHECK_ENGINE": "1",
                                                "BUNDLE_ROOT": os.path.join(tmp, "bundle"),
                                                "PATH": bin_dir + os.pathsep + os.environ["PATH"]})
                self.assertEqual(0, r.returncode, r.stderr)
                parts = sorted(glob.glob(os.path.join(tmp, "out", "window-call3.tar.gz.*")))
                listing = subprocess.run("cat " + " ".join(parts) + " | tar -tz", shell=True, capture_output=True,
                                         text=True).stdout.split()
                limit = os.path.join(tmp, "limit.txt")
                if expect is None:
                    self.assertFalse(os.path.exists(limit))
                    self.assertIn("too little for the engine check (not started)", r.stdout)
                    self.assertNotIn("./engine/group-check.txt", listing)
                else:   # bash's SECONDS may tick once or twice while the call runs: within 2 s below
                    self.assertIn(int(read(limit)), range(expect - 2, expect + 1))
                    self.assertIn("./engine/group-check.txt", listing)
                    self.assertIn("./engine/group-engine-run.log", listing)

    def test_round_and_engine_refuses_an_unknown_engine(self):
        # variants: the mode that ran scripts/group-variants-run.sh, removed with it (its variants measured)
        for engine in ("grup", "variants"):
            with tempfile.TemporaryDirectory() as tmp:
                r = self.window(tmp, "round-and-engine", {"ENGINE": engine})
                self.assertEqual(2, r.returncode, r.stderr)
                self.assertIn(f"ENGINE='{engine}' is not group, the only engine measurement (nothing started)",
                              r.stderr)


# Stand-ins for round1's TRAIN_PROFILE=1 (tests' bin folder first on PATH): timeout, taskset and python3 record their
# arguments in CALLS and run what follows them; python3 writes the probe's report where --out says (exiting with
# PROBE_RC); the pipeline (device_organic.sh) records the environment it was started with and ends.
FAKE_TIMEOUT = """#!/usr/bin/env bash
echo "timeout $*" >> "$CALLS"
[[ $1 == -k ]] && shift 2
shift
exec "$@"
"""
FAKE_TASKSET = """#!/usr/bin/env bash
echo "taskset $*" >> "$CALLS"
shift 2
exec "$@"
"""
FAKE_PYTHON3 = """#!/usr/bin/env bash
echo "python3 CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES OMP_NUM_THREADS=$OMP_NUM_THREADS $*" >> "$CALLS"
while (( $# )); do [[ $1 == --out ]] && { mkdir -p "$2"; echo "== 256 frames a step: 29.6 ms/step" > "$2/train-step-profile.txt"; }; shift; done
exit "${PROBE_RC:-0}"
"""
FAKE_PIPELINE = """#!/usr/bin/env bash
echo "$BATCH" > "$3/pipeline-batch"
echo "$EVAL_BUDGET_S" > "$3/pipeline-eval-budget"
echo "$1 DATA_CPUS=$DATA_CPUS DATA_WORKERS=$DATA_WORKERS GPU_GATE=${GPU_GATE:-}" > "$3/pipeline-env"
echo "ACTIVE_WITH_DATA=${ACTIVE_WITH_DATA:-} ACTIVE_GPUS=${ACTIVE_GPUS:-}" > "$3/pipeline-active"
printf '%s\n' "ARM_GPUS=${ARM_GPUS:-}" "TRAIN_CPUS=${TRAIN_CPUS:-}" "LR=${LR:-}" "BATCH=${BATCH:-}" "DATA_OPTS=${DATA_OPTS:-}" \
  "SYSTEM_WEIGHTS=${SYSTEM_WEIGHTS:-}" "INIT=${INIT:-}" "ACTIVE_ROUND=${ACTIVE_ROUND:-}" "DEADLINE=$4" \
  "SOUP_ALPHA=${SOUP_ALPHA:-}" > "$3/pipeline-arms"
"""


class Round1TrainProfileTest(unittest.TestCase):
    """round1 with TRAIN_PROFILE=1 runs the training-step probe on the idle GPU while the data are labelled: on one core
    (PROFILE_CPU) the data leave alone, cut at PROFILE_S, its files where pack returns them, the training gated until
    it ends (and not delayed by its failure); without TRAIN_PROFILE the round is as before."""

    def round1(self, tmp, env, phase="round1", expect_pipeline=True, kernels=True):
        if kernels:   # the checkout's CUDA kernels, which call3's stability survey needs (check_kernels)
            fatbin = os.path.join(tmp, "platform-cuda", "src", "main", "resources", "org", "molten", "forcefield",
                                  "cuda", "molten_kernels.fatbin")
            os.makedirs(os.path.dirname(fatbin))
            open(fatbin, "w").close()
        if phase == "round-and-engine":
            # the carried bundle (a stand-in engine script that records its call) and v1-v5's data (one empty file)
            g3 = os.path.join(tmp, "b", "g3")
            os.makedirs(g3)
            with open(os.path.join(g3, "group-engine-run.sh"), "w") as fh:
                fh.write('sleep "${ENGINE_SLEEP:-0}"; echo "engine CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-} $*" >> "$CALLS"\n')
            os.makedirs(os.path.join(tmp, ".device"))
            subprocess.run(["tar", "-C", os.path.join(tmp, "b"), "-cJf", os.path.join(tmp, ".device", "g3.tar.xz"), "g3"],
                           check=True)
            os.makedirs(os.path.join(tmp, "v5"))
            open(os.path.join(tmp, "v5", "water.train.xyz"), "w").close()
            subprocess.run(["tar", "-C", os.path.join(tmp, "v5"), "-cJf", os.path.join(tmp, ".device", "data.tar.xz"),
                            "."], check=True)
            env = dict(env, BUNDLE_ROOT=os.path.join(tmp, "unpacked"))
        os.makedirs(os.path.join(tmp, "scripts"))
        subprocess.run(["cp", os.path.join(HERE, "device-window-h200.sh"), os.path.join(tmp, "scripts")], check=True)
        os.makedirs(os.path.join(tmp, "forcefield", "training", "data"))
        # the real checks of ACTIVE_WITH_DATA=1 that the window sources (the pipeline itself is FAKE_PIPELINE)
        subprocess.run(["cp", os.path.join(HERE, "..", "forcefield", "training", "active_settings.sh"),
                        os.path.join(tmp, "forcefield", "training")], check=True)
        os.makedirs(os.path.join(tmp, ".model-payload"))
        open(os.path.join(tmp, ".model-payload", "xtblib.tar.xz"), "w").close()
        bin_dir = os.path.join(tmp, "bin")
        os.makedirs(bin_dir)
        for path, body in ((os.path.join(bin_dir, "timeout"), FAKE_TIMEOUT), (os.path.join(bin_dir, "taskset"), FAKE_TASKSET),
                           (os.path.join(bin_dir, "python3"), FAKE_PYTHON3),
                           (os.path.join(bin_dir, "nvidia-smi"), "#!/usr/bin/env bash\nfor g in 0 1; do "
                            "echo \"GPU $g: NVIDIA H200 (UUID: GPU-$g)\"; done\n"),   # as on nvidia-h200-x2
                           (os.path.join(tmp, "forcefield", "training", "device_organic.sh"), FAKE_PIPELINE)):
            with open(path, "w") as fh:
                fh.write(body)
            os.chmod(path, 0o755)
        calls = os.path.join(tmp, "calls.log")
        open(calls, "w").close()
        e = dict(os.environ, OUT=os.path.join(tmp, "out"), CALL_S="0", CALLS=calls,
                 PATH=bin_dir + os.pathsep + os.environ["PATH"])
        e.update(env)   # a test may give CALL_S (the window then waits for the pipeline's DONE)
        for k in ("DATA_CPUS", "DATA_WORKERS", "TRAIN_GPUS", "PROFILE_CPU", "PROFILE_S", "BATCH", "EVAL_BUDGET_S",
                  "TRAIN_PROFILE", "ENGINE_GPU", "GPU_GATE", "ACTIVE_WITH_DATA", "ACTIVE_GPUS", "ACTIVE_MD_S",
                  "ARM_GPUS", "TRAIN_CPUS", "LR", "DATA_OPTS", "EXTRA_WEIGHTS", "INIT", "ACTIVE_ROUND", "SOUP_ALPHA"):
            if k not in env:
                e.pop(k, None)
        r = subprocess.run(["bash", "scripts/device-window-h200.sh", phase], cwd=tmp, env=e, capture_output=True,
                           text=True, timeout=30)
        pipeline = os.path.join(tmp, ".organic-run", "out", "pipeline-env")
        if not expect_pipeline:
            return r, read(calls).splitlines(), None
        for _ in range(50):   # the pipeline is detached (setsid): its record may come a moment after round1 ends
            if os.path.exists(pipeline) and read(pipeline).endswith("\n"):
                break
            time.sleep(0.1)
        return r, read(calls).splitlines(), read(pipeline).strip()

    def archive(self, tmp, phase="round1"):
        parts = sorted(glob.glob(os.path.join(tmp, "out", f"window-{phase}.tar.gz.*")))
        self.assertTrue(parts, "pack left no archive")
        listing = subprocess.run("cat " + " ".join(parts) + " | tar -tz", shell=True, capture_output=True, text=True)
        return listing.stdout.split()

    def test_a_pipeline_that_ends_without_done_ends_the_call_with_its_log(self):
        # start_pipeline records the detached pipeline's PID; the stand-in pipeline records its settings and ends
        # without DONE (as a refused or crashed one does), and round1, given a CALL_S to wait in, stops waiting once
        # the process is gone (at its next check, 10 s), packs and exits 3 instead of waiting out CALL_S
        with tempfile.TemporaryDirectory() as tmp:
            r, _, pipeline = self.round1(tmp, {"CALL_S": "400"})
            self.assertTrue(pipeline.startswith("multi "), pipeline)
            pid = read(os.path.join(tmp, ".organic-run", "pipeline.pid")).strip()
            self.assertRegex(pid, r"^[0-9]+$")
            self.assertEqual(3, r.returncode, r.stderr)
            self.assertIn(f"round1: the pipeline (PID {pid}) ended without DONE", r.stderr)
            self.assertTrue(self.archive(tmp))

    def test_the_probe_runs_on_its_core_cut_at_its_time_its_files_packed_and_gates_the_training(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, pipeline = self.round1(tmp, {"TRAIN_PROFILE": "1"})
            self.assertEqual(0, r.returncode, r.stderr)
            self.assertEqual(["timeout -k 10 240 taskset -c 15 python3 scripts/probes/train_step_profile.py --device cuda "
                              "--out .organic-run/out/train-profile --budget-s 210",
                              "taskset -c 15 python3 scripts/probes/train_step_profile.py --device cuda "
                              "--out .organic-run/out/train-profile --budget-s 210",
                              "python3 CUDA_VISIBLE_DEVICES=0 OMP_NUM_THREADS=1 scripts/probes/train_step_profile.py "
                              "--device cuda --out .organic-run/out/train-profile --budget-s 210"], calls)
            # the data leave core 15 to the probe; the training waits for the gate the probe's end opened
            self.assertEqual("multi DATA_CPUS=0-14 DATA_WORKERS=15 GPU_GATE=" + os.path.join(tmp, ".organic-run", "GPU_FREE"),
                             pipeline)
            self.assertTrue(os.path.exists(os.path.join(tmp, ".organic-run", "GPU_FREE")))
            self.assertIn("./organic/train-profile/train-step-profile.txt", self.archive(tmp))
            self.assertIn("./organic/train-profile/probe.log", self.archive(tmp))
            self.assertIn("256 frames a step: 29.6 ms/step", r.stdout)

    def test_its_core_time_and_gpu_are_settings_and_the_data_keep_theirs(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, pipeline = self.round1(tmp, {"TRAIN_PROFILE": "1", "PROFILE_CPU": "31", "PROFILE_S": "100",
                                                   "DATA_CPUS": "0-30", "TRAIN_GPUS": "1,0"})
            self.assertEqual(0, r.returncode, r.stderr)
            self.assertEqual(3, len(calls), calls)
            self.assertTrue(calls[0].startswith("timeout -k 10 100 taskset -c 31 python3 "), calls[0])
            self.assertTrue(calls[2].startswith("python3 CUDA_VISIBLE_DEVICES=1 "), calls[2])
            self.assertTrue(calls[2].endswith("--budget-s 70"), calls[2])
            self.assertTrue(pipeline.startswith("multi DATA_CPUS=0-30 DATA_WORKERS=15 GPU_GATE="), pipeline)

    def test_a_failed_probe_leaves_the_round_going(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, pipeline = self.round1(tmp, {"TRAIN_PROFILE": "1", "PROBE_RC": "3"})
            self.assertEqual(0, r.returncode, r.stderr)
            self.assertIn("round1: the training-step probe ended with 3 (the round goes on)", r.stdout)
            self.assertTrue(os.path.exists(os.path.join(tmp, ".organic-run", "GPU_FREE")))
            self.assertTrue(pipeline.startswith("multi "), pipeline)
            self.assertTrue(self.archive(tmp))

    def test_round_and_engine_runs_the_probe_after_the_engine_in_what_is_left_of_measure_s(self):
        # the engine's figures first, then the probe on the last of PROBE_CPUS, cut at PROFILE_S or what is left of
        # MEASURE_S; with too little left it is not started; either way the gate opens and the call packs
        for measure_s, budget in (("420", "240"), ("200", "190"), ("60", None)):
            with tempfile.TemporaryDirectory() as tmp:
                r, calls, pipeline = self.round1(tmp, {"TRAIN_PROFILE": "1", "MEASURE_S": measure_s,
                                                       "TRAIN_GPUS": "0"}, phase="round-and-engine")
                self.assertEqual(0, r.returncode, r.stderr)
                probe = [c for c in calls if c.startswith("timeout -k 10 ")]
                if budget is None:
                    self.assertEqual([], probe, calls)
                    self.assertIn("too little for the training-step probe (not started)", r.stdout)
                else:
                    self.assertTrue(calls.index(probe[0]) > min(i for i, c in enumerate(calls) if c.startswith("engine")),
                                    calls)
                    # bash's SECONDS may tick once or twice while the call runs: the budget within 2 s below
                    m = re.fullmatch(r"timeout -k 10 (\d+) taskset -c 15 python3 scripts/probes/train_step_profile.py "
                                     r"--device cuda --out \.organic-run/out/train-profile --budget-s (\d+)", probe[0])
                    self.assertTrue(m, probe[0])
                    self.assertIn(int(m.group(1)), range(int(budget) - 2, int(budget) + 1), probe[0])
                    self.assertEqual(int(m.group(1)) - 30, int(m.group(2)), probe[0])
                    self.assertIn("./organic/train-profile/train-step-profile.txt", self.archive(tmp, "round-and-engine"))
                self.assertTrue(os.path.exists(os.path.join(tmp, ".organic-run", "GPU_FREE")))
                self.assertTrue(pipeline.startswith("multi DATA_CPUS=0-12 DATA_WORKERS=13 GPU_GATE="), pipeline)

    def test_engine_gpu_measures_there_while_the_probe_runs_beside_it_on_the_first_train_gpu(self):
        # on nvidia-h200-x2: the engine on ENGINE_GPU, the probe started first (not after the engine) on the first
        # TRAIN_GPUS GPU and PROFILE_CPU with all of PROFILE_S, the gate opened once both ended
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, pipeline = self.round1(tmp, {"TRAIN_PROFILE": "1", "MEASURE_S": "300", "TRAIN_GPUS": "0,1",
                                                   "ENGINE_GPU": "1", "PROFILE_CPU": "31", "PROBE_CPUS": "28-30",
                                                   "DATA_CPUS": "0-27", "DATA_WORKERS": "28", "ENGINE_SLEEP": "2"},
                                    phase="round-and-engine")
            self.assertEqual(0, r.returncode, r.stderr)
            engine = [c for c in calls if c.startswith("engine")]
            # the probe ran while the (2 s) engine did: its python3 call is on record before the engine's end
            self.assertLess(calls.index(next(c for c in calls if c.startswith("python3 "))), calls.index(engine[0]), calls)
            self.assertEqual(["engine CUDA_VISIBLE_DEVICES=1 "], engine, calls)
            probe = [c for c in calls if c.startswith("timeout -k 10 ")]
            self.assertEqual(1, len(probe), calls)
            m = re.fullmatch(r"timeout -k 10 (\d+) taskset -c 31 python3 scripts/probes/train_step_profile.py "
                             r"--device cuda --out \.organic-run/out/train-profile --budget-s (\d+)", probe[0])
            self.assertTrue(m, probe[0])
            self.assertIn(int(m.group(1)), range(238, 241), probe[0])   # PROFILE_S, not what the engine left
            self.assertIn("python3 CUDA_VISIBLE_DEVICES=0 OMP_NUM_THREADS=1 scripts/probes/train_step_profile.py "
                          "--device cuda --out .organic-run/out/train-profile --budget-s " + m.group(2), calls)
            self.assertTrue(any(c.startswith("taskset -c 28-30 bash ") for c in calls), calls)   # PROBE_CPUS
            self.assertTrue(os.path.exists(os.path.join(tmp, ".organic-run", "GPU_FREE")))
            self.assertEqual("multi DATA_CPUS=0-27 DATA_WORKERS=28 GPU_GATE=" + os.path.join(tmp, ".organic-run", "GPU_FREE"),
                             pipeline)
            self.assertIn("./organic/train-profile/train-step-profile.txt", self.archive(tmp, "round-and-engine"))

    def test_the_engine_then_pytorchs_baseline_beside_it_on_the_engine_gpu(self):
        # ENGINE=group (the default, said explicitly): the bundle's group-engine-run.sh, then torch_replica_bench.py
        # for 1,024 ethanols and 256 alanine dipeptides, all on ENGINE_GPU (figures of issue 29 stand only with the
        # baseline rerun beside them)
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, _ = self.round1(tmp, {"ENGINE": "group", "ENGINE_GPU": "1", "TRAIN_GPUS": "0,1",
                                            "MEASURE_S": "330"}, phase="round-and-engine")
            self.assertEqual(0, r.returncode, r.stderr)
            engine = [c for c in calls if c.startswith("engine ")]
            self.assertEqual(["engine CUDA_VISIBLE_DEVICES=1 "], engine, calls)
            torch_runs = [c for c in calls if c.startswith("python3 ") and "torch_replica_bench.py" in c]
            self.assertEqual(2, len(torch_runs), calls)
            self.assertTrue(all(c.startswith("python3 CUDA_VISIBLE_DEVICES=1 ") for c in torch_runs), torch_runs)
            self.assertTrue(torch_runs[0].split()[-4].endswith("student-gfn2.safetensors"), torch_runs[0])
            self.assertEqual([("ethanol.xyz", "1024"), ("alanine-dipeptide.xyz", "256")],
                             [(os.path.basename(c.split()[-3]), c.split()[-2]) for c in torch_runs])
            self.assertGreater(calls.index(torch_runs[0]), calls.index(engine[0]))
            # the checkout's baseline, not the bundle's copy (a bundle of another branch may carry an older one)
            self.assertTrue(all(" scripts/torch_replica_bench.py " in c for c in torch_runs), torch_runs)

    def test_an_engine_gpu_that_is_the_probes_or_not_the_machines_is_refused_before_anything_starts(self):
        for engine_gpu, what in (("0", "not the probe's"), ("2", "not one of this machine's 2"), ("1,0", "must be one GPU")):
            with tempfile.TemporaryDirectory() as tmp:
                r, calls, _ = self.round1(tmp, {"TRAIN_PROFILE": "1", "TRAIN_GPUS": "0,1", "ENGINE_GPU": engine_gpu},
                                          phase="round-and-engine", expect_pipeline=False)
                self.assertEqual(2, r.returncode, r.stdout)
                self.assertIn(what, r.stderr)
                self.assertIn("(nothing started)", r.stderr)
                self.assertEqual([], calls)
                self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "out", "pipeline-env")))

    def test_batch_reaches_the_training_and_the_test_frames_come_back(self):
        # BATCH (frames a step) passes through to device_organic.sh, 256 unless given; the test frames the data made
        # are packed, so that a new development machine compares rounds without labelling them again
        for env, batch in (({}, "256"), ({"BATCH": "512"}, "512")):
            with tempfile.TemporaryDirectory() as tmp:
                os.makedirs(os.path.join(tmp, ".organic-run", "data"))
                open(os.path.join(tmp, ".organic-run", "data", "organic-test.npz"), "w").close()
                r, calls, pipeline = self.round1(tmp, env)
                self.assertEqual(0, r.returncode, r.stderr)
                self.assertEqual(batch, read(os.path.join(tmp, ".organic-run", "out", "pipeline-batch")).strip())
                self.assertIn("./organic/organic-test.npz", self.archive(tmp))

    def test_the_pipeline_runs_no_pytorch_stability_loop_unless_asked(self):
        # call3's molten stability is the protocol's figure: EVAL_BUDGET_S 0 by default, a given value passes through
        for env, want in (({}, "0"), ({"EVAL_BUDGET_S": "90"}, "90")):
            with tempfile.TemporaryDirectory() as tmp:
                r, _, _ = self.round1(tmp, env)
                self.assertEqual(0, r.returncode, r.stderr)
                self.assertEqual(want, read(os.path.join(tmp, ".organic-run", "out", "pipeline-eval-budget")).strip())

    def test_a_setting_that_is_not_a_whole_number_is_refused_before_anything_starts(self):
        for env, message in (({"BATCH": "5l2"}, "BATCH='5l2': expected a whole number of frames a step, at least 1"),
                             ({"BATCH": "0"}, "BATCH='0': expected a whole number of frames a step, at least 1"),
                             ({"TRAIN_PROFILE": "1", "PROFILE_S": "4m"}, "PROFILE_S='4m': expected a whole number of "
                                                                         "seconds"),
                             ({"EVAL_BUDGET_S": "2m"}, "EVAL_BUDGET_S='2m': expected a whole number of seconds"),
                             ({"TRAIN_MIN_S": "4.5"}, "TRAIN_MIN_S='4.5': expected a whole number of seconds")):
            with tempfile.TemporaryDirectory() as tmp:
                r, calls, _ = self.round1(tmp, env, expect_pipeline=False)
                self.assertEqual(2, r.returncode, r.stderr)
                self.assertIn("round1: " + message + " (nothing started)", r.stderr)
                self.assertEqual([], calls)
                self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "out", "pipeline-env")))

    # ACTIVE_WITH_DATA=1: the pipeline runs detached, so settings it would refuse (ACTIVE_GPUS on a GPU the
    # measurements hold, a numeric ACTIVE_* setting not a whole number) are refused by the window itself, before the
    # bundle is unpacked, the engine or probe started or the pipeline launched; else the pipeline gets them
    def test_active_gpus_the_measurements_hold_or_not_whole_seconds_are_refused_before_anything_starts(self):
        for phase, env, message in (
                ("round-and-engine", {"ENGINE_GPU": "1", "TRAIN_GPUS": "0,1", "ACTIVE_GPUS": "0,1"},
                 "ACTIVE_GPUS='0,1' and ENGINE_GPU='1' both name GPU 1"),
                ("round1", {"TRAIN_PROFILE": "1", "TRAIN_GPUS": "0,1"},   # ACTIVE_GPUS: TRAIN_GPUS's
                 "ACTIVE_GPUS='0,1' and TRAIN_PROFILE=1 (the probe on the first of TRAIN_GPUS='0,1') both name GPU 0"),
                ("round1", {"ACTIVE_MD_S": "3m"}, "ACTIVE_MD_S='3m': expected a whole number")):
            with tempfile.TemporaryDirectory() as tmp:
                r, calls, _ = self.round1(tmp, dict(env, ACTIVE_WITH_DATA="1"), phase=phase, expect_pipeline=False)
                self.assertEqual(2, r.returncode, r.stdout + r.stderr)
                self.assertIn(f"{phase}: {message}", r.stderr)
                self.assertIn("(nothing started)", r.stderr)
                self.assertEqual([], calls)   # no engine, no probe
                self.assertFalse(os.path.exists(os.path.join(tmp, "unpacked")))   # the bundle left packed
                self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "pipeline.log")))
                self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "out", "pipeline-env")))

    def test_active_gpus_the_measurements_leave_reach_the_pipeline(self):
        for phase, env in (("round1", {"TRAIN_GPUS": "0,1"}),   # no probe: nothing held
                           ("round-and-engine", {"ENGINE_GPU": "1", "TRAIN_GPUS": "0,1", "MEASURE_S": "60"})):
            gpus = "0,1" if phase == "round1" else "0"
            with tempfile.TemporaryDirectory() as tmp:
                r, calls, pipeline = self.round1(tmp, dict(env, ACTIVE_WITH_DATA="1", ACTIVE_GPUS=gpus), phase=phase)
                self.assertEqual(0, r.returncode, r.stderr)
                self.assertTrue(pipeline.startswith("multi "), pipeline)
                self.assertEqual(f"ACTIVE_WITH_DATA=1 ACTIVE_GPUS={gpus}",
                                 read(os.path.join(tmp, ".organic-run", "out", "pipeline-active")).strip())
                if phase == "round-and-engine":
                    self.assertIn("engine CUDA_VISIBLE_DEVICES=1 ", calls)

    def assert_refused(self, phase, env, message):
        """PHASE started with ENV exits 2 with MESSAGE, "(nothing started)" and no pipeline begun."""
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, _ = self.round1(tmp, env, phase=phase, expect_pipeline=False)
            self.assertEqual(2, r.returncode, r.stdout + r.stderr)
            self.assertIn(message, r.stderr)
            self.assertIn("(nothing started)", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "pipeline.log")), env)
            self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "out", "pipeline-env")))

    def assert_arms_pass_through(self, tmp, phase, env, expect, weights_tail):
        """PHASE (widths or depths) started with ENV reaches the pipeline with the data cores, the active round, the
        arms' settings EXPECT (ARM_GPUS, TRAIN_CPUS, LR, BATCH, DATA_OPTS, ACTIVE_ROUND, DEADLINE) and the system
        weights, v1-v5's first and ending in WEIGHTS_TAIL, and packs its archive."""
        r, calls, pipeline = self.round1(tmp, env, phase=phase)
        self.assertEqual(0, r.returncode, r.stderr)
        self.assertEqual(f"{phase} DATA_CPUS=0-27 DATA_WORKERS=28 GPU_GATE=", pipeline)
        self.assertEqual("ACTIVE_WITH_DATA=1 ACTIVE_GPUS=0,1",
                         read(os.path.join(tmp, ".organic-run", "out", "pipeline-active")).strip())
        arms = dict(x.split("=", 1) for x in read(os.path.join(tmp, ".organic-run", "out", "pipeline-arms")).splitlines())
        self.assertEqual(expect, (arms["ARM_GPUS"], arms["TRAIN_CPUS"], arms["LR"], arms["BATCH"], arms["DATA_OPTS"],
                                  arms["ACTIVE_ROUND"], arms["DEADLINE"]))
        self.assertTrue(arms["SYSTEM_WEIGHTS"].startswith("--system-weight water=2 "), arms)
        self.assertTrue(arms["SYSTEM_WEIGHTS"].endswith(weights_tail), arms)
        self.assertTrue(self.archive(tmp, phase))   # packed (the detached pipeline's files may come later)

    # widths (issue 27's capacity question, F = 128 against F = 256): the settings as round1's pass through to the
    # pipeline with ARM_GPUS and TRAIN_CPUS; ARM_GPUS that the pipeline would refuse are refused here, before it starts
    def test_widths_passes_the_round_settings_and_arm_gpus_through(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = {"ARM_GPUS": "0,1", "TRAIN_CPUS": "0-31", "BATCH": "512", "DATA_CPUS": "0-27", "DATA_WORKERS": "28",
                   "DATA_OPTS": "--small --conjugated --rare", "ACTIVE_WITH_DATA": "1", "ACTIVE_GPUS": "0,1",
                   "ACTIVE_ROUND": "12", "EXTRA_WEIGHTS": "--system-weight organic-rare=2", "DEADLINE_S": "1430"}
            self.assert_arms_pass_through(tmp, "widths", env,
                                          ("0,1", "0-31", "3e-4", "512", "--small --conjugated --rare", "12", "1430"),
                                          " --system-weight organic-small=3 --system-weight organic-rare=2")

    def test_widths_refuses_a_wrong_arm_gpus_before_anything_starts(self):
        # the stand-in nvidia-smi lists two GPUs, as on nvidia-h200-x2
        for env, message in (({"ARM_GPUS": "0,2"}, "widths: ARM_GPUS='0,2' names GPU '2', not one of this machine's 2"),
                             ({"ARM_GPUS": "1,1"}, "widths: ARM_GPUS='1,1' names GPU 1 twice"),
                             ({"ARM_GPUS": "0;1"}, "widths: ARM_GPUS='0;1': expected two GPU indices"),
                             ({"ARM_GPUS": "0,1", "INIT": ".model-payload/none.npz"},
                              "widths: .model-payload/none.npz was not carried"),
                             ({"ARM_GPUS": "0,1", "ACTIVE_WITH_DATA": "1", "ACTIVE_MD_S": "3m"},
                              "widths: ACTIVE_MD_S='3m': expected a whole number")):
            self.assert_refused("widths", env, message)

    # depths (issue 27's depth question, T = 3 against T = 4 on two GPUs): started as widths with ARM_GPUS, the settings
    # passing through to the pipeline's depths phase; without ARM_GPUS (depths has no one-GPU mode) or with a wrong one
    # refused before anything starts
    def test_depths_passes_the_round_settings_and_arm_gpus_through(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = {"ARM_GPUS": "0,1", "TRAIN_CPUS": "0-31", "BATCH": "512", "DATA_CPUS": "0-27", "DATA_WORKERS": "28",
                   "DATA_OPTS": "--small --conjugated --rare --motifs --coverage --rings --coverage2",
                   "ACTIVE_WITH_DATA": "1", "ACTIVE_GPUS": "0,1", "ACTIVE_ROUND": "17",
                   "EXTRA_WEIGHTS": "--system-weight organic-coverage2=2", "DEADLINE_S": "1430"}
            self.assert_arms_pass_through(tmp, "depths", env,
                                          ("0,1", "0-31", "3e-4", "512", env["DATA_OPTS"], "17", "1430"),
                                          " --system-weight organic-small=3 --system-weight organic-coverage2=2")

    def test_depths_refuses_without_arm_gpus_before_anything_starts(self):
        for env, message in (({}, "depths: ARM_GPUS is not set: depths trains its two arms each alone on a GPU of its "
                                  "own; give two GPU indices, the T = 3 arm's and the T = 4 arm's"),
                             ({"ARM_GPUS": "0,2"}, "depths: ARM_GPUS='0,2' names GPU '2', not one of this machine's 2"),
                             ({"ARM_GPUS": "0"}, "depths: ARM_GPUS='0': expected two GPU indices"),
                             ({"ARM_GPUS": "0,1", "INIT": ".model-payload/none.npz"},
                              "depths: .model-payload/none.npz was not carried")):
            self.assert_refused("depths", env, message)

    # the round's INIT is recorded for call2's survey of it (test_call2_surveys_the_init_call1_started_from_...), and a
    # round without one leaves no stale record of an earlier round's
    def test_the_pipeline_start_records_its_init_for_call2(self):
        for init in ("init/candidate.safetensors", None):
            with tempfile.TemporaryDirectory() as tmp:
                stale = os.path.join(tmp, ".organic-run", "init-path")
                os.makedirs(os.path.dirname(stale))
                with open(stale, "w") as fh:
                    fh.write("init/earlier.safetensors\n")
                env = {"TRAIN_GPUS": "0,1"}
                if init:
                    os.makedirs(os.path.join(tmp, "init"))
                    open(os.path.join(tmp, init), "w").close()
                    env["INIT"] = init
                r, _, pipeline = self.round1(tmp, env)
                self.assertEqual(0, r.returncode, r.stderr)
                if init:
                    self.assertEqual(init, read(stale).strip())
                else:
                    self.assertFalse(os.path.exists(stale))

    # call3's stability survey needs the CUDA kernels (2026-11-30's depths window lost both its surveys to the CPU: a
    # sparse checkout without the fatbin, a bundle built without it): without the checkout's fatbin, the window starts
    # only where the carried bundle's platform-cuda jar holds one, or with NO_SURVEY=1
    def test_a_window_whose_survey_would_find_no_kernels_is_refused_before_anything_starts(self):
        def bundle_with(tmp, fatbin):
            lib = os.path.join(tmp, "bb", "g3", "lib")
            os.makedirs(lib)
            with zipfile.ZipFile(os.path.join(lib, "platform-cuda-1.0-SNAPSHOT.jar"), "w") as z:
                z.writestr("org/molten/forcefield/cuda/CudaPlatform.class", b"")
                if fatbin:
                    z.writestr("org/molten/forcefield/cuda/molten_kernels.fatbin", b"\0")
            os.makedirs(os.path.join(tmp, ".device"))
            subprocess.run(["tar", "-C", os.path.join(tmp, "bb"), "-cJf", os.path.join(tmp, ".device", "g3.tar.xz"),
                            "g3"], check=True)
        env = {"ARM_GPUS": "0,1"}
        for bundled, extra, started in ((None, {}, False), (False, {}, False), (True, {}, True),
                                        (None, {"NO_SURVEY": "1"}, True)):
            with tempfile.TemporaryDirectory() as tmp:
                if bundled is not None:
                    bundle_with(tmp, bundled)
                r, _, pipeline = self.round1(tmp, dict(env, **extra), phase="depths", expect_pipeline=started,
                                             kernels=False)
                if started:
                    self.assertEqual(0, r.returncode, r.stderr)
                    self.assertTrue(pipeline.startswith("depths "), pipeline)
                else:
                    self.assertEqual(2, r.returncode, r.stdout + r.stderr)
                    self.assertIn("depths: no CUDA kernels for call3's stability survey: the checkout has no "
                                  "platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin",
                                  r.stderr)
                    self.assertIn("(carried: %s)" % ("no" if bundled is None else "yes"), r.stderr)
                    self.assertIn("(nothing started)", r.stderr)
                    self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "pipeline.log")))

    # SOUP_ALPHA (the pipeline's average of INIT and its run): a value the pipeline would refuse (not a number strictly
    # between 0 and 1) is refused here, before anything starts; a good one reaches the pipeline, none by default
    def test_soup_alpha_reaches_the_pipeline_or_is_refused_before_anything_starts(self):
        for phase in ("round1", "round-and-engine"):
            for alpha in ("1", "0", "1.5", "0,5", "half"):
                with tempfile.TemporaryDirectory() as tmp:
                    r, calls, _ = self.round1(tmp, {"SOUP_ALPHA": alpha, "MEASURE_S": "60"}, phase=phase,
                                              expect_pipeline=False)
                    self.assertEqual(2, r.returncode, r.stdout + r.stderr)
                    self.assertIn(f"{phase}: SOUP_ALPHA='{alpha}': expected a number between 0 and 1 (exclusive)",
                                  r.stderr)
                    self.assertIn("(nothing started)", r.stderr)
                    self.assertEqual([], calls)
                    self.assertFalse(os.path.exists(os.path.join(tmp, "unpacked")))   # the bundle left packed
                    self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "pipeline.log")))
            for env, want in (({"SOUP_ALPHA": "0.5"}, "0.5"), ({}, "")):
                with tempfile.TemporaryDirectory() as tmp:
                    r, calls, pipeline = self.round1(tmp, dict(env, MEASURE_S="60"), phase=phase)
                    self.assertEqual(0, r.returncode, r.stderr)
                    arms = dict(x.split("=", 1) for x in
                                read(os.path.join(tmp, ".organic-run", "out", "pipeline-arms")).splitlines())
                    self.assertEqual(want, arms["SOUP_ALPHA"])

    def test_without_train_profile_no_probe_and_the_round_as_before(self):
        with tempfile.TemporaryDirectory() as tmp:
            r, calls, pipeline = self.round1(tmp, {})
            self.assertEqual(0, r.returncode, r.stderr)
            self.assertEqual([], calls)
            self.assertEqual("multi DATA_CPUS=0-15 DATA_WORKERS=15 GPU_GATE=", pipeline)
            self.assertFalse(os.path.exists(os.path.join(tmp, ".organic-run", "out", "train-profile")))
            self.assertFalse(any("train-profile" in f for f in self.archive(tmp)))


class OrganicStabilityRunTest(unittest.TestCase):
    """organic-stability-run.sh refuses to start `molten stability --device cuda` where the CUDA kernels are neither in
    the checkout nor in a jar of the bundle: the survey would warn, fall back to the CPU and reach 1-2 of its 100 ps."""

    def test_no_kernels_no_survey_and_kernels_in_a_jar_or_the_checkout_serve(self):
        fatbin_rel = "platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin"
        for where in (None, "jar", "checkout"):
            with tempfile.TemporaryDirectory() as tmp:
                b, tree = bundle(tmp)
                starts = os.path.join(tree, "forcefield", "training", "organic", "starts.test.xyz.gz")
                os.makedirs(os.path.dirname(starts))
                open(starts, "w").close()
                with zipfile.ZipFile(os.path.join(b, "lib", "platform-cuda-1.0-SNAPSHOT.jar"), "w") as z:
                    z.writestr("org/molten/forcefield/cuda/CudaPlatform.class", b"")
                    if where == "jar":
                        z.writestr("org/molten/forcefield/cuda/molten_kernels.fatbin", b"\0")
                # jars after it whose listing outruns a pipe's buffer (~600 kB, as the real bundle's): a check that
                # stops reading at the first match would break the pipe and, under pipefail, refuse a good bundle
                with zipfile.ZipFile(os.path.join(b, "lib", "xchart-3.8.8.jar"), "w") as z:
                    for k in range(6000):
                        z.writestr(f"org/knowm/xchart/internal/chartpart/render/SomeLongClassName{k:05d}.class", b"")
                if where == "checkout":
                    os.makedirs(os.path.dirname(os.path.join(tree, fatbin_rel)), exist_ok=True)
                    open(os.path.join(tree, fatbin_rel), "w").close()
                script = installed(b, "organic-stability-run.sh")
                r = run(script, tree, {"OUT": os.path.join(tmp, "out"), "BUDGET": "20"})
                args = os.path.join(b, "args.log")   # the stand-in java's record of its calls
                if where is None:
                    self.assertEqual(2, r.returncode, r.stdout + r.stderr)
                    self.assertIn("no CUDA kernels: neither " + os.path.join(tree, fatbin_rel), r.stdout + r.stderr)
                    self.assertIn("the survey would run on the CPU (nothing started)", r.stdout + r.stderr)
                    self.assertFalse(os.path.exists(args))
                else:   # the stand-in java ran the survey (its figures are not this test's)
                    self.assertIn("stability --device cuda", read(args), where)


class ConstraintsFiguresRunTest(unittest.TestCase):

    def test_selected_runs_with_the_prefixed_kernels_and_their_ns_per_day(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            script = installed(b, "constraints-figures-run.sh")
            out = os.path.join(tmp, "out")
            kernels = os.path.join(tmp, "other-kernels")
            os.makedirs(kernels)
            r = run(script, tree, {"OUT": out, "TREE": tree, "RUNS": "ala-2fs-hbonds eth1024-2fs-hbonds",
                                   "CP_PREFIX": kernels, "BUDGET": "60"})
            log = read(os.path.join(out, "constraints-figures.log"))
            # 4,873 steps/s x 2 fs x 86,400 s/day / 1e6 fs/ns; 333,589 replica-steps/s likewise
            self.assertIn("ala-2fs-hbonds: on cuda: 4873 steps/s = 842.05 ns/day (exit 0)", log, r.stderr)
            self.assertIn("eth1024-2fs-hbonds: 1024 replicas on cuda: 333589 replica-steps/s = 57644.2 replica-ns/day",
                          log)
            self.assertEqual(2, len(re.findall(r"^\S+: .*(steps/s|no summary)", log, re.M)), log)
            self.assertNotIn("ala-0.5fs", log)
            calls = read(os.path.join(b, "args.log")).splitlines()
            self.assertEqual(2, len(calls))
            for c in calls:
                self.assertRegex(c, r"-cp " + re.escape(kernels) + ":" + re.escape(b) + r"/lib/\*:")
                self.assertIn("--constraints h-bonds", c)
                self.assertIn("--timestep 2", c)
            self.assertTrue(os.path.isfile(os.path.join(out, "raw.tar.gz")))

    def test_an_unknown_run_or_a_missing_kernel_folder_is_refused_before_any_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            script = installed(b, "constraints-figures-run.sh")
            r = run(script, tree, {"OUT": os.path.join(tmp, "out"), "TREE": tree, "RUNS": "ala-2fs-hbond"})
            self.assertEqual(2, r.returncode)
            self.assertIn("RUNS names 'ala-2fs-hbond', not one of: ala-0.5fs", r.stderr)
            r = run(script, tree, {"OUT": os.path.join(tmp, "out"), "TREE": tree, "CP_PREFIX": os.path.join(tmp, "none")})
            self.assertEqual(2, r.returncode)
            self.assertIn("CP_PREFIX=" + os.path.join(tmp, "none") + " is not a folder", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(b, "args.log")), "nothing may run")

    def test_every_run_without_a_selection(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            script = installed(b, "constraints-figures-run.sh")
            out = os.path.join(tmp, "out")
            run(script, tree, {"OUT": out, "TREE": tree, "BUDGET": "60"})
            log = read(os.path.join(out, "constraints-figures.log"))
            labels = re.findall(r"^([\w.-]+): (?:on |\d+ replicas|no summary)", log, re.M)
            self.assertEqual(["ala-0.5fs", "ala-0.5fs-stages", "ala-2fs-hbonds", "eth1024-0.5fs", "eth1024-2fs-hbonds",
                              "ala-2fs-hbonds-stages"], labels, log)
            for c in read(os.path.join(b, "args.log")).splitlines():
                self.assertRegex(c, r"-cp " + re.escape(b) + r"/lib/\*:")


class ConstraintGroupsCheckRunTest(unittest.TestCase):

    def test_grouped_and_serial_logs_compared_within_rounding(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            out = os.path.join(tmp, "out")
            r = run(os.path.join(HERE, "constraint-groups-check-run.sh"), tree, {"OUT": out, "HERE": b})
            text = read(os.path.join(out, "constraint-groups-check.log"))
            self.assertIn("cluster-grouped: exit 0 4873 steps/s", text, r.stderr)
            self.assertIn("stages-serial: exit 0 4873 steps/s", text)
            for path in ("cluster", "stages"):
                self.assertIn(f"{path}: grouped 3 and serial 3 log lines; |Etot(grouped) - Etot(serial)| first "
                              f"0.00e+00 eV, max over the first 1 ps 1.00e-06 eV, over the run 3.00e-06 eV", text)
            calls = read(os.path.join(b, "args.log")).splitlines()
            self.assertEqual(2, sum("-Dmolten.cuda.serialConstraints=true" in c for c in calls))
            self.assertEqual(2, sum("-Dmolten.cuda.mode=stages" in c for c in calls))


class ClusterConstraintsCheckRunTest(unittest.TestCase):

    def test_cluster_kernel_against_the_stage_path_and_its_drift(self):
        with tempfile.TemporaryDirectory() as tmp:
            b, tree = bundle(tmp)
            out = os.path.join(tmp, "out")
            r = run(installed(b, "cluster-constraints-check-run.sh"), tree, {"OUT": out})
            text = read(os.path.join(out, "cluster-constraints-check.log"))
            for integ in ("verlet", "langevin"):
                self.assertIn(f"{integ}: cluster 3 and stages 3 log lines; |Etot(cluster) - Etot(stages)| first "
                              f"0.00e+00 eV, max over the first 1 ps 0.00e+00 eV, over the run 0.00e+00 eV", text, r.stderr)
            # Etot = -896.5 - 0.01 t: -0.01 eV/ps over 22 atoms
            self.assertIn("NVE (cluster kernel): Etot slope -1.000e-02 eV/ps = -0.4545 meV/atom/ps; span 2.000e-02 eV "
                          "over 2.0 ps", text)
            calls = read(os.path.join(b, "args.log")).splitlines()
            self.assertEqual(2, sum("-Dmolten.cuda.mode=stages" in c for c in calls))


class EnergyLogsTest(unittest.TestCase):

    def log(self, tmp, name, rows):
        p = os.path.join(tmp, name)
        with open(p, "w") as f:
            f.write("# dof\nTime[ps],Etot[eV],Epot[eV],Ekin[eV],T[K]\n")
            for t, e in rows:
                f.write(f"{t:.6f},{e:.8f},0,0,0\n")
        return p

    def test_the_first_ps_by_the_logs_own_times(self):
        import energy_logs
        with tempfile.TemporaryDirectory() as tmp:
            # rows every 0.1 ps: the first ps is 11 rows, not 21 (a 2 fs run reported every 50 steps)
            a = self.log(tmp, "a.log", [(0.1 * k, -1.0) for k in range(31)])
            b = self.log(tmp, "b.log", [(0.1 * k, -1.0 + (2e-6 if k == 15 else 1e-6 if k == 10 else 0.0))
                                        for k in range(31)])
            self.assertEqual("x: a 31 and b 31 log lines; |Etot(a) - Etot(b)| first 0.00e+00 eV, max over the first 1 ps "
                             "1.00e-06 eV, over the run 2.00e-06 eV", energy_logs.compare("x", "a", a, "b", b))
            self.assertEqual("x: missing log", energy_logs.compare("x", "a", a, "b", os.path.join(tmp, "none.log")))


if __name__ == "__main__":
    unittest.main()
