#!/usr/bin/env python3
"""Probe (issue 27): does the small-molecule pool (organic/small.csv) teach the preview its small test molecules?

A CPU-sized version of the next training round, to decide whether that round is worth the device time: the preview
(round 3) fine-tuned on the pool's GFN2-labelled GFN-FF frames (organic_data.run_task, the same sampling and seeds
as organic_data.py --small) together with a seeded sample of the list's training molecules (so that it does not
forget them), against the same fine-tuning on that sample alone (the control). Written: two state.npz files for
organic_eval.py (which measures them on the 144 independent molecules, the same frames as the model card's).

    LIBXTB=.../libxtb.so.6 OMP_NUM_THREADS=1 python3 scripts/probes/small_pool_probe.py --out /tmp/spp \
        --weights PREVIEW.safetensors [--list-molecules 120] [--steps 3000] [--workers 2]

Not a test and not run by CI; its figures are in docs/model-card.md. Units: Å, eV, eV/Å.
"""
import argparse
import json
import multiprocessing as mp
import os
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
TR = os.path.join(HERE, "..", "..", "forcefield", "training")
sys.path.insert(0, TR)
import organic_data  # noqa: E402
from model import PaiNN, spec_state  # noqa: E402
from train import load_weights  # noqa: E402

SPECIES = [1, 6, 7, 8]
TRAIN_TEMPS = [(300, 600), (450, 1000), (300, 800)]   # organic_data.py's


def frames_of(tasks, workers):
    with mp.get_context("fork").Pool(workers) as pool:
        results = pool.map(organic_data.run_task, tasks, chunksize=2)
    out = []
    for t, r in zip(tasks, results):
        out += [(t["numbers"], x.astype(np.float64), f.astype(np.float64), t["name"]) for x, f, _ in r["frames"]]
    return out


def per_molecule_mae(model, frames):
    """Force MAE (eV/Å) of model per molecule over frames (numbers, positions, forces, name)."""
    errs = {}
    for a in range(0, len(frames), 64):
        chunk = frames[a:a + 64]
        z = torch.as_tensor(np.concatenate([c[0] for c in chunk]).astype(np.int64))
        pos = torch.as_tensor(np.concatenate([c[1] for c in chunk]), dtype=torch.float32)
        counts = [len(c[0]) for c in chunk]
        batch = torch.repeat_interleave(torch.arange(len(chunk)), torch.as_tensor(counts))
        _, f = model(z, pos, batch, len(chunk))
        f = f.detach().numpy()
        at = 0
        for c, n in zip(chunk, counts):
            errs.setdefault(c[3], []).append(float(np.abs(f[at:at + n] - c[2]).mean()))
            at += n
    return {k: float(np.mean(v)) for k, v in sorted(errs.items())}


def finetune(weights, frames, steps, seed):
    """The preview fine-tuned on frames (force MSE per atom, Adam 3e-4 -> 1e-5, batches of 32 frames)."""
    model = PaiNN(SPECIES)
    load_weights(model, weights)
    return finetune_model(model, frames, steps, seed)


def finetune_model(model, frames, steps, seed, warmup=0):
    """model fine-tuned in place on frames (force MSE per atom, Adam, batches of 32 frames): lr 3e-4 -> 1e-5
    geometrically, after a linear warm-up over the first warmup steps (0: none)."""
    torch.manual_seed(seed)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-4)
    rng = np.random.default_rng(seed)
    for step in range(steps):
        ids = rng.choice(len(frames), size=32, replace=False)
        z = torch.as_tensor(np.concatenate([frames[k][0] for k in ids]).astype(np.int64))
        pos = torch.as_tensor(np.concatenate([frames[k][1] for k in ids]), dtype=torch.float32)
        f_ref = torch.as_tensor(np.concatenate([frames[k][2] for k in ids]), dtype=torch.float32)
        counts = torch.as_tensor([len(frames[k][0]) for k in ids])
        batch = torch.repeat_interleave(torch.arange(len(ids)), counts)
        _, f = model(z, pos, batch, len(ids), create_graph=True)
        loss = torch.mean((f - f_ref) ** 2)
        opt.zero_grad()
        loss.backward()
        warm = min(1.0, (step + 1) / warmup) if warmup > 0 else 1.0
        for g in opt.param_groups:
            g["lr"] = warm * 3e-4 * (1e-5 / 3e-4) ** (step / steps)
        opt.step()
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--list-molecules", type=int, default=120, help="list training molecules in the replay sample")
    ap.add_argument("--frames", type=int, default=8, help="MD frames per start and temperature")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fit-only", action="store_true",
                    help="no fine-tuning: the weights' force MAE per molecule on the sampled list molecules' frames "
                         "(their own training frames' distribution: underfitting shows here) and on the pool's")
    ap.add_argument("--pool", choices=sorted(organic_data.POOLS), default="small",
                    help="which pool's molecules (organic/starts.POOL.xyz.gz, their seeds as organic_data.py's); "
                         "the report keeps the key 'small' for it")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    org = os.path.join(TR, "organic")
    train_starts = organic_data.read_starts(os.path.join(org, "starts.train.xyz.gz"))
    small_starts = organic_data.read_starts(os.path.join(org, f"starts.{args.pool}.xyz.gz"))
    names = sorted({s.info["name"] for s in train_starts})
    pick = set(np.random.default_rng(29).choice(names, size=args.list_molecules, replace=False).tolist())
    # the list's tasks and seeds exactly as organic_data.py makes them, then only the sampled molecules'
    list_tasks = [t for t in organic_data.tasks_for(train_starts, "train", TRAIN_TEMPS, args.frames, 40, 200, True,
                                                      20261128, 0) if t["name"] in pick]
    small_tasks = organic_data.tasks_for(small_starts, args.pool, TRAIN_TEMPS, args.frames, 40, 200, True, 20261128,
                                         organic_data.POOLS[args.pool])
    replay = frames_of(list_tasks, args.workers)
    small = frames_of(small_tasks, args.workers)
    t_data = time.time() - t0
    print(f"{len(replay)} replay frames of {len(pick)} list molecules, {len(small)} frames of "
          f"{len(small_starts) // 3} small molecules in {t_data:.0f} s", flush=True)
    report = dict(pool=args.pool, replay_frames=len(replay), small_frames=len(small), list_molecules=sorted(pick),
                  data_s=round(t_data, 1), steps=args.steps)
    if args.fit_only:
        model = PaiNN(SPECIES)
        load_weights(model, args.weights)
        for name, frames in (("list", replay), ("small", small)):
            per = per_molecule_mae(model, frames)
            v = np.array(sorted(per.values()))
            report[f"{name}_fit"] = dict(molecules=len(v), median=float(np.median(v)), p95=float(np.percentile(v, 95)),
                                         share_le_0_03=float(np.mean(v <= 0.03)), per_molecule=per)
            print(f"{name}: {len(v)} molecules, force MAE median {np.median(v):.4f}, p95 {np.percentile(v, 95):.4f} eV/Å",
                  flush=True)
        with open(os.path.join(args.out, "fit.json"), "w") as fh:
            json.dump(report, fh, indent=1)
        return
    for name, frames in (("control", replay), ("small", replay + small)):
        t1 = time.time()
        m = finetune(args.weights, frames, args.steps, 5)
        np.savez(os.path.join(args.out, f"state_{name}.npz"),
                 **{k: v.detach().cpu().float().numpy() for k, v in spec_state(m)})
        report[f"{name}_train_s"] = round(time.time() - t1, 1)
        print(f"{name}: {args.steps} steps in {time.time() - t1:.0f} s", flush=True)
    with open(os.path.join(args.out, "small-pool-probe.json"), "w") as fh:
        json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()
