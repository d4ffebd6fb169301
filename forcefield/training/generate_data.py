#!/usr/bin/python3
"""Generates the labelled GFN2-xTB data set of the bundled student model.

    /usr/bin/python3 forcefield/training/generate_data.py            # ~15-25 min on 2 cores

Start geometries are the xtb-optimised molecules Molten ships (structures/src/main/resources/
org/molten/structures/molecules/*.xyz), so the model is trained on exactly those. For every
system the plan below samples configurations (xtb MD with GFN2-xTB and, for longer and hotter
coverage at low cost, GFN-FF; Gaussian jitter of sampled frames; random water-cluster packings),
then labels every configuration with a GFN2-xTB single point + gradient. The test set of each
system comes from its own, independent GFN2-xTB MD run at 300 K (what an MD user sees), never
from the trajectories the training frames come from.

Outputs (energies eV, forces eV/Å, extended XYZ, gzip):
  forcefield/training/data/<system>.train.xyz.gz, <system>.val.xyz.gz
  forcefield/src/main/resources/org/molten/forcefield/student/testset/<system>.xyz.gz
  forcefield/training/data/dataset.json   (counts, discarded frames by reason, timings, seeds)
"""
import argparse
import json
import multiprocessing as mp
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extxyz  # noqa: E402
import sampling  # noqa: E402
import teacher  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MOLECULE_DIR = os.path.join(REPO, "structures/src/main/resources/org/molten/structures/molecules")
DATA_DIR = os.path.join(REPO, "forcefield/training/data")
TEST_DIR = os.path.join(REPO, "forcefield/src/main/resources/org/molten/forcefield/student/testset")

MASTER_SEED = 20261121
JITTER_SIGMA_A = 0.03          # Gaussian displacement per Cartesian coordinate, Å
MIN_DISTANCE_A = 0.6           # frames with a closer atom pair are clashes
MAX_EXCESS_EV_PER_ATOM = 1.0   # energy above the start geometry's, per atom: beyond this a frame is absurd
MAX_FORCE_EV_PER_A = 30.0      # largest force component accepted
VAL_FRACTION = 0.1

# Per molecule: GFN2-xTB MD and GFN-FF MD runs as (T [K], time [ps], dump every [fs], frames kept),
# jitter frames, and the test run (GFN2-xTB MD at 300 K, independent velocities).
MOLECULES = {
    "water": dict(gfn2=[(300, 5.0, 10, 300), (600, 5.0, 10, 300), (1000, 5.0, 10, 300)],
                  gfnff=[(300, 5.0, 10, 100), (600, 5.0, 10, 100), (1000, 5.0, 10, 100)],
                  jitter=100, test=(300, 2.0, 10, 200)),
    "ethanol": dict(gfn2=[(300, 4.0, 10, 400), (600, 4.0, 10, 400), (1000, 4.0, 10, 400)],
                    gfnff=[(300, 6.0, 20, 200), (600, 6.0, 20, 200), (1000, 6.0, 20, 200)],
                    jitter=200, test=(300, 2.0, 10, 200)),
    "benzene": dict(gfn2=[(300, 4.0, 10, 400), (600, 4.0, 10, 400), (1000, 4.0, 10, 400)],
                    gfnff=[(300, 6.0, 20, 200), (600, 6.0, 20, 200), (1000, 6.0, 20, 200)],
                    jitter=200, test=(300, 2.0, 10, 200)),
    "alanine-dipeptide": dict(gfn2=[(300, 2.0, 10, 200), (600, 2.0, 10, 200), (1000, 1.5, 10, 150)],
                              gfnff=[(300, 6.0, 10, 500), (600, 6.0, 10, 500), (1000, 6.0, 10, 500)],
                              jitter=500, test=(300, 1.5, 10, 150)),
    "ace-ala5-nme": dict(gfn2=[(300, 0.5, 5, 100), (600, 0.5, 5, 100), (1000, 0.25, 5, 50)],
                         gfnff=[(300, 6.0, 10, 550), (600, 6.0, 10, 550), (1000, 6.0, 10, 550)],
                         jitter=450, test=(300, 0.5, 5, 100)),
}
# Water clusters (H2O)n, n = 2..8: per size, `packings` random packings, each run with GFN2-xTB MD
# and GFN-FF MD inside a soft spherical wall; plus raw random packings and jitter; a test run
# from an extra packing.
CLUSTER_SIZES = list(range(2, 9))
CLUSTERS = dict(packings=2,
                gfn2=[(300, 0.75, 10, 60), (450, 0.5, 10, 45)],
                gfnff=[(300, 5.0, 20, 80), (500, 5.0, 20, 80)],
                raw_packings=10, jitter=40, test=(300, 0.75, 25, 30))


def seed_of(*parts):
    """A seed derived from MASTER_SEED and a job's name (sampling.derived_seed)."""
    return sampling.derived_seed(MASTER_SEED, *parts)


def md_cost(n_atoms, method, time_ps):
    """Rough cost in seconds (measured on this machine: GFN2 66 ms/step at 62 atoms, GFN-FF ~1 ms)."""
    steps = time_ps * 1000.0 / sampling.MD_STEP_FS
    per = 6.6e-2 * (n_atoms / 62.0) ** 2 + 5e-4 if method == "gfn2" else 1e-3
    return steps * per


# ---- jobs (run in worker processes) -------------------------------------------------------------

def _workdir():
    d = os.path.join(tempfile.gettempdir(), f"molten-datagen-{os.getpid()}")
    os.makedirs(d, exist_ok=True)
    return d


def run_md_job(job):
    t0 = time.time()
    numbers, positions = np.asarray(job["numbers"]), np.asarray(job["positions"])
    wd = os.path.join(_workdir(), "md")
    if job.get("preopt"):
        opt = sampling.xtb_optimise(numbers, positions, "gfnff", wd)
        positions = positions if opt is None else opt
    traj = sampling.xtb_md(numbers, positions, job["method"], job["T"], job["time_ps"], job["dump_fs"],
                           job["seed"], wd, wall=job.get("wall", False))
    kept = sampling.evenly(traj, job["keep"])
    info = dict(system=job["system"], source=f"{job['method']}-md-{job['T']}K")
    return dict(job=job["name"], seconds=time.time() - t0, n_traj=len(traj),
                frames=[(numbers, p, info, job["split"]) for p in kept])


def label_chunk(chunk):
    wd = os.path.join(_workdir(), "sp")
    os.makedirs(wd, exist_ok=True)
    out = []
    t0 = time.time()
    for key, numbers, positions in chunk:
        if sampling.min_distance(positions) < MIN_DISTANCE_A:
            out.append((key, "clash", None, None))
            continue
        try:
            e, f = teacher.single_point(numbers, positions, workdir=wd)
            out.append((key, "ok", e, f))
        except teacher.TeacherFailure:
            out.append((key, "scf", None, None))
    return out, time.time() - t0


# ---- plan -----------------------------------------------------------------------------------------

def load_start_geometries(mol_dir):
    starts = {}
    for name in MOLECULES:
        path = os.path.join(mol_dir, name + ".xyz")
        if not os.path.exists(path):
            raise SystemExit(f"missing start geometry {path}")
        starts[name] = extxyz.read(path)[0]
    return starts


def build_plan(starts, scale):
    jobs, static = [], []   # static: frames that need no MD (raw packings)
    for name, spec in MOLECULES.items():
        fr = starts[name]
        for method in ("gfn2", "gfnff"):
            for T, ps, dump, keep in spec[method]:
                jobs.append(dict(name=f"{name}/{method}/{T}K", system=name, method=method, T=T,
                                 time_ps=ps * scale, dump_fs=dump, keep=max(2, int(keep * scale)), split="pool",
                                 numbers=fr.numbers, positions=fr.positions, seed=seed_of(name, method, T)))
        T, ps, dump, keep = spec["test"]
        jobs.append(dict(name=f"{name}/test/{T}K", system=name, method="gfn2", T=T, time_ps=ps * scale,
                         dump_fs=dump, keep=max(2, int(keep * scale)), split="test",
                         numbers=fr.numbers, positions=fr.positions, seed=seed_of(name, "test", T)))
    monomer = starts["water"]
    for n in CLUSTER_SIZES:
        rng = np.random.default_rng(seed_of("cluster", n))
        packings = [sampling.water_cluster(monomer, n, rng) for _ in range(CLUSTERS["packings"] + 1)]
        for k, (numbers, pos) in enumerate(packings):
            split = "test" if k == CLUSTERS["packings"] else "pool"
            runs = [("gfn2", CLUSTERS["test"])] if split == "test" else \
                [("gfn2", r) for r in CLUSTERS["gfn2"]] + [("gfnff", r) for r in CLUSTERS["gfnff"]]
            for method, (T, ps, dump, keep) in runs:
                jobs.append(dict(name=f"water-clusters/{n}/{k}/{method}/{T}K", system="water-clusters",
                                 method=method, T=T, time_ps=ps * scale, dump_fs=dump,
                                 keep=max(2, int(keep * scale)), split=split, numbers=numbers, positions=pos,
                                 seed=seed_of("cluster", n, k, method, T), wall=True, preopt=True))
        for _ in range(max(1, int(CLUSTERS["raw_packings"] * scale))):
            numbers, pos = sampling.water_cluster(monomer, n, rng)
            static.append((numbers, pos, dict(system="water-clusters", source="random-packing"), "pool"))
    for j in jobs:
        j["cost"] = md_cost(len(j["numbers"]), j["method"], j["time_ps"])
    jobs.sort(key=lambda j: -j["cost"])
    return jobs, static


def xtb_version():
    r = subprocess.run(["xtb", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for ln in r.stdout.splitlines():
        if "xtb version" in ln:
            return ln.strip().lstrip("* ").strip()
    return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--molecules", default=MOLECULE_DIR, help="directory of the start geometries (.xyz)")
    ap.add_argument("--out", default=DATA_DIR, help="directory for train/val files and dataset.json")
    ap.add_argument("--test-out", default=TEST_DIR, help="directory for the test files")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="scale every MD length and frame count (dry runs)")
    args = ap.parse_args()
    t_start = time.time()
    starts = load_start_geometries(args.molecules)

    # Reference energies for the 'absurd energy' filter, and measured single-point times.
    ref, sp_seconds = {}, {}
    for name, fr in starts.items():
        t0 = time.time()
        e, f = teacher.single_point(fr.numbers, fr.positions)
        sp_seconds[name] = time.time() - t0
        ref[name] = e / len(fr)
        print(f"start {name:18s} {len(fr):3d} atoms  E = {e:14.6f} eV  max|F| = {np.abs(f).max():.4f} eV/Å"
              f"  single point {sp_seconds[name] * 1e3:.0f} ms", flush=True)

    jobs, static = build_plan(starts, args.scale)
    print(f"{len(jobs)} MD jobs, estimated {sum(j['cost'] for j in jobs):.0f} s of MD on one core", flush=True)
    pool_frames, test_frames = {}, {}
    md_seconds, md_log = 0.0, []
    with mp.Pool(args.workers) as pool:
        for res in pool.imap_unordered(run_md_job, jobs):
            md_seconds += res["seconds"]
            md_log.append(dict(job=res["job"], frames_written=res["n_traj"], kept=len(res["frames"]),
                               seconds=round(res["seconds"], 1)))
            print(f"  md {res['job']:40s} {res['n_traj']:5d} frames, kept {len(res['frames']):4d}"
                  f"  {res['seconds']:6.1f} s  (wall {time.time() - t_start:6.0f} s)", flush=True)
            for numbers, p, info, split in res["frames"]:
                (test_frames if split == "test" else pool_frames).setdefault(info["system"], []).append(
                    extxyz.Frame(numbers, p, info=info))
    for numbers, p, info, split in static:
        pool_frames.setdefault(info["system"], []).append(extxyz.Frame(numbers, p, info=info))
    # Jitter: Gaussian displacements of randomly chosen sampled frames of the same system.
    for name in pool_frames:
        n_jit = MOLECULES[name]["jitter"] if name in MOLECULES else CLUSTERS["jitter"] * len(CLUSTER_SIZES)
        n_jit = max(1, int(n_jit * args.scale))
        rng = np.random.default_rng(seed_of("jitter", name))
        src = [f for f in pool_frames[name] if f.info["source"] != "random-packing"]
        for k in rng.choice(len(src), size=n_jit, replace=True):
            fr = sampling.jitter(src[k], JITTER_SIGMA_A, rng)
            fr.info["source"] = f"jitter-{JITTER_SIGMA_A}A"
            pool_frames[name].append(fr)
    # The shipped start geometries themselves are training frames.
    for name, fr in starts.items():
        pool_frames[name].append(extxyz.Frame(fr.numbers, fr.positions, info=dict(system=name, source="start")))

    # Label everything with GFN2-xTB single points.
    items = []
    for split, table in (("pool", pool_frames), ("test", test_frames)):
        for name, frames in table.items():
            for i, fr in enumerate(frames):
                items.append(((split, name, i), fr.numbers, fr.positions))
    items.sort(key=lambda it: -len(it[1]))
    chunks = [items[i:i + 20] for i in range(0, len(items), 20)]
    print(f"labelling {len(items)} frames in {len(chunks)} chunks", flush=True)
    label_seconds = 0.0
    results = {}
    with mp.Pool(args.workers) as pool:
        for k, (res, secs) in enumerate(pool.imap_unordered(label_chunk, chunks)):
            label_seconds += secs
            for key, status, e, f in res:
                results[key] = (status, e, f)
            if k % 50 == 0:
                print(f"  labelled {len(results):6d}/{len(items)}  (wall {time.time() - t_start:6.0f} s)", flush=True)

    # Filter, split, write.
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.test_out, exist_ok=True)
    monomer_e = ref["water"] * 3
    stats = {}
    for split, table in (("pool", pool_frames), ("test", test_frames)):
        for name, frames in table.items():
            st = stats.setdefault(name, dict(sampled=0, discarded=dict(clash=0, scf=0, absurd_energy=0,
                                                                         large_force=0), sources={}))
            good = []
            for i, fr in enumerate(frames):
                st["sampled"] += 1
                status, e, f = results[(split, name, i)]
                if status != "ok":
                    st["discarded"][status] += 1
                    continue
                e_ref = (len(fr) // 3) * monomer_e if name == "water-clusters" else ref[name] * len(fr)
                if (e - e_ref) / len(fr) > MAX_EXCESS_EV_PER_ATOM:
                    st["discarded"]["absurd_energy"] += 1
                    continue
                if np.abs(f).max() > MAX_FORCE_EV_PER_A:
                    st["discarded"]["large_force"] += 1
                    continue
                fr.energy, fr.forces = e, f
                good.append(fr)
                key = ("test:" if split == "test" else "") + fr.info["source"]
                st["sources"][key] = st["sources"].get(key, 0) + 1
            if split == "test":
                extxyz.write(os.path.join(args.test_out, f"{name}.xyz.gz"), good)
                st["test"] = len(good)
            else:
                rng = np.random.default_rng(seed_of("split", name))
                is_val = rng.random(len(good)) < VAL_FRACTION
                train = [f for f, v in zip(good, is_val) if not v]
                val = [f for f, v in zip(good, is_val) if v]
                extxyz.write(os.path.join(args.out, f"{name}.train.xyz.gz"), train)
                extxyz.write(os.path.join(args.out, f"{name}.val.xyz.gz"), val)
                st["train"], st["val"] = len(train), len(val)
                st["atoms"] = sorted({len(f) for f in good})
    summary = dict(teacher=f"GFN2-xTB ({xtb_version()}), single point + gradient, charge 0, closed shell",
                   units=dict(energy="eV", forces="eV/Å", positions="Å"),
                   master_seed=MASTER_SEED, scale=args.scale, molecules=MOLECULES, clusters=CLUSTERS,
                   cluster_sizes=CLUSTER_SIZES, jitter_sigma_A=JITTER_SIGMA_A,
                   filters=dict(min_distance_A=MIN_DISTANCE_A, max_excess_ev_per_atom=MAX_EXCESS_EV_PER_ATOM,
                                max_force_ev_per_a=MAX_FORCE_EV_PER_A),
                   systems=stats, single_point_ms_at_start=dict((k, round(v * 1e3, 1)) for k, v in sp_seconds.items()),
                   md_cpu_seconds=round(md_seconds), label_cpu_seconds=round(label_seconds),
                   wall_seconds=round(time.time() - t_start), workers=args.workers,
                   machine=f"{platform.node()} ({os.cpu_count()} cores)", created=time.strftime("%Y-%m-%d"),
                   md_runs=sorted(md_log, key=lambda r: r["job"]))
    with open(os.path.join(args.out, "dataset.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"\n{'system':18s} {'train':>6s} {'val':>5s} {'test':>5s} {'clash':>5s} {'scf':>4s} {'absurd':>6s} {'bigF':>5s}")
    for name, st in stats.items():
        d = st["discarded"]
        print(f"{name:18s} {st.get('train', 0):6d} {st.get('val', 0):5d} {st.get('test', 0):5d} {d['clash']:5d}"
              f" {d['scf']:4d} {d['absurd_energy']:6d} {d['large_force']:5d}")
    print(f"wall {time.time() - t_start:.0f} s (MD {md_seconds:.0f} s, labels {label_seconds:.0f} s of CPU)")


if __name__ == "__main__":
    main()
