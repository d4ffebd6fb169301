#!/usr/bin/env python3
"""A PaiNN student deepened from T to T + 1 interaction blocks computing the same function, to warm-start a deeper
model from a trained one (issue 27's second capacity axis).

    python3 deepen.py --weights student-gfn2-organic-preview.safetensors --out deep.npz [--layers 4] [--seed 1]
    python3 train.py --layers 4 --init deep.npz ...

Why: the organic preview fits frames of its own training molecules no better than independent ones, so the median
target asks for a model that fits better. Width was the first capacity axis tried: in round 12, F = 256 (widen.py's
copy of the preview) against F = 128 trained for the same wall-clock minutes on a GPU each ended level. Depth is the
other axis issue 27 names: one more (Interaction, Update) pair gives every atom's features one more round of messages
(a receptive field of 4 x 5 Å instead of 3 x 5 Å) and a fourth non-linear update. As with widen.py, a deeper model
trained from scratch would spend its first device hours relearning what the preview knows; a deepened copy starts
where the preview is.

How: every tensor of the input is copied unchanged (embedding, blocks 0 ... T-1, readout, atomref, scale). The new
block T is appended after the last one, initialised as a freshly constructed PaiNN of --seed would initialise its
block T (torch.manual_seed(seed), PaiNN(..., layers=T+1)), except for its two output layers, set to zero (weight and
bias): phi's last Linear (interactions.T.phi.2), so that the message x = phi(s_j) o W(d_ij) is zero and the block's
Δs = Δv = 0, and the update MLP's last Linear (updates.T.mlp.2), so that a_vv = a_sv = a_ss = 0 and the update adds
nothing either. The new block is then the identity and the model computes exactly the original's energies (eV) and
forces (eV/Å). No symmetry needs breaking (unlike widen.py's copies, hence no --noise): the zero layers' gradients
are not zero (dL/dW = dL/dx · phi's hidden activations, which the seeded first layer makes non-zero), so the first
optimiser step moves them, and the rest of the new block learns from there (zero-initialised residual blocks).
Deepening by more than one block (--layers T + 2 ...) appends that many identity blocks the same way.

Units: the weights are dimensionless in the weight-file spec's units (positions Å, energies eV, forces eV/Å); the
output is a state.npz (float32, the spec's tensor names) that train.py (--layers T' --init OUT), organic_eval.py and
the MD helpers (student_md.load_student: F and T from the state) and export.py (from the run's train_log.json) read.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import PaiNN, spec_state  # noqa: E402
from train import SPECIES, load_weights, read_state, state_layers, state_width  # noqa: E402


def deepen(model: PaiNN, layers: int, seed: int = 1) -> PaiNN:
    """A copy of model with `layers` interaction blocks (more than model's), the new ones identity blocks."""
    if layers <= model.layers:
        raise ValueError(f"deepen: --layers {layers} is not more than the input's {model.layers} interaction blocks "
                         f"(deepen.py only appends blocks; to train at T = {model.layers}, use the input itself)")
    dtype = model.embedding.weight.dtype
    torch.manual_seed(seed)   # the new blocks as a fresh PaiNN of this seed and depth initialises them
    fresh = PaiNN(model.species_list, model.hidden, layers, model.n_rbf, model.cutoff, model.gamma).to(dtype=dtype)
    deep = PaiNN(model.species_list, model.hidden, layers, model.n_rbf, model.cutoff, model.gamma).to(dtype=dtype)
    with torch.no_grad():
        for (name, new), (_, t) in zip(spec_state(deep), spec_state(fresh)):
            new.copy_(t)
        old = dict(spec_state(model))
        for name, new in spec_state(deep):
            if name in old:   # every tensor of the input, blocks 0 ... T-1 included, unchanged
                new.copy_(old[name])
        for t in range(model.layers, layers):
            for lin in (deep.interactions[t].phi[2], deep.updates[t].mlp[2]):   # the new block's output layers
                lin.weight.zero_()
                lin.bias.zero_()
    return deep


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True, help="state.npz of train.py or a .safetensors weight file")
    ap.add_argument("--out", required=True, help="state.npz of the deeper model (train.py --layers T' --init OUT)")
    ap.add_argument("--layers", type=int, default=None,
                    help="interaction blocks of the output, more than the input's (default: the input's + 1)")
    ap.add_argument("--seed", type=int, default=1, help="seeds the new blocks' initialisation (their non-zero layers)")
    args = ap.parse_args()
    state = read_state(args.weights)
    hidden, layers = state_width(state), state_layers(state)
    n_rbf = int(np.shape(state["interactions.0.filter.weight"])[1])
    target = layers + 1 if args.layers is None else args.layers
    if target <= layers:
        ap.error(f"--layers {target} is not more than the {layers} interaction blocks of {args.weights} "
                 "(deepen.py only appends blocks)")
    model = load_weights(PaiNN(SPECIES, hidden, layers, n_rbf), args.weights)
    deep = deepen(model, target, args.seed)
    np.savez(args.out, **{k: v.detach().cpu().float().numpy() for k, v in spec_state(deep)})
    print(f"F = {hidden}, T = {layers} -> {target}: {sum(p.numel() for p in deep.parameters() if p.requires_grad)} "
          f"trainable parameters -> {args.out}")


if __name__ == "__main__":
    main()
