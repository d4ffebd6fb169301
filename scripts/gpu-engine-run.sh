#!/usr/bin/env bash
# On the GPU machine, after scripts/gpu-bundle.sh (plus this script, torch_replica_bench.py and a 3,000-atom
# water box copied into the bundle): the user's path against the benchmark's (issue 18: molten run --device
# cuda us per step within 10 % of molten bench's MD step), and the PyTorch replica baseline beside Molten's.
#   1. molten bench --device cuda --sizes 9,22,192w,3000 (MD step per size, graphs, device-resident)
#   2. molten run --device cuda: ethanol, alanine dipeptide (20,000 steps), the 64-water box (192 atoms,
#      10,000 steps), the 3,000-atom box (2,000 steps); velocity Verlet, no output files: steps/s printed
#   3. PyTorch: R copies of ethanol and of alanine dipeptide in one batched evaluation (eager, graph, compile)
# Logs in the output directory OUT (default /tmp/gpu-engine-out); about 8 minutes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-engine-out}
mkdir -p "$out"
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.txt"
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
timeout 170 "${java[@]}" org.molten.cli.MoltenCli bench --device cuda --sizes 9,22,192w,3000 --repeats 10 \
  --time-budget-s 2 --warmup-s 0.5 --json "$out/bench-md.json" --markdown "$out/bench-md.md" > "$out/bench-md.txt" 2>&1
echo "bench exit $? after $(el) s"; tail -30 "$out/bench-md.txt"
run() {  # label, steps, args...
  local label=$1 steps=$2; shift 2
  timeout 90 "${java[@]}" org.molten.cli.MoltenCli run "$@" --device cuda --integrator verlet --steps "$steps" --seed 7 \
    > "$out/run-$label.txt" 2>&1
  echo "run $label exit $? after $(el) s: $(tail -3 "$out/run-$label.txt" | tr '\n' ' ')"
}
run ethanol 20000 --system ethanol
run alanine-dipeptide 20000 --system alanine-dipeptide
run water-box 10000 --system water-box
run water-3000 2000 --structure "$here/water-3000.xyz"
if command -v python3 >/dev/null; then
  mol=$(ls "$here"/molecules/ 2>/dev/null | head -1)
  for m in ethanol alanine-dipeptide; do
    rs=1,64,256,1024,4096; [[ $m == alanine-dipeptide ]] && rs=1,64,256,1024
    timeout 150 python3 "$here/torch_replica_bench.py" "$here/student-gfn2.safetensors" "$here/molecules/$m.xyz" "$rs" \
      "$out/torch-replicas-$m.tsv" > "$out/torch-replicas-$m.txt" 2>&1
    echo "torch $m exit $? after $(el) s"; cat "$out/torch-replicas-$m.txt" | grep -v Warning | tail -8
  done
fi
echo "done after $(el) s"
