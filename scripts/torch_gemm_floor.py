#!/usr/bin/env python3
"""What a vendor GEMM (cuBLAS through PyTorch) needs for the dense layers of one student MD step.

The student's atom-wise dense layers (docs/model.md; the stages of DeviceSystem.emitStageStep, shapes as in
forcefield/.../cuda/ModelFlops.java) are plain matrix products Y[M][N] = X[M][K] W[K][N] once the element-wise
work fused into Molten's prologues and epilogues is left out. This script times exactly those products, for F = 128,
T = 3 and a readout width FR = 64, nothing else: no message passes, no neighbour search, no integrator, no element-wise
work. The sum is a lower bound of what the dense stages of any design that calls cuBLAS per layer would take, and
a yardstick for Molten's fused stages (StageProfile) and for the throughput targets of issues 18 and 20.

Each case's products (3 interaction blocks, forward and backward, phi network of blocks 1 and 2, readout) are
captured as one CUDA graph and replayed; median of 7 timings of 20 replays each. Float32 with TF32 off (cuBLAS
SGEMM on the CUDA cores) and with TF32 on (one tensor-core pass, less accurate than Molten's 1e-5 force bound:
a lower bound for any tensor-core scheme that keeps float32 accuracy, such as 3xTF32).

    python3 scripts/torch_gemm_floor.py [OUT_TSV]
"""
import statistics
import sys

import torch

F, T, FR = 128, 3, 64
CASES = [("1,024 ethanols", 9 * 1024), ("256 alanine dipeptides", 22 * 256), ("water box 3,000", 3000),
         ("water box 30,000", 30000)]


def shapes(n):
    """(stage, M, K, N) of every product of one MD step with n atoms."""
    out = []
    for t in range(T):
        out += [("uv", 3 * n, F, 2 * F), ("mlp0", n, 2 * F, F), ("mlp2", n, F, 3 * F)]
        if t > 0:
            out += [("phi1", n, F, F), ("phi2", n, F, 3 * F)]
        out += [("ub1", n, 3 * F, F), ("ub2", n, F, 2 * F), ("ub3", 3 * n, 2 * F, F)]
        if t > 0:
            out += [("pb1", n, 3 * F, F), ("pb2", n, F, F)]
    out += [("readout", n, F, FR), ("readout_bwd", n, FR, F)]
    return out


def time_graph(fn, replays=20, repeats=7):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    for _ in range(5):
        g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(replays):
            g.replay()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) * 1000.0 / replays)  # us per replay
    return statistics.median(times)


def main():
    dev = torch.device("cuda")
    torch.manual_seed(1)
    prop = torch.cuda.get_device_properties(dev)
    print(f"# {prop.name}, {prop.multi_processor_count} SMs, torch {torch.__version__}, cuBLAS via torch.mm")
    rows = []
    for label, n in CASES:
        sh = shapes(n)
        xs = [torch.randn(m, k, device=dev) for _, m, k, _ in sh]
        ws = [torch.randn(k, nn, device=dev) / k ** 0.5 for _, _, k, nn in sh]
        ys = [torch.empty(m, nn, device=dev) for _, m, _, nn in sh]
        flop = sum(2.0 * m * k * nn for _, m, k, nn in sh)
        for tf32 in (False, True):
            torch.backends.cuda.matmul.allow_tf32 = tf32

            def step():
                for x, w, y in zip(xs, ws, ys):
                    torch.mm(x, w, out=y)

            us = time_graph(step)
            # per stage kind, one graph each (the same products, grouped), to compare with StageProfile
            per = {}
            for kind in dict.fromkeys(s for s, _, _, _ in sh):
                idx = [i for i, s in enumerate(sh) if s[0] == kind]

                def part(idx=idx):
                    for i in idx:
                        torch.mm(xs[i], ws[i], out=ys[i])

                per[kind] = time_graph(part)
            math_ = "tf32" if tf32 else "fp32"
            print(f"{label}\t{n} atoms\t{math_}\tall dense products {us:.1f} us/step\t{flop / 1e9:.2f} GFLOP\t"
                  f"{flop / us / 1e6:.1f} TFLOP/s\t" + " ".join(f"{k}={v:.1f}" for k, v in per.items()), flush=True)
            rows.append((label, n, math_, us, flop, per))
    torch.backends.cuda.matmul.allow_tf32 = False
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as f:
            f.write("case\tatoms\tmath\tus_per_step\tgflop\ttflops\tper_stage_us\n")
            for label, n, m, us, flop, per in rows:
                f.write(f"{label}\t{n}\t{m}\t{us:.1f}\t{flop / 1e9:.3f}\t{flop / us / 1e6:.2f}\t"
                        + ",".join(f"{k}:{v:.1f}" for k, v in per.items()) + "\n")


if __name__ == "__main__":
    main()
