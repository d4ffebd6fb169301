#!/usr/bin/python3
"""Stability check of the exported student: NVT Langevin MD at 300 K, 10 ps, 0.5 fs per molecule (ASE).

    /usr/bin/python3 forcefield/training/md_check.py [--ps 10] [--json out.json]

Loads student-gfn2.safetensors into model.py (float64, CPU) as an ASE calculator, starts from the
shipped molecule geometries (and an 8-molecule water cluster of the test set) with
Maxwell-Boltzmann velocities at 300 K (seeded) and runs ase.md.langevin.Langevin
(friction 0.01 fs^-1). Every 50 steps it perceives covalent bonds (d < 1.2 (r_cov,i + r_cov,j),
Cordero radii, the same rule as org.molten.core.Bonds). A molecule is intact when the bond set at
every check equals the one at the start. Reports mean temperature, the largest bond stretch
relative to the start and the first step at which the topology changed (if any).
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
from ase import Atoms, units
from ase.calculators.calculator import Calculator, all_changes
from ase.md.langevin import Langevin
from ase.md.velocitydistribution import MaxwellBoltzmannDistribution, Stationary, ZeroRotation

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extxyz  # noqa: E402
import safetensors_io  # noqa: E402
from model import PaiNN  # noqa: E402
from export import REPO, WEIGHTS  # noqa: E402

MOLECULE_DIR = os.path.join(REPO, "structures/src/main/resources/org/molten/structures/molecules")
TESTSET = os.path.join(REPO, "forcefield/src/main/resources/org/molten/forcefield/student/testset")
COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}   # Cordero et al. 2008
BOND_FACTOR = 1.2


def load_model(path):
    tensors, meta = safetensors_io.read(path)
    model = PaiNN([int(z) for z in meta["species"].split(",")], int(meta["hidden"]), int(meta["layers"]),
                  int(meta["n_rbf"]), float(meta["cutoff"]), float(meta["gamma"]))
    model.load_state_dict({k: torch.from_numpy(v) for k, v in tensors.items()}, strict=True)
    return model.double().eval()


class StudentCalculator(Calculator):
    implemented_properties = ["energy", "forces"]

    def __init__(self, model):
        super().__init__()
        self.model = model

    def calculate(self, atoms=None, properties=("energy",), system_changes=all_changes):
        super().calculate(atoms, properties, system_changes)
        z = torch.from_numpy(self.atoms.numbers.astype(np.int64))
        pos = torch.from_numpy(self.atoms.positions.copy())
        e, f = self.model(z, pos, torch.zeros_like(z), 1)
        self.results = dict(energy=float(e[0]), forces=f.detach().numpy().copy())


def bonds(numbers, positions):
    d = np.linalg.norm(positions[:, None] - positions[None], axis=-1)
    r = np.array([COVALENT_RADIUS_A[int(z)] for z in numbers])
    lim = BOND_FACTOR * (r[:, None] + r[None])
    i, j = np.nonzero(np.triu(d < lim, 1))
    return set(zip(i.tolist(), j.tolist())), d


def run(name, numbers, positions, model, ps, seed):
    atoms = Atoms(numbers=numbers, positions=positions)
    atoms.calc = StudentCalculator(model)
    MaxwellBoltzmannDistribution(atoms, temperature_K=300, rng=np.random.RandomState(seed))
    Stationary(atoms)
    ZeroRotation(atoms)
    dyn = Langevin(atoms, 0.5 * units.fs, temperature_K=300, friction=0.01 / units.fs, fixcm=True,
                   rng=np.random.RandomState(seed + 1))
    start, d0 = bonds(atoms.numbers, atoms.positions)
    pairs = sorted(start)
    state = dict(max_stretch=1.0, broken_at=None, temps=[])
    n_steps = int(round(ps * 1000 / 0.5))

    def check():
        now, d = bonds(atoms.numbers, atoms.positions)
        if pairs:
            ratio = max(d[i, j] / d0[i, j] for i, j in pairs)
            state["max_stretch"] = max(state["max_stretch"], ratio)
        if now != start and state["broken_at"] is None:
            state["broken_at"] = dyn.nsteps
            state["change"] = dict(lost=sorted(start - now)[:5], new=sorted(now - start)[:5])
        # ASE's Langevin keeps the centre of mass fixed (fixcm=True): 3N - 3 degrees of freedom
        # (atoms.get_temperature() divides by 3N and would read low for small molecules).
        ekin = atoms.get_kinetic_energy()
        state["temps"].append(2.0 * ekin / ((3 * len(atoms) - 3) * units.kB))

    dyn.attach(check, interval=50)
    t0 = time.time()
    dyn.run(n_steps)
    temps = np.array(state["temps"][len(state["temps"]) // 5:])   # skip the first fifth (equilibration)
    return dict(system=name, atoms=len(numbers), steps=n_steps, ps=ps, intact=state["broken_at"] is None,
                topology_changed_at_step=state["broken_at"], change=state.get("change"),
                max_bond_stretch_ratio=round(state["max_stretch"], 3), mean_T_K=round(float(temps.mean()), 1),
                std_T_K=round(float(temps.std()), 1), seconds=round(time.time() - t0, 1))


def analyse_trajectory(path):
    """Bond check of a saved trajectory (e.g. from `molten run`): same rule as the ASE runs.

    Frames are far apart (e.g. 50 fs) next to an X-H vibration (~11 fs), so a bond seen broken in one frame
    and whole again in the next was a vibration beyond the 1.2 x rule (hot C-H stretches reach 1.29 Å at
    600 K), not a reaction: such frames are counted as `transient_frames`. The molecule is intact unless the
    bond set differs from the start in two consecutive frames or in the last one."""
    from ase.io import iread
    start, d0, pairs = None, None, None
    out = dict(trajectory=os.path.basename(path), frames=0, intact=True, topology_changed_at_frame=None,
               transient_frames=0, max_bond_stretch_ratio=1.0)
    changed_before = False
    for k, a in enumerate(iread(path, index=":", format="extxyz")):
        now, d = bonds(a.numbers, a.positions)
        if start is None:
            start, d0, pairs = now, d, sorted(now)
        if pairs:
            out["max_bond_stretch_ratio"] = round(max(out["max_bond_stretch_ratio"],
                                                      max(d[i, j] / d0[i, j] for i, j in pairs)), 3)
        changed = now != start
        if changed and changed_before and out["intact"]:
            out["intact"], out["topology_changed_at_frame"] = False, k - 1
        if changed:
            out["transient_frames"] += 1
        changed_before = changed
        out["frames"] = k + 1
        out["atoms"] = len(a)
    if changed_before and out["intact"]:  # changed in the last frame: nothing after it says it was transient
        out["intact"], out["topology_changed_at_frame"] = False, out["frames"] - 1
    if not out["intact"]:
        out["transient_frames"] = None  # the count means nothing once the topology has changed
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", default=WEIGHTS)
    ap.add_argument("--ps", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=300)
    ap.add_argument("--json", default=None)
    ap.add_argument("--only", nargs="*", default=None, help="system names to run")
    ap.add_argument("--trajectory", nargs="*", default=None,
                    help="instead of running MD, check saved extended-XYZ trajectories (e.g. from molten run)")
    args = ap.parse_args()
    if args.trajectory:
        res = [analyse_trajectory(p) for p in args.trajectory]
        for r in res:
            print(f"{r['trajectory']:28s} {r['atoms']:3d} atoms {r['frames']:4d} frames: intact={r['intact']}  "
                  f"max bond stretch {r['max_bond_stretch_ratio']:.3f}  frames beyond 1.2x, each alone: {r['transient_frames']}")
        if args.json:
            with open(args.json, "w") as f:
                json.dump(dict(results=res), f, indent=1)
        sys.exit(0 if all(r["intact"] for r in res) else 1)
    torch.set_num_threads(1)
    model = load_model(args.weights)
    systems = []
    for name in ("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme"):
        fr = extxyz.read(os.path.join(MOLECULE_DIR, name + ".xyz"))[0]
        systems.append((name, fr.numbers, fr.positions))
    clusters = [f for f in extxyz.read(os.path.join(TESTSET, "water-clusters.xyz.gz")) if len(f) == 24]
    if clusters:
        systems.append(("water-cluster-8", clusters[0].numbers, clusters[0].positions))
    results = []
    for k, (name, numbers, positions) in enumerate(systems):
        if args.only and name not in args.only:
            continue
        r = run(name, numbers, positions, model, args.ps, args.seed + 10 * k)
        results.append(r)
        print(f"{name:18s} {r['atoms']:3d} atoms {r['ps']:.1f} ps: intact={r['intact']}  max bond stretch "
              f"{r['max_bond_stretch_ratio']:.3f}  <T> {r['mean_T_K']:.0f} ± {r['std_T_K']:.0f} K  ({r['seconds']:.0f} s)",
              flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(weights=os.path.basename(args.weights), thermostat="ase.md.langevin.Langevin 300 K, "
                           "friction 0.01/fs, dt 0.5 fs", results=results), f, indent=1)
    if not all(r["intact"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
