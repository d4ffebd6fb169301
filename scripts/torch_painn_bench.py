#!/usr/bin/env python3
"""The student model (docs/model.md) in plain PyTorch, as the baseline for the CUDA path.

For each system written by GpuCheck (weights.safetensors + <name>.json in the input folder):
  1. an independent oracle: energy and autograd forces in float64 on the GPU, compared with the
     forces the Molten CUDA kernels produced for the same positions (<name>.gpu.json);
  2. the time of one velocity-Verlet MD step (float32 model, autograd forces) run eagerly, and
     the same step captured once with torch.cuda.graphs and replayed.
The PyTorch runs use a neighbour list built once (cutoff + 1 Å skin; pairs beyond the cutoff
contribute exactly zero), i.e. they do not pay for a neighbour search per step as Molten does.

    python3 scripts/torch_painn_bench.py /tmp/molten-torch OUT_TSV
"""
import json
import math
import os
import sys
import time

import struct

import torch

ACCEL = 1.602176634e-19 / (1e-10 * 1.66053906660e-27) * 1e10 / 1e30  # Å/fs² per (eV/Å / amu)


class Interaction(torch.nn.Module):
    def __init__(self, f, nrbf):
        super().__init__()
        self.phi = torch.nn.Sequential(torch.nn.Linear(f, f), torch.nn.SiLU(), torch.nn.Linear(f, 3 * f))
        self.filter = torch.nn.Linear(nrbf, 3 * f)


class Update(torch.nn.Module):
    def __init__(self, f):
        super().__init__()
        self.U = torch.nn.Linear(f, f, bias=False)
        self.V = torch.nn.Linear(f, f, bias=False)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(2 * f, f), torch.nn.SiLU(), torch.nn.Linear(f, 3 * f))


class PaiNN(torch.nn.Module):
    def __init__(self, nsp, f, layers, nrbf, cutoff, gamma):
        super().__init__()
        self.f, self.nrbf, self.cutoff, self.gamma = f, nrbf, cutoff, gamma
        self.embedding = torch.nn.Embedding(nsp, f)
        self.interactions = torch.nn.ModuleList([Interaction(f, nrbf) for _ in range(layers)])
        self.updates = torch.nn.ModuleList([Update(f) for _ in range(layers)])
        self.readout = torch.nn.Sequential(torch.nn.Linear(f, f // 2), torch.nn.SiLU(), torch.nn.Linear(f // 2, 1))
        self.register_buffer("atomref", torch.zeros(nsp))
        self.register_buffer("scale", torch.ones(1))

    def energy(self, x, z, i, j, box):
        f = self.f
        r = x[j] - x[i]
        if box is not None:
            r = r - box * torch.round(r / box)
        d = torch.linalg.norm(r, dim=1)
        u = r / d[:, None]
        mu = torch.linspace(0.0, self.cutoff, self.nrbf, device=x.device, dtype=x.dtype)
        rbf = torch.exp(-self.gamma * (d[:, None] - mu) ** 2)
        fcut = 0.5 * (torch.cos(math.pi * d / self.cutoff) + 1.0) * (d < self.cutoff).to(x.dtype)
        n = x.shape[0]
        s = self.embedding(z)
        v = torch.zeros(n, 3, f, device=x.device, dtype=x.dtype)
        for t, (inter, upd) in enumerate(zip(self.interactions, self.updates)):
            phi = inter.phi(s)
            w = inter.filter(rbf) * fcut[:, None]
            xm = phi[j] * w
            xvv, xs, xvs = torch.split(xm, f, dim=1)
            s = s + torch.zeros_like(s).index_add(0, i, xs)
            dv = u[:, :, None] * xvs[:, None, :]
            if t > 0:   # the first layer's v is zero: its xvv o v_j adds nothing (Molten's kernels skip it too)
                dv = xvv[:, None, :] * v[j] + dv
            v = v + torch.zeros_like(v).index_add(0, i, dv)
            uv = upd.U(v)
            vv = upd.V(v)
            nrm = torch.sqrt((vv * vv).sum(dim=1) + 1e-8)
            a = upd.mlp(torch.cat([s, nrm], dim=1))
            avv, asv, ass = torch.split(a, f, dim=1)
            v = v + avv[:, None, :] * uv
            s = s + ass + asv * (uv * vv).sum(dim=1)
        y = self.readout(s).squeeze(-1)
        return (self.scale * y + self.atomref[z]).sum()


def read_safetensors(path):
    """Tensors and metadata of a safetensors file (little-endian F32/F64), without the safetensors package."""
    raw = open(path, "rb").read()
    hlen = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + hlen].decode("utf-8"))
    md = header.pop("__metadata__", {})
    body = raw[8 + hlen:]
    out = {}
    for name, t in header.items():
        a, b = t["data_offsets"]
        dt = {"F32": torch.float32, "F64": torch.float64}[t["dtype"]]
        out[name] = torch.frombuffer(bytearray(body[a:b]), dtype=dt).reshape(t["shape"]).clone()
    return out, md


def load_model(folder, device):
    tensors, md = read_safetensors(os.path.join(folder, "weights.safetensors"))
    model = PaiNN(len(md["species"].split(",")), int(md["hidden"]), int(md["layers"]), int(md["n_rbf"]),
                  float(md["cutoff"]), float(md["gamma"]))
    model.load_state_dict({k: v.float() for k, v in tensors.items()})
    return model.to(device)


def edges(x, box, cutoff):
    """All ordered pairs (i <- j) within the cutoff (minimum image), on the device."""
    n = x.shape[0]
    ii, jj = [], []
    for c0 in range(0, n, 1024):
        r = x[None, :, :] - x[c0:c0 + 1024, None, :]
        if box is not None:
            r = r - box * torch.round(r / box)
        d = torch.linalg.norm(r, dim=2)
        m = (d < cutoff)
        m[torch.arange(m.shape[0]), torch.arange(c0, c0 + m.shape[0])] = False
        a, b = torch.nonzero(m, as_tuple=True)
        ii.append(a + c0)
        jj.append(b)
    return torch.cat(ii), torch.cat(jj)


def timed(fn, iters, repeats):
    out = []
    for _ in range(repeats):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(iters):
            fn()
        b.record()
        torch.cuda.synchronize()
        out.append(1000.0 * a.elapsed_time(b) / iters)
    out.sort()
    return out[len(out) // 2]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "/tmp/molten-torch"
    tsv = sys.argv[2] if len(sys.argv) > 2 else None
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    model = load_model(folder, dev)
    names = [f[:-5] for f in sorted(os.listdir(folder)) if f.endswith(".json") and not f.endswith(".gpu.json")]
    order = ["ethanol", "alanine-dipeptide", "water-201", "water-3000"]
    names.sort(key=lambda n: order.index(n) if n in order else 99)
    rows = []
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0) if dev.type == 'cuda' else 'CPU (oracle only)'}")
    for name in names:
        sysd = json.load(open(os.path.join(folder, name + ".json")))
        z = torch.tensor(sysd["species"], device=dev)
        n = z.shape[0]
        box = torch.tensor(sysd["cell"], device=dev) if "cell" in sysd else None

        # 1. oracle: float64 autograd forces against the CUDA kernels' forces
        gpu_file = os.path.join(folder, name + ".gpu.json")
        if os.path.exists(gpu_file):
            g = json.load(open(gpu_file))
            m64 = load_model(folder, dev).double()
            x = torch.tensor(g["positions"], device=dev, dtype=torch.float64).reshape(n, 3).requires_grad_(True)
            b64 = box.double() if box is not None else None
            i, j = edges(x.detach(), b64, m64.cutoff)
            e = m64.energy(x, z, i, j, b64)
            frc = -torch.autograd.grad(e, x)[0]
            fk = torch.tensor(g["forces"], device=dev, dtype=torch.float64).reshape(n, 3)
            rel = (torch.linalg.norm(fk - frc) / torch.linalg.norm(frc)).item()
            print(f"oracle {name:18s} torch float64 autograd vs Molten CUDA: F rel err {rel:.2e}, "
                  f"E {e.item():.6f} vs {g['energy']:.6f} eV")
            del m64

        if dev.type != "cuda":
            continue
        # 2. timing: velocity Verlet, float32, autograd forces
        x = torch.tensor(sysd["positions"], device=dev, dtype=torch.float32).reshape(n, 3)
        v = torch.tensor(sysd["velocities"], device=dev, dtype=torch.float32).reshape(n, 3)
        inv_m = (1.0 / torch.tensor(sysd["masses"], device=dev, dtype=torch.float32))[:, None]
        i, j = edges(x, box, model.cutoff + 1.0)
        acc = torch.zeros_like(x)
        dt = 0.5

        def forces():
            xg = x.detach().requires_grad_(True)
            e = model.energy(xg, z, i, j, box)
            return -torch.autograd.grad(e, xg)[0]

        acc.copy_(forces() * inv_m * ACCEL)

        def step():
            v.add_(0.5 * dt * acc)
            x.add_(dt * v)
            acc.copy_(forces() * inv_m * ACCEL)
            v.add_(0.5 * dt * acc)

        for _ in range(3):
            step()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        torch.cuda.synchronize()
        one = time.perf_counter() - t0
        iters = max(3, min(200, int(0.3 / max(one, 1e-6))))
        eager = timed(step, iters, 5)

        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                step()
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            step()
        graph.replay()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        one = time.perf_counter() - t0
        iters = max(10, min(2000, int(0.3 / max(one, 1e-6))))
        graphed = timed(graph.replay, iters, 5)
        print(f"torch  {name:18s} {n:5d} atoms {i.shape[0]:7d} edges: eager {eager:10.1f} us/step, "
              f"cuda graph {graphed:10.1f} us/step")
        rows.append((name, n, eager, graphed))
        del graph
        torch.cuda.empty_cache()
    if tsv:
        with open(tsv, "w") as fh:
            for r in rows:
                fh.write(f"{r[0]}\t{r[1]}\t{r[2]:.3f}\t{r[3]:.3f}\n")


if __name__ == "__main__":
    main()
