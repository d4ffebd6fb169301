#!/usr/bin/python3
"""Every small H/C/N/O molecule: the exhaustive pool of molecules of 1..MAX_HEAVY heavy atoms for training.

    /usr/bin/python3 forcefield/training/organic/enumerate_small.py        # writes small.csv next to this file

Why: the organic preview's worst test molecules are the smallest (methanimine 0.29 eV/Å, cyanamide 0.17,
hydroxylamine, formic acid, hydrazine, ethylene, formamidine: every test molecule of <= 7 atoms but two), while a
fine-tuning on a molecule's own frames takes it to 0.01-0.02 (scripts/probes/tail_fit_probe.py): the model can
carry them, the training list does not teach them (24 of its 1,525 molecules have <= 7 atoms). A scaffold x
substituent draw cannot reach that corner; an exhaustive enumeration of the molecular graphs can.

The graphs: every assignment of C, N, O to 1..MAX_HEAVY heavy atoms and of bond orders 0-3 to their pairs that is
connected and within the valences (C 4, N 3, O 2), hydrogens filling the rest (neutral, no charges, no radicals).
Kept when RDKit sanitises it, passes enumerate.py's problems() and UNWANTED groups and this file's UNWANTED_SMALL
(no O-O, no nitroso, no three heteroatoms in a row, no cumulated triene, nothing aromatic), has at most one ring of 3
or 4 atoms with at most one double bond in it (simple_ring), and embeds with ETKDG. Dropped: a canonical SMILES of
molecules.csv (train or test: the list's molecules keep their split), a test molecule or one of its stereoisomers
(enumerate.test_keys, stereo removed: the graphs carry no E/Z, so CN=NC is azomethane C/N=N/C, a test molecule, and
CC=NO acetaldoxime C/C=N/O; until 2026-11-29 both were here), and a ring molecule whose Bemis-Murcko scaffold is a
test molecule's (the test set stays scaffold-disjoint).
Output columns: name,smiles,category (name: "small " + canonical SMILES; category as enumerate.py's classify, with
"alkane" for the one without a group, e.g. methane, and "inorganic" for N2, NH3 and the like, which have no carbon).
Every row is a training molecule; organic_data.py never holds one out for validation (the list's draw stays as it was).
"""
import argparse
import csv
import itertools
import os
import sys

from rdkit import Chem, RDLogger

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from enumerate import (MASTER_SEED, MOLECULES, UNWANTED, classify, embeds, problems, scaffold,  # noqa: E402
                       stereo_free, test_keys)

SMALL = os.path.join(HERE, "small.csv")
MAX_HEAVY = 4
VALENCE = {"C": 4, "N": 3, "O": 2}
BOND = {1: Chem.BondType.SINGLE, 2: Chem.BondType.DOUBLE, 3: Chem.BondType.TRIPLE}
# Beyond enumerate.py's UNWANTED: what a small graph reaches and a chemist's molecule is not (reactive, exotic or not
# closed-shell under GFN2-xTB): any O-O bond (peroxides, ozone, dioxygen), nitroso N=O (HNO, HONO, C-N=O),
# dinitrogen, three heteroatoms in a row (N-N-N, O-N-O, N-O-N: azides, nitrous esters, triazanes), three cumulated
# double bonds (butatriene, ethylenedione), aromatic atoms (cyclopropenylidenes, 3- and 4-membered "aromatics").
UNWANTED_SMALL = [Chem.MolFromSmarts(s) for s in (
    "[#8]~[#8]", "[#7]=[#8]", "[#7]#[#7]", "[!#6;!#1]~[!#6;!#1]~[!#6;!#1]", "[*]=[*]=[*]=[*]", "[a]")]


def connected(n, bonds):
    seen, todo = {0}, [0]
    while todo:
        a = todo.pop()
        for (i, j), order in bonds.items():
            if order and a in (i, j):
                b = j if a == i else i
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
    return len(seen) == n


def graphs(max_heavy=MAX_HEAVY, counts=None):
    """Canonical SMILES of every connected, valence-respecting heavy-atom graph with hydrogens filled, sorted.
    counts (a dict, optional) gets the labelled graphs tried ('graphs': element and bond-order assignments, connected,
    within the valences) and those that sanitise ('sanitised'), before canonical duplicates are merged."""
    out = set()
    counts = {} if counts is None else counts
    counts.setdefault("graphs", 0)
    counts.setdefault("sanitised", 0)
    for n in range(1, max_heavy + 1):
        pairs = list(itertools.combinations(range(n), 2))
        for elements in itertools.product("CNO", repeat=n):
            for orders in itertools.product(range(4), repeat=len(pairs)):
                bonds = dict(zip(pairs, orders))
                used = [0] * n
                for (i, j), o in bonds.items():
                    used[i] += o
                    used[j] += o
                if any(used[k] > VALENCE[elements[k]] for k in range(n)) or not connected(n, bonds):
                    continue
                counts["graphs"] += 1
                mol = Chem.RWMol()
                for e in elements:
                    a = Chem.Atom(e)
                    a.SetNoImplicit(False)
                    mol.AddAtom(a)
                for (i, j), o in bonds.items():
                    if o:
                        mol.AddBond(i, j, BOND[o])
                try:
                    Chem.SanitizeMol(mol)
                except Exception:   # noqa: BLE001 - RDKit raises several sanitisation errors; such a graph is dropped
                    continue
                counts["sanitised"] += 1
                out.add(Chem.MolToSmiles(mol))
    return sorted(out)


def simple_ring(mol):
    """At most one ring, of 3 or 4 atoms, with at most one double bond in it and no triple bond (cyclopropene,
    azirine, oxirane, azetidine, oxetanone; not bicyclobutane, tetrahedrane or cyclobutadiene)."""
    info = mol.GetRingInfo()
    if info.NumRings() == 0:
        return True
    if info.NumRings() > 1 or len(info.AtomRings()[0]) > 4:
        return False
    ring = [mol.GetBondWithIdx(b) for b in info.BondRings()[0]]
    return sum(b.GetBondType() == Chem.BondType.DOUBLE for b in ring) <= 1 and \
        not any(b.GetBondType() == Chem.BondType.TRIPLE for b in ring)


def small_category(mol):
    if not any(a.GetSymbol() == "C" for a in mol.GetAtoms()):
        return "inorganic"
    try:
        return classify(mol)
    except ValueError:
        return "alkane"


def build(max_heavy=MAX_HEAVY, molecules=MOLECULES, seed=MASTER_SEED):
    RDLogger.DisableLog("rdApp.*")
    with open(molecules, newline="") as f:
        listed = list(csv.DictReader(f))
    known = {r["smiles"] for r in listed}
    test = test_keys(listed)
    test_scaffolds = {scaffold(r["smiles"]) for r in listed if r["split"] == "test"} - {""}
    rows = []
    for smi in graphs(max_heavy):
        mol = Chem.MolFromSmiles(smi)
        if smi in known or stereo_free(smi) in test or problems(mol) or any(mol.HasSubstructMatch(p) for p in UNWANTED):
            continue
        if any(mol.HasSubstructMatch(p) for p in UNWANTED_SMALL) or not simple_ring(mol):
            continue
        if mol.GetRingInfo().NumRings() and scaffold(smi) in test_scaffolds:
            continue
        if not embeds(mol, seed):
            continue
        rows.append(dict(name="small " + smi, smiles=smi, category=small_category(mol)))
    return rows


def write(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["name", "smiles", "category"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=SMALL)
    ap.add_argument("--max-heavy", type=int, default=MAX_HEAVY)
    args = ap.parse_args(argv)
    rows = build(args.max_heavy)
    write(rows, args.out)
    by = {}
    for r in rows:
        by[r["category"]] = by.get(r["category"], 0) + 1
    print(f"{len(rows)} small molecules -> {args.out}: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))


if __name__ == "__main__":
    main()
