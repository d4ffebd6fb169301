#!/usr/bin/python3
"""The coverage pool: training molecules chosen by a mechanical rule to cover atom environments the training data hold
rarely or not at all. No test molecule's error (no model's error at all) enters the choice.

    /usr/bin/python3 forcefield/training/organic/enumerate_coverage.py                 # writes coverage.csv, prints counts
    /usr/bin/python3 forcefield/training/organic/enumerate_coverage.py --starts        # and starts.coverage.xyz.gz
    /usr/bin/python3 forcefield/training/organic/enumerate_coverage.py --teacher-check # GFN2-xTB on every start (libxtb)
    /usr/bin/python3 forcefield/training/organic/enumerate_coverage.py --draw 2 --starts   # the second draw: coverage2.csv

Why: the motif, rare, conjugated and small pools were each designed by looking at the independent test set's worst
molecules, which steers the training data by the test set. This pool is chosen without looking at any test molecule's
error: it adds what the training data lack by a count.

The measure (environments()): a molecule's atom environments of radius 1 and 2, RDKit Morgan identifiers (unhashed
32-bit ids of GetMorganFingerprint, chirality ignored; an atom's invariants are its element, heavy degree, total H count,
formal charge and ring membership, and each radius adds the bonded neighbours with their bond orders, aromatic bonds
their own order), counted as the number of training molecules holding each (the training molecules: molecules.csv
split=train, small.csv, conjugated.csv, rare.csv, motifs.csv). An environment is rare when fewer than RARE (3)
training molecules hold it.

The candidates (candidates()), in table order:
  a. every product of enumerate.py's 89 scaffolds x 47 substituents (enumerate.enumerate_products: its rules and
     unstable groups), of which molecules.csv drew 900;
  b. two of enumerate.py's 47 substituents on one of LINKERS (1,2-, 1,3-, 1,4-phenylene, pyridine-2,5-diyl,
     furan-2,5-diyl, methylene, ethane-1,2-diyl, propane-1,3-diyl, cyclohexane-1,4-diyl): functional groups 1 to 6 bonds
     apart; every unordered pair (ordered on pyridine-2,5-diyl, the one asymmetric linker), RDKit molzip, kept when it
     sanitises and passes enumerate.problems() (H/C/N/O, neutral, closed shell, one fragment, 2-42 atoms) and has none
     of enumerate.UNWANTED.
Excluded (excluded()): a molecule already in molecules.csv (train or test) or a pool (small, conjugated, rare, motifs),
stereo aside (enumerate.stereo_free); a test molecule's stereoisomer or tautomer (RDKit canonical tautomer, as the
motif pool); a molecule with the Bemis-Murcko ring scaffold of a test molecule (enumerate.scaffold); and the same for
the second, sealed test set B, TESTSET_B (organic/testset_b.csv, column smiles; a missing file is refused).

The choice (select()): greedy, deterministic. A candidate's gain is the sum over its distinct environments of
(RARE - c) / RARE for those with a count c < RARE (a new environment 1, one held once 2/3, twice 1/3); the candidate of
the largest gain is taken (ties: a seeded shuffle, random.Random(MASTER_SEED + 43)), the counts are raised by its
environments, and so on (lazy greedy: gains only fall) until SIZE molecules are taken or no candidate gains. A taken
candidate that is excluded or does not embed with ETKDG (enumerate.embeds) is skipped. Name: the scaffold + substituent
(a) or linker: substituent, substituent (b); category: enumerate.classify (the list's).

The teacher's check (--teacher-check): a GFN2-xTB single point on every start (libxtb) and the largest atomic force;
a molecule with an SCF failure or a force above MAX_START_FORCE (eV/A) on a start is recorded in TEACHER_BROKEN and
left out by the build; with --md-steps N also enumerate_rare.teacher_check (the rare and motif pools' check: GFN2-xTB
optimisation, N steps of MD at 1000 K, a second optimisation; broken when a bond graph changes) of every row of --out.
The starts (--starts): enumerate_conjugated.write_starts (make_starts.py's ETKDG v3 + MMFF94, the
bond-graph check, seed_for, the SMILES's stereo), 3 conformers, rows indexed and seeded from COVERAGE_INDEX (the
motif pool's from 400,000), split=coverage.

The second draw (--draw 2, DRAWS[2]: coverage2.csv, starts.coverage2.xyz.gz, rows indexed and seeded from 900,000,
split=coverage2, SIZE2 = 700 molecules): the same rule, candidates, exclusions and tie order continued past the first
draw, counting everything the training data hold since: the list's training molecules and all six pools (small,
conjugated, rare, motifs, the first draw's coverage.csv and the ring-system pool's rings.csv, which came after it).
The first draw's molecules and the ring pool's are known, so excluded like the list's; the counts start with them.

The third draw (--draw 3, DRAWS[3]: coverage3.csv, starts.coverage3.xyz.gz, rows indexed and seeded from 1,200,000,
split=coverage3, SIZE3 = 700 molecules): the same rule again, counting what the shipped preview was trained on: the
list's training molecules, the six pools the second draw counts, coverage2.csv and rings2.csv. The third
ring draw (rings3.csv) is not counted: the round this draw is for leaves it out (organic/README.md, "The third
coverage draw").
"""
import argparse
import csv
import heapq
import os
import random
import sys
import time

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from enumerate import (MASTER_SEED, MOLECULES, SUBSTITUENTS, classify, embeds, enumerate_products,  # noqa: E402
                       scaffold, stereo_free, zipped_product)
from enumerate_conjugated import CONJUGATED, write_starts_and_say  # noqa: E402
from enumerate_small import SMALL, write  # noqa: E402

RARE_CSV = os.path.join(HERE, "rare.csv")
MOTIFS_CSV = os.path.join(HERE, "motifs.csv")
POOL_CSVS = (SMALL, CONJUGATED, RARE_CSV, MOTIFS_CSV)
COVERAGE_CSV = os.path.join(HERE, "coverage.csv")
STARTS = os.path.join(HERE, "starts.coverage.xyz.gz")
RINGS_CSV = os.path.join(HERE, "rings.csv")           # the ring-system pool (enumerate_rings.py), after the first draw
COVERAGE2_CSV = os.path.join(HERE, "coverage2.csv")
STARTS2 = os.path.join(HERE, "starts.coverage2.xyz.gz")
TESTSET_B = os.path.join(HERE, "testset_b.csv")   # the sealed second test set, always excluded (a missing file is refused)
COVERAGE_INDEX = 500000   # rows indexed (and seeded) from here by the starts; motifs.csv's from 400,000
SIZE = 600                # molecules taken
COVERAGE2_INDEX = 900000  # the second draw's rows (organic_data.POOLS["coverage2"]); rings.csv's from 800,000
SIZE2 = 700               # the second draw's molecules
RINGS2_CSV = os.path.join(HERE, "rings2.csv")         # the second ring-system draw, after the second coverage draw
COVERAGE3_CSV = os.path.join(HERE, "coverage3.csv")
STARTS3 = os.path.join(HERE, "starts.coverage3.xyz.gz")
COVERAGE3_INDEX = 1200000  # the third draw's rows (organic_data.POOLS["coverage3"]); rings3.csv's from 1,100,000
SIZE3 = 700                # the third draw's molecules
RARE = 3                  # an environment held by fewer training molecules than this is rare
RADII = (1, 2)
MAX_START_FORCE = 10.0    # eV/A: a start above it (GFN2-xTB) leaves its molecule out (TEACHER_BROKEN)

# Two attachment points: the substituent pairs of candidates (b)
LINKERS = [
    ("1,4-phenylene", "[*:1]c1ccc([*:2])cc1", True), ("1,3-phenylene", "[*:1]c1cccc([*:2])c1", True),
    ("1,2-phenylene", "[*:1]c1ccccc1[*:2]", True), ("pyridine-2,5-diyl", "[*:1]c1ccc([*:2])cn1", False),
    ("furan-2,5-diyl", "[*:1]c1ccc([*:2])o1", True), ("methylene", "[*:1]C[*:2]", True),
    ("ethane-1,2-diyl", "[*:1]CC[*:2]", True), ("propane-1,3-diyl", "[*:1]CCC[*:2]", True),
    ("cyclohexane-1,4-diyl", "[*:1]C1CCC([*:2])CC1", True),
]

# The draws (--draw): the pools the counts and exclusions start from (besides molecules.csv), the csv, the starts, their
# first index and split, the size. The second continues the first, counting its molecules and the ring pool's.
DRAWS = {
    1: dict(pools=POOL_CSVS, out=COVERAGE_CSV, starts=STARTS, first=COVERAGE_INDEX, split="coverage", size=SIZE),
    2: dict(pools=POOL_CSVS + (COVERAGE_CSV, RINGS_CSV), out=COVERAGE2_CSV, starts=STARTS2, first=COVERAGE2_INDEX,
            split="coverage2", size=SIZE2),
    # the shipped preview's data (round 19): the third ring draw (rings3.csv) is not counted, since rounds 20-22 that
    # trained on it were worse than the preview on most test molecules and round 23 leaves it out
    3: dict(pools=POOL_CSVS + (COVERAGE_CSV, RINGS_CSV, COVERAGE2_CSV, RINGS2_CSV), out=COVERAGE3_CSV, starts=STARTS3,
            first=COVERAGE3_INDEX, split="coverage3", size=SIZE3),
}

# --teacher-check's verdicts (canonical SMILES: why), left out by the build. Written from `enumerate_coverage.py
# --teacher-check`; see the README's "The coverage pool".
# 2026-11-30: single points on the 1,800 starts of 600 molecules, no SCF failure, largest force 4.00 eV/A; --md-steps 200
# on every 10th row (60 molecules, 469 s) and on the 10 of the largest start forces (N-cyano azoles, tetrazoles): all
# intact
# 2026-11-30, the second draw (--draw 2): single points on its 2,100 starts, no SCF failure, largest force 6.18 eV/A;
# --md-steps 200 on every 10th row and the 10 of the largest start forces (79 molecules, 420 s): one broken
# 2026-12-01, the third draw (--draw 3): single points on its 2,100 starts, no SCF failure, largest force 3.29 eV/A;
# --md-steps 200 on every 10th row and the 10 of the largest start forces (79 molecules, 541 s): all intact
TEACHER_BROKEN = {
    "N#CCC(=N)N": "GFN2-xTB's SCF does not converge in the 1000 K MD (--md-steps 200; the second draw's row 540)",
}


def environments(mol):
    """The molecule's distinct atom environments of radius RADII: {(radius, Morgan id)}."""
    info = {}
    AllChem.GetMorganFingerprint(mol, max(RADII), bitInfo=info)
    return frozenset((r, k) for k, hits in info.items() for _, r in hits if r in RADII)


def read_smiles(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f)]


def training_rows(molecules=MOLECULES, pools=POOL_CSVS):
    """The training molecules the measure counts: molecules.csv's split=train rows and every pool's rows."""
    rows = [r for r in read_smiles(molecules) if r["split"] == "train"]
    for p in pools:
        rows += read_smiles(p)
    return rows


def counts_of(rows):
    """{environment: number of molecules among rows holding it}."""
    c = {}
    for r in rows:
        for e in environments(Chem.MolFromSmiles(r["smiles"])):
            c[e] = c.get(e, 0) + 1
    return c


def tautomer(smiles):
    """RDKit's canonical tautomer without stereo (the motif pool's key)."""
    from rdkit.Chem.MolStandardize import rdMolStandardize
    return Chem.MolToSmiles(rdMolStandardize.TautomerEnumerator().Canonicalize(Chem.MolFromSmiles(stereo_free(smiles))))


def test_sets(molecules=MOLECULES, testset_b=TESTSET_B):
    """The molecules no candidate may be or resemble: {"smiles": {stereo-free key: name}, "scaffolds": {scaffold: name},
    "tautomers": {key: name}} of the list's test molecules and test set B's (testset_b; "" leaves B out, for a checkout
    before B existed). A testset_b that is named but missing is refused: building the pool without B's exclusions
    would leak B's molecules and scaffolds into training, silently."""
    rows = [dict(name=r["name"], smiles=r["smiles"], where="test A") for r in read_smiles(molecules)
            if r["split"] == "test"]
    if testset_b and not os.path.exists(testset_b):
        raise SystemExit(f"enumerate_coverage.py --testset-b {testset_b}: no such file; test set B's molecules must be "
                         f"excluded from the pool (pass --testset-b '' only for a checkout without test set B)")
    if testset_b:
        rows += [dict(name=r.get("name", r["smiles"]), smiles=r["smiles"], where="test B") for r in read_smiles(testset_b)]
    out = dict(smiles={}, scaffolds={}, tautomers={}, b=bool(testset_b and os.path.exists(testset_b)))
    for r in rows:
        label = f"{r['name']} ({r['where']})"
        out["smiles"][stereo_free(r["smiles"])] = label
        out["tautomers"][tautomer(r["smiles"])] = label
        s = scaffold(r["smiles"])
        if s:
            out["scaffolds"][s] = label
    return out


def known_molecules(molecules=MOLECULES, pools=POOL_CSVS):
    """{stereo-free key: where} of every row of molecules.csv (train and test) and the pools."""
    known = {stereo_free(r["smiles"]): f"molecules.csv ({r['split']})" for r in read_smiles(molecules)}
    for p in pools:
        known.update({stereo_free(r["smiles"]): os.path.basename(p) for r in read_smiles(p)})
    return known


def linked_products():
    """Candidates (b): (name, canonical smiles, mol) of two substituents on a linker, in table order, filtered."""
    out, seen = [], set()
    for ln, link, symmetric in LINKERS:
        for i, (n1, s1) in enumerate(SUBSTITUENTS):
            for j, (n2, s2) in enumerate(SUBSTITUENTS):
                if symmetric and j < i:
                    continue
                made = zipped_product(link + "." + s1 + "." + s2.replace("[*:1]", "[*:2]"), seen)
                if made:
                    out.append((f"{ln}: {n1}, {n2}", *made))
    return out


def candidates():
    """(name, canonical smiles, mol) of (a) then (b), one entry a canonical SMILES (the first name wins)."""
    out, seen = [], set()
    for name, smi, mol in enumerate_products() + linked_products():
        if smi not in seen:
            seen.add(smi)
            out.append((name, smi, mol))
    return out


def excluded(smi, known, tests, tautomers=True):
    """Why a candidate may not enter (None: it may), cheapest first; the tautomer check only with tautomers."""
    k = stereo_free(smi)
    if k in known:
        return "known: " + known[k]
    if k in tests["smiles"]:
        return "a test molecule or its stereoisomer: " + tests["smiles"][k]
    s = scaffold(smi)
    if s and s in tests["scaffolds"]:
        return "the ring scaffold of " + tests["scaffolds"][s]
    if tautomers and tautomer(smi) in tests["tautomers"]:
        return "a tautomer of " + tests["tautomers"][tautomer(smi)]
    return None


def select(cands, counts, size=SIZE, seed=MASTER_SEED, accept=lambda smi: True):
    """Greedy choice (module docstring): the taken candidates (indices into cands, in the order taken) and their gains.
    counts is raised in place by the taken molecules' environments. accept(smiles) False skips a candidate for good."""
    envs = [environments(m) for _, _, m in cands]
    order = list(range(len(cands)))
    random.Random(seed + 43).shuffle(order)
    tie = {i: k for k, i in enumerate(order)}

    def gain(i):   # in units of 1/RARE: integers, so that ties are exact
        return sum(RARE - counts.get(e, 0) for e in envs[i] if counts.get(e, 0) < RARE)

    heap = [(-gain(i), tie[i], i) for i in range(len(cands))]
    heapq.heapify(heap)
    taken, gains = [], []
    while heap and len(taken) < size:
        g, t, i = heapq.heappop(heap)
        g_now = gain(i)
        if g_now <= 0:
            break
        if g_now != -g:   # stale (gains only fall): back in with its gain now
            heapq.heappush(heap, (-g_now, t, i))
            continue
        if not accept(cands[i][1]):
            continue
        taken.append(i)
        gains.append(g_now / RARE)
        for e in envs[i]:
            counts[e] = counts.get(e, 0) + 1
    return taken, gains


def coverage_figures(counts, universe, radius=None):
    """(absent, rare) environments of universe (of one radius, or all): held by 0, by fewer than RARE training
    molecules."""
    u = [e for e in universe if radius is None or e[0] == radius]
    return (sum(1 for e in u if counts.get(e, 0) == 0), sum(1 for e in u if counts.get(e, 0) < RARE))


def build(molecules=MOLECULES, pools=POOL_CSVS, testset_b=TESTSET_B, size=SIZE, seed=MASTER_SEED, broken=None,
          report=None):
    """The pool's rows (name, canonical smiles, category) in the order taken, less TEACHER_BROKEN; report (a dict) gets
    the counts of the choice."""
    RDLogger.DisableLog("rdApp.*")
    broken = TEACHER_BROKEN if broken is None else broken
    known = known_molecules(molecules, pools)
    tests = test_sets(molecules, testset_b)
    allc = candidates()
    train = training_rows(molecules, pools)
    counts = counts_of(train)
    universe = set(counts)
    for _, _, m in allc:
        universe |= environments(m)
    before = {r: coverage_figures(counts, universe, r) for r in (None,) + RADII}
    skipped = {}
    cands = []
    for c in allc:   # known, a test molecule, its stereoisomer or ring scaffold: out before the choice
        why = excluded(c[1], known, tests, tautomers=False)
        if why:
            skipped[c[1]] = why
        else:
            cands.append(c)

    def accept(smi):   # the dearer checks, on the candidates the choice takes
        why = excluded(smi, known, tests)
        if why is None and smi in broken:
            why = "teacher: " + broken[smi]
        if why is None and not embeds(Chem.MolFromSmiles(smi), seed):
            why = "does not embed"
        if why:
            skipped[smi] = why
        return why is None

    taken, gains = select(cands, counts, size, seed, accept)
    rows = [dict(name=cands[i][0], smiles=cands[i][1], category=classify(cands[i][2])) for i in taken]
    if report is not None:
        report.update(candidates=len(allc), linked=sum(1 for n, _, _ in allc if ":" in n), eligible=len(cands), training=len(train),
                      universe={r: sum(1 for e in universe if r is None or e[0] == r) for r in (None,) + RADII}, before=before,
                      after={r: coverage_figures(counts, universe, r) for r in (None,) + RADII},
                      skipped=skipped, gains=gains, test_b=tests["b"])
    return rows


def teacher_check(path=STARTS, workers=1):
    """{smiles: (largest |force| over the starts eV/A, None or why broken)} of GFN2-xTB single points on every start."""
    import numpy as np
    sys.path.insert(0, os.path.dirname(HERE))
    import extxyz
    from libxtb import XtbCalculator, XtbFailure
    out = {}
    for fr in extxyz.read(path):
        smi = fr.info["smiles"]
        fmax, why = out.get(smi, (0.0, None))
        try:
            with XtbCalculator(fr.numbers, fr.positions, "gfn2") as calc:
                _, f = calc.compute(fr.positions)
            fmax = max(fmax, float(np.abs(f).max()))
            if fmax > MAX_START_FORCE and why is None:
                why = f"a start's largest force {fmax:.1f} eV/A > {MAX_START_FORCE}"
        except XtbFailure:
            why = why or f"GFN2-xTB's SCF fails on conformer {fr.info['conformer']}"
        out[smi] = (fmax, why)
    return out


def add_start_options(ap, starts, md_rows):
    """The start and teacher-check options of a pool's builder (this one's and enumerate_rings'): --starts, --starts-out
    (default starts), --conformers, --teacher-check and --md-steps, whose MD check covers md_rows."""
    ap.add_argument("--starts", action="store_true", help="also write the starts (make_starts.py's conformers)")
    ap.add_argument("--starts-out", default=starts)
    ap.add_argument("--conformers", type=int, default=3, help="conformers per molecule (default 3, as make_starts.py)")
    ap.add_argument("--teacher-check", action="store_true",
                    help="GFN2-xTB single points on every start of --starts-out (libxtb); prints the largest forces and "
                         "what differs from TEACHER_BROKEN")
    ap.add_argument("--md-steps", type=int, default=0,
                    help="with --teacher-check, also enumerate_rare.teacher_check (GFN2-xTB optimisation, this many MD "
                         f"steps at 1000 K, a second optimisation) of {md_rows}")


def print_md_check(rows, pick, md_steps):
    """--teacher-check --md-steps N of a pool's builder: enumerate_rare.teacher_check (GFN2-xTB optimisation, N steps
    of MD at 1000 K, a second optimisation) of the rows pick names, a line a molecule, then the broken ones."""
    from enumerate_rare import teacher_check as md_check
    t0 = time.time()
    bad = {}
    for k in pick:
        r = rows[k]
        why = md_check(r["smiles"], md_steps=md_steps)
        if why:
            bad[r["smiles"]] = why
        print(f"{k} {r['smiles']:40s} {why or 'intact'}", flush=True)
    print(f"{len(pick)} molecules, {len(bad)} broken ({md_steps} MD steps), {time.time() - t0:.0f} s: {bad}")


def print_teacher_check(starts, known_broken, rows=None, top=5):
    """--teacher-check of a pool's builder: teacher_check's GFN2-xTB single points on every start in starts, the top
    largest start forces (eV/A; with the row of rows that holds each, where rows are given), their median, p95 and
    maximum, and how the broken ones differ from known_broken (the builder's TEACHER_BROKEN)."""
    import numpy as np
    t0 = time.time()
    res = teacher_check(starts)
    f = np.array([v[0] for v in res.values()])
    broken = {s: v[1] for s, v in res.items() if v[1]}
    row_of = {r["smiles"]: k for k, r in enumerate(rows or [])}
    for s, v in sorted(res.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"  {v[0]:6.2f} eV/A  " + (f"row {row_of.get(s)}  " if rows is not None else "") + s)
    print(f"{len(res)} molecules: largest start force median {np.median(f):.2f}, p95 {np.percentile(f, 95):.2f}, "
          f"max {f.max():.2f} eV/A; {len(broken)} broken; {time.time() - t0:.0f} s")
    print("differences from TEACHER_BROKEN:", {s: v for s, v in broken.items() if s not in known_broken},
          [s for s in known_broken if s not in broken])


def parse_rows(ap, text, n, path):
    """--rows' comma-separated 0-based row numbers of the csv at path (n rows); anything else is refused by ap.error,
    naming the option, the value and the file, before any teacher runs."""
    picked = []
    for k in (t.strip() for t in text.split(",") if t.strip()):
        if not k.isdigit() or int(k) >= n:
            ap.error(f"--rows: {k!r} is not a row of {path} (0-based, 0..{n - 1})")
        picked.append(int(k))
    return picked


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--draw", type=int, choices=sorted(DRAWS), default=1,
                    help="1: coverage.csv (600, counting the list and the small, conjugated, rare and motif pools); 2: "
                         "coverage2.csv (700, counting those, coverage.csv and rings.csv too); 3: coverage3.csv (700, "
                         "counting those, coverage2.csv and rings2.csv too, not rings3.csv); sets the defaults of "
                         "--out, --size and --starts-out, and the starts' index and split")
    ap.add_argument("--out", default=None, help="default: the draw's csv")
    ap.add_argument("--size", type=int, default=None, help="default: the draw's size (600, 700, 700)")
    ap.add_argument("--testset-b", default=TESTSET_B,
                    help="test set B's molecules (name,smiles,...), excluded with their ring scaffolds (default "
                         "organic/testset_b.csv); a missing file is refused; '' leaves B out")
    add_start_options(ap, None, "the rows --rows picks")
    ap.add_argument("--rows", default="",
                    help="with --md-steps: comma-separated row numbers (0-based) of --out to check (default all)")
    args = ap.parse_args(argv)
    draw = DRAWS[args.draw]
    args.out = args.out or draw["out"]
    args.size = draw["size"] if args.size is None else args.size
    args.starts_out = args.starts_out or draw["starts"]
    if args.teacher_check and args.md_steps:
        rows = read_smiles(args.out)
        print_md_check(rows, parse_rows(ap, args.rows, len(rows), args.out) or range(len(rows)), args.md_steps)
        return
    if args.teacher_check:
        print_teacher_check(args.starts_out, TEACHER_BROKEN, rows=read_smiles(args.out), top=10)
        return
    t0 = time.time()
    rep = {}
    rows = build(pools=draw["pools"], size=args.size, testset_b=args.testset_b, report=rep)
    write(rows, args.out)
    by = {}
    for r in rows:
        by[r["category"]] = by.get(r["category"], 0) + 1
    print(f"{rep['candidates']} candidates ({rep['linked']} linked pairs; {rep['eligible']} new), {rep['training']} "
          f"training molecules, {rep['universe'][None]} environments (radius {RADII}) in training and candidates; test set B "
          f"{('excluded: ' + args.testset_b) if rep['test_b'] else 'left out (--testset-b empty)'}")
    for r in (None,) + RADII:
        b, a = rep["before"][r], rep["after"][r]
        print(f"radius {r or 'both'}: {rep['universe'][r]} environments; absent from training {b[0]} -> {a[0]}, held by "
              f"< {RARE} training molecules {b[1]} -> {a[1]}")
    g = rep["gains"]
    why = list(rep["skipped"].values())
    print(f"gains (new-or-rare environments a molecule, in units of a new one): first {g[0]:.2f}, 100th "
          f"{g[min(99, len(g) - 1)]:.2f}, last {g[-1]:.2f}; excluded: " + ", ".join(
              f"{k} {sum(1 for v in why if v.startswith(k))}"
              for k in ("known", "a test", "the ring", "a tautomer", "teacher", "does not")))
    print(f"{len(rows)} coverage molecules (draw {args.draw}) -> {args.out} ({time.time() - t0:.0f} s): "
          + ", ".join(f"{k} {v}" for k, v in sorted(by.items(), key=lambda kv: -kv[1])))
    if args.starts:
        write_starts_and_say(rows, args.starts_out, args.conformers, first=draw["first"], split=draw["split"])


if __name__ == "__main__":
    main()
