"""PaiNN student model, exactly as /work/shared/design/student-model.md (docs/model.md) specifies.

Schütt, Unke, Gastegger, "Equivariant message passing for the prediction of tensorial
properties and molecular spectra", ICML 2021 (PaiNN). Molten's variant: cosine cutoff applied
after the radial filter, message split [x_vv | x_s | x_vs], update split [a_vv | a_sv | a_ss],
1e-8 inside the vector norm, readout F -> F/2 -> 1, E = sum_i (scale * y_i + atomref[Z_i]).
Forces are -dE/dr by autograd. Runs on torch 1.13 and 2.x, and is TorchScript-able.

Parameter names follow the weight-file spec (embedding.weight, interactions.t.phi.0.weight, ...);
the buffers species/z_to_index are not part of the state that is exported as weights.
"""
import math
from typing import List, Optional, Tuple

import torch
from torch import nn


class Interaction(nn.Module):
    """Message block: phi(s_j) o W(d_ij) split into [x_vv | x_s | x_vs]."""

    def __init__(self, hidden: int, n_rbf: int):
        super().__init__()
        self.hidden = hidden
        self.phi = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 3 * hidden))
        self.filter = nn.Linear(n_rbf, 3 * hidden)

    def forward(self, s, v, rbf, fcut, unit, idx_i, idx_j, v_is_zero: bool = False):
        F = self.hidden
        w = self.filter(rbf) * fcut.unsqueeze(-1)          # cutoff AFTER the filter
        x = self.phi(s).index_select(0, idx_j) * w          # [E, 3F]
        x_vv, x_s, x_vs = torch.split(x, F, dim=-1)
        ds = torch.zeros_like(s).index_add_(0, idx_i, x_s)
        dv_e = unit.unsqueeze(-1) * x_vs.unsqueeze(1)       # [E, 3, F]
        if not v_is_zero:
            # the first layer's v is exactly zero: its x_vv o v_j term (an [E, 3, F] gather, product and sum, and
            # their first and second derivatives in training) adds exact zeros, so it is skipped there
            dv_e = x_vv.unsqueeze(1) * v.index_select(0, idx_j) + dv_e
        dv = torch.zeros_like(v).index_add_(0, idx_i, dv_e)
        return s + ds, v + dv


class Update(nn.Module):
    """Update block: U v, V v, per-channel norm of V v, MLP([s, n]) split into [a_vv | a_sv | a_ss]."""

    def __init__(self, hidden: int):
        super().__init__()
        self.hidden = hidden
        self.U = nn.Linear(hidden, hidden, bias=False)
        self.V = nn.Linear(hidden, hidden, bias=False)
        self.mlp = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.SiLU(), nn.Linear(hidden, 3 * hidden))

    def forward(self, s, v):
        F = self.hidden
        uv = self.U(v)                                      # [N, 3, F], applied to each Cartesian row
        vv = self.V(v)
        n = torch.sqrt(torch.sum(vv * vv, dim=1) + 1e-8)    # [N, F]
        a = self.mlp(torch.cat([s, n], dim=-1))
        a_vv, a_sv, a_ss = torch.split(a, F, dim=-1)
        v = v + a_vv.unsqueeze(1) * uv
        s = s + a_ss + a_sv * torch.sum(uv * vv, dim=1)
        return s, v


class PaiNN(nn.Module):
    def __init__(self, species: List[int], hidden: int = 128, layers: int = 3, n_rbf: int = 20,
                 cutoff: float = 5.0, gamma: float = 16.0):
        super().__init__()
        if hidden % 2 != 0:
            raise ValueError(f"hidden must be even (readout F -> F/2), got {hidden}")
        self.hidden, self.layers, self.n_rbf = hidden, layers, n_rbf
        self.cutoff, self.gamma = float(cutoff), float(gamma)
        self.species_list = list(species)
        self.register_buffer("species", torch.tensor(species, dtype=torch.long), persistent=False)
        z_to_index = torch.full((119,), -1, dtype=torch.long)
        for k, z in enumerate(species):
            z_to_index[z] = k
        self.register_buffer("z_to_index", z_to_index, persistent=False)
        # integer buffer: .double()/.float() leave it alone, so mu_k is exact in the model's precision
        self.register_buffer("k_rbf", torch.arange(n_rbf, dtype=torch.long), persistent=False)
        self.embedding = nn.Embedding(len(species), hidden)
        self.interactions = nn.ModuleList([Interaction(hidden, n_rbf) for _ in range(layers)])
        self.updates = nn.ModuleList([Update(hidden) for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(hidden, hidden // 2), nn.SiLU(), nn.Linear(hidden // 2, 1))
        self.atomref = nn.Parameter(torch.zeros(len(species)), requires_grad=False)
        self.scale = nn.Parameter(torch.ones(1), requires_grad=False)

    def species_index(self, z):
        idx = self.z_to_index.index_select(0, z)
        if bool((idx < 0).any()):
            raise ValueError("atomic number outside the model's species list")
        return idx

    def edges(self, pos, batch):
        """Directed edges (i <- j), i != j, same structure, d_ij < cutoff (all pairs; structures are small)."""
        with torch.no_grad():
            d = torch.cdist(pos, pos, compute_mode="donot_use_mm_for_euclid_dist")
            same = batch.unsqueeze(0) == batch.unsqueeze(1)
            not_self = torch.eye(pos.shape[0], dtype=torch.bool, device=pos.device).logical_not()
            ij = torch.nonzero(same & not_self & (d < self.cutoff))
        return ij[:, 0], ij[:, 1]

    def edges_within(self, pos, cand_i, cand_j):
        """The candidate pairs closer than the cutoff (the same rule as edges, on a given candidate list)."""
        with torch.no_grad():
            r = pos.index_select(0, cand_j) - pos.index_select(0, cand_i)
            keep = torch.nonzero(torch.sum(r * r, dim=-1) < self.cutoff * self.cutoff).squeeze(-1)
        return cand_i.index_select(0, keep), cand_j.index_select(0, keep)

    def atom_energies(self, z_idx, pos, idx_i, idx_j):
        r = pos.index_select(0, idx_j) - pos.index_select(0, idx_i)     # r_ij = r_j - r_i
        d = torch.sqrt(torch.sum(r * r, dim=-1))
        unit = r / d.unsqueeze(-1)
        mu = self.k_rbf.to(d.dtype) * self.cutoff / (self.n_rbf - 1)     # mu_k = r_c k / (n_rbf - 1)
        rbf = torch.exp(-self.gamma * (d.unsqueeze(-1) - mu) ** 2)
        fcut = 0.5 * (torch.cos(math.pi * d / self.cutoff) + 1.0)
        fcut = torch.where(d < self.cutoff, fcut, torch.zeros_like(fcut))
        s = self.embedding(z_idx)
        v = torch.zeros((s.shape[0], 3, self.hidden), dtype=s.dtype, device=s.device)
        first = True
        for inter, upd in zip(self.interactions, self.updates):
            s, v = inter(s, v, rbf, fcut, unit, idx_i, idx_j, first)
            s, v = upd(s, v)
            first = False
        y = self.readout(s).squeeze(-1)
        return self.scale * y + self.atomref.index_select(0, z_idx)

    def forward(self, z, pos, batch, n_structures: int, create_graph: bool = False,
                pairs: Optional[Tuple[torch.Tensor, torch.Tensor]] = None) -> Tuple[torch.Tensor, torch.Tensor]:
        """Energies [n_structures] (eV) and forces [N, 3] (eV/Å) of a batch of structures. `pairs`: candidate
        directed pairs (i, j) of the same structure (e.g. every pair within each frame, block_pairs), kept where
        d_ij < cutoff; None: all pairs of the batch (cdist, quadratic in the batch's atom count)."""
        if not pos.requires_grad:
            pos = pos.requires_grad_(True)
        z_idx = self.species_index(z)
        if pairs is None:
            idx_i, idx_j = self.edges(pos, batch)
        else:
            idx_i, idx_j = self.edges_within(pos, pairs[0], pairs[1])
        e_atom = self.atom_energies(z_idx, pos, idx_i, idx_j)
        energy = torch.zeros(n_structures, dtype=e_atom.dtype, device=e_atom.device).index_add_(0, batch, e_atom)
        grads = torch.autograd.grad([energy.sum()], [pos], create_graph=create_graph)
        g = grads[0]
        assert g is not None
        return energy, -g


class ScriptedPaiNN(nn.Module):
    """TorchScript entry point: forward(atomic_numbers int64 [N], positions [N,3] Å) -> (energy eV, forces eV/Å).

    Forces come from torch.autograd.grad inside forward, so the caller must run it with gradient
    mode on (TorchScript of torch 1.13 cannot switch it on itself): in DJL, JniUtils.setGradMode(true)
    and IValueUtils.forward(block, inputs, true), which skips inference mode.
    """

    def __init__(self, model: PaiNN):
        super().__init__()
        self.model = model
        self.species_z: List[int] = list(model.species_list)
        self.cutoff_a: float = model.cutoff

    @torch.jit.export
    def species(self) -> List[int]:
        """Atomic numbers the model accepts, in embedding-row order."""
        return self.species_z

    @torch.jit.export
    def cutoff(self) -> float:
        """Cutoff radius in Å."""
        return self.cutoff_a

    def forward(self, atomic_numbers: torch.Tensor, positions: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        if not torch.is_grad_enabled():
            raise RuntimeError("gradient mode is off: forces need autograd (DJL: JniUtils.setGradMode(true))")
        dtype = self.model.embedding.weight.dtype
        pos = positions.detach().to(dtype).clone().requires_grad_(True)
        z = atomic_numbers.to(torch.long)
        z_idx = self.model.species_index(z)
        idx_i, idx_j = self.model.edges(pos, torch.zeros_like(z))
        energy = self.model.atom_energies(z_idx, pos, idx_i, idx_j).sum()
        grads = torch.autograd.grad([energy], [pos])
        g = grads[0]
        assert g is not None
        return energy.detach(), -g.detach()


def spec_state(model: PaiNN):
    """The tensors of the weight-file spec, in spec order, as (name, tensor) pairs."""
    out = [("embedding.weight", model.embedding.weight)]
    for t, (inter, upd) in enumerate(zip(model.interactions, model.updates)):
        out += [(f"interactions.{t}.phi.0.weight", inter.phi[0].weight), (f"interactions.{t}.phi.0.bias", inter.phi[0].bias),
                (f"interactions.{t}.phi.2.weight", inter.phi[2].weight), (f"interactions.{t}.phi.2.bias", inter.phi[2].bias),
                (f"interactions.{t}.filter.weight", inter.filter.weight), (f"interactions.{t}.filter.bias", inter.filter.bias),
                (f"updates.{t}.U.weight", upd.U.weight), (f"updates.{t}.V.weight", upd.V.weight),
                (f"updates.{t}.mlp.0.weight", upd.mlp[0].weight), (f"updates.{t}.mlp.0.bias", upd.mlp[0].bias),
                (f"updates.{t}.mlp.2.weight", upd.mlp[2].weight), (f"updates.{t}.mlp.2.bias", upd.mlp[2].bias)]
    out += [("readout.0.weight", model.readout[0].weight), ("readout.0.bias", model.readout[0].bias),
            ("readout.2.weight", model.readout[2].weight), ("readout.2.bias", model.readout[2].bias),
            ("atomref", model.atomref), ("scale", model.scale)]
    return out
