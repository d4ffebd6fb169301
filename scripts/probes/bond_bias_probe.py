"""Is a test molecule's force error a systematic bond-length bias (the student's equilibrium bond lengths differ from
the teacher's) or scatter? Per molecule and bond (covalent, from the first frame: d < 1.2 (r_cov,i + r_cov,j)), the
bond-stretch component of the force error, s = (err_j - err_i) . u_ij / 2 in eV/Å (u_ij the unit vector i -> j;
positive: the student pushes the atoms apart more than the teacher, i.e. its bond is longer), averaged over the
molecule's frames at one temperature. The bias of a bond is that mean; "bias share" is rms over bonds of the bias
over rms over bonds and frames of s: near 1 the stretch error is a constant offset, near 0 it is scatter.

    python3 scripts/probes/bond_bias_probe.py WEIGHTS.safetensors organic-test.npz [--temperature 300] [NAME ...]
    LIBXTB=... python3 scripts/probes/bond_bias_probe.py WEIGHTS.safetensors --sample STARTS.xyz.gz NAME ...

Without names: the 12 molecules of the largest force MAE at that temperature. CPU, float32 as organic_eval.py.
With --sample (e.g. forcefield/training/organic/starts.train.xyz.gz): the named molecules' frames are made here, as
organic_data.py makes training frames (conformer 0, GFN-FF Langevin MD at the temperature, 40 frames 20 steps apart
after 200, labelled by GFN2-xTB in-process), to ask whether a bias seen on test molecules is there on trained ones.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "forcefield", "training"))
import organic_eval  # noqa: E402

# Cordero covalent radii (Å), as org.molten.core.Bonds
R_COV = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}
SYMBOL = {1: "H", 6: "C", 7: "N", 8: "O"}


def forces(model, z, pos):
    """Student forces (eV/Å) of one frame, every pair an edge (exact for molecules within the cutoff's reach)."""
    p = torch.as_tensor(pos, dtype=torch.float32).requires_grad_(True)
    n = len(z)
    i, j = np.nonzero(~np.eye(n, dtype=bool))
    e = model.atom_energies(model.species_index(torch.as_tensor(z.astype(np.int64))), p,
                            torch.as_tensor(i), torch.as_tensor(j)).sum()
    return -torch.autograd.grad(e, p)[0].detach().numpy().astype(np.float64)


def bonds(z, pos):
    out = []
    for a in range(len(z)):
        for b in range(a + 1, len(z)):
            if np.linalg.norm(pos[b] - pos[a]) < 1.2 * (R_COV[int(z[a])] + R_COV[int(z[b])]):
                out.append((a, b))
    return out


def sampled(starts, names, temperature):
    """The named molecules' frames in organic-test.npz's layout, made as organic_data.py makes training frames."""
    import extxyz
    from libxtb import XtbCalculator
    from organic_data import gfnff_md, label_frames
    first = {}
    for fr in extxyz.read(starts):
        if fr.info["name"] in names and str(fr.info.get("conformer", "0")) == "0":
            first.setdefault(fr.info["name"], fr)
    missing = [n for n in names if n not in first]
    if missing:
        raise SystemExit(f"{starts}: no conformer 0 of {', '.join(missing)} (names as in its name= keys)")
    z_all, pos, frc, n_atoms, mol = [], [], [], [], []
    for m, name in enumerate(names):
        st = first[name]
        z, x0 = st.numbers, st.positions.astype(np.float64)
        with XtbCalculator(z, x0, "gfnff") as ff:
            xs = gfnff_md(ff, z, x0, float(temperature), 200, 40, 20, np.random.default_rng(7 + m))
        drops = dict(scf=0, bond_graph=0, clash=0, high_energy=0, large_force=0, md_failed=0)
        got, _ = label_frames(z, x0, xs, drops)
        for x, f, _e in got:
            z_all.append(z); pos.append(x); frc.append(f); n_atoms.append(len(z)); mol.append(m)
    return {"z": np.concatenate(z_all), "pos": np.concatenate(pos), "forces": np.concatenate(frc),
            "n_atoms": np.array(n_atoms), "molecules": np.array(names), "molecule": np.array(mol),
            "temperature": np.full(len(n_atoms), temperature)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("weights")
    ap.add_argument("test", nargs="?", help="organic-test.npz (not with --sample)")
    ap.add_argument("--sample", help="starts file: make the named molecules' frames here (GFN-FF MD, GFN2-xTB)")
    ap.add_argument("names", nargs="*")
    ap.add_argument("--temperature", type=int, default=300)
    a = ap.parse_intermixed_args()
    torch.set_num_threads(1)
    model = organic_eval.load(a.weights, torch.device("cpu"))
    for p in model.parameters():
        p.requires_grad_(False)
    if a.sample:   # no test file: the first positional after the weights is the first name
        a.names = ([a.test] if a.test else []) + a.names
        d = sampled(a.sample, a.names, a.temperature)
    else:
        d = np.load(a.test, allow_pickle=True)
    ptr = np.concatenate([[0], np.cumsum(d["n_atoms"])])
    names = list(d["molecules"])
    frames = {m: [k for k in range(len(d["n_atoms"])) if d["molecule"][k] == m and d["temperature"][k] == a.temperature]
              for m in range(len(names))}

    def errors(m):
        out = []
        for k in frames[m]:
            z, pos = d["z"][ptr[k]:ptr[k + 1]], d["pos"][ptr[k]:ptr[k + 1]].astype(np.float64)
            out.append((z, pos, forces(model, z, pos) - d["forces"][ptr[k]:ptr[k + 1]]))
        return out

    unknown = [n for n in a.names if n not in names]
    if unknown:
        raise SystemExit(f"{a.test or a.sample}: no molecule {', '.join(unknown)} (names as in its molecules array)")
    chosen = [names.index(n) for n in a.names]
    cache = {}
    if not chosen:
        mae = {}
        for m in range(len(names)):
            cache[m] = errors(m)
            mae[m] = np.mean([np.abs(e).mean() for _, _, e in cache[m]])
        chosen = sorted(mae, key=mae.get, reverse=True)[:12]
    print(f"{'molecule':38s} {'F MAE':>7s} {'bias share':>10s}  largest bond biases (eV/Å; + = student's bond longer)")
    for m in chosen:
        fr = cache.get(m) or errors(m)
        z0, p0, _ = fr[0]
        bl = bonds(z0, p0)
        s = np.zeros((len(fr), len(bl)))
        for f, (z, pos, err) in enumerate(fr):
            for b, (i, j) in enumerate(bl):
                u = pos[j] - pos[i]
                u /= np.linalg.norm(u)
                s[f, b] = 0.5 * (err[j] - err[i]) @ u
        bias = s.mean(axis=0)
        share = np.sqrt((bias ** 2).mean()) / np.sqrt((s ** 2).mean())
        top = np.argsort(-np.abs(bias))[:3]
        text = ", ".join(f"{SYMBOL[int(z0[bl[b][0]])]}{bl[b][0]}-{SYMBOL[int(z0[bl[b][1]])]}{bl[b][1]} {bias[b]:+.3f}"
                         for b in top)
        mae = np.mean([np.abs(e).mean() for _, _, e in fr])
        print(f"{names[m]:38s} {mae:7.3f} {share:10.2f}  {text}")


if __name__ == "__main__":
    main()
