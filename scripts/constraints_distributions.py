#!/usr/bin/env python3
"""Structural distributions of 2 fs runs with h-bond constraints against unconstrained 0.5 fs runs (issue 28).

Reads the extended XYZ trajectories and energy logs that scripts/constraints-distributions.sh writes
(RUN_DIR/<system>-<side>-s<seed>.extxyz and .csv, side "0.5fs" or "2fs-hbonds"), pools the frames of
every seed per side after EQUIL ps, over the same simulated time on both sides (the shortest run's), and
compares each distribution with the criterion of `molten validate`'s observable-divergence check:

  - the observables are those of org.molten.validation.observables.ObservableSet, fixed from the start
    structure (the first frame): bond lengths by bond type, bond angles by angle type (H-X-Y angles
    included: bond constraints do not hold them), backbone phi/psi/omega of peptides (PeptideBackbone's
    rules), water O-O distances (g(r) range in a periodic box, the distance distribution in a cluster);
  - the same bins (ObservableKind's widths, under/overflow bins on linear ranges, wrapped dihedrals);
  - the Jensen-Shannon divergence (base 2) of the two histograms and the exact 1-Wasserstein distance of
    the samples (circular for dihedrals), as in Divergences;
  - pass when JS <= and W1 <= the limits of DivergenceThresholds.defaults().

This is a re-implementation in numpy (the GPU machine has no ASE and its Java runtime has no compiler to
run the project's classes on these files); it differs from the Java only in using every value for W1,
where the Java keeps a reservoir of 2^18 values per observable. Beside the 2 fs comparison it reports the
same-model spread: the 0.5 fs seeds split into two halves (even and odd) compared the same way, the noise
floor of the sample at hand.

Usage: constraints_distributions.py RUN_DIR [--equil-ps 1] [--json OUT.json] [--markdown OUT.md]
Only numpy is needed.
"""
import argparse
import json
import math
import os
import re
import sys
from collections import OrderedDict, defaultdict

import numpy as np

# Single-bond covalent radii, Å (Cordero et al., Dalton Trans. 2008, 2832), as org.molten.core.Element.
COVALENT_RADIUS_A = {"H": 0.31, "He": 0.28, "Li": 1.28, "Be": 0.96, "B": 0.84, "C": 0.76, "N": 0.71, "O": 0.66,
                     "F": 0.57, "Ne": 0.58, "Na": 1.66, "Mg": 1.41, "Al": 1.21, "Si": 1.11, "P": 1.07, "S": 1.05,
                     "Cl": 1.02, "Ar": 1.06, "K": 2.03, "Ca": 1.76, "Br": 1.20}
BOND_FACTOR = 1.2          # Bonds.DEFAULT_FACTOR
BOND_MARGIN_A = 0.5        # ObservableSet.BOND_MARGIN_A
RDF_MAX_A = 10.0           # ObservableSet.RDF_MAX_A
CLUSTER_MARGIN_A = 3.0     # ObservableSet.CLUSTER_MARGIN_A

# kind -> (bin width, unit, periodic, JS limit, W1 limit): ObservableKind and DivergenceThresholds.defaults()
KINDS = {
    "bond_length": (0.01, "Å", False, 0.10, 0.015),
    "bond_angle": (2.0, "deg", False, 0.10, 2.0),
    "backbone_dihedral": (5.0, "deg", True, 0.50, 30.0),
    "oo_radial_distribution": (0.05, "Å", False, 0.03, 0.06),
    "oo_distance": (0.05, "Å", False, 0.03, 0.06),
}
PREFIX = {"bond_length": "bond", "bond_angle": "angle", "backbone_dihedral": "dihedral",
          "oo_radial_distribution": "rdf", "oo_distance": "distance"}
SIDES = ("0.5fs", "2fs-hbonds")


# ----------------------------------------------------------------------------------------------- reading

def read_extxyz(path):
    """(symbols, times fs (F,), positions (F, N, 3) Å, cell (3, 3) Å or None) of an extended XYZ trajectory.

    A last frame cut short (a run stopped while writing) is dropped; the cell is the first frame's (NVT runs)."""
    with open(path) as f:
        lines = f.read().splitlines()
    symbols, times, blocks, cell, i = None, [], [], None, 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        n = int(lines[i])
        if i + 2 + n > len(lines):
            break
        comment = lines[i + 1]
        props = re.search(r"Properties=(\S+)", comment).group(1).split(":")
        col, pos_col = 0, None
        for k in range(0, len(props), 3):
            if props[k] == "pos":
                pos_col = col
            col += int(props[k + 2])
        rows = [l.split() for l in lines[i + 2:i + 2 + n]]
        if any(len(r) < col for r in rows):
            break
        if symbols is None:
            symbols = [r[0] for r in rows]
            lat = re.search(r'Lattice="([^"]+)"', comment)
            cell = np.array([float(v) for v in lat.group(1).split()]).reshape(3, 3) if lat else None
        elif [r[0] for r in rows] != symbols:
            raise ValueError(f"{path}: frame {len(times)} has other atoms than the first")
        blocks.append([r[pos_col:pos_col + 3] for r in rows])
        t = re.search(r"time_fs=(\S+)", comment)
        times.append(float(t.group(1)) if t else float("nan"))
        i += 2 + n
    if symbols is None:
        raise ValueError(f"{path}: no complete frame")
    return symbols, np.array(times), np.array(blocks, dtype=float), cell


def read_log(path):
    """(time ps, T K) arrays of a molten energy log; empty when absent."""
    if not os.path.exists(path):
        return np.zeros(0), np.zeros(0)
    t, temp = [], []
    with open(path) as f:
        for line in f:
            if line[:1].isdigit() or line[:1] == "-":
                r = line.split(",")
                t.append(float(r[0]))
                temp.append(float(r[4]))
    return np.array(t), np.array(temp)


# ------------------------------------------------------------------------------- geometry (InternalCoordinates)

def min_image(d, cell):
    """Minimum-image displacement vectors (..., 3) under a cell whose rows are the lattice vectors (Å)."""
    if cell is None:
        return d
    frac = d @ np.linalg.inv(cell)
    frac -= np.round(frac)
    return frac @ cell


# x: positions (..., N, 3); the tuples index the atom axis, so a whole trajectory (F, N, 3) is measured at once.
def distances(x, cell, pairs):
    d = min_image(x[..., pairs[:, 1], :] - x[..., pairs[:, 0], :], cell)
    return np.sqrt((d * d).sum(-1))


def angles_deg(x, cell, triples):
    u = min_image(x[..., triples[:, 0], :] - x[..., triples[:, 1], :], cell)
    v = min_image(x[..., triples[:, 2], :] - x[..., triples[:, 1], :], cell)
    return np.degrees(np.arctan2(np.linalg.norm(np.cross(u, v), axis=-1), (u * v).sum(-1)))


def dihedrals_deg(x, cell, quads):
    """IUPAC dihedrals in (-180, 180] (Blondel-Karplus atan2 form)."""
    b1 = min_image(x[..., quads[:, 1], :] - x[..., quads[:, 0], :], cell)
    b2 = min_image(x[..., quads[:, 2], :] - x[..., quads[:, 1], :], cell)
    b3 = min_image(x[..., quads[:, 3], :] - x[..., quads[:, 2], :], cell)
    n1, n2 = np.cross(b1, b2), np.cross(b2, b3)
    y = (np.cross(n1, n2) * b2).sum(-1) / np.linalg.norm(b2, axis=-1)
    phi = np.degrees(np.arctan2(y, (n1 * n2).sum(-1)))
    return np.where(phi == -180.0, 180.0, phi)


# -------------------------------------------------------------------------- observables (ObservableSet)

def bond_type(a, b):
    return a + "-" + b if a <= b else b + "-" + a


def angle_type(o1, c, o2):
    return o1 + "-" + c + "-" + o2 if o1 <= o2 else o2 + "-" + c + "-" + o1


def perceive_bonds(symbols, x, cell):
    """(i, j, length Å) with i < j closer than 1.2 x the sum of covalent radii (Bonds.perceive)."""
    try:
        rc = np.array([COVALENT_RADIUS_A[s] for s in symbols])
    except KeyError as e:
        raise ValueError(f"no covalent radius for element {e}") from None
    out = []
    for i in range(len(symbols) - 1):
        j = np.arange(i + 1, len(symbols))
        r = np.sqrt((min_image(x[j] - x[i], cell) ** 2).sum(-1))
        for jj, rr in zip(j[r < BOND_FACTOR * (rc[i] + rc[j])], r[r < BOND_FACTOR * (rc[i] + rc[j])]):
            out.append((i, int(jj), float(rr)))
    return out


def peptide_dihedrals(symbols, nb):
    """{'phi': [...], 'psi': [...], 'omega': [...]} atom quadruples, PeptideBackbone.detect's rules."""
    amides = []                                              # (carbonyl C, O, N) in atom order
    for c in range(len(symbols)):
        if symbols[c] != "C" or len(nb[c]) != 3:
            continue
        o = n = -1
        for x in nb[c]:
            if symbols[x] == "O" and len(nb[x]) == 1:
                o = x
            elif symbols[x] == "N":
                n = x
        if o >= 0 and n >= 0:
            amides.append((c, o, n))
    by_carbon = {a[0]: a for a in amides}
    residue_after, ca_of_n = {}, {}
    for a in amides:
        for ca in nb[a[2]]:
            if ca == a[0] or symbols[ca] != "C":
                continue
            for c in nb[ca]:
                nxt = by_carbon.get(c)
                if nxt is not None and nxt != a:
                    residue_after[a[0]] = (a[0], a[2], ca, nxt[0], nxt[2])   # previous C, N, CA, C, next N
                    ca_of_n[a[2]] = ca
    residues, ordered = [], []
    for start in amides:
        if any(r[3] == start[0] for r in residue_after.values()):
            continue
        a = start
        while a is not None and a not in ordered:
            ordered.append(a)
            r = residue_after.get(a[0])
            if r is None:
                break
            residues.append(r)
            a = by_carbon.get(r[3])
    ordered += [a for a in amides if a not in ordered]

    def unique_carbon(atom, exclude):
        found = -1
        for x in nb[atom]:
            if x != exclude and symbols[x] == "C":
                if found >= 0:
                    return -1
                found = x
        return found

    out = {"phi": [], "psi": [], "omega": []}
    for pc, n, ca, c, nn in residues:
        out["phi"].append((pc, n, ca, c))
        out["psi"].append((n, ca, c, nn))
    for c, _, n in ordered:
        x = unique_carbon(c, n)
        y = ca_of_n[n] if n in ca_of_n else unique_carbon(n, c)
        if x >= 0 and y >= 0:
            out["omega"].append((x, c, n, y))
    return out


def observable_set(symbols, x, cell):
    """[(name, kind, lower, bins, tuples int array)] in ObservableSet's order."""
    bonds = perceive_bonds(symbols, x, cell)
    nb = [set() for _ in symbols]
    for i, j, _ in bonds:
        nb[i].add(j)
        nb[j].add(i)
    nb = [sorted(s) for s in nb]
    obs = []
    by_type = defaultdict(list)
    for i, j, r in bonds:
        by_type[bond_type(symbols[i], symbols[j])].append((i, j, r))
    for t in sorted(by_type):
        lengths = [b[2] for b in by_type[t]]
        lo = max(0.0, math.floor((min(lengths) - BOND_MARGIN_A) * 10) / 10)
        hi = math.ceil((max(lengths) + BOND_MARGIN_A) * 10) / 10
        obs.append(("bond " + t, "bond_length", lo, int(round((hi - lo) / 0.01)),
                    np.array([(b[0], b[1]) for b in by_type[t]])))
    by_angle = defaultdict(list)
    for j in range(len(symbols)):
        for p in range(len(nb[j])):
            for q in range(p + 1, len(nb[j])):
                i, k = nb[j][p], nb[j][q]
                by_angle[angle_type(symbols[i], symbols[j], symbols[k])].append((i, j, k))
    for t in sorted(by_angle):
        obs.append(("angle " + t, "bond_angle", 0.0, 90, np.array(by_angle[t])))
    for kind, quads in peptide_dihedrals(symbols, nb).items():
        if quads:
            obs.append(("dihedral " + kind, "backbone_dihedral", -180.0, 72, np.array(quads)))
    oxygens = [a for a in range(len(symbols)) if symbols[a] == "O" and len(nb[a]) == 2
               and all(symbols[h] == "H" for h in nb[a])]
    if len(oxygens) >= 2:
        pairs = np.array([(oxygens[a], oxygens[b]) for a in range(len(oxygens)) for b in range(a + 1, len(oxygens))])
        if cell is not None:
            widths = [abs(np.linalg.det(cell)) / np.linalg.norm(np.cross(cell[(k + 1) % 3], cell[(k + 2) % 3]))
                      for k in range(3)]
            r_max = min(RDF_MAX_A, 0.5 * min(widths))
            obs.append(("rdf O-O", "oo_radial_distribution", 0.0, int(math.floor(r_max / 0.05 + 1e-9)), pairs))
        else:
            r_max = math.ceil(distances(x, None, pairs).max() + CLUSTER_MARGIN_A)
            obs.append(("distance O-O", "oo_distance", 0.0, int(round(r_max / 0.05)), pairs))
    return obs


def measure(obs, x, cell):
    """The observable's values on positions x (..., N, 3), flattened."""
    _, kind, _, _, tuples = obs
    if kind == "bond_angle":
        return angles_deg(x, cell, tuples).ravel()
    if kind == "backbone_dihedral":
        return dihedrals_deg(x, cell, tuples).ravel()
    return distances(x, cell, tuples).ravel()


# ------------------------------------------------------------------------------ divergences (Divergences)

def histogram(values, lower, width, bins, periodic):
    """Probabilities of the bins the divergence compares: in-range bins, then underflow and overflow (linear)."""
    u = (np.asarray(values, dtype=float) - lower) / width
    if periodic:
        u = u - bins * np.floor(u / bins)
        return np.bincount(np.minimum(u.astype(int), bins - 1), minlength=bins) / len(u)
    k = np.full(len(u), bins + 1)                            # overflow (and NaN)
    k[u < 0] = bins                                          # underflow
    inside = (u >= 0) & (u < bins)
    k[inside] = u[inside].astype(int)
    return np.bincount(k, minlength=bins + 2) / len(u)


def jensen_shannon(p, q):
    """JS divergence, base 2, of two weight vectors on the same bins, clamped into [0, 1]."""
    p = np.asarray(p, float) / np.sum(p)
    q = np.asarray(q, float) / np.sum(q)
    m = 0.5 * (p + q)
    js = 0.5 * np.sum(p[p > 0] * np.log(p[p > 0] / m[p > 0])) + 0.5 * np.sum(q[q > 0] * np.log(q[q > 0] / m[q > 0]))
    return float(min(1.0, max(0.0, js / math.log(2))))


def _cdf_steps(a, b):
    """The sorted distinct values of both samples and F - G just right of each."""
    a, b = np.sort(a), np.sort(b)
    u = np.unique(np.concatenate([a, b]))
    return u, np.searchsorted(a, u, side="right") / len(a) - np.searchsorted(b, u, side="right") / len(b)


def wasserstein1(a, b):
    """Exact 1-Wasserstein distance of two samples' empirical distributions, in their unit."""
    u, d = _cdf_steps(np.asarray(a, float), np.asarray(b, float))
    return float(np.sum(np.abs(d[:-1]) * np.diff(u)))


def circular_wasserstein1(a, b, lower, period):
    """Exact 1-Wasserstein distance on a circle of the given period from lower (shorter arcs; Rabin et al. 2011)."""
    wrap = lambda v: lower + np.mod(np.asarray(v, float) - lower, period)
    u, d = _cdf_steps(wrap(a), wrap(b))
    # intervals: [lower, u_1) where F = G = 0, [u_k, u_k+1) with F - G = d_k, [u_K, lower + period) where d_K = 0
    values = np.concatenate([[0.0], d])
    lengths = np.concatenate([[u[0] - lower], np.diff(u), [lower + period - u[-1]]])
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(lengths[order])
    alpha = values[order][np.searchsorted(cum, 0.5 * cum[-1])]
    return float(np.sum(np.abs(values - alpha) * lengths))


def compare(obs, a, b):
    """One observable of two samples: dict with JS, W1, limits and the verdict (ObservableComparison)."""
    name, kind, lower, bins, _ = obs
    width, unit, periodic, max_js, max_w1 = KINDS[kind]
    row = OrderedDict(name=name, kind=kind, unit=unit, samples=[int(len(a)), int(len(b))],
                      max_js=max_js, max_w1=max_w1)
    if len(a) == 0 or len(b) == 0:
        row.update(js=None, w1=None, passed=False, reason="no samples")
        return row
    js = jensen_shannon(histogram(a, lower, width, bins, periodic), histogram(b, lower, width, bins, periodic))
    w1 = circular_wasserstein1(a, b, lower, bins * width) if periodic else wasserstein1(a, b)
    why = ([f"JS {js:.4f} > {max_js}"] if not js <= max_js else []) + \
          ([f"W1 {w1:.4g} {unit} > {max_w1} {unit}"] if not w1 <= max_w1 else [])
    if periodic:
        mean = lambda v: math.degrees(math.atan2(np.mean(np.sin(np.radians(v))), np.mean(np.cos(np.radians(v)))))
    else:
        mean = lambda v: float(np.mean(v))
    row.update(js=js, w1=w1, mean=[mean(a), mean(b)], passed=bool(not why), reason="; ".join(why))
    return row


# --------------------------------------------------------------------------------------------- analysis

def run_files(run_dir):
    """{system: {side: {seed: path}}} of the trajectories in run_dir."""
    found = defaultdict(lambda: defaultdict(dict))
    for f in sorted(os.listdir(run_dir)):
        m = re.fullmatch(r"(.+)-(0\.5fs|2fs-hbonds)-s(\d+)\.extxyz", f)
        if m:
            found[m.group(1)][m.group(2)][int(m.group(3))] = os.path.join(run_dir, f)
    return found


def held_by_constraints(obs, symbols, nb):
    """Why an observable is held fixed by h-bond constraints (so it cannot match the flexible run), or ''.

    Bonds to hydrogen are constrained; a water (O bonded to two H and nothing else) is rigid, so its H-O-H
    angle is held too. Angles at other atoms with one or two hydrogens are free (only the bonds are held)."""
    name, kind, _, _, tuples = obs
    if kind == "bond_length" and "H" in name.split(" ", 1)[1].split("-"):
        return "bond to H: held by the constraints"
    if kind == "bond_angle":
        water = lambda o: symbols[o] == "O" and len(nb[o]) == 2 and all(symbols[h] == "H" for h in nb[o])
        if all(symbols[i] == "H" and symbols[k] == "H" and water(j) for i, j, k in tuples):
            return "rigid water (SETTLE): held"
    return ""


def analyse_system(name, sides, equil_ps):
    runs = {side: {seed: read_extxyz(p) for seed, p in sorted(seeds.items())} for side, seeds in sides.items()}
    missing = [s for s in SIDES if not runs.get(s)]
    if missing:
        return OrderedDict(system=name, error="no runs of " + ", ".join(missing))
    symbols, _, x_first, cell = runs["0.5fs"][min(runs["0.5fs"])]
    obs = observable_set(symbols, x_first[0], cell)
    nb = [set() for _ in symbols]
    for i, j, _ in perceive_bonds(symbols, x_first[0], cell):
        nb[i].add(j)
        nb[j].add(i)
    # The same simulated time on both sides: each seed's pair of runs is cut to the shorter one's last frame.
    paired = sorted(set(runs["0.5fs"]) & set(runs["2fs-hbonds"]))
    t_end = {seed: min(runs[side][seed][1][-1] for side in SIDES) for seed in paired}
    samples = {side: {} for side in SIDES}
    frames_used = {side: 0 for side in SIDES}
    for side in SIDES:
        for seed in paired:
            sym, t, x, _ = runs[side][seed]
            if sym != symbols:
                raise ValueError(f"{name} {side} seed {seed}: other atoms than the first run")
            keep = (t >= 1000.0 * equil_ps) & (t <= t_end[seed] + 1e-6)
            frames_used[side] += int(keep.sum())
            samples[side][seed] = [measure(o, x[keep], cell) for o in obs]
    pooled = lambda side, seeds, k: np.concatenate([samples[side][s][k] for s in seeds] or [np.zeros(0)])
    rows, spread = [], []
    for k, o in enumerate(obs):
        a, b = pooled("0.5fs", paired, k), pooled("2fs-hbonds", paired, k)
        row = compare(o, a, b)
        held = held_by_constraints(o, symbols, nb)
        row["target"] = o[1] != "bond_length" and not held
        row["note"] = held
        if len(a) and len(b):
            width, _, periodic, _, _ = KINDS[o[1]]
            row["lower"], row["bin_width"] = o[2], width
            row["probabilities"] = [np.round(histogram(v, o[2], width, o[3], periodic), 6).tolist() for v in (a, b)]
        rows.append(row)
        if len(paired) >= 2:
            spread.append(compare(o, pooled("0.5fs", paired[0::2], k), pooled("0.5fs", paired[1::2], k)))
    temps = OrderedDict()
    for side in SIDES:
        means = []
        for seed in paired:
            t, temp = read_log(os.path.join(os.path.dirname(sides[side][seed]), f"{name}-{side}-s{seed}.csv"))
            v = temp[(t >= equil_ps) & (t <= t_end[seed] / 1000.0 + 1e-9)]
            if len(v):
                means.append(float(np.mean(v)))
        if means:
            temps[side] = OrderedDict(mean_K=float(np.mean(means)), runs=len(means),
                                      se_K=float(np.std(means, ddof=1) / math.sqrt(len(means))) if len(means) > 1 else None)
    targets = [r for r in rows if r["target"]]
    return OrderedDict(system=name, atoms=len(symbols), seeds=paired,
                       ps_per_seed={str(s): round((t_end[s] - 1000.0 * equil_ps) / 1000.0, 4) for s in paired},
                       ps_per_side=round(sum(max(0.0, t_end[s] / 1000.0 - equil_ps) for s in paired), 4),
                       frames=frames_used, temperature=temps,
                       passed=bool(targets) and all(r["passed"] for r in targets), comparisons=rows,
                       same_model_spread=spread)


def fmt(v, digits=4):
    return "–" if v is None else f"{v:.{digits}g}"


def markdown(result):
    out = ["| system | observable | JS (limit) | W1 (limit) | same-model JS / W1 | mean 0.5 fs / 2 fs | verdict |",
           "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for s in result["systems"]:
        if "error" in s:
            out.append(f"| {s['system']} | – | – | – | – | – | {s['error']} |")
            continue
        spread = {r["name"]: r for r in s["same_model_spread"]}
        for r in s["comparisons"]:
            sp = spread.get(r["name"])
            mean = r.get("mean")
            if r["note"]:
                verdict = f"({r['note']})"
            elif not r["target"]:
                verdict = "(not a target) " + ("within" if r["passed"] else "outside: " + r["reason"])
            else:
                verdict = "pass" if r["passed"] else "**FAIL** " + r["reason"]
            out.append(f"| {s['system']} | {r['name']} | {fmt(r['js'], 3)} ({r['max_js']}) | "
                       f"{fmt(r['w1'], 3)} {r['unit']} ({r['max_w1']}) | "
                       + (f"{fmt(sp['js'], 3)} / {fmt(sp['w1'], 3)}" if sp else "–") + " | "
                       + (f"{mean[0]:.4g} / {mean[1]:.4g}" if mean else "–") + f" | {verdict} |")
    lines = ["\n".join(out), ""]
    for s in result["systems"]:
        if "error" in s:
            continue
        temps = "; ".join(f"{side} ⟨T⟩ {v['mean_K']:.1f}" + (f" ± {v['se_K']:.1f}" if v["se_K"] else "") + " K"
                          for side, v in s["temperature"].items())
        targets = [r for r in s["comparisons"] if r["target"]]
        lines.append(f"- {s['system']}: seeds {len(s['seeds'])} per side, {s['ps_per_side']:g} ps per side after "
                     f"{result['equil_ps']:g} ps of equilibration (per seed {min(s['ps_per_seed'].values()):g}–"
                     f"{max(s['ps_per_seed'].values()):g} ps), frames {s['frames']['0.5fs']} / {s['frames']['2fs-hbonds']}; "
                     f"{temps}; {sum(r['passed'] for r in targets)} of {len(targets)} target observables within the limits: "
                     + ("**PASS**" if s["passed"] else "**FAIL**"))
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--equil-ps", type=float, default=1.0, help="ps left out at the start of every run (default 1)")
    ap.add_argument("--json", help="write the result here")
    ap.add_argument("--markdown", help="write the table here")
    a = ap.parse_args(argv)
    found = run_files(a.run_dir)
    if not found:
        print(f"no <system>-<0.5fs|2fs-hbonds>-s<seed>.extxyz trajectories in {a.run_dir}", file=sys.stderr)
        return 2
    systems = [analyse_system(name, sides, a.equil_ps) for name, sides in sorted(found.items())]
    result = OrderedDict(criterion="molten validate's observable-divergence: JS <= max_js and W1 <= max_w1 "
                                   "(DivergenceThresholds.defaults()), numpy re-implementation",
                         equil_ps=a.equil_ps, systems=systems,
                         passed=all(s.get("passed", False) for s in systems))
    text = markdown(result)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1, ensure_ascii=False)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    print(text, end="")
    print("overall:", "PASS" if result["passed"] else "FAIL")
    return 0 if result["passed"] else 3


if __name__ == "__main__":
    sys.exit(main())
