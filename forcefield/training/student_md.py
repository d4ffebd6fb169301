"""Langevin MD of a PaiNN student over many molecules at once, on CUDA or the CPU (one source for
organic_eval.py's stability protocol and organic_active.py's sampling of the student's own MD).

BAOAB (Leimkuhler & Matthews 2013): half kick, half drift, Ornstein-Uhlenbeck on the velocities
(c1 = exp(-gamma dt), c2 = sqrt(1 - c1^2)), half drift, force, half kick. Every molecule of the batch
is a replica with its own temperature (the noise amplitude per atom). Edges: every pair of atoms within
a molecule, fixed for the whole run: exact, since PaiNN's cutoff function zeroes a pair beyond r_c, cheap
for molecules of <= 42 atoms, and the tensors keep their shapes, so on CUDA a chunk of steps is one CUDA
graph. Never an edge across molecules: the replicas are independent.
Units: Å, fs, amu, eV, eV/Å, K.
"""
import math

import numpy as np
import torch

from dataset import block_pairs
from model import PaiNN
from train import SPECIES, load_weights, read_state, state_layers, state_width
from units import ACCEL_A_PER_FS2, BOLTZMANN_EV_PER_K, MASSES_AMU


def load_student(path, device):
    """The student of a state.npz (train.py) or a .safetensors weight file, float32, eval mode, no
    parameter gradients (only forces are needed). Its width F and depth T are the weights' own (128, or 256 from
    widen.py; 3, or 4 from deepen.py)."""
    state = read_state(path)
    model = PaiNN(SPECIES, state_width(state), state_layers(state), 20, 5.0, 16.0)
    load_weights(model, path)
    return model.to(device=device, dtype=torch.float32).eval()


class StudentLangevin:
    """BAOAB Langevin of `systems` [(numbers, positions Å)] at `temperatures_K` (one per system).

    State on the device, flat over the atoms of all systems: pos [A,3] Å, vel [A,3] Å/fs, acc [A,3] Å/fs²,
    f_last [A,3] eV/Å (forces of the last step), f_peak [A] eV/Å (largest force component of each atom since
    the caller last zeroed it: a replica can blow up and fly apart beyond the cutoff within a chunk), mass [A,1]
    amu, batch [A] (system of each atom), ptr (numpy, [S+1] atom offsets). The initial velocities are
    Maxwell-Boltzmann draws from torch.manual_seed(seed); the noise of every step comes from the same generator,
    so a run on the CPU repeats bit for bit.
    """

    def __init__(self, model, systems, temperatures_K, dt_fs, friction_per_fs, seed, device):
        if len(temperatures_K) != len(systems):
            raise ValueError(f"{len(systems)} systems but {len(temperatures_K)} temperatures")
        self.model, self.device, self.dt = model, device, float(dt_fs)
        self.sizes = [len(n) for n, _ in systems]
        self.n_systems = len(systems)
        self.ptr = np.concatenate([[0], np.cumsum(self.sizes)]).astype(np.int64)
        numbers = np.concatenate([np.asarray(n) for n, _ in systems])
        self.numbers = numbers
        self.z_idx = model.species_index(torch.as_tensor(numbers, device=device))
        self.start = torch.as_tensor(np.concatenate([p for _, p in systems]), dtype=torch.float32, device=device)
        self.pos = self.start.clone()
        counts = torch.as_tensor(self.sizes, device=device)
        self.idx_i, self.idx_j = block_pairs(counts)
        self.batch = torch.repeat_interleave(torch.arange(self.n_systems, device=device), counts)
        self.mass = torch.tensor([MASSES_AMU[int(a)] for a in numbers], dtype=torch.float32, device=device)[:, None]
        # noise amplitude sqrt(kT/m) per atom (Å/fs), computed per temperature so that one temperature for all
        # gives the same float32 values as a single expression over the batch
        self.sigma = torch.empty_like(self.mass)
        t_atom = np.repeat(np.asarray(temperatures_K, dtype=float), self.sizes)
        for temp in sorted(set(t_atom.tolist())):
            sel = torch.as_tensor(np.nonzero(t_atom == temp)[0], device=device)
            kt = BOLTZMANN_EV_PER_K * float(temp)
            self.sigma[sel] = torch.sqrt(kt * ACCEL_A_PER_FS2 / self.mass[sel])
        torch.manual_seed(seed)
        self.vel = self.sigma * torch.randn(self.pos.shape, device=device)
        self.c1 = math.exp(-friction_per_fs * dt_fs)
        self.c2 = math.sqrt(1 - self.c1 * self.c1)
        self.acc = self.forces(self.pos) / self.mass * ACCEL_A_PER_FS2
        self.f_last = torch.zeros_like(self.pos)
        self.f_peak = torch.zeros(len(numbers), dtype=torch.float32, device=device)
        self.dof = torch.as_tensor([3 * n - 3 for n in self.sizes], dtype=torch.float32, device=device)
        self.graph = None
        self.chunk_steps = None

    def forces(self, p):
        """Forces (eV/Å) at positions p [A,3] Å."""
        p = p.detach().requires_grad_(True)
        e = self.model.atom_energies(self.z_idx, p, self.idx_i, self.idx_j).sum()
        return -torch.autograd.grad(e, p)[0]

    def step(self):
        dt = self.dt
        self.vel.add_(0.5 * dt * self.acc)
        self.pos.add_(0.5 * dt * self.vel)
        self.vel.mul_(self.c1).add_(self.c2 * self.sigma * torch.randn(self.pos.shape, device=self.device))
        self.pos.add_(0.5 * dt * self.vel)
        f = self.forces(self.pos)
        self.f_last.copy_(f)
        torch.maximum(self.f_peak, f.abs().amax(1), out=self.f_peak)   # NaN propagates
        self.acc.copy_(f / self.mass * ACCEL_A_PER_FS2)
        self.vel.add_(0.5 * dt * self.acc)

    def _chunk(self):
        for _ in range(self.chunk_steps):
            self.step()

    def prepare(self, chunk_steps):
        """Each advance() runs chunk_steps steps; on CUDA as one captured graph, after one warm-up step
        outside it (that step is part of the trajectory)."""
        self.chunk_steps = int(chunk_steps)
        if self.device.type == "cuda":
            # streams and the capture belong to the current device: make it the state's (cuda:1 from a process
            # whose current device is cuda:0 would capture nothing of its own)
            with torch.cuda.device(self.device):
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    self.step()                      # warm-up outside the graph
                torch.cuda.current_stream().wait_stream(s)
                self.graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(self.graph):
                    self._chunk()

    def advance(self):
        """One chunk of steps (prepare() first)."""
        if self.graph is not None:
            with torch.cuda.device(self.device):
                self.graph.replay()
        else:
            self._chunk()

    def any_per_system(self, atom_flags):
        """[S] bool: whether any atom of each system is flagged ([A] bool)."""
        return torch.zeros(self.n_systems, dtype=torch.bool, device=self.device).index_put_(
            (self.batch,), atom_flags, accumulate=True)

    def kinetic_temperature(self):
        """[S] kinetic temperature (K) of each system, 3n-3 degrees of freedom."""
        ke = 0.5 * (self.mass * self.vel * self.vel).sum(1) / ACCEL_A_PER_FS2
        return 2.0 * torch.zeros(self.n_systems, device=self.device).index_add_(0, self.batch, ke) / (
            self.dof * BOLTZMANN_EV_PER_K)

    def restart(self, systems):
        """Puts the systems (indices) back at their starts, at rest: a replica that left the physical region
        stays finite (its later frames are discarded by the caller) and cannot disturb the others' numbers."""
        if len(systems) == 0:
            return
        atoms = torch.as_tensor(np.concatenate([np.arange(self.ptr[s], self.ptr[s + 1]) for s in systems]),
                                device=self.device)
        with torch.no_grad():
            self.pos[atoms] = self.start[atoms]
            self.vel[atoms] = 0.0
            self.acc[atoms] = 0.0
