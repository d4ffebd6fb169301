"""Figures of a general student against the issue's targets: accuracy per independent molecule and stability.

1. Accuracy: force MAE (eV/Å) and energy MAE (meV/atom) per molecule and temperature on the independent
   organic test molecules (organic-test.npz of organic_data.py: molecules never trained on), the median
   over molecules and the share of molecules <= 0.05 eV/Å, at 300 K and at 600 K; and per system and
   temperature on the older independent set (testset-independent/: the six molecules of v1-v5).
2. Stability, MLIPAudit's protocol: every test molecule (first conformer) as replicas of one batch,
   Langevin NVT at 300 K (BAOAB, 0.5 fs, friction 0.01 fs^-1) for 100 ps, a frame every 50 fs (N = 2,000
   frames). Score per replica: 1/2 f/N when it explodes at frame f (a non-finite coordinate or force,
   a force above 100 eV/Å or a kinetic temperature above 3,000 K), 1/2 + 1/2 f/N when a hydrogen first
   moves more than 2.5 Å from the atom it was bonded to at the start, 1 when stable to the end.
   The whole batch is one CUDA graph per chunk of steps (student_md.py: edges are every pair within a molecule, fixed:
   exact, since the cutoff function zeroes a pair beyond r_c, and cheap for molecules of <= 42 atoms; never across
   molecules).

    python3 organic_eval.py --weights STATE.npz|W.safetensors --test organic-test.npz --starts starts.test.xyz.gz \
        [--independent testset-independent] [--replicas 2] [--ps 100] [--budget-s 300] --out eval.json
"""
import argparse
import glob
import json
import os
import time

import numpy as np
import torch

import extxyz
from dataset import read_npz
from student_md import StudentLangevin, load_student

DT_FS = 0.5
FRICTION_PER_FS = 0.01
EVERY = 100                 # steps between frames: 50 fs
H_DETACH_A = 2.5
EXPLODE_FORCE = 100.0
EXPLODE_T_K = 3000.0


def load(path, device):
    return load_student(path, device)


def predict(model, frames, device, chunk=256):
    """Student energies (eV) and forces (eV/Å) of frames, in batches."""
    out = []
    for a in range(0, len(frames), chunk):
        fr = frames[a:a + chunk]
        z = torch.as_tensor(np.concatenate([f.numbers for f in fr]), device=device)
        pos = torch.as_tensor(np.concatenate([f.positions for f in fr]), dtype=torch.float32, device=device)
        counts = torch.as_tensor([len(f) for f in fr], device=device)
        batch = torch.repeat_interleave(torch.arange(len(fr), device=device), counts)
        e, f = model(z, pos, batch, len(fr))
        f = f.detach().cpu().numpy().astype(float)
        ptr = np.concatenate([[0], np.cumsum([len(x) for x in fr])])
        out += [(float(e[k]), f[ptr[k]:ptr[k + 1]]) for k in range(len(fr))]
    return out


def group_errors(frames, preds, key):
    """Per group (a molecule at a temperature): force MAE (eV/Å), energy MAE per atom (meV) and the relative energy
    MAE per atom (meV): the energy errors less their mean over the group, i.e. what MD and conformer energies see
    (a constant offset of a molecule's energies moves no atom)."""
    groups = {}
    for fr, (e, f) in zip(frames, preds):
        g = groups.setdefault(key(fr), dict(fa=[], ea=[], de=[]))
        g["fa"].append(np.abs(f - fr.forces).ravel())
        g["ea"].append(abs(e - fr.energy) / len(fr))
        g["de"].append((e - fr.energy) / len(fr))
    return {k: dict(frames=len(v["ea"]), force_mae=float(np.concatenate(v["fa"]).mean()),
                    energy_mae_mev_per_atom=1e3 * float(np.mean(v["ea"])),
                    relative_energy_mae_mev_per_atom=1e3 * float(np.mean(np.abs(np.array(v["de"]) - np.mean(v["de"])))))
            for k, v in groups.items()}


def accuracy(model, test_npz, device):
    d = np.load(test_npz)
    names, mol, temps = d["molecules"], d["molecule"], d["temperature"]
    frames = read_npz(test_npz, "organic")
    for fr, m, t in zip(frames, mol, temps):
        fr.info = {"molecule": str(names[m]), "T": int(t)}
    preds = predict(model, frames, device)
    rows = group_errors(frames, preds, lambda fr: (fr.info["molecule"], fr.info["T"]))
    summary = {}
    for t in sorted({k[1] for k in rows}):
        maes = np.array([v["force_mae"] for k, v in rows.items() if k[1] == t])
        emaes = np.array([v["energy_mae_mev_per_atom"] for k, v in rows.items() if k[1] == t])
        rmaes = np.array([v["relative_energy_mae_mev_per_atom"] for k, v in rows.items() if k[1] == t])
        summary[f"{t}K"] = dict(molecules=len(maes), median_force_mae=float(np.median(maes)),
                                p95_force_mae=float(np.percentile(maes, 95)),
                                share_le_0_05=float(np.mean(maes <= 0.05)), share_le_0_03=float(np.mean(maes <= 0.03)),
                                median_energy_mae_mev_per_atom=float(np.median(emaes)),
                                median_relative_energy_mae_mev_per_atom=float(np.median(rmaes)), worst=float(maes.max()))
    return summary, {f"{k[0]}@{k[1]}K": v for k, v in sorted(rows.items())}


def independent(model, folder, device):
    frames = []
    for p in sorted(glob.glob(os.path.join(folder, "*.xyz.gz"))):
        stem = os.path.basename(p)[:-len(".xyz.gz")]
        system, temp = stem.split("_")[0], stem.split("_")[-1]
        for fr in extxyz.read(p):
            fr.info = {"key": f"{system}@{temp}"}
            frames.append(fr)
    preds = predict(model, frames, device)
    return dict(sorted(group_errors(frames, preds, lambda fr: fr.info["key"]).items()))


def stability(model, starts, replicas, ps, budget_s, device, seed=20261128):
    """MLIPAudit-style stability of every start x replica in one batch; returns per-replica outcomes."""
    reps = [(k, r) for k in range(len(starts)) for r in range(replicas)]
    md = StudentLangevin(model, [(starts[k].numbers, starts[k].positions) for k, _ in reps], [300.0] * len(reps),
                         DT_FS, FRICTION_PER_FS, seed, device)
    sizes, n_s, ptr = md.sizes, md.n_systems, md.ptr
    # H -> bonded partner at the start (covalent radii x 1.2), for the detachment criterion
    from organic_data import bond_graph
    h_atom, h_partner, h_rep = [], [], []
    for s, (k, _) in enumerate(reps):
        g = bond_graph(starts[k].numbers, starts[k].positions)
        for i, j in g:
            for h, o in ((i, j), (j, i)):
                if starts[k].numbers[h] == 1 and starts[k].numbers[o] != 1:
                    h_atom.append(ptr[s] + h); h_partner.append(ptr[s] + o); h_rep.append(s)
    h_atom = torch.as_tensor(h_atom, device=device)
    h_partner = torch.as_tensor(h_partner, device=device)
    h_rep = torch.as_tensor(h_rep, device=device)
    md.prepare(EVERY)
    n_frames = int(round(ps * 1000.0 / (DT_FS * EVERY)))
    exploded = np.full(n_s, -1)
    detached = np.full(n_s, -1)
    t0 = time.time()
    done = 0
    for frame in range(1, n_frames + 1):
        md.advance()
        done = frame
        with torch.no_grad():
            fin = torch.isfinite(md.pos).all(1) & torch.isfinite(md.f_last).all(1)
            fmax = md.f_last.abs().amax(1)
            t_rep = md.kinetic_temperature()
            bad = md.any_per_system((~fin) | (fmax > EXPLODE_FORCE))
            bad |= (t_rep > EXPLODE_T_K) | ~torch.isfinite(t_rep)
            dist = torch.linalg.norm(md.pos.index_select(0, h_atom) - md.pos.index_select(0, h_partner), dim=1)
            far = torch.zeros(n_s, dtype=torch.bool, device=device).index_put_((h_rep,), dist > H_DETACH_A,
                                                                                accumulate=True)
        bad, far = bad.cpu().numpy(), far.cpu().numpy()
        exploded[(exploded < 0) & bad] = frame
        detached[(detached < 0) & far & (exploded < 0)] = frame
        if time.time() - t0 > budget_s:
            break
    wall = time.time() - t0
    outcomes = []
    for s, (k, r) in enumerate(reps):
        if exploded[s] > 0 and (detached[s] < 0 or exploded[s] <= detached[s]):
            score, event = 0.5 * exploded[s] / n_frames, f"explosion at frame {exploded[s]}"
        elif detached[s] > 0:
            score, event = 0.5 + 0.5 * detached[s] / n_frames, f"H detached at frame {detached[s]}"
        else:
            score, event = (1.0 if done == n_frames else float("nan")), "stable"
        outcomes.append(dict(molecule=starts[k].info.get("name"), replica=r, atoms=sizes[s], score=score, event=event))
    return dict(frames_planned=n_frames, frames_done=done, ps_done=done * EVERY * DT_FS / 1000.0,
                wall_s=round(wall, 1), replicas=n_s, atoms=int(ptr[-1]),
                us_per_step=round(1e6 * wall / max(1, done * EVERY), 1), outcomes=outcomes)


def summarise_stability(st):
    """Adds mean_score and per_molecule to a stability() result. A stable replica of a run cut by --budget-s has no
    score (MLIPAudit's score needs the whole run): the mean is over the scored replicas, None where none is scored."""
    scored = [o["score"] for o in st["outcomes"] if not np.isnan(o["score"])]
    st["scored_replicas"] = len(scored)
    st["mean_score"] = float(np.mean(scored)) if scored else None
    per_mol = {}
    for o in st["outcomes"]:
        if not np.isnan(o["score"]):
            per_mol.setdefault(o["molecule"], []).append(o["score"])
    st["per_molecule"] = {k: float(np.mean(v)) for k, v in sorted(per_mol.items())}
    return st


def stability_line(st, ps):
    events = [o["molecule"] + ": " + o["event"] for o in st["outcomes"] if o["event"] != "stable"]
    head = (f"stability: {st['ps_done']:.1f} of {ps} ps, {st['replicas']} replicas / {st['atoms']} atoms, "
            f"{st['us_per_step']} us/step, ")
    if st["mean_score"] is None:
        return head + (f"no score (cut by --budget-s before {ps} ps; no replica exploded or lost a hydrogen); "
                       f"events: {events}")
    cut = ("" if st["scored_replicas"] == st["replicas"]
           else f" over the {st['scored_replicas']} scored replicas (cut by --budget-s)")
    return head + f"mean score {st['mean_score']:.3f}{cut}; events: {events}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True)
    ap.add_argument("--test", help="organic-test.npz")
    ap.add_argument("--starts", help="starts.test.xyz.gz (stability)")
    ap.add_argument("--independent", help="folder of the older independent test set")
    ap.add_argument("--replicas", type=int, default=2)
    ap.add_argument("--ps", type=float, default=100.0)
    ap.add_argument("--budget-s", type=float, default=300.0, help="wall-clock cap of the stability run")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    device = torch.device(args.device)
    torch.backends.cuda.matmul.allow_tf32 = False
    model = load(args.weights, device)
    for p in model.parameters():
        p.requires_grad_(False)
    result = {}
    if args.test:
        summary, rows = accuracy(model, args.test, device)
        result["organic_test"] = dict(summary=summary, molecules=rows)
        print("independent organic molecules:", json.dumps(summary, indent=1), flush=True)
    if args.independent:
        result["independent_six"] = independent(model, args.independent, device)
        for k, v in result["independent_six"].items():
            print(f"  {k:28s} F MAE {v['force_mae']:.4f} eV/Å  E MAE {v['energy_mae_mev_per_atom']:.2f} meV/atom")
    if args.starts:
        starts = [s for s in extxyz.read(args.starts) if int(s.info.get("conformer", 0)) == 0]
        st = stability(model, starts, args.replicas, args.ps, args.budget_s, device)
        summarise_stability(st)
        result["stability"] = st
        print(stability_line(st, args.ps), flush=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
