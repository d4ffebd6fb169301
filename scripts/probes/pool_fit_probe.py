"""How well weight files fit the frames of the training data's pools, beside the independent test frames: per pool
and temperature the median and 90th percentile over molecules of the force MAE (eV/Å); with --molecules POOL, each
molecule of that pool at 300 K with its SMILES and whether it holds a non-aromatic ring chain of three N/O atoms
(HETERO_CHAIN: none in the list's training molecules or in test sets A and B; 8, 41 and 54 molecules of the three
ring draws).

The frames come from organic_data.py --limit N (the first N starts of each split and pool; seeded, as on the device),
e.g. on a development machine in ~2 min:

    python3 forcefield/training/organic_data.py --starts forcefield/training/organic --out /tmp/fit --limit 90 \
        --rings2 --rings3 --workers 2
    python3 scripts/probes/pool_fit_probe.py --data /tmp/fit \
        preview=forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors \
        r20=.../student-gfn2-v6.safetensors [--molecules rings3]

Round 21's reading (forcefield/training/runs/organic-round21/README.md, "The ring draws' own frames") came from it.
Scoring is the slow part on a 2-core machine: two weight files on the ~12,500 frames of --limit 90 --coverage2
--coverage3 took 12.5 min (2026-12-01, organic/README.md, "The third coverage draw").
"""
import argparse
import collections
import csv
import glob
import os
import sys

import numpy as np
from rdkit import Chem, RDLogger

TRAINING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "forcefield", "training")
sys.path.insert(0, TRAINING)
from dataset import read_npz  # noqa: E402  (the recipe's modules, from its folder)
from organic_eval import load, predict  # noqa: E402

ORGANIC = os.path.join(TRAINING, "organic")
HETERO_CHAIN = Chem.MolFromSmarts("[#7,#8;R;!a]@[#7,#8;R;!a]@[#7,#8;R;!a]")


def smiles_of_pools():
    out = {}
    for f in glob.glob(os.path.join(ORGANIC, "*.csv")):
        with open(f, newline="") as fh:
            for r in csv.DictReader(fh):
                if "smiles" in r:
                    out.setdefault(r["name"], r["smiles"])
    return out


def per_molecule(model, path):
    """{(molecule, T K): force MAE eV/Å} of one npz of organic_data.py."""
    d = np.load(path)
    names, mol, temps = d["molecules"], d["molecule"], d["temperature"]
    frames = read_npz(path, "probe")
    errs = collections.defaultdict(list)
    for fr, (_, f), m, t in zip(frames, predict(model, frames, "cpu"), mol, temps):
        errs[(str(names[m]), int(t))].append(np.abs(f - fr.forces).ravel())
    return {k: float(np.concatenate(v).mean()) for k, v in errs.items()}


def main(argv=None):
    RDLogger.DisableLog("rdApp.*")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="an organic_data.py output folder")
    ap.add_argument("--molecules", default="", help="a pool (e.g. rings3) whose molecules are listed one by one")
    ap.add_argument("weights", nargs="+", metavar="NAME=FILE")
    args = ap.parse_args(argv)
    files = sorted(glob.glob(os.path.join(args.data, "organic*.npz")))
    if not files:
        ap.error(f"--data {args.data}: no organic*.npz there (an organic_data.py output folder?)")
    specs = []
    for spec in args.weights:
        name, _, path = spec.partition("=")
        if not name or not path:
            ap.error(f"'{spec}': expected NAME=FILE")
        if not os.path.isfile(path):
            ap.error(f"{name}: no weight file {path}")
        specs.append((name, path))
    if args.molecules and not os.path.isfile(os.path.join(args.data, f"organic-{args.molecules}.train.npz")):
        ap.error(f"--molecules {args.molecules}: no organic-{args.molecules}.train.npz in {args.data}")
    smiles = smiles_of_pools()
    fits = {}
    for name, path in specs:
        model = load(path, "cpu")
        fits[name] = {os.path.basename(f): per_molecule(model, f) for f in files}
    for f in files:
        key = os.path.basename(f)
        temps = sorted({t for _, t in next(iter(fits.values()))[key]})
        print(key)
        for name, fit in fits.items():
            cells = []
            for t in temps:
                v = np.array([x for (_, tt), x in fit[key].items() if tt == t])
                cells.append(f"{t} K {np.median(v):.4f} / {np.percentile(v, 90):.4f}")
            print(f"  {name:10s} ({len(v)} molecules; median / p90)  " + "  ".join(cells))
    if args.molecules:
        key = f"organic-{args.molecules}.train.npz"
        rows = sorted({m for m, t in next(iter(fits.values()))[key]})
        print(f"{key} at 300 K, eV/Å: " + " ".join(fits) + ", hetero chain, SMILES")
        for m in sorted(rows, key=lambda m: -next(iter(fits.values()))[key][(m, 300)]):
            mol = Chem.MolFromSmiles(smiles.get(m, ""))
            chain = "yes" if mol is not None and mol.HasSubstructMatch(HETERO_CHAIN) else "no"
            print(f"  {m:45s} " + " ".join(f"{fit[key][(m, 300)]:.4f}" for fit in fits.values())
                  + f"  {chain:3s} {smiles.get(m, '')}")


if __name__ == "__main__":
    main()
