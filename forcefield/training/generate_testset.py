#!/usr/bin/python3
"""The independent test set: GFN2-xTB MD at 300 K and 600 K from starting conformers and seeds that the
training data never uses, one file per system, conformer family and temperature.

    nice -n 19 /usr/bin/python3 forcefield/training/generate_testset.py      # ~15 min on 2 cores

Peptide starts are backbone families set by torsion driving (every residue at the family's φ/ψ, amides
trans, or the first amide cis) and relaxed with GFN2-xTB under dihedral constraints; ethanol starts are
its trans and gauche OH rotamers; water clusters are fresh random packings (4, 10 and 20 molecules,
GFN-FF pre-optimised). From each start, a GFN2-xTB MD run per temperature (own seed); the first fifth of
each run is dropped (equilibration) and frames are kept evenly from the rest, then every frame is
relabelled with a GFN2-xTB single point (the same filters as the training data; discarded frames
counted in testset.json).

Output: forcefield/training/testset-independent/<system>_<family>_<T>K.xyz.gz (energies eV, forces
eV/Å), read by `./molten accuracy --testset forcefield/training/testset-independent` (one row per
file; `summarise_accuracy.py` pools the rows per system, temperature and family).
"""
import argparse
import json
import multiprocessing as mp
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformers  # noqa: E402
import extxyz  # noqa: E402
import generate_data as gd  # noqa: E402
import sampling  # noqa: E402

OUT_DIR = os.path.join(gd.REPO, "forcefield/training/testset-independent")
TEST_SEED = 20261126          # not the training master seed (20261121)
TEMPERATURES = (300, 600)
FRAMES = 30                   # per file
EQUILIBRATION_FRACTION = 0.2

PEPTIDE_FAMILIES = {
    "alanine-dipeptide": ["c7eq", "c5", "alphaR", "alphaL", "pII", "c7ax", "cis-pII"],
    "ace-ala5-nme": ["alphaR", "pII", "c5", "cis-pII"],
}
# MD per system: (time ps, dump fs)
MD = {"water": (1.0, 10), "ethanol": (1.0, 10), "benzene": (1.0, 10), "alanine-dipeptide": (1.0, 20),
      "ace-ala5-nme": (0.4, 10), "water-clusters": (0.4, 10)}
CLUSTER_SIZES = (4, 10, 20)


def seed(*parts):
    """A seed derived from TEST_SEED and a job's name (sampling.derived_seed)."""
    return sampling.derived_seed(TEST_SEED, *parts)


def ethanol_rotamer(numbers, positions, value_deg, workdir):
    """Ethanol with its H-O-C-C dihedral constrained to value_deg during a GFN2-xTB relaxation."""
    h, o, c1, c2, nb = conformers.ethanol_atoms(numbers, positions)
    p = conformers.set_dihedral(numbers, positions, h, o, c1, c2, value_deg, nb=nb)
    opt = conformers.relax(numbers, p, [(h, o, c1, c2, value_deg)], workdir)
    return p if opt is None else opt


def make_start(job):
    """Start geometry of one (system, family); runs in a worker."""
    wd = os.path.join(gd._workdir(), "start")
    fr = job["start"]
    numbers, pos = fr.numbers, fr.positions
    fam = job["family"]
    meta = {}
    if job["system"] in PEPTIDE_FAMILIES:
        base = fam.replace("cis-", "")
        phi, psi = conformers.FAMILIES[base]
        pos, meta = conformers.conformer(numbers, pos, phi, psi, cis_first=fam.startswith("cis-"), workdir=wd)
    elif job["system"] == "ethanol":
        pos = ethanol_rotamer(numbers, pos, 180.0 if fam == "trans" else 60.0, wd)
    elif job["system"] == "water-clusters":
        n = int(fam[1:])
        numbers, pos = sampling.water_cluster(job["monomer"], n, np.random.default_rng(seed("cluster", n)))
        opt = sampling.xtb_optimise(numbers, pos, "gfnff", wd)
        pos = pos if opt is None else opt
    return numbers, pos, meta


def run_job(job):
    t0 = time.time()
    numbers, pos, meta = make_start(job)
    out = []
    for T in TEMPERATURES:
        ps, dump = MD[job["system"]]
        traj = sampling.xtb_md(numbers, pos, "gfn2", T, ps, dump, seed(job["system"], job["family"], T),
                               os.path.join(gd._workdir(), "md"), wall=job["system"] == "water-clusters")
        traj = traj[int(EQUILIBRATION_FRACTION * len(traj)):]
        kept = sampling.evenly(traj, FRAMES)
        out.append((T, [p for p in kept], len(traj)))
    return dict(system=job["system"], family=job["family"], numbers=np.asarray(numbers), start_angles=meta,
                runs=out, seconds=time.time() - t0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=OUT_DIR)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="systems to generate (default: all)")
    args = ap.parse_args()
    t_start = time.time()
    starts = gd.load_start_geometries(gd.MOLECULE_DIR)
    ref = {}
    for name, fr in starts.items():
        e, _ = gd.teacher.single_point(fr.numbers, fr.positions)
        ref[name] = e / len(fr)
    jobs = []
    for system in ["ace-ala5-nme", "alanine-dipeptide", "water-clusters", "ethanol", "benzene", "water"]:
        if args.only and system not in args.only:
            continue
        fams = PEPTIDE_FAMILIES.get(system) or {"ethanol": ["trans", "gauche"],
                                               "water-clusters": [f"n{n}" for n in CLUSTER_SIZES]}.get(system, ["min"])
        for fam in fams:
            jobs.append(dict(system=system, family=fam, start=starts.get(system, starts["water"]),
                             monomer=starts["water"]))
    results = []
    with mp.Pool(args.workers) as pool:
        for r in pool.imap_unordered(run_job, jobs):
            results.append(r)
            print(f"  md {r['system']}/{r['family']}: {r['seconds']:.0f} s {r['start_angles']}"
                  f"  (wall {time.time() - t_start:.0f} s)", flush=True)
    items, frames = [], {}
    for r in results:
        for T, kept, n_traj in r["runs"]:
            key = f"{r['system']}_{r['family']}_{T}K"
            frames[key] = [extxyz.Frame(r["numbers"], p, info=dict(system=r["system"], family=r["family"],
                                                                     temperature_K=T, source=f"test-gfn2-md-{T}K"))
                           for p in kept]
            items += [((key, i), r["numbers"], p) for i, p in enumerate(kept)]
    chunks = [items[i:i + 10] for i in range(0, len(items), 10)]
    labels = {}
    with mp.Pool(args.workers) as pool:
        for res, _ in pool.imap_unordered(gd.label_chunk, chunks):
            for key, status, e, f in res:
                labels[key] = (status, e, f)
    print(f"labelled {len(labels)} frames (wall {time.time() - t_start:.0f} s)", flush=True)
    os.makedirs(args.out, exist_ok=True)
    summary = dict(teacher="GFN2-xTB (xtb 6.5.1) single point + gradient", seed=TEST_SEED, frames_per_file=FRAMES,
                   md=MD, temperatures_K=TEMPERATURES, equilibration_fraction=EQUILIBRATION_FRACTION,
                   families={k: {f: conformers.FAMILIES.get(f.replace("cis-", "")) for f in v}
                             for k, v in PEPTIDE_FAMILIES.items()}, files={})
    monomer_e = ref["water"] * 3
    for r in results:
        summary.setdefault("start_angles", {})[f"{r['system']}_{r['family']}"] = r["start_angles"]
    for key in sorted(frames):
        good, dropped = [], dict(clash=0, scf=0, absurd_energy=0, large_force=0)
        for i, fr in enumerate(frames[key]):
            status, e, f = labels[(key, i)]
            system = fr.info["system"]
            e_ref = (len(fr) // 3) * monomer_e if system == "water-clusters" else ref[system] * len(fr)
            if status != "ok":
                dropped[status] += 1
            elif (e - e_ref) / len(fr) > gd.MAX_EXCESS_EV_PER_ATOM:
                dropped["absurd_energy"] += 1
            elif np.abs(f).max() > gd.MAX_FORCE_EV_PER_A:
                dropped["large_force"] += 1
            else:
                fr.energy, fr.forces = e, f
                good.append(fr)
        extxyz.write(os.path.join(args.out, key + ".xyz.gz"), good)
        summary["files"][key] = dict(frames=len(good), atoms=len(good[0]) if good else 0, discarded=dropped)
        print(f"  {key:32s} {len(good):3d} frames, discarded {dropped}", flush=True)
    summary["wall_seconds"] = round(time.time() - t_start)
    with open(os.path.join(args.out, "testset.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
