#!/usr/bin/env python3
"""PyTorch baseline for replica throughput: R copies of one molecule in ONE batched evaluation.

The same model as scripts/torch_painn_bench.py (docs/model.md), float32, TF32 off, autograd forces,
velocity-Verlet steps; the R replicas are independent (edges only within a replica, built once
with the cutoff + 1 Å skin, as in torch_painn_bench.py). For each R: eager, the step captured as a
CUDA graph, and torch.compile (mode from TORCH_COMPILE_MODE, default "default"; TORCH_COMPILE=0 skips it) captured
as a CUDA graph when torch.compile works here. Prints replica-steps per second (R / seconds per step).

    python3 scripts/torch_replica_bench.py WEIGHTS.safetensors MOLECULE.xyz R1,R2,... [OUT_TSV]
"""
import math
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_painn_bench import ACCEL, PaiNN, read_safetensors, timed  # noqa: E402

MASSES = {"H": 1.008, "C": 12.011, "N": 14.007, "O": 15.999}


def read_xyz(path):
    lines = open(path).read().splitlines()
    n = int(lines[0].split()[0])
    sym, pos = [], []
    for row in lines[2:2 + n]:
        t = row.split()
        sym.append(t[0])
        pos.append([float(t[1]), float(t[2]), float(t[3])])
    return sym, pos


def load(weights, device):
    tensors, md = read_safetensors(weights)
    species = [int(s) for s in md["species"].split(",")]
    model = PaiNN(len(species), int(md["hidden"]), int(md["layers"]), int(md["n_rbf"]), float(md["cutoff"]),
                  float(md["gamma"]))
    model.load_state_dict({k: v.float() for k, v in tensors.items()})
    return model.to(device), species


def main():
    weights, xyz, rs = sys.argv[1], sys.argv[2], [int(r) for r in sys.argv[3].split(",")]
    tsv = sys.argv[4] if len(sys.argv) > 4 else None
    dev = torch.device("cuda")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    model, species = load(weights, dev)
    sym, pos = read_xyz(xyz)
    z_of = {1: "H", 6: "C", 7: "N", 8: "O"}
    index = {z_of[s]: k for k, s in enumerate(species)}
    n = len(sym)
    x1 = torch.tensor(pos, dtype=torch.float32)
    # pairs of one molecule (within cutoff + skin), then offset per replica
    d = torch.cdist(x1, x1)
    mask = (d < model.cutoff + 1.0) & ~torch.eye(n, dtype=torch.bool)
    i1, j1 = torch.nonzero(mask, as_tuple=True)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}, {os.path.basename(xyz)}: {n} atoms, "
          f"{i1.shape[0]} edges per replica")
    rows = []
    for r in rs:
        off = (torch.arange(r) * n).repeat_interleave(i1.shape[0])
        i = (i1.repeat(r) + off).to(dev)
        j = (j1.repeat(r) + off).to(dev)
        z = torch.tensor([index[s] for s in sym] * r, device=dev)
        # replicas side by side 100 Å apart (no cross edges exist anyway: the edges are fixed)
        shift = (torch.arange(r, dtype=torch.float32) * 100.0).repeat_interleave(n)[:, None] * torch.tensor([1.0, 0, 0])
        x = (x1.repeat(r, 1) + shift).to(dev)
        g = torch.Generator().manual_seed(1)
        inv_m = (1.0 / torch.tensor([MASSES[s] for s in sym] * r))[:, None].to(dev)
        v = (torch.randn(r * n, 3, generator=g) * 0.01).to(dev)
        acc = torch.zeros_like(x)
        dt = 0.5

        def energy(xg):
            return model.energy(xg, z, i, j, None)

        def make_step(energy_fn):
            def forces():
                xg = x.detach().requires_grad_(True)
                e = energy_fn(xg)
                return -torch.autograd.grad(e, xg)[0]

            def step():
                v.add_(0.5 * dt * acc)
                x.add_(dt * v)
                acc.copy_(forces() * inv_m * ACCEL)
                v.add_(0.5 * dt * acc)
            return forces, step

        forces, step = make_step(energy)
        acc.copy_(forces() * inv_m * ACCEL)
        for _ in range(3):
            step()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        torch.cuda.synchronize()
        one = time.perf_counter() - t0
        eager = timed(step, max(3, min(100, int(0.3 / max(one, 1e-6)))), 3)

        def graphed(step_fn):
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                for _ in range(3):
                    step_fn()
            torch.cuda.current_stream().wait_stream(s)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                step_fn()
            graph.replay()
            torch.cuda.synchronize()
            t = time.perf_counter()
            graph.replay()
            torch.cuda.synchronize()
            o = time.perf_counter() - t
            us = timed(graph.replay, max(10, min(1000, int(0.3 / max(o, 1e-6)))), 3)
            del graph
            return us

        graph_us = graphed(step)
        compiled_us = float("nan")
        if os.environ.get("TORCH_COMPILE", "1") == "1":
            try:
                compiled = torch.compile(energy, mode=os.environ.get("TORCH_COMPILE_MODE", "default"), dynamic=False)
                _, cstep = make_step(compiled)
                for _ in range(3):
                    cstep()
                compiled_us = graphed(cstep)
            except Exception as e:  # torch.compile needs a C compiler and Triton on the machine
                print(f"  torch.compile unavailable for R={r}: {type(e).__name__}: {str(e)[:120]}")
        best = min(graph_us, compiled_us) if math.isfinite(compiled_us) else graph_us
        print(f"R {r:5d}: eager {eager:9.1f} us/step ({r / eager * 1e6:10.0f} replica-steps/s), graph {graph_us:9.1f} us "
              f"({r / graph_us * 1e6:10.0f}), compile+graph {compiled_us:9.1f} us "
              f"({r / compiled_us * 1e6 if math.isfinite(compiled_us) else float('nan'):10.0f}); best {r / best * 1e6:.0f}")
        rows.append((r, eager, graph_us, compiled_us))
        torch.cuda.empty_cache()
    if tsv:
        with open(tsv, "w") as fh:
            fh.write("replicas\teager_us\tgraph_us\tcompile_graph_us\n")
            for row in rows:
                fh.write("\t".join(str(c) for c in row) + "\n")


if __name__ == "__main__":
    main()
