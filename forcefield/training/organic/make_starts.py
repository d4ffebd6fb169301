#!/usr/bin/python3
"""Starting geometries for every molecule of molecules.csv: N conformers each by RDKit ETKDG (v3) + MMFF94
optimisation, one extended-XYZ gzip per split (positions in Å, no energies or forces: the teacher labels later).

    /usr/bin/python3 forcefield/training/organic/make_starts.py                 # 3 conformers, next to this file
    /usr/bin/python3 forcefield/training/organic/make_starts.py --conformers 5 --out-dir /tmp/starts

Seeds are hash-free: molecule i (0-based row of molecules.csv) embeds with randomSeed = seed_for(i, master),
so a row's conformers do not depend on Python's hash randomisation or on the other rows. Each frame's comment
carries name, smiles, conformer (0-based), split, index (the csv row) and ff (MMFF94, or UFF where MMFF94
lacks parameters). A conformer whose optimised geometry has a different bond graph (covalent radii x 1.2, the
rule of conformers.bonds) from its SMILES is re-embedded with the next seed; a molecule that still fails is an
error naming it.
"""
import argparse
import contextlib
import csv
import os
import sys
import time

import numpy as np
from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))   # forcefield/training: extxyz
import extxyz  # noqa: E402

MASTER_SEED = 20261128
COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}   # Cordero et al. 2008, as conformers.py
MAX_RETRIES = 5
SMALL_INDEX = 100000   # the small-molecule pool's rows are indexed (and seeded) from here, apart from the list's


def seed_for(index, master=MASTER_SEED, attempt=0):
    """Deterministic ETKDG seed of row `index` (a positive 31-bit int; no hash())."""
    return (master * 1000003 + index * 7919 + attempt * 104729) % 2147483629 + 1


def bond_graph_ok(mol, positions):
    """True when the distance bond graph (covalent radii x 1.2) equals the molecule's bonds."""
    z = [a.GetAtomicNum() for a in mol.GetAtoms()]
    r = np.array([COVALENT_RADIUS_A[k] for k in z])
    d = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
    adj = d < 1.2 * (r[:, None] + r[None])
    np.fill_diagonal(adj, False)
    want = np.zeros_like(adj)
    for b in mol.GetBonds():
        want[b.GetBeginAtomIdx(), b.GetEndAtomIdx()] = want[b.GetEndAtomIdx(), b.GetBeginAtomIdx()] = True
    return bool((adj == want).all())


def conformers(smiles, n, seed):
    """n MMFF94-optimised ETKDG conformers: (mol with Hs, list of (n_atoms, 3) arrays in Å, force-field name)."""
    mol = Chem.AddHs(Chem.MolFromSmiles(smiles))
    out, ff = [], "MMFF94"
    for attempt in range(MAX_RETRIES):
        params = AllChem.ETKDGv3()
        params.randomSeed = seed + attempt * 104729
        m = Chem.Mol(mol)
        ids = list(AllChem.EmbedMultipleConfs(m, numConfs=n, params=params))
        if not ids:
            continue
        if AllChem.MMFFHasAllMoleculeParams(m):
            AllChem.MMFFOptimizeMoleculeConfs(m, maxIters=2000)
        else:
            ff = "UFF"
            AllChem.UFFOptimizeMoleculeConfs(m, maxIters=2000)
        for cid in ids:
            p = np.array(m.GetConformer(cid).GetPositions())
            if bond_graph_ok(m, p) and len(out) < n:
                out.append(p)
        if len(out) == n:
            return m, out, ff
    raise RuntimeError(f"{smiles}: only {len(out)} of {n} conformers with an intact bond graph "
                       f"after {MAX_RETRIES} embeddings")


def fmt(v):
    """A comment value, double-quoted unless plain (names hold spaces, commas and primes; SMILES '=', '#')."""
    s = str(v)
    if s and all(c.isalnum() or c in "_.+-" for c in s):
        return s
    if '"' in s or "\\\\" in s:
        raise ValueError(f"cannot quote {s!r} for an extended-XYZ comment")
    return '"' + s + '"'


def write_frames(f, mol, confs, info):
    symbols = [a.GetSymbol() for a in mol.GetAtoms()]
    for k, p in enumerate(confs):
        f.write(f"{len(symbols)}\n")
        f.write('Properties=species:S:1:pos:R:3 pbc="F F F" '
                + " ".join(f"{key}={fmt(val)}" for key, val in dict(info, conformer=k).items()) + "\n")
        for s, (x, y, zc) in zip(symbols, p):
            f.write(f"{s:<2s} {x:14.8f} {y:14.8f} {zc:14.8f}\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--molecules", default=os.path.join(HERE, "molecules.csv"), help="name,smiles,category,split CSV")
    ap.add_argument("--conformers", type=int, default=3, help="conformers per molecule (default 3)")
    ap.add_argument("--seed", type=int, default=MASTER_SEED, help="master seed")
    ap.add_argument("--out-dir", default=HERE, help="where starts.train.xyz.gz and starts.test.xyz.gz go")
    ap.add_argument("--small", action="store_true",
                    help="the small-molecule pool instead: small.csv (enumerate_small.py; every row a training "
                         "molecule) -> starts.small.xyz.gz, rows indexed from SMALL_INDEX (their own seeds)")
    a = ap.parse_args(argv)
    RDLogger.DisableLog("rdApp.*")
    molecules = os.path.join(HERE, "small.csv") if a.small and a.molecules == ap.get_default("molecules") else a.molecules
    with open(molecules, newline="") as f:
        rows = list(csv.DictReader(f))
    t0 = time.time()
    splits = ("small",) if a.small else ("train", "test")
    first = SMALL_INDEX if a.small else 0
    paths = {s: os.path.join(a.out_dir, f"starts.{s}.xyz.gz") for s in splits}
    counts = {s: [0, 0] for s in paths}
    uff = 0
    with contextlib.ExitStack() as stack:
        files = {s: stack.enter_context(extxyz._open(paths[s], "w")) for s in splits}
        for i, r in enumerate(rows):
            split = "small" if a.small else r["split"]
            if split not in files:
                raise ValueError(f"{molecules}: row {i + 2}: split must be train or test, not {split!r}")
            mol, confs, ff = conformers(r["smiles"], a.conformers, seed_for(first + i, a.seed))
            uff += ff == "UFF"
            write_frames(files[split], mol, confs,
                         dict(name=r["name"], smiles=r["smiles"], split=split, index=first + i, ff=ff))
            counts[split][0] += 1
            counts[split][1] += len(confs)
    dt = time.time() - t0
    for s, (nm, nf) in counts.items():
        print(f"{s}: {nm} molecules, {nf} conformers -> {paths[s]}")
    print(f"{uff} molecules optimised with UFF (no MMFF94 parameters)")
    print(f"{len(rows)} molecules x {a.conformers} conformers in {dt:.1f} s wall "
          f"({1000 * dt / max(1, len(rows)):.1f} ms per molecule, one core)")


if __name__ == "__main__":
    sys.exit(main())
