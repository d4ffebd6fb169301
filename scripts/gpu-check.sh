#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, from the bundle of scripts/gpu-bundle.sh: checks the CUDA path against the CPU
# reference on fresh random inputs, runs 1,000-step NVE against a CPU Verlet, measures the energy
# drift with float64 vs float32 state, times every execution mode with and without CUDA graphs,
# runs the PyTorch baseline (eager and CUDA graphs) on the same weights and structures, and prints
# a summary table last. Logs in the output directory OUT (default /tmp/gpu-check-out). Arguments go to GpuCheck (quick, only=..., sections=...).
# Build the bundle first, here: scripts/gpu-bundle.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-check-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv > "$out/nvidia-smi.txt" 2>&1
cat "$out/nvidia-smi.txt"
start=$(date +%s)
"$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*" \
  -Dmolten.torch.dir=/tmp/molten-torch -Dmolten.gpucheck.ref="$here/ref" org.molten.forcefield.cuda.GpuCheck "$out" "$@" > "$out/java-stdout.txt" 2>&1
status=$?
echo "GpuCheck exit $status after $(( $(date +%s) - start )) s"
python3 "$here/torch_painn_bench.py" /tmp/molten-torch "$out/torch.tsv" > "$out/torch.log" 2>&1
echo "torch exit $? after $(( $(date +%s) - start )) s"
python3 - "$out" <<'PY'
import os, sys
out = sys.argv[1]
log = open(os.path.join(out, "java-stdout.txt")).read().splitlines()
if "==== summary ====" in log:
    print("\n".join(log[log.index("==== summary ===="):]))
else:
    print("\n".join(log[-40:]))
print()
print("\n".join(l for l in open(os.path.join(out, "torch.log")).read().splitlines()[-20:]))
targets = {"ethanol": 15, "alanine-dipeptide": 20, "water-201": 50, "water-3000": 300}
best = {}
p = os.path.join(out, "timings.tsv")
if os.path.exists(p):
    for line in open(p):
        name, n, variant, g, e = line.split("\t")
        g, e = float(g), float(e)
        if name not in best or g < best[name][1]:
            best[name] = (variant, g, e)
torch = {}
p = os.path.join(out, "torch.tsv")
if os.path.exists(p):
    for line in open(p):
        name, n, eager, graph = line.split("\t")
        torch[name] = (float(eager), float(graph))
print()
print(f"{'system':18s} {'molten us/step':>14s} {'(variant)':22s} {'target':>7s} {'torch eager':>12s} {'torch graph':>12s} {'eager/molten':>12s} {'graph/molten':>12s}")
for name, (variant, g, e) in best.items():
    te, tg = torch.get(name, (float('nan'), float('nan')))
    print(f"{name:18s} {g:14.2f} {variant:22s} {targets.get(name, 0):7d} {te:12.1f} {tg:12.1f} {te / g:12.1f} {tg / g:12.2f}")
PY
exit $status
