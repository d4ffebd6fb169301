#!/usr/bin/env python3
"""A PaiNN student widened from F to 2F channels computing the same function (Net2WiderNet), to warm-start a wider
model from a trained one.

    python3 widen.py --weights student-gfn2-organic-preview.safetensors --out wide.npz [--noise 0.01 --seed 1]
    python3 train.py --hidden 256 --init wide.npz ...

Why: the organic preview fits frames of its own training molecules no better than independent ones (median force
MAE 0.037 against 0.035 eV/Å; runs/small-pool-probe/), so the median target asks for a model that fits better.
A wider model trained from scratch would spend its first device hours relearning what the preview knows; a widened
copy starts where the preview is.

Every channel c of every F-wide quantity (s, v, the message and update splits, the hidden layers) is copied to c and
c + F, and every layer reading those quantities takes half of each copy's weight, so that the sums are unchanged. All
of PaiNN's non-linear operations are per channel (SiLU, the per-channel norm of V v, the products a_vv * U v,
a_sv * <U v, V v>), so copies stay equal through them; the three F-wide blocks of phi, the filter and the update MLP's
output keep their order ([x_vv | x_s | x_vs], [a_vv | a_sv | a_ss]), each block widened on its own. The readout's
hidden layer (F/2) becomes F (the GPU kernels ask for F/2). Copies receive the same gradients, so --noise (a
standard deviation relative to each tensor's RMS, seeded) breaks the symmetry for training; the output is then
within that noise of the original.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import PaiNN, spec_state  # noqa: E402
from train import SPECIES, load_weights  # noqa: E402


def dup(n):
    """Index map of a duplicated axis: new position -> old (c and c + n both read c)."""
    return torch.cat([torch.arange(n), torch.arange(n)])


def blocks(n, k):
    """Index map of k F-wide blocks, each duplicated in place: [b0 | b0' | b1 | b1' ...] -> [b0 | b1 ...]."""
    return torch.cat([b * n + dup(n) for b in range(k)])


def widen(model: PaiNN) -> PaiNN:
    F = model.hidden
    wide = PaiNN(model.species_list, 2 * F, model.layers, model.n_rbf, model.cutoff, model.gamma).to(
        dtype=model.embedding.weight.dtype)
    d, d3, dr = dup(F), blocks(F, 3), dup(F // 2)
    with torch.no_grad():
        wide.embedding.weight.copy_(model.embedding.weight[:, d])
        for old_i, new_i, old_u, new_u in zip(model.interactions, wide.interactions, model.updates, wide.updates):
            new_i.phi[0].weight.copy_(old_i.phi[0].weight[d][:, d] / 2)
            new_i.phi[0].bias.copy_(old_i.phi[0].bias[d])
            new_i.phi[2].weight.copy_(old_i.phi[2].weight[d3][:, d] / 2)
            new_i.phi[2].bias.copy_(old_i.phi[2].bias[d3])
            new_i.filter.weight.copy_(old_i.filter.weight[d3])
            new_i.filter.bias.copy_(old_i.filter.bias[d3])
            new_u.U.weight.copy_(old_u.U.weight[d][:, d] / 2)
            new_u.V.weight.copy_(old_u.V.weight[d][:, d] / 2)
            new_u.mlp[0].weight.copy_(old_u.mlp[0].weight[d][:, blocks(F, 2)] / 2)   # input [s | n], each widened
            new_u.mlp[0].bias.copy_(old_u.mlp[0].bias[d])
            new_u.mlp[2].weight.copy_(old_u.mlp[2].weight[d3][:, d] / 2)
            new_u.mlp[2].bias.copy_(old_u.mlp[2].bias[d3])
        wide.readout[0].weight.copy_(model.readout[0].weight[dr][:, d] / 2)
        wide.readout[0].bias.copy_(model.readout[0].bias[dr])
        wide.readout[2].weight.copy_(model.readout[2].weight[:, dr] / 2)
        wide.readout[2].bias.copy_(model.readout[2].bias)
        wide.atomref.copy_(model.atomref)
        wide.scale.copy_(model.scale)
    return wide


def perturb(model: PaiNN, noise: float, seed: int) -> PaiNN:
    """Gaussian noise of noise x RMS on every trained tensor (not atomref, scale)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, t in spec_state(model):
            if name in ("atomref", "scale"):
                continue
            rms = float(torch.sqrt(torch.mean(t * t)))
            t.add_(torch.randn(t.shape, generator=g, dtype=t.dtype) * noise * rms)
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True, help="state.npz of train.py or a .safetensors weight file")
    ap.add_argument("--hidden", type=int, default=128, help="the width of --weights (F)")
    ap.add_argument("--out", required=True, help="state.npz of the 2F model (train.py --hidden 2F --init OUT)")
    ap.add_argument("--noise", type=float, default=0.0, help="symmetry-breaking noise, relative to each tensor's RMS")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    model = load_weights(PaiNN(SPECIES, args.hidden), args.weights)
    wide = perturb(widen(model), args.noise, args.seed) if args.noise > 0 else widen(model)
    np.savez(args.out, **{k: v.detach().cpu().float().numpy() for k, v in spec_state(wide)})
    print(f"F = {args.hidden} -> {2 * args.hidden}: {sum(p.numel() for p in wide.parameters() if p.requires_grad)} "
          f"trainable parameters -> {args.out}")


if __name__ == "__main__":
    main()
