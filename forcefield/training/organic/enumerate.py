#!/usr/bin/python3
"""The organic chemical space of the student: curated molecules plus a seeded scaffold x substituent enumeration,
split into training and an independent test set.

    /usr/bin/python3 forcefield/training/organic/enumerate.py            # writes molecules.csv next to this file
    /usr/bin/python3 forcefield/training/organic/enumerate.py --out x.csv --seed 7 --enumerated 900

Every molecule is neutral, closed-shell, made of H, C, N and O only, has 2..MAX_ATOMS atoms with its hydrogens,
sanitises in RDKit and embeds with ETKDG. SMILES are RDKit canonical isomeric SMILES; duplicates (same canonical
SMILES) are dropped, the curated entry winning. Output columns: name,smiles,category,split.

The split (see split()): the G2 molecules of issue 27 are pinned to test, the molecules the v5 student knows to
train. Test molecules are chosen in seeded order, spread over the categories by a per-category quota; a ring
molecule goes to test only together with every molecule sharing its Bemis-Murcko scaffold (so no test scaffold
occurs in training), an acyclic molecule (empty scaffold) is split by canonical SMILES, stereo aside: a molecule
goes to test only when no other row is one of its stereoisomers (stereo_free(), the disjointness key that the pools,
enumerate_small.py, enumerate_conjugated.py and enumerate_rare.py, share: no training molecule anywhere is a test
molecule or one of its E/Z or R/S isomers).
"""
import argparse
import csv
import os
import random
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import AllChem
from rdkit.Chem.Scaffolds import MurckoScaffold

HERE = os.path.dirname(os.path.abspath(__file__))
CURATED = os.path.join(HERE, "curated.csv")
MOLECULES = os.path.join(HERE, "molecules.csv")

MASTER_SEED = 20261128
MAX_ATOMS = 42             # hard limit, hydrogens included
MIN_ATOMS = 2
ENUMERATED = 900           # how many enumerated molecules are drawn (seeded) from the filtered product
TEST_FRACTION = 0.085      # per-category quota of the test set
MAX_TEST_SCAFFOLD_GROUP = 3  # a ring scaffold goes to test only if it has at most this many molecules
ELEMENTS = {"H", "C", "N", "O"}
NITRO = Chem.MolFromSmarts("[N+](=O)[O-]")

# Attachment point [*:1]. Categories are given to enumerated molecules by classify(), not by these tables.
SCAFFOLDS = [
    ("phenyl", "[*:1]c1ccccc1"), ("benzyl", "[*:1]Cc1ccccc1"), ("2-phenylethyl", "[*:1]CCc1ccccc1"),
    ("naphthalen-1-yl", "[*:1]c1cccc2ccccc12"), ("naphthalen-2-yl", "[*:1]c1ccc2ccccc2c1"),
    ("4-methylphenyl", "[*:1]c1ccc(C)cc1"), ("3-methoxyphenyl", "[*:1]c1cccc(OC)c1"),
    ("2-hydroxyphenyl", "[*:1]c1ccccc1O"), ("2-aminophenyl", "[*:1]c1ccccc1N"), ("4-nitrophenyl", "[*:1]c1ccc(cc1)[N+](=O)[O-]"),
    ("pyridin-2-yl", "[*:1]c1ccccn1"), ("pyridin-3-yl", "[*:1]c1cccnc1"), ("pyridin-4-yl", "[*:1]c1ccncc1"),
    ("pyrrol-1-yl", "[*:1]n1cccc1"), ("pyrrol-2-yl", "[*:1]c1ccc[nH]1"),
    ("furan-2-yl", "[*:1]c1ccco1"), ("furan-3-yl", "[*:1]c1ccoc1"),
    ("imidazol-1-yl", "[*:1]n1ccnc1"), ("imidazol-2-yl", "[*:1]c1ncc[nH]1"), ("imidazol-4-yl", "[*:1]c1c[nH]cn1"),
    ("pyrazol-1-yl", "[*:1]n1cccn1"), ("pyrazol-4-yl", "[*:1]c1cn[nH]c1"),
    ("oxazol-2-yl", "[*:1]c1ncco1"), ("oxazol-5-yl", "[*:1]c1cnco1"), ("isoxazol-5-yl", "[*:1]c1ccno1"),
    ("1,3,4-oxadiazol-2-yl", "[*:1]c1nnco1"), ("tetrazol-5-yl", "[*:1]c1nn[nH]n1"),
    ("1-methylimidazol-2-yl", "[*:1]c1nccn1C"), ("1-methylpyrrol-2-yl", "[*:1]c1cccn1C"), ("1,2,4-triazol-1-yl", "[*:1]n1cncn1"),
    ("1,2,3-triazol-4-yl", "[*:1]c1c[nH]nn1"),
    ("pyrimidin-2-yl", "[*:1]c1ncccn1"), ("pyrimidin-5-yl", "[*:1]c1cncnc1"), ("pyrazin-2-yl", "[*:1]c1cnccn1"),
    ("pyridazin-3-yl", "[*:1]c1cccnn1"),
    ("indol-1-yl", "[*:1]n1ccc2ccccc21"), ("indol-3-yl", "[*:1]c1c[nH]c2ccccc12"),
    ("indol-5-yl", "[*:1]c1ccc2[nH]ccc2c1"), ("quinolin-2-yl", "[*:1]c1ccc2ccccc2n1"),
    ("quinolin-3-yl", "[*:1]c1cnc2ccccc2c1"), ("isoquinolin-1-yl", "[*:1]c1nccc2ccccc12"),
    ("benzimidazol-2-yl", "[*:1]c1nc2ccccc2[nH]1"), ("benzofuran-2-yl", "[*:1]c1cc2ccccc2o1"),
    ("benzoxazol-2-yl", "[*:1]c1nc2ccccc2o1"),
    ("methyl", "[*:1]C"), ("ethyl", "[*:1]CC"), ("n-propyl", "[*:1]CCC"), ("isopropyl", "[*:1]C(C)C"),
    ("n-butyl", "[*:1]CCCC"), ("isobutyl", "[*:1]CC(C)C"), ("sec-butyl", "[*:1]C(C)CC"),
    ("tert-butyl", "[*:1]C(C)(C)C"), ("n-pentyl", "[*:1]CCCCC"), ("neopentyl", "[*:1]CC(C)(C)C"),
    ("cyclopropyl", "[*:1]C1CC1"), ("cyclobutyl", "[*:1]C1CCC1"), ("cyclopentyl", "[*:1]C1CCCC1"),
    ("cyclohexyl", "[*:1]C1CCCCC1"), ("cycloheptyl", "[*:1]C1CCCCCC1"), ("cyclohexylmethyl", "[*:1]CC1CCCCC1"),
    ("norbornan-2-yl", "[*:1]C1CC2CCC1C2"), ("adamantan-1-yl", "[*:1]C12CC3CC(CC(C3)C1)C2"),
    ("vinyl", "[*:1]C=C"), ("allyl", "[*:1]CC=C"), ("propen-2-yl", "[*:1]C(C)=C"),
    ("(E)-prop-1-enyl", "[*:1]/C=C/C"), ("cyclohex-1-enyl", "[*:1]C1=CCCCC1"), ("ethynyl", "[*:1]C#C"),
    ("propargyl", "[*:1]CC#C"), ("prop-1-ynyl", "[*:1]C#CC"),
    ("piperidin-1-yl", "[*:1]N1CCCCC1"), ("morpholin-4-yl", "[*:1]N1CCOCC1"), ("pyrrolidin-1-yl", "[*:1]N1CCCC1"),
    ("piperazin-1-yl", "[*:1]N1CCNCC1"), ("4-methylpiperazin-1-yl", "[*:1]N1CCN(C)CC1"),
    ("azetidin-1-yl", "[*:1]N1CCC1"), ("piperidin-4-yl", "[*:1]C1CCNCC1"), ("pyrrolidin-2-yl", "[*:1]C1CCCN1"),
    ("tetrahydrofuran-2-yl", "[*:1]C1CCCO1"), ("tetrahydropyran-4-yl", "[*:1]C1CCOCC1"),
    ("oxetan-3-yl", "[*:1]C1COC1"), ("1,4-dioxan-2-yl", "[*:1]C1COCCO1"),
    ("2-oxopyrrolidin-1-yl", "[*:1]N1CCCC1=O"), ("2-methoxyethyl", "[*:1]CCOC"), ("2-hydroxyethyl", "[*:1]CCO"),
    ("2-aminoethyl", "[*:1]CCN"), ("2-oxopropyl", "[*:1]CC(C)=O"), ("acetyl", "[*:1]C(C)=O"),
    ("carboxymethyl", "[*:1]CC(=O)O"),
]

SUBSTITUENTS = [
    ("methyl", "[*:1]C"), ("ethyl", "[*:1]CC"), ("isopropyl", "[*:1]C(C)C"), ("tert-butyl", "[*:1]C(C)(C)C"),
    ("hydroxy", "[*:1]O"), ("hydroxymethyl", "[*:1]CO"), ("2-hydroxypropan-2-yl", "[*:1]C(C)(C)O"),
    ("methoxy", "[*:1]OC"), ("ethoxy", "[*:1]OCC"), ("methoxymethyl", "[*:1]COC"),
    ("formyl", "[*:1]C=O"), ("acetyl", "[*:1]C(C)=O"), ("propanoyl", "[*:1]C(=O)CC"), ("benzoyl", "[*:1]C(=O)c1ccccc1"),
    ("carboxy", "[*:1]C(=O)O"), ("carboxymethyl", "[*:1]CC(=O)O"),
    ("methoxycarbonyl", "[*:1]C(=O)OC"), ("ethoxycarbonyl", "[*:1]C(=O)OCC"), ("acetoxy", "[*:1]OC(C)=O"),
    ("amino", "[*:1]N"), ("aminomethyl", "[*:1]CN"), ("methylamino", "[*:1]NC"), ("dimethylamino", "[*:1]N(C)C"),
    ("carbamoyl", "[*:1]C(N)=O"), ("N-methylcarbamoyl", "[*:1]C(=O)NC"), ("N,N-dimethylcarbamoyl", "[*:1]C(=O)N(C)C"),
    ("acetamido", "[*:1]NC(C)=O"), ("N-methylacetamido", "[*:1]N(C)C(C)=O"), ("formamido", "[*:1]NC=O"),
    ("cyano", "[*:1]C#N"), ("cyanomethyl", "[*:1]CC#N"), ("nitro", "[*:1][N+](=O)[O-]"),
    ("ureido", "[*:1]NC(N)=O"), ("3-methylureido", "[*:1]NC(=O)NC"),
    ("methoxycarbonylamino", "[*:1]NC(=O)OC"), ("carbamoyloxy", "[*:1]OC(N)=O"),
    ("N-methyliminomethyl", "[*:1]C=NC"), ("amidino", "[*:1]C(N)=N"),
    ("hydroxyiminomethyl", "[*:1]C=NO"), ("1-hydroxyiminoethyl", "[*:1]C(C)=NO"), ("methoxyiminomethyl", "[*:1]C=NOC"),
    ("hydrazinyl", "[*:1]NN"), ("hydrazinecarbonyl", "[*:1]C(=O)NN"),
    ("vinyl", "[*:1]C=C"), ("ethynyl", "[*:1]C#C"), ("phenyl", "[*:1]c1ccccc1"), ("cyclopropyl", "[*:1]C1CC1"),
]

# Products that are unstable tautomers or odd bonding for a training set; the curated list may still hold such
# groups deliberately (e.g. nitramines, hydroxylamines).
UNWANTED = [Chem.MolFromSmarts(s) for s in (
    "[OX2H1][CX3]=[CX3]",                     # enol
    "[NX3;H1,H2;!$(NC=O)][CX3]=[CX3]",        # secondary/primary enamine
    "[#7,#8]C#C",                             # ynol ether, ynamine
    "[CX4]([OX2H1])[#7,#8]",                  # hemiacetal, hemiaminal
    "[CX4]([NX3H2])[#7,#8]",                  # aminal with NH2
    "[#8]-[#8]",                              # peroxide
    "[NX3]C(=O)[OX2H1]",                      # carbamic acid
    "[#7,#8;!$([O-])]-[N+](=O)[O-]",          # nitramine, nitrate from an attachment
    "[#7;!$([N+])]-[#7]-[#7]",                # N-N-N chains
    "[CX3](=O)[N+](=O)[O-]",                  # acyl nitro
    "[CX3](=O)[OX2][CX3](=O)[#7]",            # carbamic anhydride
)]

# Category by functional group, first match wins (rarer, more specific groups first).
CATEGORY_RULES = [(c, Chem.MolFromSmarts(s)) for c, s in (
    ("nitro", "[N+](=O)[O-]"),
    ("urea", "[NX3]C(=O)[NX3]"),
    ("carbamate", "[NX3]C(=O)[OX2]"),
    ("hydrazine", "[#7]-,=[#7]"),
    ("oxime", "[#7]-,=[#8]"),
    ("lactam", "[#7;R]@[#6;R]=O"),
    ("amide", "[NX3]C=O"),
    ("lactone", "[#8;R]@[#6;R]=O"),
    ("ester", "[#6][OX2][CX3]=O"),
    ("carboxylic_acid", "[CX3](=O)[OX2H1]"),
    ("nitrile", "C#N"),
    ("imine", "[CX3]=[NX2]"),
    ("aldehyde", "[CX3H1](=O)"),
    ("ketone", "[#6][CX3](=O)[#6]"),
    ("amine", "[NX3;!$(N-a);!$(N=*)]"),
    ("amine", "[NX3;H2,H1,H0;!$(N=*)]-c"),
    ("phenol", "[OX2H1]c"),
    ("alcohol", "[OX2H1][CX4]"),
    ("ether", "[OX2]([#6])[#6]"),
    ("heteroaromatic", "[n,o]"),
    ("aromatic", "c"),
    ("alkyne", "C#C"),
    ("alkene", "C=C"),
    ("alkane", "[CX4]"),
)]


def classify(mol):
    for category, pattern in CATEGORY_RULES:
        if mol.HasSubstructMatch(pattern):
            return category
    raise ValueError(f"no category for {Chem.MolToSmiles(mol)}")


def problems(mol):
    """Why a molecule does not belong to the chemical space (empty list: it does). mol without explicit Hs."""
    out = []
    elements = {a.GetSymbol() for a in mol.GetAtoms()}
    if not elements <= ELEMENTS:
        out.append("elements " + ",".join(sorted(elements - ELEMENTS)))
    if Chem.GetFormalCharge(mol) != 0:
        out.append("net charge %d" % Chem.GetFormalCharge(mol))
    # the only formal charges allowed are the nitro/nitrate N+ / O- pair (a neutral group)
    nitro_atoms = {i for match in mol.GetSubstructMatches(NITRO) for i in match[:1] + match[2:]}
    if any(a.GetFormalCharge() != 0 and a.GetIdx() not in nitro_atoms for a in mol.GetAtoms()):
        out.append("charge-separated atoms outside a nitro group")
    if any(a.GetNumRadicalElectrons() for a in mol.GetAtoms()):
        out.append("radical")
    if len(Chem.GetMolFrags(mol)) != 1:
        out.append("more than one fragment")
    n = atom_count(mol)
    if not MIN_ATOMS <= n <= MAX_ATOMS:
        out.append(f"{n} atoms (limit {MIN_ATOMS}..{MAX_ATOMS})")
    return out


def atom_count(mol):
    return Chem.AddHs(mol).GetNumAtoms()


def embeds(mol, seed):
    """ETKDG (v3) finds coordinates for the molecule with its hydrogens."""
    params = AllChem.ETKDGv3()
    params.randomSeed = seed
    return AllChem.EmbedMolecule(Chem.AddHs(mol), params) == 0


def scaffold(smiles):
    """Bemis-Murcko scaffold SMILES ('' for an acyclic molecule)."""
    return MurckoScaffold.MurckoScaffoldSmiles(smiles=smiles, includeChirality=False)


def stereo_free(smiles):
    """Canonical SMILES with the stereochemistry (E/Z, R/S) removed: a molecule and its stereoisomers alike. The key
    of the rule that training and test molecules are disjoint, for the list's split and every pool (test_keys())."""
    mol = Chem.MolFromSmiles(smiles)
    Chem.RemoveStereochemistry(mol)
    return Chem.MolToSmiles(mol)


def test_keys(listed):
    """{stereo_free(SMILES): name} of the list's test molecules (rows of molecules.csv): no training molecule of the
    list or of a pool may have one of these keys (azomethane C/N=N/C is test, so neither CN=NC nor C/N=N\\C trains)."""
    return {stereo_free(r["smiles"]): r["name"] for r in listed if r["split"] == "test"}


def canonical(smiles):
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValueError(f"SMILES {smiles!r} does not parse or sanitise")
    return Chem.MolToSmiles(mol), mol


def read_curated(path=CURATED):
    rows = []
    with open(path, newline="") as f:
        for line, r in enumerate(csv.DictReader(f), start=2):
            try:
                smi, mol = canonical(r["smiles"])
            except ValueError as e:
                raise ValueError(f"{path}: line {line}: {r['name']}: {e}")
            why = problems(mol)
            if why:
                raise ValueError(f"{path}: line {line}: {r['name']} ({smi}): " + "; ".join(why))
            if r["pin"] not in ("", "train", "test"):
                raise ValueError(f"{path}: line {line}: pin must be empty, train or test, not {r['pin']!r}")
            rows.append(dict(name=r["name"], smiles=smi, category=r["category"], pin=r["pin"]))
    return rows


def zipped_product(pieces, seen):
    """The molecule of fragments joined at their attachment points (`pieces`: dot-separated SMILES with [*:k] labels),
    as (canonical smiles, mol), or None where it does not sanitise, breaks the list's rules (problems), holds an
    unstable group (UNWANTED) or is in `seen` (canonical SMILES; updated)."""
    mol = Chem.molzip(Chem.MolFromSmiles(pieces))
    try:
        Chem.SanitizeMol(mol)
    except Exception:   # noqa: BLE001 - RDKit raises several sanitisation errors; a product that fails is dropped
        return None
    smi = Chem.MolToSmiles(mol)
    mol = Chem.MolFromSmiles(smi)
    if mol is None or smi in seen or problems(mol) or any(mol.HasSubstructMatch(p) for p in UNWANTED):
        return None
    seen.add(smi)
    return smi, mol


def enumerate_products():
    """Every filtered scaffold x substituent product, in table order: list of (name, canonical smiles, mol)."""
    out, seen = [], set()
    for sc_name, sc in SCAFFOLDS:
        for sub_name, sub in SUBSTITUENTS:
            made = zipped_product(sc + "." + sub, seen)
            if made:
                out.append((f"{sc_name} + {sub_name}", *made))
    return out


def build(seed=MASTER_SEED, n_enumerated=ENUMERATED, curated_path=CURATED):
    """All rows (name, smiles, category, split, pin) in a deterministic order: curated first, then enumerated."""
    RDLogger.DisableLog("rdApp.*")
    curated = read_curated(curated_path)
    rows, seen = [], set()
    for r in curated:
        if r["smiles"] in seen:
            raise ValueError(f"{curated_path}: {r['name']} duplicates an earlier entry ({r['smiles']})")
        if not embeds(Chem.MolFromSmiles(r["smiles"]), seed):
            raise ValueError(f"{curated_path}: {r['name']} ({r['smiles']}) does not embed with ETKDG")
        seen.add(r["smiles"])
        rows.append(r)
    pool = [p for p in enumerate_products() if p[1] not in seen]
    rng = random.Random(seed)
    drawn = sorted(rng.sample(range(len(pool)), min(n_enumerated, len(pool))))
    for i in drawn:
        name, smi, mol = pool[i]
        if embeds(mol, seed):
            rows.append(dict(name=name, smiles=smi, category=classify(mol), pin=""))
    split(rows, seed)
    return rows


def split(rows, seed):
    """Sets row['split'] to train or test (see the module docstring)."""
    by_scaffold = {}
    units = []
    for i, r in enumerate(rows):
        s = scaffold(r["smiles"])
        r["scaffold"] = s
        if s:
            if s not in by_scaffold:
                by_scaffold[s] = []
                units.append(by_scaffold[s])
            by_scaffold[s].append(i)
        else:
            units.append([i])
    counts = {}
    for r in rows:
        counts[r["category"]] = counts.get(r["category"], 0) + 1
    quota = {c: int(round(TEST_FRACTION * n)) for c, n in counts.items()}
    taken = {c: 0 for c in counts}
    test = set()
    for unit in units:                       # pinned first
        if any(rows[i]["pin"] == "test" for i in unit):
            if any(rows[i]["pin"] == "train" for i in unit):
                raise ValueError("a scaffold holds molecules pinned to train and to test: "
                                 + ", ".join(rows[i]["name"] for i in unit))
            test.update(unit)
            for i in unit:
                taken[rows[i]["category"]] += 1
    keys = [stereo_free(r["smiles"]) for r in rows]
    isomers = {}
    for i, k in enumerate(keys):
        isomers.setdefault(k, set()).add(i)
    order = list(range(len(units)))
    random.Random(seed + 1).shuffle(order)
    for u in order:
        unit = units[u]
        if unit[0] in test or len(unit) > MAX_TEST_SCAFFOLD_GROUP or any(rows[i]["pin"] for i in unit):
            continue
        if any(isomers[keys[i]] - set(unit) for i in unit):   # a stereoisomer outside the unit (cis-/trans-2-butene)
            continue
        need = {}
        for i in unit:
            need[rows[i]["category"]] = need.get(rows[i]["category"], 0) + 1
        if all(taken[c] + k <= quota[c] and counts[c] - taken[c] - k >= 1 for c, k in need.items()):
            test.update(unit)
            for c, k in need.items():
                taken[c] += k
    for i, r in enumerate(rows):
        r["split"] = "test" if i in test else "train"
    train_keys = {k for i, k in enumerate(keys) if i not in test}
    leaked = [r["name"] for r, k in zip(rows, keys) if r["split"] == "test" and k in train_keys]
    if leaked:   # a pin can do it: a test molecule whose stereoisomer is pinned to train
        raise ValueError("test molecules with a stereoisomer in training: " + ", ".join(leaked))


def write(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "smiles", "category", "split"])
        for r in rows:
            w.writerow([r["name"], r["smiles"], r["category"], r["split"]])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=MOLECULES, help="CSV to write (default: molecules.csv next to this script)")
    ap.add_argument("--seed", type=int, default=MASTER_SEED, help="master seed of the draw and the split")
    ap.add_argument("--enumerated", type=int, default=ENUMERATED, help="enumerated molecules drawn from the product")
    a = ap.parse_args(argv)
    rows = build(a.seed, a.enumerated)
    write(rows, a.out)
    cats = sorted({r["category"] for r in rows})
    print(f"{len(rows)} molecules -> {a.out}")
    print(f"{'category':18s} {'train':>6s} {'test':>6s}")
    for c in cats:
        tr = sum(1 for r in rows if r["category"] == c and r["split"] == "train")
        te = sum(1 for r in rows if r["category"] == c and r["split"] == "test")
        print(f"{c:18s} {tr:6d} {te:6d}")
    print(f"{'all':18s} {sum(r['split'] == 'train' for r in rows):6d} {sum(r['split'] == 'test' for r in rows):6d}")


if __name__ == "__main__":
    sys.exit(main())
