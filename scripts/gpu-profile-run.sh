#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (figures so far: one H200, driver 580.159.04): where a step's time goes and how Molten compares with PyTorch on the same card,
# in one run (replaces gpu-tc-run.sh, whose tensor-core comparison is at commit d854cb9):
#   1. GpuCheck correctness of every mode on ethanol, alanine dipeptide and the 201-atom box (quick);
#   2. molten bench --device cuda --sizes SIZES (default 200,1500,3000w,30000w): us per MD step, device memory;
#   3. GpuCheck timing of every mode on the 30,000-atom water box, then the PyTorch baseline on the same structure
#      (torch_painn_bench.py: eager and CUDA graphs, float32, TF32 off);
#   4. StageProfile (GPU time per stage kernel) of a replica-sized batch and the 3,000- and 30,000-atom boxes;
#   5. with REPLICAS=1: molten bench --replicas for ethanol and alanine dipeptide and the PyTorch replica baseline.
# Expects the bundle of scripts/gpu-bundle.sh in the directory of this script. Logs in the output directory OUT (default /tmp/gpu-profile-out); each step has its own
# time limit, all within BUDGET (default 400 s).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-profile-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.txt"
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-400} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
bench() {  # label, limit, bench arguments...
  local label=$1 l=$2; shift 2
  timeout "$(lim "$l")" "${java[@]}" org.molten.cli.MoltenCli bench --device cuda "$@" > "$out/bench-$label.txt" 2>&1
  echo "bench $label exit $? after $(el) s"; grep -vE "^\s*$|WARNING" "$out/bench-$label.txt" | tail -"${TAIL:-12}"
}
timeout "$(lim 45)" "${java[@]}" -Dmolten.torch.dir=/tmp/molten-torch-quick org.molten.forcefield.cuda.GpuCheck \
  "$out/check" sections=correctness quick > "$out/check.txt" 2>&1
echo "GpuCheck exit $? after $(el) s"; grep -E "^check |FAIL|ERROR" "$out/check.txt"
TAIL=40 bench sizes 150 --sizes "${SIZES:-200,1500,3000w,30000w}" --repeats 10 --time-budget-s 2 --warmup-s 0.5 \
  --json "$out/bench-sizes.json" --markdown "$out/bench-sizes.md"
timeout "$(lim 90)" "${java[@]}" -Dmolten.torch.dir=/tmp/molten-torch org.molten.forcefield.cuda.GpuCheck \
  "$out/check30k" sections=timing only=water-30000 > "$out/check30k.txt" 2>&1
echo "GpuCheck 30k exit $? after $(el) s"; sed -n '/==== summary ====/,$p' "$out/check30k/gpu-check.log" 2>/dev/null | head -30
timeout "$(lim 90)" python3 "$here/torch_painn_bench.py" /tmp/molten-torch "$out/torch-30k.tsv" > "$out/torch-30k.txt" 2>&1
echo "torch 30k exit $? after $(el) s"; grep -v Warning "$out/torch-30k.txt" | tail -8
timeout "$(lim 60)" "${java[@]}" org.molten.forcefield.cuda.StageProfile ethanolx1024,water3000,water30000 \
  > "$out/profile.txt" 2>&1
echo "StageProfile exit $? after $(el) s"; grep "^profile" "$out/profile.txt"
if [[ ${REPLICAS:-0} == 1 ]]; then
  bench eth 35 --sizes 9 --replicas 256,1024,4096 --replica-steps 100
  bench ala 35 --sizes 22 --replicas 64,256,1024 --replica-steps 100
  python3 -c "import zipfile, sys; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('org/molten/forcefield/student/student-gfn2.safetensors'))" \
    "$(ls "$here"/lib/forcefield-*.jar | head -1)" /tmp/student-gfn2.safetensors
  for spec in ethanol:1024 alanine-dipeptide:256; do
    m=${spec%%:*}; r=${spec#*:}
    timeout "$(lim 60)" python3 "$here/torch_replica_bench.py" /tmp/student-gfn2.safetensors "$here/molecules/$m.xyz" \
      "$r" "$out/torch-replicas-$m.tsv" > "$out/torch-replicas-$m.txt" 2>&1
    echo "torch $m exit $? after $(el) s"; grep -v Warning "$out/torch-replicas-$m.txt" | tail -4
  done
fi
echo "done after $(el) s"
