#!/usr/bin/env bash
# Device-side driver used for the small-molecule kernel figures (docs/benchmarks.md, "Small-molecule
# kernel"): GpuCheck (correctness, NVE, timing) and then the suite bench (--device cuda). Expects the
# bundle (jlinked JRE in jre/, runtime jars in lib/, CPU reference trajectories in ref/) unpacked into
# /tmp/gpu2b and the checkout's forcefield/src/main/resources on the class path. Logs under $OUT.
set -uo pipefail
B=${BUNDLE:-/tmp/gpu2b}
out=${OUT:-/tmp/gpu2-out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
J="$B/jre/bin/java --enable-native-access=ALL-UNNAMED -Xss8m"
start=$(date +%s)
$J -Xmx60g -XX:+UseParallelGC -cp "$B/lib/*:forcefield/src/main/resources" -Dmolten.torch.dir=/tmp/molten-torch \
  -Dmolten.gpucheck.ref="$B/ref" org.molten.forcefield.cuda.GpuCheck "$out" sections=${SECTIONS:-correctness,nve,timing} \
  > "$out/java-stdout.txt" 2>&1
echo "GpuCheck exit $? after $(( $(date +%s) - start )) s"
if [[ "${BENCH:-1}" == 1 ]]; then
  $J -cp "$B/lib/*:forcefield/src/main/resources" org.molten.cli.MoltenCli bench --device cuda --repeats 20 \
    --time-budget-s 2 --warmup-s 0.5 --json "$out/bench-h200.json" --markdown "$out/bench-h200.md" > "$out/bench-stdout.txt" 2>&1
  echo "bench exit $? after $(( $(date +%s) - start )) s"
fi
log="$out/java-stdout.txt"
grep -n "==== summary ====" "$log" >/dev/null && sed -n '/==== summary ====/,$p' "$log" || tail -40 "$log"
