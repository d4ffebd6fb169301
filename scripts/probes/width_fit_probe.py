#!/usr/bin/env python3
"""Probe (issue 27): is the organic student's fit limited by its width? Round 6 fits its own training molecules no
better than independent ones (small_pool_probe.py --fit-only: list median 0.033 eV/Å, the trained small-pool
molecules 0.044), so the bulk has no generalisation gap and the median target needs a better fit.

Here, on the CPU and at equal steps: the weights at F = 128 and their widened F = 2F copy (widen.py: the same function,
plus seeded symmetry-breaking noise) fine-tuned side by side on the same frames, the small pool's and a sample of the
list's training molecules' (organic_data.run_task, the seeds of organic_data.py, as small_pool_probe.py makes them),
every other frame of each start held out. Reported per model: the force MAE per molecule (median, p95) on the held-out
frames of the trained molecules (the fit), before and after, and on the independent test frames of the small test
molecules (transfer). A wider model that fits the same molecules' held-out frames clearly better at equal steps is the
evidence issue 27 asks for before the width changes; equal steps, not equal time: F = 256 costs 3-5x a step.

    LIBXTB=.../libxtb.so.6 OMP_NUM_THREADS=1 python3 scripts/probes/width_fit_probe.py --weights W --test organic-test.npz \
        --out /tmp/wfp [--steps 1500] [--list-molecules 100]

Not a test and not run by CI. Units: Å, eV, eV/Å.
"""
import argparse, json, os, sys, time
import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import small_pool_probe as spp  # noqa: E402  (frames_of, per_molecule_mae, finetune_model, TR)
from small_pool_probe import organic_data, PaiNN, load_weights, SPECIES, TRAIN_TEMPS  # noqa: E402
import widen as widen_mod  # noqa: E402  (forcefield/training on the path through small_pool_probe)

SMALL_TEST = ["methanimine", "ethylene", "cyanamide", "hydroxylamine", "hydrazine", "formamidine", "methanol",
              "formic_acid", "propyne", "propane", "dimethyl_ether", "ethylamine"]


def test_frames(path, names):
    """The independent test frames (organic-test.npz of organic_data.py: flat z, pos, forces with n_atoms per frame,
    molecule index into molecules, temperature) of the named molecules, as probe frames named NAME@TK."""
    d = np.load(path)
    mols, which, temps, n = d["molecules"], d["molecule"], d["temperature"], d["n_atoms"]
    ptr = np.concatenate([[0], np.cumsum(n)])
    out = []
    for k in range(len(n)):
        name = str(mols[which[k]])
        if name in names:
            a, b = ptr[k], ptr[k + 1]
            out.append((d["z"][a:b], d["pos"][a:b].astype(np.float64), d["forces"][a:b].astype(np.float64),
                        f"{name}@{int(temps[k])}K"))
    return out


def summary(per):
    v = np.array(list(per.values()))
    return dict(molecules=len(v), median=float(np.median(v)), p95=float(np.percentile(v, 95)), per_molecule=per)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True, help="F = 128 weights (state.npz or .safetensors)")
    ap.add_argument("--test", required=True, help="organic-test.npz")
    ap.add_argument("--out", required=True)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--list-molecules", type=int, default=100)
    ap.add_argument("--frames", type=int, default=8, help="MD frames per start and temperature")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2, help="torch threads for the fine-tunings")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    org = os.path.join(spp.TR, "organic")
    train_starts = organic_data.read_starts(os.path.join(org, "starts.train.xyz.gz"))
    small_starts = organic_data.read_starts(os.path.join(org, "starts.small.xyz.gz"))
    names = sorted({s.info["name"] for s in train_starts})
    pick = set(np.random.default_rng(29).choice(names, size=args.list_molecules, replace=False).tolist())
    list_tasks = [t for t in organic_data.tasks_for(train_starts, "train", TRAIN_TEMPS, args.frames, 40, 200, True,
                                                      20261128, 0) if t["name"] in pick]
    small_tasks = organic_data.tasks_for(small_starts, "small", TRAIN_TEMPS, args.frames, 40, 200, True, 20261128,
                                         200000)
    frames = {"list": spp.frames_of(list_tasks, args.workers), "small": spp.frames_of(small_tasks, args.workers)}
    # every other frame of each pool held out: the fit on the trained molecules' own distribution
    train = [fr for v in frames.values() for fr in v[0::2]]
    held = {k: v[1::2] for k, v in frames.items()}
    tests = test_frames(args.test, SMALL_TEST)
    torch.set_num_threads(args.threads)   # after the teacher's frames: OMP_NUM_THREADS=1 keeps libxtb's workers apart
    report = dict(steps=args.steps, train_frames=len(train), held_frames={k: len(v) for k, v in held.items()},
                  test_frames=len(tests), data_s=round(time.time() - t0, 1), models={})
    print(f"{len(train)} training frames, held out {report['held_frames']}, {len(tests)} test frames "
          f"in {report['data_s']} s", flush=True)
    narrow = PaiNN(SPECIES)
    load_weights(narrow, args.weights)
    wide = widen_mod.perturb(widen_mod.widen(narrow), 0.01, 1)
    for label, model in (("F128", narrow), ("F256", wide)):
        r = {}
        for when in ("before", "after"):
            if when == "after":
                t1 = time.time()
                spp.finetune_model(model, train, args.steps, 5, warmup=max(1, args.steps // 10))
                r["train_s"] = round(time.time() - t1, 1)
            for k, v in held.items():
                r[f"{when}_{k}"] = summary(spp.per_molecule_mae(model, v))
            r[f"{when}_test"] = summary(spp.per_molecule_mae(model, tests))
            print(label, when, " ".join(f"{k} {r[f'{when}_{k}']['median']:.4f}/{r[f'{when}_{k}']['p95']:.4f}"
                                        for k in ("list", "small", "test")), r.get("train_s", ""), flush=True)
        report["models"][label] = r
        with open(os.path.join(args.out, "width-fit-probe.json"), "w") as fh:
            json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()
