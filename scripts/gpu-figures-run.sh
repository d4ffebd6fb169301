#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (figures so far: one H200, driver 580.159.04): the GPU figures of docs/benchmarks.md's table at a glance in one run, with
# PyTorch beside them on the same card:
#   1. GpuCheck correctness of every mode against the float64 reference (quick; also writes PyTorch's inputs and
#      Molten's forces for ethanol, alanine dipeptide and the 201-atom box), then PyTorch's inputs for the 3,000-
#      and 30,000-atom boxes (GpuCheck with no section);
#   2. molten bench --device cuda --sizes 9,22,200,1500,3000w,30000w: µs per MD step, device memory;
#   3. torch_painn_bench.py on those five systems: the float64 oracle against Molten's forces, eager and CUDA-graph
#      MD steps (float32, TF32 off);
#   4. molten bench --replicas: 1,024 ethanols and 256 alanine dipeptides; torch_replica_bench.py for R = 1 and those
#      R (eager, CUDA graph, torch.compile + CUDA graph).
# Bundle: GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/fig, the bundled model taken out of lib/forcefield-*.jar (zip -d:
# it comes from the checkout, the command's working directory or TREE, whose forcefield resources join the class
# path), this script copied into DIR/fig, one tar.xz (kept under 64 MiB with the checkout it travels with).
# Logs: figures.log and raw.tar.gz in the output directory OUT (default /tmp/gpu-figures-out); every step is cut to what is left of BUDGET (default 540 s).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-figures-out}
mkdir -p "$out/raw"
exec > >(tee "$out/figures.log") 2>&1
export PYTHONUNBUFFERED=1
res=${TREE:-$PWD}/forcefield/src/main/resources
model=$res/org/molten/forcefield/student/student-gfn2.safetensors
[[ -f $model ]] || { echo "no checkout resources at $res" >&2; exit 2; }
java=("$here/jre/bin/java" -Xmx100g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*:$res")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-540} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
bench() {  # label, limit, bench arguments...
  local label=$1 l=$2; shift 2
  timeout "$(lim "$l")" "${java[@]}" org.molten.cli.MoltenCli bench --device cuda "$@" > "$out/raw/bench-$label.txt" 2>&1
  echo "== bench $label exit $? after $(el) s"; grep -vE "^\s*$|WARNING" "$out/raw/bench-$label.txt" | tail -"${TAIL:-8}"
}
timeout "$(lim 60)" "${java[@]}" -Dmolten.torch.dir=/tmp/molten-torch org.molten.forcefield.cuda.GpuCheck \
  "$out/raw/check" sections=correctness quick > "$out/raw/check.txt" 2>&1
echo "== GpuCheck exit $? after $(el) s"; grep -E "^check |FAIL|ERROR" "$out/raw/check.txt"
timeout "$(lim 60)" "${java[@]}" -Dmolten.torch.dir=/tmp/molten-torch org.molten.forcefield.cuda.GpuCheck \
  "$out/raw/inputs" sections=none only=water-3000,water-30000 > "$out/raw/inputs.txt" 2>&1
echo "== PyTorch inputs of the boxes exit $? after $(el) s"; ls /tmp/molten-torch
TAIL=30 bench sizes 170 --sizes 9,22,200,1500,3000w,30000w --repeats 10 --time-budget-s 1 --warmup-s 0.3 \
  --json "$out/raw/bench-sizes.json" --markdown "$out/raw/bench-sizes.md"
timeout "$(lim 120)" python3 "$here/torch_painn_bench.py" /tmp/molten-torch "$out/raw/torch.tsv" > "$out/raw/torch.txt" 2>&1
echo "== torch_painn_bench exit $? after $(el) s"; grep -v Warning "$out/raw/torch.txt" | tail -14
bench eth 35 --sizes 9 --replicas 1024 --replica-steps 100
bench ala 35 --sizes 22 --replicas 256 --replica-steps 100
for spec in ethanol:1,1024 alanine-dipeptide:1,256; do
  m=${spec%%:*}; r=${spec#*:}
  timeout "$(lim 150)" python3 "$here/torch_replica_bench.py" "$model" "$here/molecules/$m.xyz" "$r" \
    "$out/raw/torch-replicas-$m.tsv" > "$out/raw/torch-replicas-$m.txt" 2>&1
  echo "== torch replicas $m exit $? after $(el) s"; grep -v Warning "$out/raw/torch-replicas-$m.txt" | tail -6
done
echo "done after $(el) s"
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
