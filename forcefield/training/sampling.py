"""Configuration sampling for the training data: xtb molecular dynamics, water clusters, jitter.

MD runs use xtb's own integrator with step 0.5 fs, real hydrogen masses (hmass=1), no SHAKE and
xtb's Berendsen thermostat (the only one xtb 6.5.1 offers; for sampling configurations that is
enough, the labels come from separate single points). Initial velocities are drawn here from a
seeded Maxwell-Boltzmann distribution and handed to xtb through its `mdrestart` file, so a run
is reproducible (xtb would otherwise seed itself from the clock).
"""
import os
import shutil
import subprocess

import numpy as np

from extxyz import Frame
from teacher import XTB_ENV, write_xyz
from units import AUT_IN_FS, BOHR_IN_A, BOLTZMANN_EV_PER_K, ACCEL_A_PER_FS2

MD_STEP_FS = 0.5
# xtb's MD masses with hmass=1 (amu); only used for the initial velocities.
MD_MASS = {1: 1.0, 6: 12.011, 7: 14.007, 8: 15.999}


def _clean(d):
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(d):
        p = os.path.join(d, name)
        shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


def maxwell_boltzmann(numbers, temperature_K, rng):
    """Velocities in Å/fs at temperature_K with zero total momentum."""
    m = np.array([MD_MASS[int(z)] for z in numbers])
    # <v_x^2> = kT/m with kT in eV and m in amu: v[Å/fs] = sqrt(kT/m * ACCEL).
    sigma = np.sqrt(BOLTZMANN_EV_PER_K * temperature_K / m * ACCEL_A_PER_FS2)
    v = rng.normal(size=(len(m), 3)) * sigma[:, None]
    v -= (m[:, None] * v).sum(0) / m.sum()
    return v


def read_xtb_trj(path, n_atoms):
    """Positions (Å) of every frame in xtb's MD trajectory file (plain XYZ)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i + 2 + n_atoms <= len(lines):
        if not lines[i].strip():
            i += 1
            continue
        n = int(lines[i].split()[0])
        if n != n_atoms:
            raise ValueError(f"{path}: frame with {n} atoms, expected {n_atoms}")
        out.append(np.array([[float(x) for x in ln.split()[1:4]] for ln in lines[i + 2:i + 2 + n]]))
        i += 2 + n
    return out


def xtb_md(numbers, positions, method, temperature_K, time_ps, dump_fs, seed, workdir, wall=False):
    """Runs xtb MD (method 'gfn2' or 'gfnff') and returns the dumped positions (list of [N,3] Å).

    A run that stops early (SCF failure at some step) returns the frames written so far.
    """
    _clean(workdir)
    numbers = np.asarray(numbers)
    write_xyz(os.path.join(workdir, "x.xyz"), numbers, positions)
    v = maxwell_boltzmann(numbers, temperature_K, np.random.default_rng(seed))
    with open(os.path.join(workdir, "mdrestart"), "w") as f:
        f.write(" -1.0\n")
        for p, q in zip(np.asarray(positions) / BOHR_IN_A, v / BOHR_IN_A * AUT_IN_FS):
            # xtb reads this file with a fixed-width format: 6 fields of 22 characters.
            f.write("".join(f"{t:22.14E}" for t in (*p, *q)) + "\n")
    with open(os.path.join(workdir, "md.inp"), "w") as f:
        f.write("$md\n"
                f"   temp={temperature_K:.1f}\n   time={time_ps:.4f}\n   dump={dump_fs:.2f}\n"
                f"   step={MD_STEP_FS}\n   hmass=1\n   shake=0\n   nvt=true\n   restart=true\n$end\n")
        if wall:
            # A soft spherical wall keeps a water cluster from evaporating (MD only: labels have no wall).
            f.write("$wall\n   potential=logfermi\n   sphere: auto, all\n$end\n")
    flag = ["--gfn", "2"] if method == "gfn2" else ["--gfnff"]
    subprocess.run(["xtb", "x.xyz", *flag, "--md", "--input", "md.inp", "--chrg", "0", "--uhf", "0"],
                   cwd=workdir, env=XTB_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    return read_xtb_trj(os.path.join(workdir, "xtb.trj"), len(numbers))


def xtb_optimise(numbers, positions, method, workdir, level="crude"):
    """Geometry optimisation with xtb; returns the optimised positions (Å) or None on failure."""
    _clean(workdir)
    write_xyz(os.path.join(workdir, "x.xyz"), numbers, positions)
    flag = ["--gfn", "2"] if method == "gfn2" else ["--gfnff"]
    subprocess.run(["xtb", "x.xyz", *flag, "--opt", level, "--chrg", "0", "--uhf", "0"],
                   cwd=workdir, env=XTB_ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
    frames = read_xtb_trj(os.path.join(workdir, "xtbopt.xyz"), len(numbers))
    return frames[-1] if frames else None


def random_rotation(rng):
    q = rng.normal(size=4)
    a, b, c, d = q / np.linalg.norm(q)
    return np.array([[a*a + b*b - c*c - d*d, 2*(b*c - a*d), 2*(b*d + a*c)],
                     [2*(b*c + a*d), a*a - b*b + c*c - d*d, 2*(c*d - a*b)],
                     [2*(b*d - a*c), 2*(c*d + a*b), a*a - b*b - c*c + d*d]])


def water_cluster(monomer, n_molecules, rng, min_oo=2.55, min_inter=1.5, loosen=1.2):
    """A random packing of n rigid water monomers (Frame with O first) inside a sphere.

    Centres are drawn uniformly in a sphere of about liquid density, its radius scaled by `loosen`; a
    placement is rejected when an O-O distance is below min_oo Å or any intermolecular atom pair
    is closer than min_inter Å.
    """
    com = monomer.positions.mean(0)
    local = monomer.positions - com
    radius = loosen * (3.0 * 30.0 * n_molecules / (4.0 * np.pi)) ** (1.0 / 3.0)
    placed = []
    for attempt in range(100000):
        if len(placed) == n_molecules:
            break
        c = rng.uniform(-radius, radius, 3)
        if np.linalg.norm(c) > radius:
            continue
        mol = local @ random_rotation(rng).T + c
        ok = True
        for other in placed:
            d = np.linalg.norm(mol[:, None, :] - other[None, :, :], axis=-1)
            if d[0, 0] < min_oo or d.min() < min_inter:
                ok = False
                break
        if ok:
            placed.append(mol)
    if len(placed) != n_molecules:
        raise RuntimeError(f"could not pack {n_molecules} water molecules")
    numbers = np.tile(monomer.numbers, n_molecules)
    return numbers, np.concatenate(placed)


def evenly(frames, n_keep):
    """n_keep frames spread evenly over a trajectory (all of them if it is shorter)."""
    if len(frames) <= n_keep:
        return list(frames)
    idx = np.round(np.linspace(0, len(frames) - 1, n_keep)).astype(int)
    return [frames[i] for i in idx]


def jitter(frame, sigma_A, rng):
    """A copy of frame with every Cartesian coordinate displaced by N(0, sigma_A^2)."""
    out = frame.copy()
    out.positions = frame.positions + rng.normal(scale=sigma_A, size=frame.positions.shape)
    return out


def min_distance(positions):
    p = np.asarray(positions)
    d = np.linalg.norm(p[:, None, :] - p[None, :, :], axis=-1)
    d[np.diag_indices(len(p))] = np.inf
    return float(d.min())


def frames_from(numbers, trajectory, info):
    return [Frame(numbers, p, info=dict(info)) for p in trajectory]


def derived_seed(master, *parts):
    """A seed derived from a master seed and a job's name parts (stable across runs, machines and Python
    versions: no hash randomisation). Shared by generate_data, generate_testset and active_loop."""
    h = master
    for p in parts:
        for ch in str(p):
            h = (h * 1000003 + ord(ch)) % (2 ** 63)
    return h
