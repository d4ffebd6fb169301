"""An active round of the general organic student on its own MD: the frames the student visits, labelled by the teacher.

The organic data so far are GFN-FF MD frames (organic_data.py); the student's long tail (imines, azo, nitriles, N-N and
N-O bonds) lies where its own dynamics go and GFN-FF's do not. One round:

  1. starts: the RDKit conformers of the *training* molecules (`--starts`, default organic/starts.train.xyz.gz, first
     `--conformers` per molecule), and of the pools' molecules where their start files are given too (`--starts
     A B C`, or repeated: organic/starts.<pool>.xyz.gz of organic_data.POOLS, small, conjugated, rare, motifs, coverage,
     rings, coverage2, rings2, rings3, coverage3, whose `split=` names the pool and whose molecules are in
     organic/<pool>.csv, as organic_data.py --<pool> adds
     them). A start whose molecule is a test molecule (its `split=` or its row in organic/molecules.csv), in any file,
     is refused: the run stops, naming it; so is a molecule in neither list, or in two files.
  2. student MD: Langevin (BAOAB, 0.5 fs, friction 0.01 fs^-1; student_md.py, the integrator of organic_eval.py's
     stability protocol) of every start at each of `--temperatures` (K) with `--replicas` replicas, times a family
     weight K (`--weight-category imine=3`, categories of organic/molecules.csv and the pools' lists;
     `--weight-smarts 'C=N=3'`, a SMARTS matched on the molecule's SMILES with RDKit; a molecule takes the largest
     weight it matches), many replicas in one batch (`--group-atoms` atoms a batch), on CUDA when available, on
     several devices at once with `--devices cuda:0,cuda:1` (one process a device, each taking the next batch).
     After `--equil-fs` a frame every `--every-fs` until `--ps`. A replica whose largest force (over every step)
     exceeds 40 eV/Å or turns non-finite has left the physical region (active_loop.py's rule): its later frames are
     not taken (counted as `exploded`). With `--budget-s`, no batch starts after that many seconds of MD and a running
     one is cut there: the frames sampled so far are labelled and written (the rest counted as `md_budget`).
  3. teacher: every frame is labelled with GFN2-xTB in-process (libxtb.py) by `--workers` processes through
     organic_data.label_frames, which drops and counts a changed bond graph against the start (covalent radii x 1.2),
     a clash, a failed SCF, an energy > 1 eV/atom above the start's and a force component > 30 eV/Å.
  4. output (OUT/), the npz layout of organic_data.py, so `train.py --data ... OUT` takes them beside organic.*.npz:
       organic-active-r<R>.train.npz   system name "organic-active-r<R>" (dataset.load_split: the file's first
       organic-active-r<R>.val.npz     dot-part); val = the molecules organic_data.py holds out
                                       (organic_data.val_molecules over all training molecules of the list, seed
                                       20261128); a pool's molecules are never held out (as organic_data.py's pools)
       organic-active-r<R>.json        frames per family and temperature (a pool's as small/imine@300K), drops, the
                                       student's force MAE on its own frames, teacher cost, MD and wall time, seeds
       md-batch-<g>.npz                the frames of each finished MD batch: a rerun of an interrupted round with the
                                       same inputs (weights' digest, starts, seeds, lengths) resumes after them
       md-batch-<g>.cut.npz            a batch cut by --budget-s on one of several devices (no checkpoint: a rerun
                                       runs it whole)
Deterministic: the MD seed of each batch comes from (--seed, batch index) and the batches from the plan, whichever
device runs a batch and whenever; the frames are ordered by replica, not by completion. On the CPU two runs, on one
device or on several, write identical arrays; on CUDA the atomic adds of index_add_ make trajectories agree only to
rounding. A budget decides by the clock which batches run whole: a round cut by it is the same round up to there.
Units: Å, eV, eV/Å, amu, fs, K.

    /usr/bin/python3 forcefield/training/organic_active.py --weights W.safetensors --out OUT --round 1 --limit 3

Default lengths (1.25 ps a replica, a frame every 125 fs after 250 fs: 8 frames, 2,500 steps) for the whole set on
two H200: the list's 1,525 training molecules and the pools' 147 + 240 + 285 (conformer 0), 300 and 600 K, one
replica: 4,394 replicas, 77,696 atoms, 1.49 M edges, 35,152 frames. Round 3 of the preview ran 24,268 atoms (416 k
edges) for 3,000 steps in 120 s on one H200 (1.04e7 edge-steps/s, 6.1e5 atom-steps/s, set-up included): scaled by
edges, 357 s of MD on one H200, ~180 s on two (by atoms 321 / 161 s); `--group-atoms 20000` makes four batches of
about round 3's size, two a GPU. Labelling 35 k frames at round 3's 60 frames/s/core: ~590 CPU-s.

On the x2 machine, during the organic data's labelling (device_organic.sh multi with ACTIVE_WITH_DATA=1): MD on both
GPUs, labels by the data's cores:

    LD_LIBRARY_PATH=$PWD/.organic-run/lib LIBXTB=$PWD/.organic-run/lib/libxtb.so.6 OMP_NUM_THREADS=1 \\
      CUDA_VISIBLE_DEVICES=0,1 taskset -c 4-31 python3 forcefield/training/organic_active.py \\
      --weights forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors \\
      --out .organic-run/active --round 11 --workers 28 --devices cuda:0,cuda:1 --budget-s 200 \\
      --starts forcefield/training/organic/starts.{train,small,conjugated,rare,motifs}.xyz.gz
"""
import argparse
import csv
import hashlib
import json
import multiprocessing as mp
import os
import queue
import time
import traceback

import numpy as np
import torch

import extxyz
from organic_data import POOLS, label_frames, save_npz, val_molecules
from student_md import StudentLangevin, load_student

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_STARTS = os.path.join(HERE, "organic", "starts.train.xyz.gz")
CLOCK = time.time            # the MD budget's clock (a test counts force evaluations instead)
DT_FS = 0.5
FRICTION_PER_FS = 0.01
MAX_FORCE_MD = 40.0          # eV/Å: a replica beyond this has left the physical region (active_loop.py)
DATA_SEED = 20261128         # organic_data.py's master seed: it fixes the validation molecules
DATA_VAL_FRACTION = 0.05     # organic_data.py's --val-fraction
DROP_KEYS = ("exploded", "md_budget", "bond_graph", "clash", "scf", "high_energy", "large_force")


# ---- molecules, starts and family weights -------------------------------------------------------------

def read_molecules(path):
    """name -> row (smiles, category, split) of organic/molecules.csv."""
    with open(path, newline="") as f:
        return {r["name"]: r for r in csv.DictReader(f)}


def read_pool_molecules(folder):
    """name -> row (smiles, category, split=<pool>) of the pools' lists beside the molecule list (organic/small.csv,
    conjugated.csv, rare.csv, motifs.csv, coverage.csv, rings.csv, coverage2.csv, rings2.csv, rings3.csv, coverage3.csv:
    organic_data.py's --small, ..., --coverage3), those that exist."""
    rows = {}
    for pool in POOLS:
        path = os.path.join(folder, f"{pool}.csv")
        if os.path.exists(path):
            with open(path, newline="") as f:
                rows.update({r["name"]: dict(r, split=pool) for r in csv.DictReader(f)})
    return rows


def pool_molecule_counts(keep, molecules):
    """The record's molecules of each pool among keep: the four pools before the coverage pool always (0 where none, as
    the records have them), a later pool (coverage, rings, coverage2, rings2, rings3, coverage3) only where the round
    holds its molecules, so that a round without it writes the record it wrote before."""
    counts = {pool: sum(1 for n in keep if molecules[n]["split"] == pool) for pool in POOLS}
    return {p: k for p, k in counts.items() if p in ("small", "conjugated", "rare", "motifs") or k}


def training_starts(starts, molecules, source, pools=None):
    """The starts, refusing any of a test molecule (by its `split=` or its row in the molecule list) or of a
    molecule the list lacks: a test molecule's frames must never reach training. With `pools` (read_pool_molecules),
    a start whose `split=` names a pool (organic_data.POOLS) may be a molecule of that pool's list instead, as
    organic_data.py samples them (training only); a name in the molecule list is the list's, whatever the start says."""
    for k, st in enumerate(starts):
        name = st.info.get("name")
        row = molecules.get(name)
        split = st.info.get("split", "train")
        if row is None and split in POOLS and (pools or {}).get(name, {}).get("split") == split:
            continue                                          # a pool molecule (never in the list: see above)
        if row is None:
            raise ValueError(f"{source}: start {k} ({name!r}) is not in the molecule list"
                             + (f" nor in the {split} pool's" if split in POOLS else ""))
        if row["split"] != "train" or split == "test":
            raise ValueError(f"{source}: start {k} ({name!r}) is a test molecule (split {row['split']!r} in the "
                             f"molecule list, {st.info.get('split')!r} in the start): only training molecules are sampled")
        if split != "train":
            raise ValueError(f"{source}: start {k} ({name!r}) is a training molecule of the list, but its start says "
                             f"split {split!r}: refused (which split its frames belong to is unclear)")
    return starts


def read_start_files(paths, molecules, pools, limit=0):
    """The starts of every file (a training molecule of the list or a pool's molecule; a test molecule anywhere is
    refused), the first `limit` molecules of each file with --limit; a molecule in two files is refused (its replicas
    would be sampled twice)."""
    out, seen = [], {}
    for path in paths:
        starts = training_starts(list(extxyz.read(path)), molecules, path, pools)
        order = list(dict.fromkeys(st.info["name"] for st in starts))
        keep = set(order[:limit]) if limit else set(order)
        for name in order:
            if name in seen:
                raise ValueError(f"{path}: molecule {name!r} is in {seen[name]} too")
            seen[name] = path
        out += [st for st in starts if st.info["name"] in keep]
    return out


def parse_weights(items, option):
    """['KEY=K', ...] -> [(KEY, K)]; split at the last '=' (a SMARTS has its own '=')."""
    out = []
    for item in items or []:
        key, sep, k = item.rpartition("=")
        try:
            weight = int(k)
        except ValueError:
            weight = 0
        if not sep or not key or weight < 1:
            raise SystemExit(f"{option} {item!r}: expected KEY=K with K a positive integer")
        out.append((key, weight))
    return out


def family_weights(names, molecules, by_category, by_smarts):
    """name -> (weight, [families matched]): the largest weight a molecule matches, 1 when none."""
    categories = {row["category"] for row in molecules.values()}
    for cat, _ in by_category:
        if cat not in categories:
            raise SystemExit(f"--weight-category {cat!r}: no such category in the molecule list "
                             f"({', '.join(sorted(categories))})")
    patterns = []
    if by_smarts:
        try:
            from rdkit import Chem
        except ImportError:
            raise SystemExit("--weight-smarts needs RDKit (python3-rdkit); --weight-category needs nothing")
        for sm, k in by_smarts:
            p = Chem.MolFromSmarts(sm)
            if p is None:
                raise SystemExit(f"--weight-smarts {sm!r}: not a valid SMARTS")
            patterns.append((sm, k, p))
    out = {}
    for name in names:
        row = molecules[name]
        matched = [(f"category:{c}", k) for c, k in by_category if row["category"] == c]
        if patterns:
            mol = Chem.MolFromSmiles(row["smiles"])
            matched += [(f"smarts:{sm}", k) for sm, k, p in patterns if mol.HasSubstructMatch(p)]
        out[name] = (max([k for _, k in matched], default=1), [f for f, _ in matched])
    return out


def only_weighted(starts, weights):
    """The starts of molecules that matched a --weight-category or --weight-smarts (the families a round aims at)."""
    return [st for st in starts if weights[st.info["name"]][1]]


def plan_replicas(starts, temperatures, replicas, weights):
    """One dict a replica: start, temperature (K), replica index; ordered by start, temperature, replica."""
    plan = []
    for s_idx, st in enumerate(starts):
        k = weights[st.info["name"]][0]
        for temp in temperatures:
            for r in range(replicas * k):
                plan.append(dict(id=len(plan), start=s_idx, name=st.info["name"], conformer=int(st.info.get("conformer", 0)),
                                 temperature=float(temp), replica=r, numbers=np.asarray(st.numbers),
                                 positions=np.asarray(st.positions, dtype=float)))
    return plan


# ---- the student's MD ---------------------------------------------------------------------------------

def groups_of(plan, group_atoms, mix_seed=None):
    """Consecutive replicas, at most group_atoms atoms a batch (at least one replica). With mix_seed, the replicas
    are taken in a seeded random order instead of the plan's: the start files' order then no longer decides which
    pools a --budget-s cut leaves without frames (round 14's budget left the last two pools with none). A replica
    keeps its id, so the frames are still ordered by replica."""
    if mix_seed is not None:
        plan = [plan[i] for i in np.random.default_rng(mix_seed).permutation(len(plan))]
    groups, cur, n = [], [], 0
    for p in plan:
        if cur and n + len(p["numbers"]) > group_atoms:
            groups.append(cur)
            cur, n = [], 0
        cur.append(p)
        n += len(p["numbers"])
    if cur:
        groups.append(cur)
    return groups


def batch_key(key, group, g_seed, every, equil, total):
    """A digest of everything a batch's trajectories depend on (weights, starts, temperatures, seed, lengths)."""
    h = hashlib.sha256(f"{key}|{g_seed}|{every}|{equil}|{total}|{DT_FS}|{FRICTION_PER_FS}".encode())
    for p in group:
        h.update(f"|{p['name']}|{p['temperature']}|{p['replica']}|".encode())
        h.update(np.ascontiguousarray(p["positions"], dtype=np.float64).tobytes())
    return h.hexdigest()


def save_batch(path, digest, group, frames, exploded, chunks=None):
    """The frames of one MD batch (a checkpoint: a rerun with the same digest takes them instead of the MD) and the
    chunks of `every` steps it ran (a batch cut by --budget-s ran fewer than its full length)."""
    ids = [p["id"] for p in group]
    counts = np.array([len(frames[i]) for i in ids], dtype=np.int64)
    pos = [x for i in ids for x in frames[i]]
    tmp = path + ".tmp.npz"
    np.savez(tmp, digest=np.array(digest), counts=counts,
             pos=np.concatenate(pos).astype(np.float32) if pos else np.zeros((0, 3), np.float32),
             exploded=np.array([np.nan if exploded[i] is None else exploded[i] for i in ids]),
             chunks=np.array(-1 if chunks is None else chunks, dtype=np.int64))
    os.replace(tmp, path)


def load_batch(path, digest, group, frames, exploded):
    """Fills frames/exploded of the group from its file; returns the chunks it ran (-1: all, as files written before
    --budget-s), or None when there is no file for this digest."""
    if not os.path.exists(path):
        return None
    d = np.load(path)
    if str(d["digest"]) != digest or len(d["counts"]) != len(group):
        return None
    a = 0
    for p, c, ex in zip(group, d["counts"], d["exploded"]):
        n = len(p["numbers"])
        frames[p["id"]] = [d["pos"][a + k * n:a + (k + 1) * n].copy() for k in range(int(c))]
        exploded[p["id"]] = None if np.isnan(ex) else float(ex)
        a += int(c) * n
    return int(d["chunks"]) if "chunks" in d.files else -1


def batch_seed(seed, g):
    """The MD seed of batch g: from (--seed, g) alone, whichever device runs it and in whichever order."""
    return int(np.random.SeedSequence([seed, g]).generate_state(1)[0])


def md_batch(model, group, g_seed, every, equil, total, device, deadline=None, clock=time.time, log=print, what=""):
    """The student's Langevin MD of one batch of replicas: ({id: [positions float32 [n,3] Å]}, {id: fs at which it
    exploded or None}, chunks of `every` steps run, replicas exploded). With `deadline` (a clock() time), a chunk
    that would end after it (by the last chunk's duration) is not run: the replicas keep the frames they have (a cut
    batch, fewer chunks than total // every)."""
    md = StudentLangevin(model, [(p["numbers"], p["positions"]) for p in group],
                         [p["temperature"] for p in group], DT_FS, FRICTION_PER_FS, g_seed, device)
    md.prepare(every)
    dead = np.zeros(len(group), dtype=bool)
    frames = {p["id"]: [] for p in group}
    exploded = {p["id"]: None for p in group}
    t_log = t_chunk = clock()
    last = 0.0
    chunks = 0
    for chunk in range(1, total // every + 1):
        if deadline is not None and clock() + last > deadline:
            log(f"    {what}: cut by the budget after {(chunk - 1) * every * DT_FS / 1000:.3f} ps", flush=True)
            break
        md.advance()
        if clock() - t_log > 60:
            t_log = clock()
            log(f"    {what}: {chunk * every * DT_FS / 1000:.2f} of {total * DT_FS / 1000} ps", flush=True)
        with torch.no_grad():
            # the largest force of the chunk, not of its last step: atoms that blew apart feel none at the end
            ok = torch.isfinite(md.pos).all(1) & (md.f_peak <= MAX_FORCE_MD)
            bad = md.any_per_system(~ok).cpu().numpy()
            md.f_peak.zero_()
        new = np.nonzero(bad & ~dead)[0]
        for s in new:
            exploded[group[s]["id"]] = chunk * every * DT_FS
        dead |= bad
        md.restart(new)
        if chunk * every > equil:
            pos = md.pos.detach().cpu().numpy()
            for s, p in enumerate(group):
                if not dead[s]:
                    frames[p["id"]].append(pos[md.ptr[s]:md.ptr[s + 1]].copy())
        chunks = chunk
        now = clock()
        last, t_chunk = now - t_chunk, now
    return frames, exploded, chunks, int(dead.sum())


def batch_path(checkpoint_dir, g, cut=False):
    return os.path.join(checkpoint_dir, f"md-batch-{g:03d}{'.cut' if cut else ''}.npz")


def _md_worker(device, weights, jobs, seed, counter, messages, every, equil, total, deadline, checkpoint_dir, threads):
    """One process a device (--devices): takes the next batch of `jobs` [(g, group, digest)] from the shared
    counter until none is left, runs it (md_batch, seed batch_seed(seed, g)) and writes its frames: md-batch-<g>.npz
    when whole (the checkpoint), md-batch-<g>.cut.npz when cut by the deadline; messages to the parent: ("log", text),
    ("batch", g, "whole" | "cut" | "skipped", replicas exploded, atoms), ("error", text)."""
    try:
        torch.set_num_threads(threads)
        torch.backends.cuda.matmul.allow_tf32 = False
        dev = torch.device(device)
        if dev.type == "cuda" and dev.index is not None:
            # the current device too: StudentLangevin.prepare captures its CUDA graph on a side stream of the current
            # device (cuda:0 unless set), which must be the one its tensors are on
            torch.cuda.set_device(dev)
        model = load_student(weights, dev)
        for p in model.parameters():
            p.requires_grad_(False)

        def log(*a, **k):
            messages.put(("log", " ".join(str(x) for x in a)))

        while True:
            with counter.get_lock():
                k = counter.value
                counter.value += 1
            if k >= len(jobs):
                return
            g, group, digest = jobs[k]
            g_seed = batch_seed(seed, g)   # the batch's, not the order this process took it in
            atoms = sum(len(p["numbers"]) for p in group)
            if deadline is not None and time.time() >= deadline:
                messages.put(("batch", g, "skipped", 0, atoms))
                continue
            frames, exploded, chunks, n_dead = md_batch(model, group, g_seed, every, equil, total, dev, deadline,
                                                        log=log, what=f"batch {g + 1} on {device}")
            whole = chunks == total // every
            save_batch(batch_path(checkpoint_dir, g, cut=not whole), digest, group, frames, exploded,
                       None if whole else chunks)
            messages.put(("batch", g, "whole" if whole else "cut", n_dead, atoms))
    except BaseException:
        messages.put(("error", f"{device}: {traceback.format_exc()}"))
        raise


def run_on_devices(devices, weights, jobs, seed, every, equil, total, deadline, checkpoint_dir, log):
    """The batches `jobs` [(g, group, digest)] on several devices, one spawned process a device (not threads:
    the MD loop is Python, and the GIL would serialise the launches), each taking the next batch when it is free.
    Returns {g: "whole" | "cut" | "skipped"}; the frames are in the batches' files. A process that fails fails the
    round, naming it (the batches finished before stay as checkpoints)."""
    ctx = mp.get_context("spawn")
    counter = ctx.Value("i", 0)
    messages = ctx.Queue()
    procs = [ctx.Process(target=_md_worker, args=(dev, weights, jobs, seed, counter, messages, every, equil, total,
                                                  deadline, checkpoint_dir, torch.get_num_threads()), daemon=True)
             for dev in devices[:len(jobs)]]
    for p in procs:
        p.start()
    done, errors = {}, []
    replicas = {g: len(group) for g, group, *_ in jobs}
    t0 = time.time()

    def take(m):
        if m[0] == "log":
            log(m[1], flush=True)
        elif m[0] == "error":
            errors.append(m[1])
        else:
            _, g, status, n_dead, atoms = m
            done[g] = status
            log(f"  MD batch {g + 1}: {replicas[g]} replicas, {atoms} atoms, {status}"
                f"{f', {n_dead} exploded' if status != 'skipped' else ''}, {time.time() - t0:.0f} s "
                f"({len(done)}/{len(jobs)} batches)", flush=True)

    while len(done) < len(jobs) and not errors:
        try:
            take(messages.get(timeout=2))
        except queue.Empty:
            if not any(p.is_alive() for p in procs):
                break
    while True:   # what the processes sent before they ended
        try:
            take(messages.get(timeout=1))
        except queue.Empty:
            break
    for p in procs:
        p.join(timeout=30 if not errors else 5)
        if p.is_alive():
            p.terminate()
    missing = [g for g, *_ in jobs if g not in done]
    if errors or missing:
        codes = ", ".join(f"{d}: {p.exitcode}" for d, p in zip(devices, procs))
        raise RuntimeError(f"MD on {', '.join(devices[:len(procs)])} failed (exit codes {codes}); batches "
                           f"{[g + 1 for g in missing]} unfinished\n" + "\n".join(errors))
    return done


def student_md(model, plan, ps, equil_fs, every_fs, seed, device, group_atoms, log=print, checkpoint_dir=None,
               key="", budget_s=None, devices=None, weights=None, clock=time.time, mix_batches=False):
    """Frames of every replica: {id: [positions float32 [n,3] Å]}, {id: fs at which it exploded or None},
    {id: frames its MD could give (fewer than frames_per_replica when --budget-s cut or skipped its batch)}, stats.
    With checkpoint_dir, each finished batch is written there (md-batch-<g>.npz) and a rerun with the same
    inputs (`key`: the weights' digest) takes it from there: an interrupted round resumes at its first unfinished
    batch. With budget_s, no batch starts after budget_s seconds of MD and a running one is cut there (its replicas
    keep their frames; it is no checkpoint: a rerun runs it whole). With devices (several, e.g. ["cuda:0", "cuda:1"];
    needs checkpoint_dir and the weights' path), the batches run on all of them at once (run_on_devices): the same
    frames as on one device, since a batch's trajectories depend on its seed (--seed, batch index) alone. With
    mix_batches, the batches are groups_of's seeded mix (seed `seed`) of the plan instead of its order."""
    every = int(round(every_fs / DT_FS))
    equil = int(round(equil_fs / DT_FS))
    total = int(round(ps * 1000.0 / DT_FS))
    if every < 1 or equil % every or total % every or total <= equil:
        raise SystemExit(f"--every-fs {every_fs} must divide --equil-fs {equil_fs} and --ps {ps} x 1000, "
                         f"and the run must be longer than its equilibration (steps of {DT_FS} fs)")
    n_chunks, n_frames_planned = total // every, (total - equil) // every
    frames, exploded, possible = {}, {}, {}
    status = {}
    groups = groups_of(plan, group_atoms, mix_seed=seed if mix_batches else None)
    seeds = [batch_seed(seed, g) for g in range(len(groups))]
    digests = [batch_key(key, group, seeds[g], every, equil, total) if checkpoint_dir else None
               for g, group in enumerate(groups)]

    def took(g, chunks):   # the frames each replica of batch g could give, its chunks run (-1: all)
        chunks = n_chunks if chunks < 0 else chunks
        for p in groups[g]:
            possible[p["id"]] = max(0, chunks - equil // every)

    todo = []
    for g, group in enumerate(groups):
        chunks = load_batch(batch_path(checkpoint_dir, g), digests[g], group, frames, exploded) \
            if checkpoint_dir else None
        if chunks is None:
            todo.append(g)
            continue
        status[g] = "checkpoint"
        took(g, chunks)
        log(f"  MD batch {g + 1}/{len(groups)}: {len(group)} replicas, from {batch_path(checkpoint_dir, g)}",
            flush=True)
    t0 = clock()
    deadline = t0 + budget_s if budget_s else None
    devices = list(devices or [str(device)])
    replica_steps = 0
    if len(devices) > 1 and todo:
        if not (checkpoint_dir and weights):
            raise ValueError("MD on several devices needs checkpoint_dir and the weights' path")
        done = run_on_devices(devices, weights, [(g, groups[g], digests[g]) for g in todo], seed, every, equil,
                              total, None if deadline is None else time.time() + budget_s, checkpoint_dir, log)
        for g in todo:
            status[g] = done[g]
            if done[g] == "skipped":
                for p in groups[g]:
                    frames[p["id"]], exploded[p["id"]] = [], None
                took(g, 0)
                continue
            chunks = load_batch(batch_path(checkpoint_dir, g, cut=done[g] == "cut"), digests[g], groups[g], frames,
                                exploded)
            took(g, chunks)
            replica_steps += len(groups[g]) * (n_chunks if chunks < 0 else chunks) * every
    else:
        for g in todo:
            group = groups[g]
            if deadline is not None and clock() >= deadline:
                for p in group:
                    frames[p["id"]], exploded[p["id"]] = [], None
                status[g] = "skipped"
                took(g, 0)
                log(f"  MD batch {g + 1}/{len(groups)}: {len(group)} replicas, skipped (--budget-s)", flush=True)
                continue
            f, ex, chunks, n_dead = md_batch(model, group, seeds[g], every, equil, total, device, deadline, clock, log,
                                             f"batch {g + 1}")
            frames.update(f)
            exploded.update(ex)
            replica_steps += len(group) * chunks * every
            whole = chunks == n_chunks
            status[g] = "whole" if whole else "cut"
            took(g, chunks)
            if checkpoint_dir and whole:
                save_batch(batch_path(checkpoint_dir, g), digests[g], group, frames, exploded)
            log(f"  MD batch {g + 1}/{len(groups)}: {len(group)} replicas, {sum(len(p['numbers']) for p in group)} "
                f"atoms, {n_dead} exploded{'' if whole else ', cut by the budget'}, {clock() - t0:.0f} s", flush=True)
    wall = clock() - t0
    count = lambda s: sum(1 for v in status.values() if v == s)   # noqa: E731
    stats = dict(batches=len(groups), mix_batches=bool(mix_batches), batches_from_checkpoint=count("checkpoint"),
                 batches_cut=count("cut"),
                 batches_skipped=count("skipped"), devices=devices, budget_s=budget_s, steps_per_replica=total,
                 frames_per_replica=n_frames_planned, wall_s=round(wall, 1),
                 replica_steps_per_s=round(replica_steps / max(wall, 1e-9), 1))
    return frames, exploded, possible, stats


# ---- the teacher -------------------------------------------------------------------------------------

def label_task(task):
    """GFN2-xTB labels of one replica's frames (organic_data.label_frames' filters). Never raises."""
    drops = dict(bond_graph=0, clash=0, scf=0, high_energy=0, large_force=0)
    t0 = time.process_time()
    frames, n = label_frames(task["numbers"], task["positions"], [x.astype(np.float64) for x in task["frames"]], drops)
    return dict(id=task["id"], frames=frames, drops=drops, labelled=n, cpu_s=time.process_time() - t0)


def label_all(tasks, workers, log=print):
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    results = {}
    if workers <= 1:
        for t in tasks:
            results[t["id"]] = label_task(t)
        return results
    t0 = time.time()
    # not fork: the parent's torch has started OpenMP threads, and libgomp in a forked child deadlocks in libxtb
    with mp.get_context("forkserver").Pool(workers) as pool:
        for k, r in enumerate(pool.imap_unordered(label_task, tasks, chunksize=4)):
            results[r["id"]] = r
            if (k + 1) % 1000 == 0:
                log(f"  labelled {k + 1}/{len(tasks)} replicas, {time.time() - t0:.0f} s", flush=True)
    return results


def write_npz(path, rows):
    """organic_data.save_npz, also for no rows (a smoke run may hold no validation molecule)."""
    if rows:
        save_npz(path, rows)
        return
    np.savez_compressed(path, z=np.zeros(0, np.int8), pos=np.zeros((0, 3), np.float32),
                        forces=np.zeros((0, 3), np.float32), energy=np.zeros(0), n_atoms=np.zeros(0, np.int32),
                        molecule=np.zeros(0, np.int32), molecules=np.array([], dtype=str),
                        temperature=np.zeros(0, np.float32))


def student_errors(model, rows, device):
    """Per row the student's force MAE (eV/Å) against the teacher's label: the on-trajectory error."""
    from organic_eval import predict
    frames = [extxyz.Frame(r[2], r[3].astype(np.float64), r[5], r[4].astype(np.float64)) for r in rows]
    preds = predict(model, frames, device) if frames else []
    return [float(np.abs(f - fr.forces).mean()) for fr, (_, f) in zip(frames, preds)]


def family_key(molecules, name, temperature):
    """The summary's family of a frame: its category at its temperature, a pool's molecules under the pool's name
    (small/imine@300K): the list's families read as before."""
    row = molecules[name]
    pool = f"{row['split']}/" if row["split"] in POOLS else ""
    return f"{pool}{row['category']}@{int(temperature)}K"


# ---- the round ---------------------------------------------------------------------------------------

def run(args, log=print):
    t_start = time.time()
    devices = [d.strip() for d in args.devices.split(",") if d.strip()] if args.devices else [args.device]
    device = torch.device(devices[0])
    listed = read_molecules(args.molecules)
    pools = read_pool_molecules(os.path.dirname(os.path.abspath(args.molecules)))
    molecules = {**pools, **listed}   # a pool's rows never name a listed molecule (organic/enumerate_*.py)
    start_files = [p for group in (args.starts or [[DEFAULT_STARTS]]) for p in group]
    all_starts = read_start_files(start_files, listed, pools, args.limit)
    # the molecules organic_data.py holds out: its rule over every training molecule of the list (its full run had
    # frames of all of them), whatever subset of starts this round samples; the pools' are never held out
    train_names = sorted(n for n, row in listed.items() if row["split"] == "train")
    val_names = val_molecules(train_names, args.val_seed, args.val_fraction)
    keep = set(st.info["name"] for st in all_starts)
    starts = [st for st in all_starts if int(st.info.get("conformer", 0)) < args.conformers]
    weights = family_weights(sorted(keep), molecules, parse_weights(args.weight_category, "--weight-category"),
                             parse_weights(args.weight_smarts, "--weight-smarts"))
    if args.only_weighted:   # a round aimed at the families that fail (the model card's tail), not all molecules
        if not (args.weight_category or args.weight_smarts):
            raise SystemExit("--only-weighted: name the families to sample with --weight-category or --weight-smarts")
        starts = only_weighted(starts, weights)
        if not starts:
            raise SystemExit("--only-weighted: no training molecule matches --weight-category / --weight-smarts"
                             + (f" among the first {args.limit} (--limit)" if args.limit else ""))
    plan = plan_replicas(starts, args.temperatures, args.replicas, weights)
    n_pool = sum(1 for n in keep if n not in listed)
    log(f"{len(keep) - n_pool} training molecules and {n_pool} of the pools, {len(starts)} starts -> {len(plan)} "
        f"replicas at {args.temperatures} K on {', '.join(devices)}", flush=True)

    torch.backends.cuda.matmul.allow_tf32 = False
    model = load_student(args.weights, device)
    for p in model.parameters():
        p.requires_grad_(False)
    with open(args.weights, "rb") as f:
        weights_digest = hashlib.sha256(f.read()).hexdigest()
    frames, exploded, possible, md_stats = student_md(
        model, plan, args.ps, args.equil_fs, args.every_fs, args.seed, device, args.group_atoms, log,
        checkpoint_dir=args.out, key=weights_digest, budget_s=args.budget_s, devices=devices, weights=args.weights,
        clock=CLOCK, mix_batches=args.mix_batches)
    tasks = [dict(id=p["id"], numbers=p["numbers"], positions=p["positions"], frames=frames[p["id"]]) for p in plan]
    t_label = time.time()
    results = label_all(tasks, args.workers, log)
    label_wall = time.time() - t_label

    system = f"organic-active-r{args.round}"
    rows = {"train": [], "val": []}
    fam = {}
    drops = dict.fromkeys(DROP_KEYS, 0)
    exploded_replicas = []
    for p in plan:
        r = results[p["id"]]
        key = family_key(molecules, p["name"], p["temperature"])
        f = fam.setdefault(key, dict(replicas=0, frames_sampled=0, frames_kept=0, exploded_replicas=0,
                                     **{f"dropped_{k}": 0 for k in DROP_KEYS}))
        f["replicas"] += 1
        f["frames_sampled"] += len(frames[p["id"]])
        f["frames_kept"] += len(r["frames"])
        n_lost = possible[p["id"]] - len(frames[p["id"]])      # after the replica exploded
        n_cut = md_stats["frames_per_replica"] - possible[p["id"]]  # its batch cut or skipped by --budget-s
        f["dropped_exploded"] += n_lost
        drops["exploded"] += n_lost
        f["dropped_md_budget"] += n_cut
        drops["md_budget"] += n_cut
        if exploded[p["id"]] is not None:
            f["exploded_replicas"] += 1
            exploded_replicas.append(f"{p['name']}@{int(p['temperature'])}K#{p['replica']} "
                                     f"(conformer {p['conformer']}) at {exploded[p['id']]:.0f} fs")
        for k, v in r["drops"].items():
            f[f"dropped_{k}"] += v
            drops[k] += v
        split = "val" if p["name"] in val_names and listed.get(p["name"], {}).get("split") == "train" else "train"
        for x, force, e in r["frames"]:
            rows[split].append((p["name"], p["temperature"], p["numbers"], x, force, e))
    write_npz(os.path.join(args.out, f"{system}.train.npz"), rows["train"])
    write_npz(os.path.join(args.out, f"{system}.val.npz"), rows["val"])

    labelled = sum(r["labelled"] for r in results.values())
    label_cpu = sum(r["cpu_s"] for r in results.values())
    summary = dict(
        system=system, files=[f"{system}.train.npz", f"{system}.val.npz"], weights=args.weights,
        weights_sha256=weights_digest,
        teacher="GFN2-xTB (libxtb in-process, organic_data.label_frames); sampling: the student's Langevin MD",
        seed=args.seed, val_seed=args.val_seed, val_fraction=args.val_fraction, dt_fs=DT_FS,
        friction_per_fs=FRICTION_PER_FS, temperatures_K=args.temperatures, ps=args.ps, equil_fs=args.equil_fs,
        every_fs=args.every_fs, replicas=args.replicas, conformers=args.conformers, limit=args.limit,
        weight_category=args.weight_category or [], weight_smarts=args.weight_smarts or [],
        only_weighted=bool(args.only_weighted),
        weighted_molecules={n: w for n, w in sorted(weights.items()) if w[0] > 1},
        starts_files=start_files,
        molecules=dict(train=len(keep - val_names), val=len(keep & val_names),
                       **pool_molecule_counts(keep, molecules)),
        val_molecules=sorted(keep & val_names),
        frames=dict(train=len(rows["train"]), val=len(rows["val"]),
                    sampled=sum(len(v) for v in frames.values()), labelled=labelled),
        replicas_run=len(plan), dropped=drops, exploded_replicas=exploded_replicas,
        student_force_mae_median=None,   # the student's error on these frames, filled in below
        families=dict(sorted(fam.items())), md=dict(md_stats, device=", ".join(devices)),
        workers=args.workers, teacher_cpu_s=round(label_cpu, 1), teacher_wall_s=round(label_wall, 1),
        teacher_frames_per_s_per_core=round(labelled / max(label_cpu, 1e-9), 1),
        wall_s=round(time.time() - t_start, 1), cpu=os.uname().machine + f", {os.cpu_count()} cores")
    record = os.path.join(args.out, f"{system}.json")
    # the record of the frames first: a round cut (ACTIVE_BUDGET_S) during the student's error below keeps it, with
    # student_force_mae_median null, beside the npz files the training takes
    with open(record, "w") as f:
        json.dump(summary, f, indent=1)

    # the student's error on the frames it visited, per family and temperature (train and val rows in order)
    errs = student_errors(model, rows["train"] + rows["val"], device)
    keys = [family_key(molecules, r[0], r[1]) for r in rows["train"] + rows["val"]]
    for key, f in fam.items():
        e = [v for k, v in zip(keys, errs) if k == key]
        f["student_force_mae_median"] = round(float(np.median(e)), 4) if e else None
        f["student_force_mae_p95"] = round(float(np.percentile(e, 95)), 4) if e else None
    summary.update(student_force_mae_median=round(float(np.median(errs)), 4) if errs else None,
                   families=dict(sorted(fam.items())), wall_s=round(time.time() - t_start, 1))
    with open(record, "w") as f:
        json.dump(summary, f, indent=1)
    log(json.dumps({k: summary[k] for k in ("frames", "molecules", "dropped", "student_force_mae_median",
                                            "wall_s", "teacher_cpu_s", "teacher_frames_per_s_per_core")}), flush=True)
    return summary


MD_SEED = 20261129   # round 1's MD seed, the one every round used until round 21


def md_seed(seed, round_):
    """The MD seed of round ROUND: SEED where given, else MD_SEED + ROUND - 1. One seed for every round (rounds 1-21)
    mixed the batches alike in rounds with the same starts, so where --budget-s cut the MD (the one-GPU kind: 5 of 11
    batches in round 21), the same replicas went without frames in each of them."""
    return MD_SEED + round_ - 1 if seed is None else seed


def parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True, help="student weights: state.npz (train.py) or .safetensors")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--round", type=int, default=1, help="round number R: files organic-active-r<R>.*")
    ap.add_argument("--starts", nargs="+", action="append", metavar="FILE",
                    help="start files (extended XYZ with name= and split=; repeatable), default the list's training "
                         "starts; a pool's (split=<pool> of organic_data.POOLS, organic/<pool>.csv) go to training only; a "
                         "test molecule in any file is refused")
    ap.add_argument("--molecules", default=os.path.join(HERE, "organic", "molecules.csv"),
                    help="molecule list: name,smiles,category,split")
    ap.add_argument("--temperatures", type=float, nargs="+", default=[300.0, 600.0], help="K")
    ap.add_argument("--ps", type=float, default=1.25, help="length of each replica's MD (ps), equilibration included")
    ap.add_argument("--equil-fs", type=float, default=250.0, help="MD before the first frame (fs)")
    ap.add_argument("--every-fs", type=float, default=125.0, help="fs between frames")
    ap.add_argument("--conformers", type=int, default=1, help="starts per molecule (the first N conformers)")
    ap.add_argument("--replicas", type=int, default=1, help="replicas per start and temperature (x family weight)")
    ap.add_argument("--weight-category", action="append", metavar="CATEGORY=K",
                    help="K x the replicas of molecules of this category of the molecule list (repeatable)")
    ap.add_argument("--weight-smarts", action="append", metavar="SMARTS=K",
                    help="K x the replicas of molecules matching this SMARTS (RDKit; repeatable)")
    ap.add_argument("--only-weighted", action="store_true",
                    help="sample only the molecules matched by --weight-category / --weight-smarts")
    ap.add_argument("--group-atoms", type=int, default=20000,
                    help="atoms per MD batch (GPU memory: every pair within a molecule is an edge, ~19 an atom; "
                         "one force evaluation takes ~33 kB an edge, ~25 GB for 40,000 atoms); 20,000 is round 3's "
                         "measured batch size (24,268 atoms) and cuts the full set into four batches, two a GPU")
    ap.add_argument("--budget-s", type=float, default=0,
                    help="seconds of MD (0: no limit): no batch starts after them and a running one is cut there "
                         "(its replicas keep their frames); what was sampled is labelled and written")
    ap.add_argument("--mix-batches", action="store_true",
                    help="batch the replicas in a seeded random order (--seed) instead of the start files': a "
                         "--budget-s cut then thins every pool alike instead of leaving the last files without frames")
    ap.add_argument("--seed", type=int, default=None,
                    help=f"MD seed (default {MD_SEED} + ROUND - 1: each round its own trajectories and, with "
                         "--mix-batches, its own batch order, so that a --budget-s cut leaves out other replicas each "
                         "round, not the same ones)")
    ap.add_argument("--val-seed", type=int, default=DATA_SEED, help="organic_data.py's --seed (its validation molecules)")
    ap.add_argument("--val-fraction", type=float, default=DATA_VAL_FRACTION, help="organic_data.py's --val-fraction")
    ap.add_argument("--workers", type=int, default=max(1, len(os.sched_getaffinity(0)) - 1),
                    help="labelling processes")
    ap.add_argument("--limit", type=int, default=0, help="only the first N molecules of each start file (a smoke test)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--devices", default="",
                    help="several devices for the MD, comma-separated (cuda:0,cuda:1; cpu,cpu for a test): one process "
                         "a device, each taking the next batch; default --device alone")
    return ap


def check_args(ap, args):
    """Refuse, before anything is written or started, what would fail only later (a device string the MD's worker
    process would reject after the starts are read, a CUDA device this machine lacks, a start file that is not there)
    or mean nothing (a negative MD budget): ap.error names the option and the value, exit status 2."""
    names = [d.strip() for d in args.devices.split(",")] if args.devices else [args.device]
    for d in names:
        try:
            dev = torch.device(d)
        except RuntimeError:
            ap.error(f"{'--devices' if args.devices else '--device'}: '{d}' is not a device (cpu, cuda, cuda:N)")
        if dev.type == "cuda" and (not torch.cuda.is_available()
                                   or (dev.index or 0) >= torch.cuda.device_count()):
            ap.error(f"{'--devices' if args.devices else '--device'}: '{d}': this machine has "
                     f"{torch.cuda.device_count() if torch.cuda.is_available() else 'no'} CUDA device(s)")
    if args.budget_s < 0:
        ap.error(f"--budget-s: {args.budget_s:g} s: expected 0 (no limit) or more")
    for group in args.starts or []:
        for f in group:
            if not os.path.isfile(f):
                ap.error(f"--starts: {f}: no such file")


def main(argv=None, log=print):
    ap = parser()
    args = ap.parse_args(argv)
    check_args(ap, args)
    args.seed = md_seed(args.seed, args.round)
    os.makedirs(args.out, exist_ok=True)
    return run(args, log)


if __name__ == "__main__":
    main()
