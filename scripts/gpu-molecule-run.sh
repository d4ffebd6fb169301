#!/usr/bin/env bash
# Device-side driver of the small-molecule kernel figures (docs/benchmarks.md, "Small-molecule kernel"
# and its rounds), on ethanol and alanine dipeptide:
#  1. the timing of the molecule kernel entries named in KERNELS (-Dmolten.cuda.moleculeKernel=...) and of
#     a previous build (BEFORE: a forcefield jar put first on the class path), side by side;
#  2. GpuCheck (correctness, NVE, timing of the molecule kernel and, for scale, the stage kernels) with the
#     fastest entry of step 1 (sum of the two systems' medians; k_small_c16 when KERNELS is empty);
#  3. the suite bench (--device cuda) with that entry, within what is left of LIMIT seconds.
# Expects the bundle (jlinked JRE in jre/, runtime jars in lib/, CPU reference trajectories in ref/)
# unpacked into BUNDLE. Results under $OUT (few files: the device tool returns a limited number).
set -uo pipefail
B=${BUNDLE:-/tmp/g4b}
out=${OUT:-/tmp/gpu-molecule-out}; mkdir -p "$out"
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
J="$B/jre/bin/java --enable-native-access=ALL-UNNAMED -Xss8m -Xmx30g -XX:+UseParallelGC -Dmolten.torch.dir=$w/torch"
CP="$B/lib/*"
S=${SYSTEMS:-ethanol,alanine-dipeptide}
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
: > "$out/gpucheck.txt"
best=k_small_c16; bestus=1e30
for k in ${KERNELS:-}; do
  $J -cp "$CP" -Dmolten.cuda.moleculeKernel=$k -Dmolten.gpucheck.modes=molecule org.molten.forcefield.cuda.GpuCheck \
    "$w/$k" sections=timing only=$S > "$w/$k.txt" 2>&1
  echo "GpuCheck $k exit $? after $(el) s"
  { echo "===== $k (-Dmolten.cuda.moleculeKernel=$k)"; cat "$w/$k.txt"; } >> "$out/gpucheck.txt"
  us=$(sed -n '/==== summary ====/,$p' "$w/$k.txt" | awk '/^time .* molecule .*graphs/ {s += $7} END {print s + 0}')
  if awk -v a="$us" -v b="$bestus" 'BEGIN {exit !(a > 0 && a < b)}'; then best=$k; bestus=$us; fi
done
if [[ -n "${BEFORE:-}" ]]; then
  $J -cp "$BEFORE:$CP" org.molten.forcefield.cuda.GpuCheck "$w/before" sections=timing only=$S > "$w/before.txt" 2>&1
  echo "GpuCheck before ($BEFORE) exit $? after $(el) s"
  { echo "===== before: $BEFORE first on the class path"; cat "$w/before.txt"; } >> "$out/gpucheck.txt"
fi
echo "fastest entry: $best ($bestus us, ethanol + alanine dipeptide)" | tee -a "$out/gpucheck.txt"
$J -cp "$CP" -Dmolten.cuda.moleculeKernel=$best -Dmolten.gpucheck.ref="$B/ref" -Dmolten.gpucheck.modes=molecule,stages-warp \
  org.molten.forcefield.cuda.GpuCheck "$w/main" sections=${SECTIONS:-correctness,nve,timing} only=$S > "$w/main.txt" 2>&1
echo "GpuCheck $best exit $? after $(el) s"
{ echo "===== GpuCheck with $best"; cat "$w/main.txt"; } >> "$out/gpucheck.txt"
if [[ "${BENCH:-1}" == 1 ]]; then
  left=$(( ${LIMIT:-580} - $(el) - 10 ))
  timeout "$left" $J -Dmolten.cuda.moleculeKernel=$best -cp "$CP" org.molten.cli.MoltenCli bench --device cuda --repeats 20 \
    --time-budget-s 2 --warmup-s 0.5 --sizes ${SIZES:-3,9,12,22,50,200,1500,3000} --json "$out/bench-h200.json" \
    --markdown "$out/bench-h200.md" > "$out/bench-stdout.txt" 2>&1
  echo "bench ($best) exit $? after $(el) s (limit $left s)"
fi
sed -n '/==== summary ====/,$p' "$w/main.txt" | grep -v "^time .*\(cluster\|grid\) " || tail -30 "$w/main.txt"
for f in ${KERNELS:-} before; do
  [[ -f "$w/$f.txt" ]] && sed -n '/==== summary ====/,$p' "$w/$f.txt" | grep "^time .*\(molecule\|stages-warp\)" | sed "s/^/$f: /"
done
