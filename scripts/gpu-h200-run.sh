#!/usr/bin/env bash
# One measurement round for docs/benchmarks.md on a machine with an NVIDIA GPU, in one run:
#  1. GpuCheck: correctness, NVE and timing on the molecules (CPU reference trajectories from ref/),
#     correctness and timing on the water systems (writes the PyTorch inputs of all four systems);
#  2. the PyTorch baseline (torch_painn_bench.py: eager and CUDA graphs) on the same weights and systems;
#  3. the suite bench (molten bench --device cuda) with the defaults, JSON and Markdown;
#  4. for each "label=JVM options" of BENCH_VARIANTS ('|'-separated), the suite bench at BENCH_VARIANT_SIZES
#     with those options (side-by-side comparisons, e.g. -Dmolten.cuda.largeSystemAtoms=...).
# Expects the bundle (jlinked JRE in jre/, runtime jars in lib/, ref/, torch_painn_bench.py) unpacked into
# BUNDLE. Results in the output directory OUT (default /tmp/gpu-h200-out).
set -uo pipefail
B=${BUNDLE:-/tmp/g}
out=${OUT:-/tmp/gpu-h200-out}; mkdir -p "$out"
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
J="$B/jre/bin/java --enable-native-access=ALL-UNNAMED -Xss8m -Xmx30g -XX:+UseParallelGC -Dmolten.torch.dir=$w/torch"
CP="$B/lib/*"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
$J -cp "$CP" -Dmolten.gpucheck.ref="$B/ref" -Dmolten.gpucheck.modes=molecule,stages-warp,stages-tiled \
  org.molten.forcefield.cuda.GpuCheck "$w/mol" sections=correctness,nve,timing only=ethanol,alanine-dipeptide \
  > "$out/gpucheck-molecules.txt" 2>&1
echo "GpuCheck molecules exit $? after $(el) s"
$J -cp "$CP" -Dmolten.gpucheck.modes=stages-warp,stages-tiled org.molten.forcefield.cuda.GpuCheck "$w/water" \
  sections=correctness,timing only=water-201,water-3000 > "$out/gpucheck-water.txt" 2>&1
echo "GpuCheck water exit $? after $(el) s"
if command -v python3 >/dev/null && [[ -f "$B/torch_painn_bench.py" ]]; then
  timeout "${TORCH_LIMIT:-200}" python3 "$B/torch_painn_bench.py" "$w/torch" "$out/torch.tsv" > "$out/torch.log" 2>&1
  echo "torch exit $? after $(el) s"
fi
bench() {  # label, sizes, JVM options...
  local label=$1 sizes=$2; shift 2
  # shellcheck disable=SC2086
  timeout "${BENCH_LIMIT:-240}" $J "$@" -cp "$CP" org.molten.cli.MoltenCli bench --device cuda --repeats 20 \
    --time-budget-s 2 --warmup-s 0.5 --sizes "$sizes" --json "$out/bench-$label.json" --markdown "$out/bench-$label.md" \
    > "$out/bench-$label.txt" 2>&1
  echo "bench $label exit $? after $(el) s"
}
bench default "${SIZES:-3,9,12,22,50,100,200,1500,3000}"
IFS='|' read -ra vs <<< "${BENCH_VARIANTS:-}"
for v in "${vs[@]}"; do
  # shellcheck disable=SC2086
  bench "${v%%=*}" "${BENCH_VARIANT_SIZES:-50,100,200}" ${v#*=}
done
for f in "$out"/gpucheck-*.txt; do sed -n '/==== summary ====/,$p' "$f" | grep -v "^time .*\(cluster\|grid\) "; done
tail -12 "$out/torch.log" 2>/dev/null
for f in "$out"/bench-*.md; do echo "== $f"; grep "cuda-md-graphs" "$f" | head -12; done
