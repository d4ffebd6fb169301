#!/usr/bin/env python3
"""Pools `molten accuracy --json` rows of the independent test set (one row per <system>_<family>_<T>K file)
per system and temperature, and lists the conformer families, as markdown tables for the model card.

    ./molten accuracy --testset forcefield/training/testset-independent --json acc.json
    python3 forcefield/training/summarise_accuracy.py acc.json [more.json ...]   # one column per file

Pooling: force MAE and RMSE over all Cartesian components (weights: atoms of a row), energy MAE per
frame (weights: frames). Units: meV/atom, eV/Å.
"""
import json
import math
import sys


def pool(rows):
    atoms = sum(r["atoms"] for r in rows)
    frames = sum(r["frames"] for r in rows)
    return dict(frames=frames,
                e=sum(r["energy_mae_mev_per_atom"] * r["frames"] for r in rows) / frames,
                f=sum(r["force_mae_ev_per_a"] * r["atoms"] for r in rows) / atoms,
                rmse=math.sqrt(sum(r["force_rmse_ev_per_a"] ** 2 * r["atoms"] for r in rows) / atoms))


def groups(systems):
    by_sys_t, by_family = {}, {}
    for key, r in systems.items():
        if key.count("_") < 2:          # the pooled "all" row
            continue
        system, family, temp = key.rsplit("_", 2)
        by_sys_t.setdefault((system, temp), []).append(r)
        by_family.setdefault((system, family, temp), []).append(r)
    return by_sys_t, by_family


def main():
    runs = [json.load(open(p)) for p in sys.argv[1:]]
    names = [r["model"] for r in runs]
    head = "| " + " | ".join(["system", "T", "frames"] + [f"F MAE {n} (eV/Å)" for n in names]) + " |"
    print(head + "\n|" + " --- |" * (3 + len(names)))
    tables = [groups(r["systems"]) for r in runs]
    for key in sorted(tables[0][0]):
        cells = [pool(t[0][key]) for t in tables]
        print(f"| {key[0]} | {key[1]} | {cells[0]['frames']} | " + " | ".join(f"{c['f']:.4f}" for c in cells) + " |")
    for temp in sorted({k[1] for k in tables[0][0]}):
        cells = [pool([r for k, rs in t[0].items() if k[1] == temp for r in rs]) for t in tables]
        print(f"| **all** | {temp} | {cells[0]['frames']} | " + " | ".join(f"{c['f']:.4f}" for c in cells) + " |")
    print()
    print("| " + " | ".join(["system", "family", "T", "frames"] + [f"F MAE {n}" for n in names]
                           + [f"E MAE {n} (meV/atom)" for n in names]) + " |")
    print("|" + " --- |" * (4 + 2 * len(names)))
    for key in sorted(tables[0][1]):
        cells = [pool(t[1][key]) for t in tables]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {cells[0]['frames']} | " + " | ".join(f"{c['f']:.4f}" for c in cells)
              + " | " + " | ".join(f"{c['e']:.2f}" for c in cells) + " |")


if __name__ == "__main__":
    main()
