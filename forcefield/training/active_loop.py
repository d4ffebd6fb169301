#!/usr/bin/env python3
"""Active distillation: the student runs MD where simulations go, the teacher checks what it visited,
the frames it gets wrong are labelled and added, the student is retrained; repeat.

    python3 forcefield/training/active_loop.py --init <weights> --out OUT --rounds 2 --workers 16

One round r (seeds derived from r, so a round reruns identically up to CUDA's atomic adds):
  1. starts (never the test set's): the shipped small molecules; alanine dipeptide at uniformly random
     (φ, ψ) with the first amide cis in a quarter of the starts; Ace-(Ala)5-NMe with every residue near a
     random backbone family (±20°) and the first amide cis in a quarter; water clusters of 2-20
     molecules (random packings) and liquid-density droplets of 24-30 molecules (our stand-in for
     clusters carved from a water box: GFN2-xTB in xtb 6.5.1 has no periodic boundaries). Peptide and
     cluster starts are relaxed with GFN-FF (peptides under their dihedral constraints). Ethanol also starts
     at `--ethanol-starts` random rotamers: the hydroxyl H about C-O and the methyl about C-C turned to
     uniformly random angles (seeded by ACTIVE_SEED and the round, so never the test set's relaxed
     trans/gauche starts of master seed 20261126), relaxed with GFN-FF under both torsions. Rounds 0-1 ran
     before this option and reproduce with `--ethanol-starts 0`.
  2. student MD: Langevin (BAOAB, 0.5 fs, friction 0.01 fs^-1) of every start at 300, 600 and 1000 K,
     all replicas in one batch on the GPU; clusters inside a flat-bottom spherical wall (MD only). A
     replica whose largest force exceeds 40 eV/Å stops (it left the physical region); its last frame is kept.
  3. teacher: every snapshot is labelled with GFN2-xTB (xtb, `--workers` processes); failed, clashing
     or absurd frames are counted and dropped (the filters of generate_data.py).
  4. the on-trajectory error of the current student (force MAE per frame, eV/Å) per system and
     temperature is recorded; frames above `--threshold` go to
     data/<system>.active-r<r>.{train,val}.xyz.gz (90/10).
  5. retrain, warm-started from the current weights (train.py --init), `--train-minutes` per round;
     `--train-minutes 0` skips it (the round only collects and labels; the next round's student is the same).
The loop stops after `--rounds` rounds or when the on-trajectory error fell by less than
`--min-improvement` (relative) from one round to the next. Every round's figures: OUT/rounds.json
(appended, so a later call with --start-round resumes from OUT/round-<r-1>/state.npz).
"""
import argparse
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import conformers  # noqa: E402
import extxyz  # noqa: E402
import generate_data as gd  # noqa: E402
import sampling  # noqa: E402
from model import PaiNN  # noqa: E402
from train import SPECIES, load_weights  # noqa: E402
from units import ACCEL_A_PER_FS2, BOLTZMANN_EV_PER_K, MASSES_AMU  # noqa: E402

ACTIVE_SEED = 20261127
TEMPERATURES = (300, 600, 1000)
DT_FS = 0.5
FRICTION_PER_FS = 0.01
MAX_FORCE_MD = 40.0        # eV/Å: a replica beyond this has left the physical region and stops
WALL_K = 2.0               # eV/Å², flat-bottom wall for clusters (MD only, labels have none)


def seed(*parts):
    """A seed derived from ACTIVE_SEED and a job's name (sampling.derived_seed)."""
    return sampling.derived_seed(ACTIVE_SEED, *parts)


# ---- starts ---------------------------------------------------------------------------------------

def plan_starts(r, mol, counts):
    """Start jobs of round r: dicts(system, tag, numbers, positions, kind, extra)."""
    rng = np.random.default_rng(seed("starts", r))
    jobs = []
    for name in ("water", "ethanol", "benzene"):
        jobs.append(dict(system=name, tag=name, numbers=mol[name].numbers, positions=mol[name].positions, kind="as-is"))
    fams = list(conformers.FAMILIES.values())
    for k in range(counts["dipeptide"]):
        phi, psi = rng.uniform(-180, 180, 2)
        jobs.append(dict(system="alanine-dipeptide", tag=f"ala2-{k}", numbers=mol["alanine-dipeptide"].numbers,
                         positions=mol["alanine-dipeptide"].positions, kind="peptide",
                         phi=[phi], psi=[psi], cis=bool(rng.random() < 0.25)))
    for k in range(counts["ala5"]):
        centres = [fams[i] for i in rng.integers(len(fams), size=5)]
        jobs.append(dict(system="ace-ala5-nme", tag=f"ala5-{k}", numbers=mol["ace-ala5-nme"].numbers,
                         positions=mol["ace-ala5-nme"].positions, kind="peptide",
                         phi=[c[0] + rng.normal(0, 20) for c in centres], psi=[c[1] + rng.normal(0, 20) for c in centres],
                         cis=bool(rng.random() < 0.25)))
    for k in range(counts["clusters"]):
        n = int(rng.integers(2, 21))
        numbers, pos = sampling.water_cluster(mol["water"], n, rng)
        jobs.append(dict(system="water-clusters", tag=f"w{n}-{k}", numbers=numbers, positions=pos, kind="cluster"))
    for k in range(counts["droplets"]):
        n = int(rng.integers(24, 31))
        numbers, pos = sampling.water_cluster(mol["water"], n, rng, loosen=1.05)
        jobs.append(dict(system="water-clusters", tag=f"drop{n}-{k}", numbers=numbers, positions=pos, kind="cluster"))
    # own generator, appended last: with 0 ethanol starts the other jobs are those of rounds 0-1
    rng_eth = np.random.default_rng(seed("ethanol-starts", r))
    for k in range(counts.get("ethanol", 0)):
        hoc, ccm = rng_eth.uniform(-180, 180, 2)
        jobs.append(dict(system="ethanol", tag=f"etoh-{k}", numbers=mol["ethanol"].numbers,
                         positions=mol["ethanol"].positions, kind="rotamer", torsions=[float(hoc), float(ccm)]))
    return jobs


def ethanol_torsions(numbers, positions):
    """(C-C-O-H, O-C-C-H) atom quadruples of ethanol: the hydroxyl torsion (= H-O-C-C) and one methyl H's
    torsion; set_dihedral turns the c side, i.e. the hydroxyl H resp. the whole methyl group."""
    z = np.asarray(numbers)
    h_o, o, c1, c2, nb = conformers.ethanol_atoms(numbers, positions)
    h_m = min(j for j in nb[c2] if z[j] == 1)
    return (c2, c1, o, h_o), (o, c1, c2, h_m)


def ethanol_rotamer(numbers, positions, torsions_deg):
    """Ethanol with its hydroxyl and methyl torsions (degrees) set by rigid rotations about C-O and C-C."""
    nb = conformers.bonds(numbers, positions)
    p = np.array(positions, dtype=float)
    for (a, b, c, d), v in zip(ethanol_torsions(numbers, positions), torsions_deg):
        p = conformers.set_dihedral(numbers, p, a, b, c, d, v, nb=nb)
    return p


def same_bonds(numbers, ref_positions, positions):
    """Whether two geometries of a molecule have the same covalent bond graph (conformers.bonds' rule)."""
    return conformers.bonds(numbers, ref_positions) == conformers.bonds(numbers, positions)


def drop_changed_starts(starts, keep_changed):
    """The starts whose relaxation kept the template's bond graph, and how many were dropped. A constrained
    GFN-FF relaxation can move a hydrogen (round 3: an acetyl methyl H went to the carbonyl O, an enol), and MD
    from such a start samples another molecule. keep_changed keeps them (rounds 0-3 ran so)."""
    if keep_changed:
        return list(starts), 0
    kept = [s for s in starts if not s.get("bonds_changed")]
    return kept, len(starts) - len(kept)


def relax_start(job):
    wd = os.path.join(gd._workdir(), "start")
    numbers, pos = np.asarray(job["numbers"]), np.asarray(job["positions"])
    template = pos
    if job["kind"] == "peptide":
        bb = conformers.backbone(numbers, pos)
        n_res = len(bb["CA"])
        omegas = [0.0 if (job["cis"] and k == 0) else 180.0 for k in range(n_res + 1)]
        p = conformers.build(numbers, pos, job["phi"], job["psi"], omegas)
        phi_t, psi_t, omega_t = conformers.torsions(bb)
        cons = [(*t, v) for t, v in zip(phi_t, job["phi"])] + [(*t, v) for t, v in zip(psi_t, job["psi"])] \
            + [(*t, v) for t, v in zip(omega_t, omegas)]
        opt = conformers.relax(numbers, p, cons, wd, method="gfnff")
        pos = p if opt is None else opt
    elif job["kind"] == "rotamer":
        p = ethanol_rotamer(numbers, pos, job["torsions"])
        cons = [(*t, v) for t, v in zip(ethanol_torsions(numbers, pos), job["torsions"])]
        opt = conformers.relax(numbers, p, cons, wd, method="gfnff")
        pos = p if opt is None else opt
    elif job["kind"] == "cluster":
        opt = sampling.xtb_optimise(numbers, pos, "gfnff", wd)
        pos = pos if opt is None else opt
    return dict(job, positions=np.asarray(pos), bonds_changed=not same_bonds(numbers, template, pos))


# ---- student MD -----------------------------------------------------------------------------------

def student_md(model, starts, temperatures, replicas, steps, every, rng_seed, device):
    """Langevin MD of every start x temperature x replica in one batch. Returns snapshots
    [(start index, T, positions [n,3] Å, student forces [n,3] eV/Å, step)]."""
    reps = [(k, T) for k in range(len(starts)) for T in temperatures for _ in range(replicas)]
    z = torch.cat([torch.as_tensor(starts[k]["numbers"]) for k, _ in reps]).to(device)
    pos = torch.cat([torch.as_tensor(starts[k]["positions"], dtype=torch.float32) for k, _ in reps]).to(device)
    sizes = torch.tensor([len(starts[k]["numbers"]) for k, _ in reps], device=device)
    batch = torch.repeat_interleave(torch.arange(len(reps), device=device), sizes)
    n_s = len(reps)
    ptr = np.concatenate([[0], np.cumsum(sizes.cpu().numpy())])
    mass = torch.tensor([MASSES_AMU[int(a)] for a in z.cpu()], dtype=torch.float32, device=device)[:, None]
    temp = torch.tensor([T for _, T in reps], dtype=torch.float32, device=device).index_select(0, batch)[:, None]
    sigma = torch.sqrt(BOLTZMANN_EV_PER_K * temp / mass * ACCEL_A_PER_FS2)      # Å/fs
    gen = torch.Generator(device=device)
    gen.manual_seed(rng_seed)
    vel = sigma * torch.randn(pos.shape, generator=gen, device=device)
    wall = torch.tensor([starts[k]["kind"] == "cluster" for k, _ in reps], device=device)
    counts = sizes.to(torch.float32)[:, None]
    centre0 = torch.zeros(n_s, 3, device=device).index_add_(0, batch, pos) / counts
    radius = torch.zeros(n_s, device=device).index_reduce_(
        0, batch, torch.linalg.norm(pos - centre0.index_select(0, batch), dim=1), "amax", include_self=False) + 1.5
    alive = torch.ones(n_s, dtype=torch.bool, device=device)
    c1 = np.exp(-FRICTION_PER_FS * DT_FS)
    c2 = float(np.sqrt(1 - c1 * c1))

    def forces(p):
        _, f = model(z, p.detach(), batch, n_s)
        f = f.detach()
        centre = torch.zeros(n_s, 3, device=device).index_add_(0, batch, p) / counts
        d = p - centre.index_select(0, batch)
        r = torch.linalg.norm(d, dim=1, keepdim=True).clamp_min(1e-6)
        over = (r - radius.index_select(0, batch)[:, None]).clamp_min(0) * wall.index_select(0, batch)[:, None]
        return f, f - WALL_K * over * d / r

    f_model, f = forces(pos)
    snaps = []
    for step in range(1, steps + 1):
        move = alive.index_select(0, batch)[:, None].to(pos.dtype)
        vel = vel + 0.5 * DT_FS * f / mass * ACCEL_A_PER_FS2 * move
        pos = pos + 0.5 * DT_FS * vel * move
        noise = torch.randn(pos.shape, generator=gen, device=device)
        vel = (c1 * vel + c2 * sigma * noise) * move + vel * (1 - move)
        pos = pos + 0.5 * DT_FS * vel * move
        prev_model = f_model
        f_model, f = forces(pos)
        vel = vel + 0.5 * DT_FS * f / mass * ACCEL_A_PER_FS2 * move
        fmax = torch.zeros(n_s, device=device).index_reduce_(0, batch, f_model.abs().amax(1), "amax", include_self=False)
        bad = alive & (~torch.isfinite(fmax) | (fmax > MAX_FORCE_MD))
        take = (step % every == 0)
        if take or bool(bad.any()):
            p_np, f_np = pos.cpu().numpy().astype(float), f_model.cpu().numpy().astype(float)
            al, bd = alive.cpu().numpy(), bad.cpu().numpy()
            for s in range(n_s):
                if (take and al[s] and not bd[s]) or bd[s]:
                    snaps.append((reps[s][0], reps[s][1], p_np[ptr[s]:ptr[s + 1]], f_np[ptr[s]:ptr[s + 1]], step))
            alive = alive & ~bad
        del prev_model
    return snaps, int((~alive).sum()), n_s


# ---- one round ------------------------------------------------------------------------------------

def load_model(path, device):
    model = PaiNN(SPECIES, 128, 3, 20, 5.0, 16.0)
    load_weights(model, path)
    return model.to(device=device, dtype=torch.float32).eval()


def per_frame_mae(f_student, f_teacher):
    return float(np.abs(np.asarray(f_student) - np.asarray(f_teacher)).mean())


def summarise(rows):
    """rows: (system, T, mae). Mean per-frame force MAE by system and T, and overall."""
    out = {}
    for system, T, mae in rows:
        out.setdefault(system, {}).setdefault(str(T), []).append(mae)
    table = {s: {T: dict(frames=len(v), force_mae_ev_per_a=round(float(np.mean(v)), 5)) for T, v in d.items()}
             for s, d in out.items()}
    table["all"] = dict(frames=len(rows), force_mae_ev_per_a=round(float(np.mean([m for *_, m in rows])), 5))
    return table


def run_round(r, args, state_in, mol, ref, pool, device, log):
    t0 = time.time()
    starts = pool.map(relax_start, plan_starts(r, mol, dict(dipeptide=args.dipeptide_starts, ala5=args.ala5_starts,
                                                             clusters=args.cluster_starts, droplets=args.droplets,
                                                             ethanol=args.ethanol_starts)))
    starts, starts_dropped = drop_changed_starts(starts, args.keep_changed_starts)
    if starts_dropped:
        print(f"round {r}: {starts_dropped} start(s) dropped: their relaxation changed the bond graph", flush=True)
    t_starts = time.time() - t0
    model = load_model(state_in, device)
    snaps, stopped, n_rep = student_md(model, starts, TEMPERATURES, args.replicas, args.steps, args.every,
                                       seed("md", r), device)
    del model
    t_md = time.time() - t0 - t_starts
    items = [((i,), np.asarray(starts[k]["numbers"]), p) for i, (k, T, p, f, step) in enumerate(snaps)]
    chunks = [items[i:i + 4] for i in range(0, len(items), 4)]
    labels = {}
    for res, _ in pool.imap_unordered(gd.label_chunk, chunks):
        for key, status, e, f in res:
            labels[key[0]] = (status, e, f)
    t_label = time.time() - t0 - t_starts - t_md
    dropped = dict(clash=0, scf=0, absurd_energy=0, large_force=0)
    rows, selected, kept = [], {}, []
    for i, (k, T, p, f_s, step) in enumerate(snaps):
        status, e, f = labels[i]
        st = starts[k]
        n = len(st["numbers"])
        e_ref = (n // 3) * ref["water"] * 3 if st["system"] == "water-clusters" else ref[st["system"]] * n
        if status != "ok":
            dropped[status] += 1
            continue
        if (e - e_ref) / n > gd.MAX_EXCESS_EV_PER_ATOM:
            dropped["absurd_energy"] += 1
            continue
        if np.abs(f).max() > gd.MAX_FORCE_EV_PER_A:
            dropped["large_force"] += 1
            continue
        mae = per_frame_mae(f_s, f)
        rows.append((st["system"], T, mae))
        kept.append(i)
        if mae > args.threshold:
            selected.setdefault(st["system"], []).append(extxyz.Frame(
                st["numbers"], p, energy=e, forces=f,
                info=dict(system=st["system"], source=f"active-r{r}-{T}K", start=st["tag"], step=step)))
    written = {}
    for system, frames in selected.items():
        rng = np.random.default_rng(seed("split", r, system))
        is_val = rng.random(len(frames)) < gd.VAL_FRACTION
        extxyz.write(os.path.join(args.data, f"{system}.active-r{r}.train.xyz.gz"),
                     [f for f, v in zip(frames, is_val) if not v])
        extxyz.write(os.path.join(args.data, f"{system}.active-r{r}.val.xyz.gz"), [f for f, v in zip(frames, is_val) if v])
        written[system] = len(frames)
    on_traj = summarise(rows)
    print(f"round {r}: {len(starts)} starts, {n_rep} replicas ({stopped} stopped), {len(snaps)} snapshots, "
          f"{len(rows)} labelled, dropped {dropped}; on-trajectory force MAE {on_traj['all']['force_mae_ev_per_a']:.4f}"
          f" eV/Å; added {written}  (starts {t_starts:.0f} s, MD {t_md:.0f} s, labels {t_label:.0f} s)", flush=True)
    for s, d in on_traj.items():
        if s != "all":
            print("   " + s + ": " + ", ".join(f"{T} K {v['force_mae_ev_per_a']:.4f} ({v['frames']})" for T, v in d.items()))
    out_dir = os.path.join(args.out, f"round-{r}")
    entry = dict(round=r, weights_in=state_in, starts=len(starts), replicas=n_rep, stopped_replicas=stopped,
                 md_steps=args.steps, dt_fs=DT_FS, temperatures_K=TEMPERATURES, snapshots=len(snaps),
                 labelled=len(rows), dropped=dropped, starts_dropped_bonds_changed=starts_dropped, threshold_ev_per_a=args.threshold, added=written,
                 on_trajectory_before=on_traj,
                 seconds=dict(starts=round(t_starts), md=round(t_md), labels=round(t_label)))
    state_out = state_in
    if args.train_minutes > 0:
        state_out = os.path.join(out_dir, "state.npz")
        entry.update(retrain(args, r, state_in, out_dir, snaps, kept, labels, starts, device))
    else:
        os.makedirs(out_dir, exist_ok=True)
        entry["retrained"] = False      # collect-and-label round (--train-minutes 0)
    log.append(entry)
    with open(os.path.join(args.out, "rounds.json"), "w") as f:
        json.dump(log, f, indent=1)
    return state_out, on_traj["all"]["force_mae_ev_per_a"]


def retrain(args, r, state_in, out_dir, snaps, kept, labels, starts, device):
    """Warm-started train.py for --train-minutes; the error of the new student on the round's own frames."""
    cmd = [sys.executable, os.path.join(HERE, "train.py"), "--data", args.data, "--out", out_dir, "--init", state_in,
           "--minutes", str(args.train_minutes), "--lr", str(args.lr), "--warmup", "200", "--seed", str(1234 + r),
           "--patience", "1000"]
    if args.test:
        cmd += ["--test", args.test]
    t1 = time.time()
    subprocess.run(cmd, check=True)
    model = load_model(os.path.join(out_dir, "state.npz"), device)
    after = []
    for i in kept:                       # the frames that passed the filters, as for the figures before
        k, T, p, f_s, step = snaps[i]
        f = labels[i][2]
        st = starts[k]
        zz = torch.as_tensor(st["numbers"], device=device)
        _, f_new = model(zz, torch.as_tensor(p, dtype=torch.float32, device=device),
                         torch.zeros(len(zz), dtype=torch.long, device=device), 1)
        after.append((st["system"], T, per_frame_mae(f_new.detach().cpu().numpy(), f)))
    with open(os.path.join(out_dir, "train_log.json")) as f:
        tl = json.load(f)
    return dict(same_frames_after_retrain=summarise(after), test_after=tl["final"].get("test"),
                val_after=tl["final"]["val"]["all"], train_seconds=round(time.time() - t1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data"), help="training data; active frames are added here")
    ap.add_argument("--test", help="independent test set folder (reported after each retraining, never selected on)")
    ap.add_argument("--init", help="weights of round 0's student (.safetensors or state.npz); "
                                   "default: OUT/round-<start-round - 1>/state.npz")
    ap.add_argument("--out", required=True)
    ap.add_argument("--start-round", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--threshold", type=float, default=0.02, help="per-frame force MAE (eV/Å) above which a frame is added")
    ap.add_argument("--min-improvement", type=float, default=0.05)
    ap.add_argument("--replicas", type=int, default=2, help="per start and temperature")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--every", type=int, default=100, help="snapshot interval, MD steps")
    ap.add_argument("--dipeptide-starts", type=int, default=8)
    ap.add_argument("--ala5-starts", type=int, default=4)
    ap.add_argument("--cluster-starts", type=int, default=6)
    ap.add_argument("--droplets", type=int, default=2)
    ap.add_argument("--ethanol-starts", type=int, default=6, help="ethanol starts at random hydroxyl/methyl torsions")
    ap.add_argument("--keep-changed-starts", action="store_true",
                    help="keep starts whose relaxation changed the bond graph (rounds 0-3 did; default: drop them)")
    ap.add_argument("--train-minutes", type=float, default=2.75, help="retraining per round; 0: collect and label only")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--deadline-minutes", type=float, default=0, help="start no round after this many minutes (0: none)")
    ap.add_argument("--round-minutes", type=float, default=4.0, help="expected length of one round (for the deadline)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args()
    for name in ("ethanol_starts", "dipeptide_starts", "ala5_starts", "cluster_starts", "droplets", "replicas", "steps", "every"):
        if getattr(args, name) < 0 or (name in ("replicas", "steps", "every") and getattr(args, name) == 0):
            ap.error(f"--{name.replace('_', '-')} must be {'positive' if name in ('replicas', 'steps', 'every') else 'zero or more'}, "
                     f"got {getattr(args, name)}")
    if args.train_minutes < 0:
        ap.error(f"--train-minutes must be zero (collect and label only) or more, got {args.train_minutes}")
    t0 = time.time()
    torch.manual_seed(ACTIVE_SEED)
    if hasattr(torch, "set_float32_matmul_precision"):
        torch.set_float32_matmul_precision("highest")
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, "rounds.json")
    log = json.load(open(log_path)) if os.path.exists(log_path) else []
    state = args.init or os.path.join(args.out, f"round-{args.start_round - 1}", "state.npz")
    mol = gd.load_start_geometries(gd.MOLECULE_DIR)
    ref = {name: gd.teacher.single_point(fr.numbers, fr.positions)[0] / len(fr) for name, fr in mol.items()}
    device = torch.device(args.device)
    previous = log[-1]["on_trajectory_before"]["all"]["force_mae_ev_per_a"] if log else None
    with mp.Pool(args.workers) as pool:
        for r in range(args.start_round, args.start_round + args.rounds):
            if args.deadline_minutes and (time.time() - t0) / 60 + args.round_minutes > args.deadline_minutes:
                print(f"round {r} not started: deadline", flush=True)
                break
            state, err = run_round(r, args, state, mol, ref, pool, device, log)
            if previous is not None and err > (1 - args.min_improvement) * previous:
                print(f"on-trajectory error {err:.4f} eV/Å did not fall by {args.min_improvement:.0%} "
                      f"from {previous:.4f}: stop", flush=True)
                break
            previous = err
    print(f"final weights: {state}  ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
