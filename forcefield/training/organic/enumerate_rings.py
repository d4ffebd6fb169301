#!/usr/bin/python3
"""The ring-system pool: training molecules on ring systems the training data never held, chosen by a mechanical rule
(a systematic enumeration and a seeded, stratified draw). No model's error, on any molecule, enters the choice.

    /usr/bin/python3 forcefield/training/organic/enumerate_rings.py                 # writes rings.csv, prints counts
    /usr/bin/python3 forcefield/training/organic/enumerate_rings.py --starts        # and starts.rings.xyz.gz
    /usr/bin/python3 forcefield/training/organic/enumerate_rings.py --teacher-check # GFN2-xTB on every start (libxtb)
    /usr/bin/python3 forcefield/training/organic/enumerate_rings.py --teacher-check --md-steps 200 --rows 0,10,20
    /usr/bin/python3 forcefield/training/organic/enumerate_rings.py --draw 2 --starts   # the second draw: rings2.csv

Why: every pool so far drew its ring molecules from enumerate.py's 89 scaffolds or from hand-named lists, so the
training data hold 315 ring systems and a ring system beyond them never enters the data. This pool adds ring systems
the training data never held, from a systematic enumeration, by a rule that reads no model's error.

A ring system (ring_systems()): a molecule's RDKit ring atoms joined where rings share an atom (fused, bridged, spiro),
with their ring bonds and the atoms doubly bonded to them outside the rings (exocyclic C=O, C=N, C=C), every other bond
replaced by hydrogens; its key is the canonical SMILES (stereo removed) of that H-capped system (indole of
3-ethylindole 'c1ccc2[nH]ccc2c1', 2-pyrrolidinone of N-methylpyrrolidinone 'O=C1CCCN1').

The candidates (candidates()): every skeleton of CLASSES, each atom C, N or O, each bond single or double, with up to
two exocyclic C=O:
  3-4 ring   3- and 4-rings, <= 2 heteroatoms, <= 1 O, <= 1 C=O
  5 ring     5-rings, <= 4 heteroatoms, <= 2 O, <= 2 C=O (azoles, oxadiazoles, triazoles, tetrazole, lactams, ...)
  6 ring     6-rings, the same (azines, diazines, triazines, pyranones, cyclic ureas, carbamates, imides, ...)
  7-8 ring   7- and 8-rings, <= 3 heteroatoms, <= 2 O, <= 2 C=O (azepines, oxepanes, diazocanes, ...)
  5-5, 5-6, 6-6, 6-7 fused: two rings sharing a bond, <= 3 heteroatoms, <= 1 O, <= 2 C=O (a fusion atom C or N:
             purine-, indolizine-, pyrazolopyrimidine-, benzodiazepine-like)
  bridged    bicyclo[1.1.1], [2.1.1], [2.2.1], [2.2.2], [3.2.1], [3.3.1], <= 2 heteroatoms (N bridgeheads, N or O
             bridges), <= 1 O, <= 1 C=O, no double bond at a bridgehead (Bredt)
  spiro      spiro[a.b], a = 2..5, b = a..5, <= 2 heteroatoms, <= 1 O, <= 1 C=O, the spiro atom C
Heteroatom placements are taken up to the skeleton's symmetry (frameworks()); O sits only on atoms of two ring bonds,
never beside another O. Unsaturation (unsaturations()): C=O on ring C of two ring bonds; ring double bonds between C
or N (two ring bonds) atoms: every matching for monocycles, bridged and spiro systems, and for fused ones the
ring-state rule (each ring saturated or unsaturated, the unsaturated rings' bonds taking every maximum matching: e.g.
tetrahydroquinoline's benzene ring and saturated ring). A 3- or 4-ring holds at most one double bond, C=O counted.
Kinds: saturated (no ring double bond), partly unsaturated, unsaturated (a maximum matching of the whole system), or
aromatic (RDKit finds an aromatic ring atom). 140,876 distinct candidates (canonical SMILES).

Kept (build()): a candidate that sanitises, passes enumerate.problems() (H/C/N/O, neutral, closed shell, one fragment,
2-42 atoms), has none of enumerate.UNWANTED (no O-O, enols, NH enamines, N-N-N chains, ...) nor a cyclic anhydride, and
embeds with ETKDG. Excluded: every ring system of the training data (molecules.csv split=train, small.csv,
conjugated.csv, rare.csv, motifs.csv, coverage.csv: 315 systems) and every ring system of a test molecule, test A
(molecules.csv split=test) and the sealed test set B (TESTSET_B; a missing file is refused, '' leaves B out), 62
systems, 38 of them not in training; each compared as its key and as RDKit's canonical tautomer of the key (1H/2H ring
tautomers are one system); a ring system a tautomer of one already drawn; and, as enumerate_coverage.excluded, any
molecule of molecules.csv or a pool, any test A or B molecule, its stereoisomer, tautomer or Bemis-Murcko scaffold.

The draw: stratified and seeded. Each (class, kind) stratum (10 x 4) gives up to QUOTA (6) ring systems: its candidates
grouped by (heteroatoms, C=O), each group shuffled with random.Random(f"{seed}:{class}:{kind}"), taken in turn from
each group (so that the draw spreads over them), the first QUOTA that are kept. Every drawn system gives the H-capped
system itself ("ring <key>") and one seeded substitution ("ring <key> + substituent[, substituent]",
random.Random(f"{seed}:{key}")): one or two of enumerate.py's 47 substituents on distinct ring atoms that carry an H
(C-H or N-H), joined by enumerate.zipped_product (its rules), <= MAX_RING_ATOMS (40) atoms with H, no ring system but
the drawn one outside the training data's (a phenyl or cyclopropyl substituent brings benzene or cyclopropane), up to
SUBSTITUTION_TRIES (20) draws. Category: enumerate.classify.

Counts (2026-11-30, Debian's RDKit 2022.09.3, ~30 s): 305 candidates drawn, 93 not taken (56 a ring system of the
training data, 15 of a test molecule, A or B, 4 a tautomer of one of the training data, 1 of one drawn, 11 the list's
rules, 5 do not embed, 1 TEACHER_BROKEN); 212 ring
systems: 35 strata of 6 and the 3-4 ring aromatic stratum's 2 (the 3-4 ring partly unsaturated and unsaturated
strata give none: every such candidate is in training (small.csv) or an NH enamine; bridged aromatic: none of its 5, planar
bridged imidazolones, embeds; spiro aromatic has no candidate); 424 molecules (212 H-capped systems, 212 substituted),
6-40 atoms with H (mean 21.6). The training data's ring systems: 315 before, 527 after.

The teacher's check (--teacher-check): a GFN2-xTB single point on every start (libxtb, enumerate_coverage.teacher_check)
and the largest atomic force; a molecule with an SCF failure or a force above MAX_START_FORCE (eV/A) on a start is
recorded in TEACHER_BROKEN and left out by the build (a broken H-capped system takes its ring system out of the draw);
with --md-steps N also enumerate_rare.teacher_check (GFN2-xTB optimisation, N steps of MD at 1000 K, a second
optimisation; broken when a bond graph changes) of the rows --rows names. 2026-11-30 (libxtb 6.5.1, one thread,
shared machine): the first build's 1,272 starts, no SCF failure, largest force median 1.96, p95 3.65, max 6.48 eV/A
(7-ring azepinones, 4-ring 'aromatic' diazete/oxazete); --md-steps 200 on every 10th row and the 10 rows of the largest
start forces (52 molecules, 204 s): one broken (O=c1nccccn1: GFN2-xTB's SCF fails in the MD), now in TEACHER_BROKEN; the
build drew the next 7-8 ring aromatic system (c1cnocc[nH]c1) and its substitution in its place, both intact (--md-steps
200); the single points on the final 1,272 starts: no SCF failure, median 1.96, p95 3.65, max 6.48 eV/A.
The starts (--starts): enumerate_conjugated.write_starts (make_starts.py's ETKDG v3 + MMFF94, the bond-graph check,
seed_for, the SMILES's stereo), 3 conformers, rows indexed and seeded from RINGS_INDEX (800,000), split=rings.

The second draw (--draw 2, DRAWS[2]: rings2.csv, starts.rings2.xyz.gz, rows indexed and seeded from 1,000,000,
split=rings2, QUOTA2 = 10 ring systems a stratum): the same candidates, rule, seed and stratum order, with the first
draw's molecules (rings.csv) and the second coverage draw's (coverage2.csv, which came after it) counted as training
data, so that each stratum gives the next systems of its order. Counts (2026-11-30, ~45 s): 341 ring systems, 680
molecules (339 substituted), 6-40 atoms with H (mean 21.5); the training data's ring systems 527 before (the first draw
and coverage2.csv's), 868 after. Teacher: six broken (N=N ring systems GFN2-xTB opens), in TEACHER_BROKEN; the
organic README's "The second ring-system draw" has the figures.

The third draw (--draw 3, DRAWS[3]: rings3.csv, starts.rings3.xyz.gz, rows from 1,100,000, split=rings3, QUOTA3 = 10):
the same again with rings2.csv counted as training data too. Counts (2026-11-30): 339 ring systems, 677 molecules
(338 substituted), 7-40 atoms with H (mean 21.2); the training data's ring systems 868 before, 1,207 after; the 3-4 ring
strata are used up and the 5-ring aromatic one gives 9. Teacher: three broken (two substituted molecules and the ring
system of one), in TEACHER_BROKEN; the organic README's "The third ring-system draw".
"""
import argparse
import functools
import itertools
import os
import random
import sys
import time

from rdkit import Chem, RDLogger

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from enumerate import (MASTER_SEED, MOLECULES, SUBSTITUENTS, UNWANTED, atom_count, classify, embeds,  # noqa: E402
                       problems, zipped_product)
from enumerate_conjugated import write_starts_and_say  # noqa: E402
from enumerate_coverage import (POOL_CSVS, TESTSET_B, add_start_options, excluded, known_molecules,  # noqa: E402
                                parse_rows, print_md_check, print_teacher_check, read_smiles, tautomer, test_sets)
from enumerate_small import write  # noqa: E402

COVERAGE_CSV = os.path.join(HERE, "coverage.csv")
TRAINING_POOLS = POOL_CSVS + (COVERAGE_CSV,)   # small, conjugated, rare, motifs, coverage
RINGS_CSV = os.path.join(HERE, "rings.csv")
STARTS = os.path.join(HERE, "starts.rings.xyz.gz")
RINGS_INDEX = 800000       # rows indexed (and seeded) from here by the starts; test set B's from 600,000
COVERAGE2_CSV = os.path.join(HERE, "coverage2.csv")   # the second coverage draw, after the first ring draw
RINGS2_CSV = os.path.join(HERE, "rings2.csv")
STARTS2 = os.path.join(HERE, "starts.rings2.xyz.gz")
RINGS2_INDEX = 1000000     # the second draw's rows (organic_data.POOLS["rings2"]); coverage2.csv's from 900,000
RINGS3_CSV = os.path.join(HERE, "rings3.csv")
STARTS3 = os.path.join(HERE, "starts.rings3.xyz.gz")
RINGS3_INDEX = 1100000     # the third draw's rows (organic_data.POOLS["rings3"]); rings2.csv's 2,040 from 1,000,000
MAX_RING_ATOMS = 40        # a pool molecule's atoms with hydrogens
MAX_START_FORCE = 10.0     # eV/A: a start above it (GFN2-xTB) leaves its molecule out (TEACHER_BROKEN)
SUBSTITUTION_TRIES = 20    # seeded attempts at a ring system's substituted molecule
ANHYDRIDE = Chem.MolFromSmarts("[#6](=O)[#8][#6](=O)")

# --teacher-check's verdicts (canonical SMILES: why), left out by the build (a broken H-capped ring system takes its
# ring system out of the draw; a broken substituted molecule is replaced by the next seeded substitution).
# 2026-11-30: single points on the 1,272 starts of the first build's 424 molecules, no SCF failure, largest force 6.48
# eV/A; --md-steps 200 on every 10th row and the 10 of the largest start forces (52 molecules, 204 s): one broken; the
# two rows the rebuild drew in its place (c1cnocc[nH]c1 and its substitution): intact
# 2026-11-30, the second draw (--draw 2): single points on its 2,034 starts, no SCF failure, largest force 6.55 eV/A;
# --md-steps 200 on every 10th row and the 10 of the largest start forces (75 molecules, 380 s): six broken, all among
# the ten largest forces, N=N ring systems that GFN2-xTB opens (a tetrazolone and a tetrazinedione losing N2, 1,2-diazepine-
# and 1,2,4-triazepinediones); the rows the rebuild drew in their place: see the organic README. The third draw (--draw 3):
# single points on its 2,031 starts, no SCF failure, largest force 5.70 eV/A; --md-steps 200 on every 10th row and the
# 10 of the largest start forces (78 molecules, 1,348 s on a shared machine): two substituted molecules broken, and then
# the ring system of one of them
TEACHER_BROKEN = {
    "O=c1nccccn1": "GFN2-xTB's SCF does not converge in 200 steps of MD at 1000 K (enumerate_rare.teacher_check)",
    "O=C1N=NN=N1": "58 of 200 MD frames at 1000 K with another bond graph (the second draw's row 53)",
    "O=C1N=NN=NC1=O": "its GFN2-xTB optimum has another bond graph (the second draw's row 129)",
    "O=c1cnccnnc1=O": "its GFN2-xTB optimum has another bond graph (the second draw's row 220)",
    "CCc1nc(C(=N)N)cnnc(=O)c1=O": "its GFN2-xTB optimum has another bond graph (the second draw's row 221)",
    "O=c1ccccnnc1=O": "its GFN2-xTB optimum has another bond graph (the second draw's row 232)",
    "CN=Cc1ccc(=O)c(=O)nnc1": "its GFN2-xTB optimum has another bond graph (the second draw's row 233)",
    "C=CC1=CC=CN2OC(=O)CCN12": "its GFN2-xTB optimum has another bond graph (the third draw's row 430)",
    "O=C1CCN2C=CC=CN2O1": "its GFN2-xTB optimum has another bond graph (the third draw's row 429, the system of row 430; "
                          "its next substitution, row 430 of the rebuild, too)",
    "CC(C)(O)C1=NOCC2=NC(=O)C(=O)C=C21": "62 of 200 MD frames at 1000 K with another bond graph (the third draw's row "
                                         "440)",
}


# ---------------------------------------------------------------------------------------------------------------------
# Ring systems of a molecule

def ring_atom_sets(mol):
    """The molecule's ring systems as sets of atom indices: rings sharing an atom (fused, bridged, spiro) are one."""
    systems = []
    for ring in mol.GetRingInfo().AtomRings():
        ring = set(ring)
        touching = [s for s in systems if s & ring]
        systems = [s for s in systems if not s & ring] + [ring.union(*touching)]
    return sorted(systems, key=min)


def capped(mol, keep):
    """The sub-molecule of the atoms keep, every bond to a removed atom replaced by hydrogens (one a bond order):
    canonical SMILES, stereo removed."""
    rw = Chem.RWMol(mol)
    for a in rw.GetAtoms():
        i = a.GetIdx()
        if i not in keep:
            continue
        h = a.GetTotalNumHs() + sum(int(b.GetBondTypeAsDouble()) for b in a.GetBonds()
                                    if b.GetOtherAtomIdx(i) not in keep)
        a.SetNoImplicit(True)
        a.SetNumExplicitHs(h)
    for i in sorted((a.GetIdx() for a in rw.GetAtoms() if a.GetIdx() not in keep), reverse=True):
        rw.RemoveAtom(i)
    m = rw.GetMol()
    Chem.SanitizeMol(m)
    Chem.RemoveStereochemistry(m)
    return Chem.MolToSmiles(Chem.MolFromSmiles(Chem.MolToSmiles(m)))


def ring_systems(smiles_or_mol):
    """The canonical keys of a molecule's ring systems: each system's ring atoms (RDKit's rings joined where they share
    an atom: fused, bridged, spiro) with their ring bonds, and the atoms doubly bonded to them outside the rings
    (exocyclic C=O, C=N, C=C), capped with hydrogens: the canonical SMILES (stereo removed) of that H-capped system."""
    mol = Chem.MolFromSmiles(smiles_or_mol) if isinstance(smiles_or_mol, str) else smiles_or_mol
    out = set()
    for atoms in ring_atom_sets(mol):
        keep = set(atoms)
        for i in atoms:
            for b in mol.GetAtomWithIdx(i).GetBonds():
                if b.GetBondType() == Chem.BondType.DOUBLE:
                    keep.add(b.GetOtherAtomIdx(i))
        out.add(capped(mol, keep))
    return out


# ---------------------------------------------------------------------------------------------------------------------
# The candidates: skeletons x heavy atoms x unsaturation

def _cycle(atoms):
    return [(atoms[k], atoms[(k + 1) % len(atoms)]) for k in range(len(atoms))]


def monocycle(n):
    return dict(n=n, rings=[list(range(n))], locked=set())


def fused(a, b):
    """Two rings of a and b atoms sharing the bond (0, a-1)."""
    return dict(n=a + b - 2, rings=[list(range(a)), [a - 1] + list(range(a, a + b - 2)) + [0]], locked=set())


def bridged(x, y, z):
    """Bicyclo[x.y.z]: bridgeheads 0 and 1, bridges of x, y and z atoms; no double bond at a bridgehead (Bredt)."""
    bridges, k = [], 2
    for size in (x, y, z):
        bridges.append(list(range(k, k + size)))
        k += size
    rings = [[0] + bridges[0] + [1] + bridges[1][::-1], [0] + bridges[0] + [1] + bridges[2][::-1]]
    if x == 1 and y == 1 and z == 1:   # bicyclo[1.1.1]: three 4-rings; the third is the first two's other cycle
        rings.append([0] + bridges[1] + [1] + bridges[2][::-1])
    return dict(n=k, rings=rings, locked={0, 1})


def spiro(a, b):
    """Spiro[a.b]: the spiro atom 0 in a ring of a + 1 and a ring of b + 1 atoms; no double bond at it."""
    return dict(n=1 + a + b, rings=[[0] + list(range(1, a + 1)), [0] + list(range(a + 1, a + b + 1))], locked={0})


# class: (skeletons, most heteroatoms, most O, most exocyclic C=O)
CLASSES = {
    "3-4 ring": ([monocycle(3), monocycle(4)], 2, 1, 1),
    "5 ring": ([monocycle(5)], 4, 2, 2),
    "6 ring": ([monocycle(6)], 4, 2, 2),
    "7-8 ring": ([monocycle(7), monocycle(8)], 3, 2, 2),
    "5-5 fused": ([fused(5, 5)], 3, 1, 2),
    "5-6 fused": ([fused(5, 6)], 3, 1, 2),
    "6-6 fused": ([fused(6, 6)], 3, 1, 2),
    "6-7 fused": ([fused(6, 7)], 3, 1, 2),
    "bridged": ([bridged(*s) for s in ((1, 1, 1), (2, 1, 1), (2, 2, 1), (2, 2, 2), (3, 2, 1), (3, 3, 1))], 2, 1, 1),
    "spiro": ([spiro(a, b) for a in (2, 3, 4, 5) for b in range(a, 6)], 2, 1, 1),
}
KINDS = ("saturated", "partly unsaturated", "unsaturated", "aromatic")
QUOTA = 6   # ring systems drawn a (class, kind) stratum
QUOTA2 = 10  # the second draw's: larger, the candidates of most strata run to thousands
QUOTA3 = 10  # the third draw's, the second's

# The draws (--draw): the training pools whose ring systems and molecules are excluded (besides molecules.csv split=train),
# the csv, the starts, their first index and split, the quota. The second continues the first in the same seeded
# stratum order: the first draw's systems (rings.csv) are training data now, so each stratum gives its next QUOTA2;
# the third continues the second the same way (rings2.csv counted too).
DRAWS = {
    1: dict(pools=TRAINING_POOLS, out=RINGS_CSV, starts=STARTS, first=RINGS_INDEX, split="rings", quota=QUOTA),
    2: dict(pools=TRAINING_POOLS + (RINGS_CSV, COVERAGE2_CSV), out=RINGS2_CSV, starts=STARTS2, first=RINGS2_INDEX,
            split="rings2", quota=QUOTA2),
    3: dict(pools=TRAINING_POOLS + (RINGS_CSV, COVERAGE2_CSV, RINGS2_CSV), out=RINGS3_CSV, starts=STARTS3,
            first=RINGS3_INDEX, split="rings3", quota=QUOTA3),
}


def _bonds(sk):
    return sorted({tuple(sorted(b)) for r in sk["rings"] for b in _cycle(r)})


def _degree(sk):
    d = [0] * sk["n"]
    for i, j in _bonds(sk):
        d[i] += 1
        d[j] += 1
    return d


def _mol(sk, elements, doubles=(), carbonyls=()):
    """RDKit molecule of a skeleton: its atoms' elements, single ring bonds but doubles, =O on carbonyls."""
    rw = Chem.RWMol()
    for e in elements:
        rw.AddAtom(Chem.Atom(e))
    for i, j in _bonds(sk):
        rw.AddBond(i, j, Chem.BondType.DOUBLE if (i, j) in doubles else Chem.BondType.SINGLE)
    for i in carbonyls:
        o = rw.AddAtom(Chem.Atom("O"))
        rw.AddBond(i, o, Chem.BondType.DOUBLE)
    return rw.GetMol()


def frameworks(sk, max_hetero, max_o):
    """The skeleton's heavy-atom assignments (C, N, O) up to its symmetry: O only on atoms of two ring bonds, never two O
    bonded; at most max_hetero N or O of which at most max_o O. [(elements, canonical saturated SMILES)]"""
    deg, bonds = _degree(sk), _bonds(sk)
    out, seen = [], set()
    for k in range(max_hetero + 1):
        for where in itertools.combinations(range(sk["n"]), k):
            for what in itertools.product("NO", repeat=k):
                if what.count("O") > max_o:
                    continue
                el = ["C"] * sk["n"]
                for i, e in zip(where, what):
                    el[i] = e
                if any(el[i] == "O" and deg[i] != 2 for i in where) or any(el[i] == el[j] == "O" for i, j in bonds):
                    continue
                if any(el[i] == "N" and deg[i] > 3 for i in where):
                    continue
                m = _mol(sk, el)
                Chem.SanitizeMol(m)
                smi = Chem.MolToSmiles(m)
                if smi not in seen:
                    seen.add(smi)
                    out.append((tuple(el), smi))
    return out


def matchings(edges):
    """Every set of pairwise disjoint edges (the empty set included), as sorted tuples."""
    out = [()]
    for k, (i, j) in enumerate(edges):
        out += [m + ((i, j),) for m in out if all(i not in b and j not in b for b in m)]
    return sorted(set(tuple(sorted(m)) for m in out), key=lambda m: (len(m), m))


def unsaturations(sk, elements, max_carbonyl, fused_rings):
    """(doubles, carbonyls, kind) of a framework. Carbonyls: up to max_carbonyl ring C of two ring bonds outside
    `locked` carry =O. Doubles: C or N (two ring bonds) outside locked and carbonyls; for fused rings (fused_rings) the
    ring-state rule: each ring saturated or unsaturated, the unsaturated rings' bonds taking every maximum matching;
    otherwise every matching. Kind: no ring double bond (saturated), a maximum matching of the whole system (unsaturated),
    or between (partly unsaturated). Rings of 3 or 4 atoms hold at most one double bond, exocyclic C=O counted."""
    deg, bonds = _degree(sk), _bonds(sk)
    can_co = [i for i in range(sk["n"]) if elements[i] == "C" and deg[i] == 2 and i not in sk["locked"]]
    small = [set(r) for r in sk["rings"] if len(r) <= 4]
    for nc in range(max_carbonyl + 1):
        for co in itertools.combinations(can_co, nc):
            ok = [i not in sk["locked"] and i not in co and (elements[i] == "C" or (elements[i] == "N" and deg[i] == 2))
                  for i in range(sk["n"])]
            edges = [(i, j) for i, j in bonds if ok[i] and ok[j]]
            every = matchings(edges)
            most = max(len(m) for m in every)
            if fused_rings:
                pats = set()
                for states in itertools.product((False, True), repeat=len(sk["rings"])):
                    sub = {tuple(sorted(b)) for r, on in zip(sk["rings"], states) if on for b in _cycle(r)}
                    ms = matchings([e for e in edges if e in sub])
                    top = max(len(m) for m in ms)
                    pats |= {m for m in ms if len(m) == top}
            else:
                pats = set(every)
            for m in sorted(pats, key=lambda m: (len(m), m)):
                if any(sum(1 for i, j in m if i in r and j in r) + sum(1 for i in co if i in r) > 1 for r in small):
                    continue
                kind = KINDS[0] if not m else KINDS[2] if len(m) == most else KINDS[1]
                yield frozenset(m), co, kind


def candidates():
    """{(class, kind): [(n heteroatoms, n exocyclic C=O, canonical SMILES)]}: every distinct candidate ring system (the
    first labelled candidate of a canonical SMILES wins), in a fixed order. Kind: the unsaturation's (unsaturations())
    unless RDKit finds an aromatic ring atom in the sanitised molecule: aromatic. The enumeration (~25 s) runs once a
    process (each draw's build and the tests read it); every call gets its own lists."""
    return {k: list(v) for k, v in _enumerated().items()}


@functools.lru_cache(maxsize=1)
def _enumerated():
    out = {(c, k): [] for c in CLASSES for k in KINDS}
    seen = set()
    for c, (skeletons, max_h, max_o, max_co) in CLASSES.items():
        for sk in skeletons:
            for el, _ in frameworks(sk, max_h, max_o):
                nh = sum(e != "C" for e in el)
                for m, co, kind in unsaturations(sk, el, max_co, c.endswith("fused")):
                    mol = _mol(sk, el, m, co)
                    try:
                        Chem.SanitizeMol(mol)
                    except Exception:   # noqa: BLE001 - RDKit raises several sanitisation errors; none is expected
                        continue
                    smi = Chem.MolToSmiles(mol)
                    if smi in seen:
                        continue
                    seen.add(smi)
                    if any(a.GetIsAromatic() for a in mol.GetAtoms()):
                        kind = "aromatic"
                    out[(c, kind)].append((nh, len(co), smi))
    return out


# ---------------------------------------------------------------------------------------------------------------------
# The draw

def systems_of(rows):
    """{ring-system key: the first row's name holding it} of rows (name, smiles)."""
    out = {}
    for r in rows:
        for k in ring_systems(r["smiles"]):
            out.setdefault(k, r.get("name", r["smiles"]))
    return out


def training_systems(molecules=MOLECULES, pools=TRAINING_POOLS):
    """{key: molecule} of the ring systems of the training data: molecules.csv split=train and every pool's rows."""
    rows = [r for r in read_smiles(molecules) if r["split"] == "train"]
    for p in pools:
        rows += read_smiles(p)
    return systems_of(rows)


def test_systems(molecules=MOLECULES, testset_b=TESTSET_B):
    """{key: 'name (test A|B)'} of the ring systems of the test molecules, A's and B's (a named B file that is missing
    is refused, as enumerate_coverage.test_sets; '' leaves B out, for a checkout without test set B)."""
    rows = [dict(name=f"{r['name']} (test A)", smiles=r["smiles"]) for r in read_smiles(molecules)
            if r["split"] == "test"]
    if testset_b and not os.path.exists(testset_b):
        raise SystemExit(f"enumerate_rings.py --testset-b {testset_b}: no such file; test set B's ring systems must be "
                         f"excluded from the pool (pass --testset-b '' only for a checkout without test set B)")
    if testset_b:
        rows += [dict(name=f"{r['name']} (test B)", smiles=r["smiles"]) for r in read_smiles(testset_b)]
    return systems_of(rows)


def stratum_order(cands, stratum, seed):
    """A stratum's candidates in the draw's order: grouped by (heteroatoms, carbonyls), each group shuffled with
    random.Random(f'{seed}:{class}:{kind}'), then taken in turn from each group (so that the draw spreads over them)."""
    groups = {}
    for c in cands:
        groups.setdefault(c[:2], []).append(c)
    rng = random.Random(f"{seed}:{stratum[0]}:{stratum[1]}")
    keys = sorted(groups)
    for k in keys:
        rng.shuffle(groups[k])
    for n in range(max((len(g) for g in groups.values()), default=0)):
        for k in keys:
            if n < len(groups[k]):
                yield groups[k][n]


def unwanted(mol):
    return bool(problems(mol)) or any(mol.HasSubstructMatch(p) for p in UNWANTED) or mol.HasSubstructMatch(ANHYDRIDE)


def with_substituents(key, rng, seen):
    """One seeded substitution of the H-capped ring system key: one or two of enumerate.SUBSTITUENTS on distinct ring
    atoms that carry a hydrogen (C-H, N-H), joined by enumerate.zipped_product (its rules and unstable groups, seen
    updated). (name, smiles, mol) or None where this draw fails the rules."""
    mol = Chem.MolFromSmiles(key)
    sites = [a.GetIdx() for a in mol.GetAtoms() if a.IsInRing() and a.GetTotalNumHs() > 0]
    if not sites:
        return None
    n = min(rng.choice((1, 2)), len(sites))
    where = sorted(rng.sample(sites, n))
    subs = [SUBSTITUENTS[rng.randrange(len(SUBSTITUENTS))] for _ in where]
    rw = Chem.RWMol(mol)
    for k, i in enumerate(where, start=1):
        a = rw.GetAtomWithIdx(i)
        if a.GetNumExplicitHs():
            a.SetNumExplicitHs(a.GetNumExplicitHs() - 1)
        d = Chem.Atom(0)
        d.SetAtomMapNum(k)
        rw.AddBond(i, rw.AddAtom(d), Chem.BondType.SINGLE)
    pieces = ".".join([Chem.MolToSmiles(rw)] + [s.replace("[*:1]", f"[*:{k}]") for k, (_, s) in enumerate(subs, 1)])
    made = zipped_product(pieces, seen)
    if made is None:
        return None
    return (f"ring {key} + " + ", ".join(n for n, _ in subs), *made)


def exclusions(molecules=MOLECULES, pools=TRAINING_POOLS, testset_b=TESTSET_B):
    """What no drawn ring system may be: {"known", "tests"} (enumerate_coverage's: molecules of the list and the pools,
    test A and B molecules with their stereoisomers, tautomers and scaffolds), {"avoid": {key: why}} the ring systems of
    the training data and of the test molecules, and {"avoid_taut": {tautomer of a key: why}}."""
    train = training_systems(molecules, pools)
    test = test_systems(molecules, testset_b)
    avoid = {k: f"a ring system of the training data: {v}" for k, v in train.items()}
    avoid.update({k: f"a ring system of a test molecule: {v}" for k, v in test.items()})   # named as the test's
    return dict(known=known_molecules(molecules, pools), tests=test_sets(molecules, testset_b), train=train, test=test,
                avoid=avoid, avoid_taut={tautomer(k): v for k, v in avoid.items()})


def why_not(key, ex, broken=None, seed=MASTER_SEED, drawn=()):
    """Why the candidate ring system key may not be drawn (None: it may), cheapest first: the list's rules; a ring
    system of the training data or a test molecule (ex: exclusions()), as written or as a tautomer; a tautomer of one
    drawn (drawn: their tautomers); enumerate_coverage.excluded (a known molecule, a test molecule, its stereoisomer,
    tautomer or scaffold); TEACHER_BROKEN (broken); no ETKDG embedding. The text before ':' is the reason's kind."""
    broken = TEACHER_BROKEN if broken is None else broken
    mol = Chem.MolFromSmiles(key)
    if mol is None or unwanted(mol):
        return "the list's rules or an unstable group"
    if key in ex["avoid"]:
        return ex["avoid"][key]
    t = tautomer(key)
    if t in ex["avoid_taut"]:
        return "a tautomer of " + ex["avoid_taut"][t]
    if t in drawn:
        return "a tautomer of one drawn"
    why = excluded(key, ex["known"], ex["tests"])
    if why:
        return "a known or test molecule: " + why
    if key in broken:
        return "teacher: " + broken[key]
    if not embeds(mol, seed):
        return "does not embed"
    return None


def build(molecules=MOLECULES, pools=TRAINING_POOLS, testset_b=TESTSET_B, seed=MASTER_SEED, quota=QUOTA, broken=None,
          report=None, strata=None):
    """The pool's rows (name, smiles, category, system, cls, kind) in stratum order; report (a dict) gets the counts."""
    RDLogger.DisableLog("rdApp.*")
    broken = TEACHER_BROKEN if broken is None else broken
    ex = exclusions(molecules, pools, testset_b)
    known, tests, train, test = ex["known"], ex["tests"], ex["train"], ex["test"]
    cands = candidates()
    rows, taken_taut, seen = [], set(), set()
    why = {}
    inspected = 0
    for stratum in (strata or cands):
        got = 0
        for nh, nc, key in stratum_order(cands[stratum], stratum, seed):
            if got >= quota:
                break
            inspected += 1
            reason = why_not(key, ex, broken, seed, taken_taut)
            if reason:
                kind = reason.split(":")[0]
                why[kind] = why.get(kind, 0) + 1
                continue
            mol = Chem.MolFromSmiles(key)
            assert ring_systems(mol) == {key}, key
            taken_taut.add(tautomer(key))
            got += 1
            rows.append(dict(name=f"ring {key}", smiles=key, category=classify(mol), system=key, cls=stratum[0],
                             kind=stratum[1]))
            seen.add(key)
            rng = random.Random(f"{seed}:{key}")
            for _ in range(SUBSTITUTION_TRIES):
                made = with_substituents(key, rng, seen)
                if made is None:
                    continue
                name, smi, pm = made
                if (atom_count(pm) > MAX_RING_ATOMS or pm.HasSubstructMatch(ANHYDRIDE) or smi in broken
                        or key not in ring_systems(pm) or any(k != key and k not in train for k in ring_systems(pm))
                        or excluded(smi, known, tests) or not embeds(pm, seed)):
                    continue
                rows.append(dict(name=name, smiles=smi, category=classify(pm), system=key, cls=stratum[0],
                                 kind=stratum[1]))
                break
    if report is not None:
        report.update(candidates={s: len(v) for s, v in cands.items()}, inspected=inspected, why=why,
                      training_systems=len(train), test_systems=len(test),
                      test_only=sum(1 for k in test if k not in train), test_b=tests["b"])
    return rows


def counts_text(rows, rep):
    parents = [r for r in rows if r["name"] == "ring " + r["system"]]
    by_stratum = {}
    for r in parents:
        by_stratum[(r["cls"], r["kind"])] = by_stratum.get((r["cls"], r["kind"]), 0) + 1
    cats = {}
    for r in rows:
        cats[r["category"]] = cats.get(r["category"], 0) + 1
    atoms = [atom_count(Chem.MolFromSmiles(r["smiles"])) for r in rows]
    lines = [f"{sum(rep['candidates'].values())} distinct candidate ring systems; {rep['training_systems']} ring systems "
             f"in the training data, {rep['test_systems']} in test A and B ({rep['test_only']} of them not in training); "
             f"test set B " + ("excluded" if rep["test_b"] else "left out (--testset-b '')"),
             f"{rep['inspected']} drawn, not taken: " + ", ".join(f"{k} {v}" for k, v in sorted(rep["why"].items()))]
    for c in CLASSES:
        lines.append(f"  {c:10s} " + "  ".join(f"{k} {by_stratum.get((c, k), 0)}/{rep['candidates'][(c, k)]}"
                                               for k in KINDS))
    lines.append(f"{len(parents)} ring systems, {len(rows)} molecules ({len(rows) - len(parents)} substituted), "
                 f"{min(atoms)}-{max(atoms)} atoms with H (mean {sum(atoms) / len(atoms):.1f}): "
                 + ", ".join(f"{k} {v}" for k, v in sorted(cats.items(), key=lambda kv: (-kv[1], kv[0]))))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--draw", type=int, choices=sorted(DRAWS), default=1,
                    help="1: rings.csv; 2: rings2.csv, the same rule continued with rings.csv and coverage2.csv counted "
                         "as training data; 3: rings3.csv, continued again with rings2.csv counted too")
    ap.add_argument("--out", default=None, help="default: the draw's csv")
    ap.add_argument("--quota", type=int, default=None, help=f"ring systems drawn a (class, kind) stratum (default the "
                                                            f"draw's: {QUOTA}, {QUOTA2}, {QUOTA3})")
    ap.add_argument("--testset-b", default=TESTSET_B,
                    help="test set B's molecules (name,smiles,...), excluded with their ring systems (default "
                         "organic/testset_b.csv); a missing file is refused; '' leaves B out")
    add_start_options(ap, None, "the rows --rows picks")
    ap.add_argument("--rows", default="",
                    help="with --md-steps: comma-separated row numbers (0-based) of --out to check (default all)")
    args = ap.parse_args(argv)
    draw = DRAWS[args.draw]
    args.out = args.out or draw["out"]
    args.quota = draw["quota"] if args.quota is None else args.quota
    args.starts_out = args.starts_out or draw["starts"]
    if args.teacher_check and args.md_steps:
        rows = read_smiles(args.out)
        print_md_check(rows, parse_rows(ap, args.rows, len(rows), args.out) or range(len(rows)), args.md_steps)
        return
    if args.teacher_check:
        import enumerate_coverage
        enumerate_coverage.MAX_START_FORCE = MAX_START_FORCE   # this pool's limit, read by teacher_check
        print_teacher_check(args.starts_out, TEACHER_BROKEN, rows=read_smiles(args.out), top=10)
        return
    t0 = time.time()
    rep = {}
    rows = build(pools=draw["pools"], quota=args.quota, testset_b=args.testset_b, report=rep)
    write([dict(name=r["name"], smiles=r["smiles"], category=r["category"]) for r in rows], args.out)
    print(counts_text(rows, rep))
    print(f"-> {args.out} ({time.time() - t0:.0f} s)")
    if args.starts:
        write_starts_and_say(rows, args.starts_out, args.conformers, first=draw["first"], split=draw["split"])


if __name__ == "__main__":
    main()
