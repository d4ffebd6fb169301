"""Labelled frames as flat tensors for batched training (no ASE needed: runs on the GPU machine too)."""
import glob
import os

import numpy as np
import torch

import extxyz


class FrameSet:
    """Frames concatenated: z [A], pos [A,3] Å, forces [A,3] eV/Å, energy [M] eV, ptr [M+1], system ids [M]."""

    def __init__(self, frames, systems):
        self.systems = systems
        sys_id = {s: k for k, s in enumerate(systems)}
        n = np.array([len(f) for f in frames], dtype=np.int64)
        self.ptr = torch.from_numpy(np.concatenate([[0], np.cumsum(n)]))
        self.n_atoms = torch.from_numpy(n)
        self.z = torch.from_numpy(np.concatenate([f.numbers for f in frames]))
        self.pos = torch.from_numpy(np.concatenate([f.positions for f in frames]))
        self.forces = torch.from_numpy(np.concatenate([f.forces for f in frames]))
        self.energy = torch.tensor([f.energy for f in frames], dtype=torch.float64)
        self.system = torch.tensor([sys_id[f.info["system"]] for f in frames], dtype=torch.long)

    def __len__(self):
        return len(self.energy)

    def to(self, device, dtype):
        for name in ("ptr", "n_atoms", "z", "system"):
            setattr(self, name, getattr(self, name).to(device))
        for name in ("pos", "forces"):
            setattr(self, name, getattr(self, name).to(device=device, dtype=dtype))
        self.energy = self.energy.to(device)   # energies stay float64 (totals of thousands of eV)
        return self

    def batch(self, ids):
        """Atoms of the frames `ids`: (z, pos, forces, batch vector, energies, n_atoms, system ids)."""
        counts = self.n_atoms[ids]
        starts = self.ptr[ids]
        offsets = torch.cumsum(counts, 0) - counts
        total = int(counts.sum())
        batch = torch.repeat_interleave(torch.arange(len(ids), device=ids.device), counts)
        atom = starts.index_select(0, batch) + torch.arange(total, device=ids.device) - offsets.index_select(0, batch)
        return (self.z[atom], self.pos[atom], self.forces[atom], batch, self.energy[ids], counts, self.system[ids])

    def batch_pairs(self, ids):
        """Every directed pair (i, j), i != j, of atoms of the same frame among the frames `ids`, as indices
        into the atoms of batch(ids): the candidates PaiNN.forward(pairs=...) filters by the cutoff. Linear
        in the frames (sum of n^2), where all pairs of the batch (cdist) grow with the square of its atoms."""
        return block_pairs(self.n_atoms[ids])

    def composition(self, species):
        """Counts of each species per frame: [M, n_species] (for the least-squares atomref)."""
        idx = {z: k for k, z in enumerate(species)}
        out = np.zeros((len(self), len(species)))
        z = self.z.cpu().numpy()
        ptr = self.ptr.cpu().numpy()
        for m in range(len(self)):
            for a in z[ptr[m]:ptr[m + 1]]:
                out[m, idx[int(a)]] += 1
        return out


def block_pairs(counts):
    """Directed pairs (i, j), i != j, within each block of a concatenation of blocks of `counts` atoms."""
    dev = counts.device
    offsets = torch.cumsum(counts, 0) - counts
    sq = counts * counts
    pair_off = torch.cumsum(sq, 0) - sq
    total = int(sq.sum())
    block = torch.repeat_interleave(torch.arange(len(counts), device=dev), sq)
    q = torch.arange(total, device=dev) - pair_off.index_select(0, block)
    n = counts.index_select(0, block)
    base = offsets.index_select(0, block)
    i, j = q // n, q % n
    keep = i != j
    return (base + i)[keep], (base + j)[keep]


class _NpzFrame:
    """A frame of a flat .npz data set (organic_data.py), shaped like extxyz.Frame for FrameSet."""
    __slots__ = ("numbers", "positions", "forces", "energy", "info")

    def __init__(self, numbers, positions, forces, energy, system):
        self.numbers, self.positions, self.forces, self.energy = numbers, positions, forces, energy
        self.info = {"system": system}

    def __len__(self):
        return len(self.numbers)


def read_npz(path, system):
    """Frames of an organic_data.py archive (z int8, pos/forces float32 Å and eV/Å, energy float64 eV)."""
    d = np.load(path)
    ptr = np.concatenate([[0], np.cumsum(d["n_atoms"])])
    z, pos, forces, energy = d["z"].astype(np.int64), d["pos"].astype(np.float64), d["forces"].astype(np.float64), d["energy"]
    return [_NpzFrame(z[a:b], pos[a:b], forces[a:b], float(e), system)
            for a, b, e in zip(ptr[:-1], ptr[1:], energy)]


def load_split(directory, split, systems=None):
    """Frames of `<system>.<split>.xyz.gz` or `<system>.<split>.npz` (split train/val) or `<system>.xyz.gz`
    (split None: test). `directory` may be a list of folders."""
    dirs = [directory] if isinstance(directory, str) else list(directory)
    pattern = f"*.{split}.xyz.gz" if split else "*.xyz.gz"
    frames = []
    for folder in dirs:
        paths = sorted(glob.glob(os.path.join(folder, pattern)))
        if split is None:
            paths = [p for p in paths if p.count(".") == 2]
        if split:
            paths += sorted(glob.glob(os.path.join(folder, f"*.{split}.npz")))
        for p in paths:
            name = os.path.basename(p).split(".")[0]
            if p.endswith(".npz"):
                frames.extend(read_npz(p, name))
                continue
            for f in extxyz.read(p):
                f.info["system"] = name
                frames.append(f)
    if not frames:
        raise SystemExit(f"no {pattern} files in {', '.join(dirs)}")
    names = systems or sorted({f.info["system"] for f in frames})
    return FrameSet(frames, names)
