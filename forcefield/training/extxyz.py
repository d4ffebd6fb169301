"""Minimal extended-XYZ reader/writer in ASE's dialect, without an ASE dependency.

Frames are written as
    N
    Properties=species:S:1:pos:R:3:forces:R:3 energy=<eV> pbc="F F F" system=<name> source=<tag>
    <symbol> x y z fx fy fz      (Å, eV/Å)
which ASE (ase.io.read(..., format='extxyz')) and OVITO read as positions, forces and energy.
Plain-text or gzip-compressed (.gz) files.
"""
import contextlib
import gzip
import io
import shlex

import numpy as np

from units import NUMBERS, SYMBOLS


class Frame:
    """One labelled configuration: atomic numbers, positions Å, forces eV/Å (or None), energy eV (or None)."""

    def __init__(self, numbers, positions, energy=None, forces=None, info=None):
        self.numbers = np.asarray(numbers, dtype=np.int64)
        self.positions = np.asarray(positions, dtype=np.float64).reshape(-1, 3)
        self.energy = None if energy is None else float(energy)
        self.forces = None if forces is None else np.asarray(forces, dtype=np.float64).reshape(-1, 3)
        self.info = dict(info or {})

    def __len__(self):
        return len(self.numbers)

    def copy(self):
        return Frame(self.numbers.copy(), self.positions.copy(), self.energy,
                     None if self.forces is None else self.forces.copy(), dict(self.info))


@contextlib.contextmanager
def _open(path, mode):
    if not str(path).endswith(".gz"):
        with open(path, mode) as f:
            yield f
    elif "w" in mode:
        # mtime=0 and no file name in the header: the same frames give the same bytes.
        with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz, \
                io.TextIOWrapper(gz, encoding="ascii") as f:
            yield f
    else:
        with gzip.open(path, "rt", encoding="ascii") as f:
            yield f


def _fmt_value(v):
    s = str(v)
    if any(c in s for c in ' ="\''):
        return '"' + s.replace('"', "'") + '"'
    return s


def write(path, frames):
    """Writes frames (with energy and forces) in ASE's extended-XYZ dialect."""
    with _open(path, "w") as f:
        for fr in frames:
            if fr.energy is None or fr.forces is None:
                raise ValueError("frame without energy/forces cannot be written as labelled data")
            extra = " ".join(f"{k}={_fmt_value(v)}" for k, v in fr.info.items())
            f.write(f"{len(fr)}\n")
            f.write(f"Properties=species:S:1:pos:R:3:forces:R:3 energy={fr.energy:.8f} pbc=\"F F F\""
                    + (" " + extra if extra else "") + "\n")
            for z, p, g in zip(fr.numbers, fr.positions, fr.forces):
                f.write(f"{SYMBOLS[int(z)]:<2s} {p[0]:14.8f} {p[1]:14.8f} {p[2]:14.8f}"
                        f" {g[0]:13.8f} {g[1]:13.8f} {g[2]:13.8f}\n")


def _parse_comment(line):
    out = {}
    for tok in shlex.split(line):
        if "=" in tok:
            k, v = tok.split("=", 1)
            out[k] = v
    return out


def read(path):
    """Reads every frame of an extended-XYZ file written by write() (or plain XYZ: positions only)."""
    frames = []
    with _open(path, "r") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        try:
            n = int(lines[i].split()[0])
        except ValueError:
            raise ValueError(f"{path}: line {i + 1}: expected an atom count, got {lines[i]!r}")
        kv = _parse_comment(lines[i + 1])
        props = kv.get("Properties", "species:S:1:pos:R:3")
        has_forces = "forces:R:3" in props
        body = lines[i + 2:i + 2 + n]
        if len(body) != n:
            raise ValueError(f"{path}: line {i + 1}: frame announces {n} atoms but the file ends")
        numbers = np.empty(n, dtype=np.int64)
        data = np.empty((n, 6 if has_forces else 3))
        for a, row in enumerate(body):
            t = row.split()
            numbers[a] = NUMBERS[t[0]]
            data[a] = [float(x) for x in t[1:1 + data.shape[1]]]
        info = {k: v for k, v in kv.items() if k not in ("Properties", "energy", "pbc")}
        energy = float(kv["energy"]) if "energy" in kv else None
        frames.append(Frame(numbers, data[:, :3], energy, data[:, 3:6] if has_forces else None, info))
        i += 2 + n
    return frames
