#!/usr/bin/python3
"""The domain of a model: the atom environments of its training data.

An atom environment is the atom's element and the sorted multiset of the elements of its bonded
neighbours, written C(C,H,H,O), H(O), O(H,H), N() for an atom without bonds; neighbour symbols are
sorted alphabetically. Atoms i and j are bonded when their distance is below
BOND_FACTOR * (r_cov,i + r_cov,j) with Cordero covalent radii: the rule of org.molten.core.Bonds and
of md_check.py. The Java twin is org.molten.forcefield.domain.AtomEnvironments; a peer test runs
both on the same structures.

    /usr/bin/python3 forcefield/training/domain.py forcefield/training/data --out domain.json

reads every *.train.xyz.gz and *.val.xyz.gz (or .xyz), and *.train.npz and *.val.npz (organic_data.py's
flat archives, molecule names from their `molecules` array), under the folders given (or the files given)
and writes the domain as JSON: elements, environments with their counts (atoms over all frames),
frames, atoms, molecules (the frames' system= names, or only their count when there are more than
MAX_NAMED_MOLECULES), and per environment the number of molecules it is typical of (in at least half of
their frames; an environment typical of none was seen only in strained or colliding frames). export.py stores the same JSON as the weight file's `domain` metadata entry.

Bonded pairs: for every bond i-j, the two atoms' environments' canonical texts sorted and joined by "-",
C(C,H,H)-C(C,H,H) for ethylene's C=C, C(C,H,H,H)-H(C) for a methyl C-H. The JSON's `pairs` maps each to its
count (bonds over all frames), with `pair_definition` and `pairs_source` ("frames": the frames themselves).
X-H pairs are kept: they are nearly implied by the heavy atom's environment, so they cost no false alarms, and
every bond is treated alike. A structure's bond whose pair is absent is a bond whose chemistry the training data
never held, though both atoms' environments are common (ethylene's C=C in a domain of alkanes and propene).
Files written before pairs existed have no `pairs` key: no pair is checked then (Java: ModelDomain).

    /usr/bin/python3 forcefield/training/domain.py --add-pairs W.safetensors --from STARTS... --out W2.safetensors \
        [--pairs-source TEXT]

adds `pairs`, `pair_definition` and `pairs_source` (default "starts") to the `domain` entry of an existing weight
file, written to --out; every tensor byte, every other metadata entry and every other key of the domain JSON are
kept byte for byte. The pairs come from the given structure files (e.g. the RDKit starts of the training
molecules: organic_data.py drops frames whose bond graph differs from their start's, so the starts' pairs are the
frames' pairs; counts are then bonds over the given structures, not over the frames).
"""
import argparse
import glob
import json
import os
import shutil
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extxyz  # noqa: E402
import safetensors_io  # noqa: E402

BOND_FACTOR = 1.2  # org.molten.core.Bonds.DEFAULT_FACTOR
# Cordero et al., Dalton Trans. 2008, 2832 (org.molten.core.Element), Å
COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66, 9: 0.57, 15: 1.07, 16: 1.05, 17: 1.02, 35: 1.20}
SYMBOL = {1: "H", 6: "C", 7: "N", 8: "O", 9: "F", 15: "P", 16: "S", 17: "Cl", 35: "Br"}
DEFINITION = ("element(sorted elements of its bonded neighbours); bonded when d < 1.2 (r_cov,i + r_cov,j), "
              "Cordero covalent radii (org.molten.core.Bonds)")
PAIR_DEFINITION = ("the canonical texts of the environments of a bond's two atoms, sorted and joined by '-': "
                   "C(C,H,H)-C(C,H,H); every bond, X-H included")
MAX_NAMED_MOLECULES = 200
# An environment is typical of a molecule when it occurs in at least this fraction of the molecule's frames.
TYPICAL_FRACTION = 0.5
METADATA_KEY = "domain"  # the weight file's __metadata__ entry (docs/model.md)
SPLITS = ("*.train.xyz.gz", "*.val.xyz.gz", "*.train.xyz", "*.val.xyz", "*.train.npz", "*.val.npz")


def environment(symbol, neighbours):
    """Canonical text of one environment: C(C,H,H,O)."""
    return symbol + "(" + ",".join(sorted(neighbours)) + ")"


def pair(env_a, env_b):
    """Canonical text of a bonded pair of environments: C(C,H,H)-C(C,H,H), the two texts sorted."""
    return "-".join(sorted((env_a, env_b)))


def environments(numbers, positions):
    """The environment of every atom of one non-periodic frame (list of str, atom order)."""
    return environments_and_pairs(numbers, positions)[0]


def bonded_pairs(numbers, positions):
    """(i, j, pair text) of every bond i < j of one non-periodic frame, in (i, j) order."""
    return environments_and_pairs(numbers, positions)[1]


def environments_and_pairs(numbers, positions):
    """(environment per atom, [(i, j, pair text) per bond i < j]) of one non-periodic frame."""
    numbers = np.asarray(numbers, dtype=np.int64)
    pos = np.asarray(positions, dtype=np.float64).reshape(-1, 3)
    try:
        r = np.array([COVALENT_RADIUS_A[int(z)] for z in numbers])
        sym = [SYMBOL[int(z)] for z in numbers]
    except KeyError as e:
        raise ValueError(f"no covalent radius for atomic number {e.args[0]}") from None
    d = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=-1)
    bonded = d < BOND_FACTOR * (r[:, None] + r[None, :])
    np.fill_diagonal(bonded, False)
    envs = [environment(sym[i], [sym[j] for j in np.nonzero(bonded[i])[0]]) for i in range(len(numbers))]
    ii, jj = np.nonzero(np.triu(bonded, 1))
    return envs, [(int(i), int(j), pair(envs[i], envs[j])) for i, j in zip(ii, jj)]


class Domain:
    """Environments (with counts), elements, frames, atoms and molecule names accumulated over frames."""

    def __init__(self):
        self.counts = Counter()
        self.pair_counts = Counter()                    # pair text -> bonds over all frames
        self.frames_of = Counter()                      # molecule -> frames
        self.frames_with = {}                           # molecule -> Counter(environment -> frames holding it)
        self.frames = 0
        self.atoms = 0

    @property
    def molecules(self):
        return set(self.frames_of)

    def add(self, frame, molecule):
        envs, bonds = environments_and_pairs(frame.numbers, frame.positions)
        self.counts.update(envs)
        self.pair_counts.update(p for _, _, p in bonds)
        self.frames_of[molecule] += 1
        self.frames_with.setdefault(molecule, Counter()).update(set(envs))
        self.frames += 1
        self.atoms += len(frame)

    def typical(self):
        """Environment -> number of molecules in at least TYPICAL_FRACTION of whose frames it occurs. An environment
        seen but typical of no molecule comes only from strained or colliding frames (hot MD, transient contacts)."""
        out = Counter()
        for m, n in self.frames_of.items():
            for env, k in self.frames_with[m].items():
                if k >= TYPICAL_FRACTION * n:
                    out[env] += 1
        return out

    def to_json(self):
        elements = sorted({e.split("(", 1)[0] for e in self.counts})
        out = {"definition": DEFINITION, "bond_factor": BOND_FACTOR, "elements": elements,
               "frames": self.frames, "atoms": self.atoms, "molecule_count": len(self.molecules)}
        if len(self.molecules) <= MAX_NAMED_MOLECULES:
            out["molecules"] = sorted(self.molecules)
        out["environments"] = dict(sorted(self.counts.items()))
        out["typical_fraction"] = TYPICAL_FRACTION
        out["typical_in_molecules"] = dict(sorted(self.typical().items()))
        out.update(self.pairs_json("frames"))
        return out

    def pairs_json(self, source):
        """The domain JSON's pair keys: pair_definition, pairs_source, pairs (text -> bonds over all frames)."""
        return {"pair_definition": PAIR_DEFINITION, "pairs_source": source, "pairs": dict(sorted(self.pair_counts.items()))}


def metadata_value(domain_json):
    """The JSON text stored under METADATA_KEY: compact, keys in a fixed order."""
    return json.dumps(domain_json, separators=(",", ":"))


def files_of(paths):
    """The data files: given files as they are, folders expanded to their train and validation splits."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted({f for pat in SPLITS for f in glob.glob(os.path.join(p, pat))})
            if not found:
                raise ValueError(f"{p}: no *.train.xyz(.gz) or *.val.xyz(.gz) files")
            out.extend(found)
        elif os.path.isfile(p):
            out.append(p)
        else:
            raise ValueError(f"{p}: no such file or folder")
    return out


def npz_frames(path):
    """(frame, molecule name) of a flat .npz data set (organic_data.py: z, pos Å, n_atoms, and per frame the index
    `molecule` into `molecules`; without those, the file's stem names every frame)."""
    d = np.load(path)
    ptr = np.concatenate([[0], np.cumsum(d["n_atoms"])])
    stem = os.path.basename(path).split(".", 1)[0]
    names = [str(m) for m in d["molecules"]] if "molecules" in d.files else None
    index = d["molecule"] if "molecule" in d.files else None
    z, pos = d["z"].astype(np.int64), d["pos"].astype(np.float64)
    for k, (a, b) in enumerate(zip(ptr[:-1], ptr[1:])):
        yield extxyz.Frame(z[a:b], pos[a:b]), names[int(index[k])] if names is not None and index is not None else stem


def of_files(paths):
    """The domain of every frame of the data files (folders expanded as files_of does)."""
    dom = Domain()
    for path in files_of(paths):
        if path.endswith(".npz"):
            for fr, name in npz_frames(path):
                dom.add(fr, name)
            continue
        stem = os.path.basename(path).split(".", 1)[0]
        for fr in extxyz.read(path):
            if "Lattice" in fr.info:
                raise ValueError(f"{path}: periodic frames are not supported by domain.py")
            dom.add(fr, fr.info.get("system", stem))
    return dom


PAIR_KEYS = ("pair_definition", "pairs_source", "pairs")


def add_pairs(weights, structures, out, source="starts"):
    """Writes `out`: `weights` with pair_definition, pairs_source and pairs appended to its domain JSON, computed from
    the structure files (folders expanded as files_of does). The domain entry's other text, every other metadata entry
    and every tensor byte are unchanged. Returns (new domain dict, the Domain of the structures)."""
    _, meta = safetensors_io.read(weights)
    old = meta.get(METADATA_KEY)
    if old is None:
        raise ValueError(f"{weights}: no {METADATA_KEY} metadata entry to add pairs to (domain.py DATA --into-weights first)")
    stored = json.loads(old)
    if any(k in stored for k in PAIR_KEYS):
        raise ValueError(f"{weights}: its {METADATA_KEY} entry already has pairs; start from a file without them")
    dom = of_files(structures)
    extra = dom.pairs_json(source)
    text = old.rstrip()
    if not text.endswith("}"):
        raise ValueError(f"{weights}: its {METADATA_KEY} entry is not a JSON object")
    new = text[:-1] + ("," if stored else "") + json.dumps(extra, separators=(",", ":"))[1:]
    merged = json.loads(new)
    assert {k: v for k, v in merged.items() if k not in PAIR_KEYS} == stored
    if os.path.abspath(out) != os.path.abspath(weights):
        shutil.copyfile(weights, out)
    before = safetensors_io.data_sha256(weights)
    safetensors_io.update_metadata(out, {METADATA_KEY: new})
    assert safetensors_io.data_sha256(out) == before, "tensor bytes changed"
    return merged, dom


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="*", help="data folders (their *.train/*.val files) or extended-XYZ files")
    ap.add_argument("--out", default=None, help="write the domain JSON here (default: standard output); with "
                                                "--add-pairs, the new weight file")
    ap.add_argument("--add-pairs", default=None, metavar="WEIGHTS",
                    help="add bonded pairs (from --from) to this weight file's domain entry, written to --out")
    ap.add_argument("--from", dest="from_", nargs="+", default=None, metavar="FILE",
                    help="with --add-pairs: the structure files (or data folders) the pairs are read from")
    ap.add_argument("--pairs-source", default="starts", help="with --add-pairs: the domain JSON's pairs_source (default: starts)")
    ap.add_argument("--into-weights", default=None, metavar="FILE",
                    help="also store it as the `domain` metadata entry of this safetensors file, its tensor bytes unchanged")
    ap.add_argument("--atoms", action="store_true",
                    help="instead, print every atom's environment: JSON {file: [[environment per atom] per frame]}")
    ap.add_argument("--bonds", action="store_true",
                    help="instead, print every bond's pair: JSON {file: [[[i, j, pair] per bond i < j] per frame]}")
    args = ap.parse_args()
    if args.add_pairs:
        if not args.from_ or not args.out or args.data:
            ap.error("--add-pairs WEIGHTS needs --from FILE... and --out FILE, and no data arguments")
        if not os.path.isfile(args.add_pairs):
            ap.error(f"--add-pairs {args.add_pairs}: no such weight file (nothing written)")
        try:
            merged, dom = add_pairs(args.add_pairs, args.from_, args.out, args.pairs_source)
        except ValueError as e:
            ap.error(str(e))
        stored_envs, from_envs = set(merged["environments"]), set(dom.counts)
        print(f"{args.out}: {len(merged['pairs'])} bonded pairs ({sum(merged['pairs'].values())} bonds) from "
              f"{dom.frames} structures of {len(args.from_)} files (the entry's environments were read from "
              f"{merged.get('frames', '?')} frames) added to the domain entry of {args.add_pairs}; tensor "
              f"data SHA-256 {safetensors_io.data_sha256(args.out)} unchanged", file=sys.stderr)
        print(f"environments: {len(from_envs & stored_envs)} of the entry's {len(stored_envs)} in the given structures; "
              f"{len(from_envs - stored_envs)} in the structures but not in the entry {sorted(from_envs - stored_envs)[:10]}",
              file=sys.stderr)
        return
    if not args.data:
        ap.error("give data folders or files (or --add-pairs)")
    if args.bonds:
        print(json.dumps({p: [bonded_pairs(fr.numbers, fr.positions) for fr in extxyz.read(p)] for p in files_of(args.data)}))
        return
    if args.atoms:
        print(json.dumps({p: [environments(fr.numbers, fr.positions) for fr in extxyz.read(p)]
                          for p in files_of(args.data)}))
        return
    dom = of_files(args.data).to_json()
    if args.into_weights:
        before = safetensors_io.data_sha256(args.into_weights)
        safetensors_io.update_metadata(args.into_weights, {METADATA_KEY: metadata_value(dom)})
        assert safetensors_io.data_sha256(args.into_weights) == before, "tensor bytes changed"
        print(f"{args.into_weights}: domain stored ({len(dom['environments'])} environments, {dom['frames']} frames); "
              f"tensor data SHA-256 {before} unchanged", file=sys.stderr)
    text = json.dumps(dom, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
