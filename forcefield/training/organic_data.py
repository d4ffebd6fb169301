"""Sample and label the organic H/C/N/O data set of the general student (issue: the user's own molecule).

Starts: RDKit conformers of the molecule list (organic/make_starts.py -> organic/starts.{train,test}.xyz.gz).
Per start and temperature, cheap and faithful sampling:
  GFN-FF Langevin MD in-process (libxtb, 0.5 fs, friction 0.02 fs^-1, real masses), equilibrated for
  EQUIL steps, then a frame every EVERY steps; a quarter of the training frames get a jittered twin
  (Gaussian displacements, sigma 0.03 Å) for the steep walls MD rarely visits.
Every frame is labelled with GFN2-xTB in-process (libxtb: default accuracy, 300 K electronic temperature,
as the teacher of docs/teacher.md). Dropped and counted: a failed SCF, a changed bond graph (covalent
radii x 1.2, the rule of md_check.py) against the start, an atom pair closer than 0.6 Å, an energy more
than 1 eV/atom above the start's, a force component above 30 eV/Å.

Output (OUT/):
  organic.train.npz, organic.val.npz   flat arrays for train.py (dataset.load_split reads them)
  organic-test.npz                     the independent test molecules' frames (never trained on)
  organic-small.train.npz              with --small: the small-molecule pool's frames (system organic-small)
  organic-conjugated.train.npz         with --conjugated: the conjugated pool's frames (system organic-conjugated)
  organic-rare.train.npz               with --rare: the rare-bond pool's frames (system organic-rare)
  organic-motifs.train.npz             with --motifs: the motif pool's frames (system organic-motifs)
  organic-coverage.train.npz           with --coverage: the coverage pool's frames (system organic-coverage)
  organic-rings.train.npz              with --rings: the ring-system pool's frames (system organic-rings)
  organic-coverage2.train.npz          with --coverage2: the second coverage draw's frames (system organic-coverage2)
  organic-rings2.train.npz             with --rings2: the second ring-system draw's frames (system organic-rings2)
  organic-rings3.train.npz             with --rings3: the third ring-system draw's frames (system organic-rings3)
  organic-coverage3.train.npz          with --coverage3: the third coverage draw's frames (system organic-coverage3)
  testset/<molecule>_<T>K.xyz.gz       the same frames for `molten accuracy --testset`
  organic-data.json                    counts, drops, seeds, timings (frames/s/core, teacher CPU time)

Deterministic: every task's seed comes from (master seed, start index, temperature); results are
ordered by task, not by completion. Units: Å, eV, eV/Å, amu, fs, K.
"""
import argparse
import json
import multiprocessing as mp
import os
import re
import time

import numpy as np

import extxyz
from units import ACCEL_A_PER_FS2, BOLTZMANN_EV_PER_K, MASSES_AMU

COVALENT_RADII_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}   # Cordero et al. 2008, as md_check.py
BOND_FACTOR = 1.2
DT_FS = 0.5
FRICTION_PER_FS = 0.02
JITTER_A = 0.03
CLASH_A = 0.6
MAX_FORCE = 30.0
MAX_EXCESS_EV_PER_ATOM = 1.0
# The pools beside the list (option --<pool>, STARTS/starts.<pool>.xyz.gz -> organic-<pool>.train.npz, training only):
# the start id of each pool's first start, from which its tasks' seeds come (the list's training starts from 0, its test
# starts from 100000), so that adding a pool changes no other task's seed; 600000 is test set B's (organic_testb_data.py)
POOLS = {"small": 200000, "conjugated": 300000, "rare": 400000, "motifs": 500000, "coverage": 700000, "rings": 800000,
         "coverage2": 900000, "rings2": 1000000, "rings3": 1100000, "coverage3": 1200000}
# What each pool holds (its option's help): STARTS/starts.<pool>.xyz.gz, made by organic/enumerate_<pool>.py
POOL_HELP = {
    "small": "the exhaustive pool of small molecules (STARTS/starts.small.xyz.gz of organic/enumerate_small.py)",
    "conjugated": "the conjugated pool (STARTS/starts.conjugated.xyz.gz of organic/enumerate_conjugated.py)",
    "rare": "the rare-bond pool (STARTS/starts.rare.xyz.gz of organic/enumerate_rare.py: every tiny molecule GFN2-xTB "
            "keeps, and N-N, N-O, N-C#N, O-C-O, 1,2-dicarbonyl, strained alkene and small nitro families)",
    "motifs": "the motif pool (STARTS/starts.motifs.xyz.gz of organic/enumerate_motifs.py: aryl O-C-O acetals, N-cyano "
              "amidines and guanidines, 3-/4-ring-fused bicyclic alkenes and ketones, aryl 1,2-dicarbonyls)",
    "coverage": "the coverage pool (STARTS/starts.coverage.xyz.gz of organic/enumerate_coverage.py: molecules chosen "
                "greedily to cover the atom environments the training data hold fewer than 3 times, never by a test "
                "molecule's error)",
    "rings": "the ring-system pool (STARTS/starts.rings.xyz.gz of organic/enumerate_rings.py: ring systems the training "
             "data never held, drawn from a systematic enumeration of mono-, fused, bridged and spiro ring systems by a "
             "seeded, stratified rule, never by a model's error; none of test set A's or B's ring systems)",
    "coverage2": "the second coverage draw (STARTS/starts.coverage2.xyz.gz of organic/enumerate_coverage.py --draw 2: the "
                 "coverage pool's rule continued, counting the list's training molecules and all six pools, rings.csv "
                 "included, never by a model's error)",
    "rings2": "the second ring-system draw (STARTS/starts.rings2.xyz.gz of organic/enumerate_rings.py --draw 2: the ring "
              "pool's seeded, stratified rule continued, 10 ring systems a stratum, with rings.csv and coverage2.csv "
              "counted as training data; none of test set A's or B's ring systems)",
    "rings3": "the third ring-system draw (STARTS/starts.rings3.xyz.gz of organic/enumerate_rings.py --draw 3: the ring "
              "pool's rule continued again, 10 ring systems a stratum, with rings2.csv counted too; none of test set "
              "A's or B's ring systems)",
    "coverage3": "the third coverage draw (STARTS/starts.coverage3.xyz.gz of organic/enumerate_coverage.py --draw 3: the "
                 "coverage pool's rule continued again, counting the list's training molecules and the pools the shipped "
                 "preview was trained on, coverage2.csv and rings2.csv included, rings3.csv not; never by a model's error)",
}


def bond_graph(numbers, positions):
    """Sorted (i, j) pairs closer than 1.2 x the sum of covalent radii."""
    r = np.array([COVALENT_RADII_A[int(z)] for z in numbers])
    d = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    i, j = np.where(np.triu(d < BOND_FACTOR * (r[:, None] + r[None, :]), 1))
    return frozenset(zip(i.tolist(), j.tolist()))


def file_stem(name):
    """A molecule's name as a portable file name (letters, digits, '.', '+', '-'; anything else '_')."""
    return re.sub(r"[^A-Za-z0-9.+-]", "_", name)


def min_distance(positions):
    d = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    d[np.diag_indices(len(positions))] = np.inf
    return float(d.min())


def gfnff_md(calc, numbers, x0, temperature, steps_equil, n_frames, every, rng):
    """BAOAB Langevin MD on GFN-FF; returns the sampled positions [n_frames, n, 3] (Å)."""
    m = np.array([MASSES_AMU[int(z)] for z in numbers])[:, None]
    kt = BOLTZMANN_EV_PER_K * temperature
    sigma = np.sqrt(kt * ACCEL_A_PER_FS2 / m)               # Å/fs per component
    v = rng.normal(size=x0.shape) * sigma
    v -= (m * v).sum(0) / m.sum()
    x = x0.copy()
    _, f = calc.compute(x)
    c1 = np.exp(-FRICTION_PER_FS * DT_FS)
    c2 = np.sqrt(1.0 - c1 * c1)
    out = []
    total = steps_equil + n_frames * every
    for step in range(1, total + 1):
        v += 0.5 * DT_FS * f * ACCEL_A_PER_FS2 / m
        x += 0.5 * DT_FS * v
        v = c1 * v + c2 * sigma * rng.normal(size=x.shape)
        x += 0.5 * DT_FS * v
        _, f = calc.compute(x)
        v += 0.5 * DT_FS * f * ACCEL_A_PER_FS2 / m
        if step > steps_equil and (step - steps_equil) % every == 0:
            out.append(x.copy())
    return out


def label_frames(numbers, x0, sampled, drops):
    """GFN2-xTB labels of the sampled geometries of the molecule whose start is x0 (Å): a list of
    (positions float32 Å, forces float32 eV/Å, energy eV), and the number of single points run. Dropped and
    counted in `drops` (a dict of counters, updated): a changed bond graph against x0, a clash, a failed SCF,
    an energy more than MAX_EXCESS_EV_PER_ATOM above the start's, a force component above MAX_FORCE."""
    from libxtb import XtbCalculator, XtbFailure
    frames = []
    ref_graph = bond_graph(numbers, x0)
    n_label = 0
    calc = None
    try:
        calc = XtbCalculator(numbers, x0, "gfn2")
        e_start, _ = calc.compute(x0)
    except XtbFailure:
        drops["scf"] += len(sampled)
        sampled, e_start = [], None
    for x in sampled:
        if bond_graph(numbers, x) != ref_graph:
            drops["bond_graph"] += 1
            continue
        if min_distance(x) < CLASH_A:
            drops["clash"] += 1
            continue
        try:
            n_label += 1
            e, f = calc.compute(x)
        except XtbFailure:
            drops["scf"] += 1
            calc.close()
            calc = XtbCalculator(numbers, x0, "gfn2")   # a failed SCF leaves its error on the environment
            continue
        if (e - e_start) / len(numbers) > MAX_EXCESS_EV_PER_ATOM:
            drops["high_energy"] += 1
            continue
        if np.abs(f).max() > MAX_FORCE:
            drops["large_force"] += 1
            continue
        frames.append((x.astype(np.float32), f.astype(np.float32), e))
    if calc is not None:
        calc.close()
    return frames, n_label


def run_task(task):
    """One start at one temperature: sample with GFN-FF, label with GFN2-xTB. Never raises."""
    from libxtb import XtbCalculator, XtbFailure
    numbers, x0 = task["numbers"], task["positions"]
    rng = np.random.default_rng(task["seed"])
    drops = dict(scf=0, bond_graph=0, clash=0, high_energy=0, large_force=0, md_failed=0)
    t0 = time.process_time()
    try:
        with XtbCalculator(numbers, x0, "gfnff") as ff:
            sampled = gfnff_md(ff, numbers, x0, task["temperature"], task["equil"], task["frames"], task["every"], rng)
    except (XtbFailure, FloatingPointError, ValueError):
        drops["md_failed"] += 1
        sampled = []
    t_md = time.process_time() - t0
    if task["jitter"]:
        twins = [x + rng.normal(scale=JITTER_A, size=x.shape) for k, x in enumerate(sampled) if k % 4 == 3]
        sampled = sampled + twins
    t1 = time.process_time()
    frames, n_label = label_frames(numbers, x0, sampled, drops)
    return dict(id=task["id"], frames=frames, drops=drops, md_cpu_s=t_md, label_cpu_s=time.process_time() - t1,
                labelled=n_label)


def read_starts(path, asked_by="organic_data.py --starts"):
    """The starts of an extended-XYZ(.gz) file; a missing file stops the run naming it and the option that asked for it
    (before any task has run, so nothing is lost)."""
    if not os.path.isfile(path):
        raise SystemExit(f"{asked_by}: {path}: no such file (the starts are made by organic/make_starts.py "
                         f"or the pool's organic/enumerate_*.py --starts)")
    return list(extxyz.read(path))


def tasks_for(starts, split, temps_by_conformer, frames, every, equil, jitter, master_seed, first_id):
    tasks = []
    for s_idx, st in enumerate(starts):
        k = int(st.info.get("conformer", 0))
        for temp in temps_by_conformer[k % len(temps_by_conformer)]:
            seed = np.random.SeedSequence([master_seed, first_id + s_idx, int(temp)]).generate_state(1)[0]
            tasks.append(dict(id=len(tasks) + first_id * 10, split=split, name=st.info["name"], conformer=k,
                              temperature=float(temp), numbers=st.numbers, positions=st.positions,
                              seed=int(seed), frames=frames, every=every, equil=equil, jitter=jitter))
    return tasks


def val_molecules(names, seed, fraction):
    """The training molecules held out whole for validation: a seeded draw of round(fraction x len) of the
    sorted names (at least one). organic_active.py holds out the same molecules."""
    names = sorted(names)
    rng = np.random.default_rng(seed)
    return set(rng.choice(names, size=max(1, int(round(fraction * len(names)))), replace=False).tolist())


def pool_counts(pools, count):
    """organic-data.json's counts of the pools: small always (0 without --small, as before the other pools), the
    others when they were asked for."""
    out = {"small": 0}
    out.update({p: count(p) for p in pools})
    return out


def save_npz(path, rows):
    """rows: list of (name, temperature, numbers, pos, forces, energy)."""
    n = np.array([len(r[2]) for r in rows], dtype=np.int32)
    names = sorted({r[0] for r in rows})
    idx = {s: k for k, s in enumerate(names)}
    np.savez_compressed(
        path, z=np.concatenate([r[2] for r in rows]).astype(np.int8),
        pos=np.concatenate([r[3] for r in rows]).astype(np.float32),
        forces=np.concatenate([r[4] for r in rows]).astype(np.float32),
        energy=np.array([r[5] for r in rows], dtype=np.float64), n_atoms=n,
        molecule=np.array([idx[r[0]] for r in rows], dtype=np.int32), molecules=np.array(names),
        temperature=np.array([r[1] for r in rows], dtype=np.float32))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--starts", default=os.path.join(os.path.dirname(__file__), "organic"),
                    help="folder with starts.train.xyz.gz and starts.test.xyz.gz")
    ap.add_argument("--out", required=True)
    ap.add_argument("--workers", type=int, default=max(1, os.cpu_count() - 1))
    ap.add_argument("--seed", type=int, default=20261128, help="master seed")
    ap.add_argument("--train-frames", type=int, default=16, help="MD frames per training start and temperature")
    ap.add_argument("--test-frames", type=int, default=10, help="MD frames per test start and temperature")
    ap.add_argument("--every", type=int, default=40, help="MD steps between frames (x 0.5 fs)")
    ap.add_argument("--equil", type=int, default=200, help="MD steps before the first frame")
    ap.add_argument("--limit", type=int, default=0, help="only the first N starts of each split (a smoke test)")
    ap.add_argument("--val-fraction", type=float, default=0.05, help="training molecules held out for validation")
    for pool, what in POOL_HELP.items():   # the pools beside the list, each its own option and system
        ap.add_argument(f"--{pool}", action="store_true",
                        help=f"also {what}: training frames in organic-{pool}.train.npz (system organic-{pool}, for "
                             "train.py's --system-weight), never held out for validation; every other task's seed and "
                             "the validation draw stay as they are without it")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.makedirs(os.path.join(args.out, "testset"), exist_ok=True)

    train_starts = read_starts(os.path.join(args.starts, "starts.train.xyz.gz"))
    test_starts = read_starts(os.path.join(args.starts, "starts.test.xyz.gz"))
    test_starts = [s for s in test_starts if int(s.info.get("conformer", 0)) < 2]   # two conformers per test molecule
    if args.limit:
        train_starts, test_starts = train_starts[:args.limit], test_starts[:args.limit]
    # Each training conformer is run at two of 300-1000 K; test molecules at 300 and 600 K, as the issue asks.
    train_temps = [(300, 600), (450, 1000), (300, 800)]
    tasks = tasks_for(train_starts, "train", train_temps, args.train_frames, args.every, args.equil, True,
                      args.seed, 0)
    tasks += tasks_for(test_starts, "test", [(300, 600)], args.test_frames, args.every, args.equil, False,
                       args.seed + 1, 100000)
    pool_starts = {}
    for pool, first_id in POOLS.items():   # own seeds (start ids from first_id): the other tasks keep theirs
        if getattr(args, pool):
            starts = read_starts(os.path.join(args.starts, f"starts.{pool}.xyz.gz"), f"organic_data.py --{pool}")
            pool_starts[pool] = starts[:args.limit] if args.limit else starts
            tasks += tasks_for(pool_starts[pool], pool, train_temps, args.train_frames, args.every, args.equil, True,
                               args.seed, first_id)
    print(f"{len(train_starts)} training starts, {len(test_starts)} test starts -> {len(tasks)} tasks on "
          f"{args.workers} workers", flush=True)

    t0 = time.time()
    results = {}
    with mp.get_context("fork").Pool(args.workers) as pool:
        for k, r in enumerate(pool.imap_unordered(run_task, tasks, chunksize=4)):
            results[r["id"]] = r
            if (k + 1) % 500 == 0:
                print(f"  {k + 1}/{len(tasks)} tasks, {time.time() - t0:.0f} s", flush=True)
    wall = time.time() - t0

    drops = {}
    rows = {"train": [], "test": [], **{pool: [] for pool in POOLS}}
    md_cpu = label_cpu = 0.0
    labelled = 0
    for t in tasks:
        r = results[t["id"]]
        for key, v in r["drops"].items():
            drops.setdefault(t["split"], {}).setdefault(key, 0)
            drops[t["split"]][key] += v
        md_cpu += r["md_cpu_s"]
        label_cpu += r["label_cpu_s"]
        labelled += r["labelled"]
        for x, f, e in r["frames"]:
            rows[t["split"]].append((t["name"], t["temperature"], t["numbers"], x, f, e))

    # validation: whole molecules held out (seeded), so it measures transfer, not interpolation
    names = sorted({r[0] for r in rows["train"]})
    val_names = val_molecules(names, args.seed, args.val_fraction)
    train_rows = [r for r in rows["train"] if r[0] not in val_names]
    val_rows = [r for r in rows["train"] if r[0] in val_names]
    save_npz(os.path.join(args.out, "organic.train.npz"), train_rows)
    save_npz(os.path.join(args.out, "organic.val.npz"), val_rows)
    save_npz(os.path.join(args.out, "organic-test.npz"), rows["test"])
    for pool in pool_starts:
        save_npz(os.path.join(args.out, f"organic-{pool}.train.npz"), rows[pool])
    in_pools = {"starts": lambda p: len(pool_starts[p]), "frames": lambda p: len(rows[p]),
                "molecules": lambda p: len({r[0] for r in rows[p]})}
    by_file = {}
    for name, temp, numbers, x, f, e in rows["test"]:
        by_file.setdefault(f"{file_stem(name)}_{int(temp)}K", []).append(
            extxyz.Frame(numbers, x, e, f, dict(system=name, temperature_K=int(temp), source=f"organic-gfnff-md-{int(temp)}K")))
    for key, frames in sorted(by_file.items()):
        extxyz.write(os.path.join(args.out, "testset", key + ".xyz.gz"), frames)
    stats = dict(
        teacher="GFN2-xTB (libxtb 6.5.1 in-process), sampling GFN-FF Langevin MD", seed=args.seed,
        dt_fs=DT_FS, friction_per_fs=FRICTION_PER_FS, every_steps=args.every, equil_steps=args.equil,
        train_temperatures_K=train_temps, test_temperatures_K=[300, 600], jitter_A=JITTER_A,
        starts=dict(train=len(train_starts), test=len(test_starts), **pool_counts(pool_starts, in_pools["starts"])),
        tasks=len(tasks),
        frames=dict(train=len(train_rows), val=len(val_rows), test=len(rows["test"]),
                    **pool_counts(pool_starts, in_pools["frames"])),
        atoms=dict(train=int(sum(len(r[2]) for r in train_rows)), test=int(sum(len(r[2]) for r in rows["test"]))),
        molecules=dict(train=len(names) - len(val_names), val=len(val_names), test=len({r[0] for r in rows["test"]}),
                       **pool_counts(pool_starts, in_pools["molecules"])),
        val_molecules=sorted(val_names), dropped=drops, labelled_frames=labelled, workers=args.workers,
        wall_s=round(wall, 1), md_cpu_s=round(md_cpu, 1), teacher_cpu_s=round(label_cpu, 1),
        teacher_frames_per_s_per_core=round(labelled / max(label_cpu, 1e-9), 1),
        cpu=os.uname().machine + f", {os.cpu_count()} cores")
    with open(os.path.join(args.out, "organic-data.json"), "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps({k: stats[k] for k in ("frames", "molecules", "dropped", "wall_s", "md_cpu_s", "teacher_cpu_s",
                                            "teacher_frames_per_s_per_core")}), flush=True)


if __name__ == "__main__":
    main()
