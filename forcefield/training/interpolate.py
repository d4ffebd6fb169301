#!/usr/bin/env python3
"""A student between two of the same architecture: every spec tensor (1 - alpha) A + alpha B, in float64, written as
a state.npz that train.py (--init), organic_eval.py and export.py read.

    python3 interpolate.py --a PARENT.safetensors --b CHILD.npz|.safetensors --alpha 0.5 --out between.npz

Why: a fine-tuning that adds data for one corner of chemistry (the small-molecule pool) moves the model out of its
parent's minimum and forgets a little elsewhere; when the child comes from the parent, the straight line between
them often keeps most of what each knows (weight-space ensembles of a model and its fine-tuned copy). Measured on
the organic preview and its pool fine-tuning: runs/organic-widths/README.md. Both must come from the same lineage
(one warm-started from the other): unrelated networks have no meaningful average.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import read_state  # noqa: E402


def interpolate(a, b, alpha):
    """(1 - alpha) a + alpha b for every tensor of two states with the same names and shapes (float32 out)."""
    if set(a) != set(b):
        raise SystemExit(f"interpolate.py: the states differ in tensors: {sorted(set(a) ^ set(b))[:6]}")
    out = {}
    for k in a:
        x, y = np.asarray(a[k], np.float64), np.asarray(b[k], np.float64)
        if x.shape != y.shape:
            raise SystemExit(f"interpolate.py: {k} has shape {x.shape} in A and {y.shape} in B (different widths?)")
        out[k] = ((1.0 - alpha) * x + alpha * y).astype(np.float32)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="weights at alpha = 0 (state.npz or .safetensors)")
    ap.add_argument("--b", required=True, help="weights at alpha = 1")
    ap.add_argument("--alpha", type=float, required=True, help="0..1: the share of B")
    ap.add_argument("--out", required=True, help="state.npz to write")
    args = ap.parse_args()
    if not 0.0 <= args.alpha <= 1.0:
        raise SystemExit(f"interpolate.py: --alpha {args.alpha} is outside 0..1")
    for opt, path in (("--a", args.a), ("--b", args.b)):
        if not os.path.isfile(path):
            raise SystemExit(f"interpolate.py: {opt} {path}: no such file (a state.npz or .safetensors weight file)")
    np.savez(args.out, **interpolate(read_state(args.a), read_state(args.b), args.alpha))
    print(f"{args.out}: {1 - args.alpha:g} x {args.a} + {args.alpha:g} x {args.b}")


if __name__ == "__main__":
    main()
