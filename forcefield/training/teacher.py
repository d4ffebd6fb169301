"""The teacher: GFN2-xTB single points with gradients through the xtb command line (xtb 6.5.1).

`xtb x.xyz --gfn 2 --grad` writes x.engrad (ORCA style): energy in Hartree, gradient in
Hartree/Bohr. We convert to eV and eV/Å and return forces = -gradient. Every call runs in its own
clean directory with one OpenMP thread, charge 0, no unpaired electrons and no restart file, so a
label depends on the geometry alone.
"""
import os
import shutil
import subprocess
import tempfile

import numpy as np

from units import BOHR_IN_A, HARTREE_IN_EV, SYMBOLS

XTB_ENV = dict(os.environ, OMP_NUM_THREADS="1", OMP_STACKSIZE="256M", OMP_MAX_ACTIVE_LEVELS="1")


class TeacherFailure(Exception):
    """xtb did not produce a gradient (SCF not converged, crash)."""


def write_xyz(path, numbers, positions, comment=""):
    with open(path, "w") as f:
        f.write(f"{len(numbers)}\n{comment}\n")
        for z, p in zip(numbers, positions):
            f.write(f"{SYMBOLS[int(z)]} {p[0]:.10f} {p[1]:.10f} {p[2]:.10f}\n")


def read_engrad(path, n_atoms):
    """Parses an ORCA-style .engrad file: returns (energy_hartree, gradient_hartree_per_bohr [n,3])."""
    with open(path) as f:
        values = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    n = int(values[0])
    if n != n_atoms:
        raise TeacherFailure(f"{path}: {n} atoms, expected {n_atoms}")
    energy = float(values[1])
    grad = np.array([float(v) for v in values[2:2 + 3 * n]]).reshape(n, 3)
    return energy, grad


def single_point(numbers, positions, workdir=None, gfn="2"):
    """GFN2-xTB energy (eV) and forces (eV/Å) of one neutral closed-shell configuration."""
    own = workdir is None
    d = tempfile.mkdtemp(prefix="xtb-sp-") if own else workdir
    try:
        for name in os.listdir(d):
            p = os.path.join(d, name)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        write_xyz(os.path.join(d, "x.xyz"), numbers, positions)
        r = subprocess.run(["xtb", "x.xyz", "--gfn", gfn, "--grad", "--chrg", "0", "--uhf", "0", "--norestart"],
                           cwd=d, env=XTB_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        engrad = os.path.join(d, "x.engrad")
        if r.returncode != 0 or not os.path.exists(engrad):
            raise TeacherFailure(f"xtb exit status {r.returncode}")
        e_h, g = read_engrad(engrad, len(numbers))
        return e_h * HARTREE_IN_EV, -g * (HARTREE_IN_EV / BOHR_IN_A)
    finally:
        if own:
            shutil.rmtree(d, ignore_errors=True)
