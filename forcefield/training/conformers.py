"""Peptide backbone conformers: find φ/ψ/ω in a capped peptide, set them, relax with xtb under constraints.

Angles in degrees, positions in Å. A capped peptide (Ace-(Ala)n-NMe) is recognised from its bond graph
(covalent radii, the same rule as org.molten.core.Bonds): amide carbonyl carbons (C bonded to a terminal O
and to N), their amide nitrogens, and the Cα between them. Setting a dihedral a-b-c-d rotates the part of
the molecule on c's side of the b-c bond about that bond (backbone bonds are in no ring).
"""
import os

import numpy as np

import sampling
from teacher import XTB_ENV, write_xyz

COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}   # Cordero et al. 2008

# Backbone families (φ, ψ) in degrees; ω = 180 (trans) unless a family says 'cis' (ω = 0 on the first amide).
FAMILIES = {
    "c7eq": (-83.0, 75.0),
    "c5": (-155.0, 160.0),
    "alphaR": (-63.0, -42.0),
    "alphaL": (60.0, 45.0),
    "pII": (-75.0, 145.0),
    "c7ax": (70.0, -70.0),
}


def bonds(numbers, positions, factor=1.2):
    p = np.asarray(positions)
    r = np.array([COVALENT_RADIUS_A[int(z)] for z in numbers])
    d = np.linalg.norm(p[:, None] - p[None], axis=-1)
    adj = d < factor * (r[:, None] + r[None])
    np.fill_diagonal(adj, False)
    return [set(np.nonzero(row)[0].tolist()) for row in adj]


def ethanol_atoms(numbers, positions):
    """Ethanol's hydroxyl H, O, the carbinol C, the methyl C and the bond lists: (h_o, o, c1, c2, nb)."""
    z = np.asarray(numbers)
    nb = bonds(numbers, positions)
    o = int(np.nonzero(z == 8)[0][0])
    h_o = [j for j in nb[o] if z[j] == 1][0]
    c1 = [j for j in nb[o] if z[j] == 6][0]
    c2 = [j for j in nb[c1] if z[j] == 6][0]
    return h_o, o, c1, c2, nb


def backbone(numbers, positions):
    """Ordered backbone of a capped peptide: dict(N=[...], CA=[...], C=[...], cap_c=methyl C of Ace,
    cap_n=methyl C of NMe, ace_c=Ace carbonyl C). Residue i has N[i], CA[i], C[i]."""
    z = np.asarray(numbers)
    nb = bonds(numbers, positions)
    carbonyl = [i for i in range(len(z)) if z[i] == 6
                and any(z[j] == 8 and len(nb[j]) == 1 for j in nb[i]) and any(z[j] == 7 for j in nb[i])]
    methyl = [i for i in range(len(z)) if z[i] == 6 and sum(z[j] == 1 for j in nb[i]) == 3]
    ace = [c for c in carbonyl if any(j in methyl for j in nb[c])]
    if len(ace) != 1:
        raise ValueError("not a capped peptide (no unique acetyl carbonyl)")
    out = dict(N=[], CA=[], C=[], ace_c=ace[0], cap_c=[j for j in nb[ace[0]] if j in methyl][0])
    c = ace[0]
    while True:
        n = [j for j in nb[c] if z[j] == 7][0]
        nxt = [j for j in nb[n] if z[j] == 6 and j != c]
        if len(nxt) != 1:
            raise ValueError(f"amide N {n} has {len(nxt)} carbon neighbours besides {c}")
        ca = nxt[0]
        if ca in methyl:                      # N-methyl cap reached
            out["cap_n"] = ca
            out["N"].append(n)
            return out
        c_next = [j for j in nb[ca] if j in carbonyl]
        if len(c_next) != 1:
            raise ValueError(f"Cα {ca} has no unique carbonyl neighbour")
        out["N"].append(n)
        out["CA"].append(ca)
        out["C"].append(c_next[0])
        c = c_next[0]


def dihedral(positions, a, b, c, d):
    p = np.asarray(positions)
    b0, b1, b2 = p[a] - p[b], p[c] - p[b], p[d] - p[c]
    b1n = b1 / np.linalg.norm(b1)
    v = b0 - b0.dot(b1n) * b1n
    w = b2 - b2.dot(b1n) * b1n
    return float(np.degrees(np.arctan2(np.cross(b1n, v).dot(w), v.dot(w))))


def _side(nb, b, c):
    """Atoms reachable from c without crossing the b-c bond."""
    seen, stack = {c}, [c]
    while stack:
        i = stack.pop()
        for j in nb[i]:
            if (i == c and j == b) or j in seen:
                continue
            seen.add(j)
            stack.append(j)
    if b in seen:
        raise ValueError(f"bond {b}-{c} is in a ring")
    return sorted(seen)


def set_dihedral(numbers, positions, a, b, c, d, value_deg, nb=None):
    nb = nb or bonds(numbers, positions)
    p = np.array(positions, dtype=float)
    angle = np.radians(value_deg - dihedral(p, a, b, c, d))
    axis = (p[c] - p[b]) / np.linalg.norm(p[c] - p[b])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rot = np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k   # Rodrigues; rotating by +angle adds angle
    idx = _side(nb, b, c)
    p[idx] = (p[idx] - p[c]) @ rot.T + p[c]
    return p


def torsions(bb):
    """Lists of (a, b, c, d) atom indices: phi, psi per residue and omega per amide (Ace first)."""
    n_res = len(bb["CA"])
    prev_c = [bb["ace_c"]] + bb["C"][:-1]
    nxt_n = bb["N"][1:]
    phi = [(prev_c[i], bb["N"][i], bb["CA"][i], bb["C"][i]) for i in range(n_res)]
    psi = [(bb["N"][i], bb["CA"][i], bb["C"][i], nxt_n[i]) for i in range(n_res)]
    before = [bb["cap_c"]] + bb["CA"]
    after = bb["CA"] + [bb["cap_n"]]
    cs = [bb["ace_c"]] + bb["C"]
    omega = [(before[k], cs[k], bb["N"][k], after[k]) for k in range(n_res + 1)]
    return phi, psi, omega


def build(numbers, positions, phis, psis, omegas):
    """Positions with the backbone set to the given angles (lists per residue / per amide; None keeps one)."""
    nb = bonds(numbers, positions)
    bb = backbone(numbers, positions)
    phi_t, psi_t, omega_t = torsions(bb)
    p = np.array(positions, dtype=float)
    for tors, values in ((omega_t, omegas), (phi_t, phis), (psi_t, psis)):
        for t, v in zip(tors, values):
            if v is not None:
                p = set_dihedral(numbers, p, *t, v, nb=nb)
    return p


def relax(numbers, positions, constraints, workdir, method="gfn2", level="loose", force_constant=1.0):
    """xtb optimisation with dihedral constraints [(a, b, c, d, degrees), ...] (0-based); positions or None."""
    sampling._clean(workdir)
    write_xyz(os.path.join(workdir, "x.xyz"), numbers, positions)
    with open(os.path.join(workdir, "c.inp"), "w") as f:
        f.write(f"$constrain\n   force constant={force_constant}\n")
        for a, b, c, d, v in constraints:
            f.write(f"   dihedral: {a + 1},{b + 1},{c + 1},{d + 1},{v:.2f}\n")
        f.write("$end\n")
    flag = ["--gfn", "2"] if method == "gfn2" else ["--gfnff"]
    import subprocess
    subprocess.run(["xtb", "x.xyz", *flag, "--opt", level, "--input", "c.inp", "--chrg", "0", "--uhf", "0"],
                   cwd=workdir, env=XTB_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    frames = sampling.read_xtb_trj(os.path.join(workdir, "xtbopt.xyz"), len(numbers))
    return frames[-1] if frames else None


def conformer(numbers, positions, phi, psi, cis_first=False, workdir=None, omega_jitter=None):
    """A start structure with every residue at (phi, psi), all amides trans (first cis if asked),
    relaxed with GFN2-xTB under dihedral constraints. Returns (positions, achieved angles dict)."""
    bb = backbone(numbers, positions)
    n_res = len(bb["CA"])
    phis = phi if np.ndim(phi) else [phi] * n_res
    psis = psi if np.ndim(psi) else [psi] * n_res
    omegas = [0.0 if (cis_first and k == 0) else 180.0 for k in range(n_res + 1)]
    if omega_jitter is not None:
        omegas = [w + j for w, j in zip(omegas, omega_jitter)]
    p = build(numbers, positions, phis, psis, omegas)
    phi_t, psi_t, omega_t = torsions(bb)
    cons = [(*t, v) for t, v in zip(phi_t, phis)] + [(*t, v) for t, v in zip(psi_t, psis)] \
        + [(*t, v) for t, v in zip(omega_t, omegas)]
    if workdir is not None:
        opt = relax(numbers, p, cons, workdir)
        if opt is not None:
            p = opt
    return p, angles(numbers, p, bb)


def angles(numbers, positions, bb=None):
    bb = bb or backbone(numbers, positions)
    phi_t, psi_t, omega_t = torsions(bb)
    return dict(phi=[round(dihedral(positions, *t), 1) for t in phi_t],
                psi=[round(dihedral(positions, *t), 1) for t in psi_t],
                omega=[round(dihedral(positions, *t), 1) for t in omega_t])
