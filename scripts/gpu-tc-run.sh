#!/usr/bin/env bash
# On the GPU machine (device tool): the tensor-core dense tiles (3xTF32, molten.cuda.denseMath=tf32x3, the default
# from sm_80) against the FP32 SIMT tiles (molten.cuda.denseMath=fp32) of the same binary, in one call:
#   1. GpuCheck correctness of every mode (tensor cores) on ethanol, alanine dipeptide and the 201-atom box;
#   2. molten bench --device cuda --replicas: ethanol R = 256, 1024, 4096; alanine dipeptide R = 64, 256, 1024;
#   3. the PyTorch replica baseline (torch_replica_bench.py) for ethanol R = 1024 and alanine dipeptide R = 256;
#   4. molten bench --device cuda --sizes 9,22,200,1500,3000 (tensor cores) and 200,1500,3000 (FP32);
#   5. stage profile of replica-sized batches and the 3,000-atom box, both choices (StageProfile);
#   6. GpuCheck correctness with the FP32 tiles on the 201-atom box.
# Expects the bundle of scripts/gpu-bundle.sh (plus the bundled model and molecules/*.xyz) in the directory of this
# script. Logs under $OUT; each step has its own time limit, all within BUDGET (400 s).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-tc-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.txt"
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
# every step's limit is cut to what is left of ${BUDGET:-400} s, so that the call ends in time
lim() { local l=$1 left=$(( ${BUDGET:-400} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
check() {  # denseMath, GpuCheck arguments...
  local m=$1; shift
  timeout "$(lim 45)" "${java[@]}" -Dmolten.cuda.denseMath=$m -Dmolten.torch.dir=/tmp/molten-torch \
    org.molten.forcefield.cuda.GpuCheck "$out/check-$m" sections=correctness "$@" > "$out/check-$m.txt" 2>&1
  echo "GpuCheck $m exit $? after $(el) s"; grep -E "^check |FAIL|ERROR" "$out/check-$m.txt"
}
bench() {  # label, limit, JVM option, bench arguments...
  local label=$1 l=$2 opt=$3; shift 3
  timeout "$(lim "$l")" "${java[@]}" "$opt" org.molten.cli.MoltenCli bench --device cuda "$@" > "$out/bench-$label.txt" 2>&1
  echo "bench $label exit $? after $(el) s"; grep -vE "^\s*$|WARNING" "$out/bench-$label.txt" | tail -"${TAIL:-12}"
}
[[ ${CHECK:-1} == 1 ]] && check tf32x3 quick
for m in tf32x3 fp32; do
  bench "eth-$m" 35 -Dmolten.cuda.denseMath=$m --sizes 9 --replicas 256,1024,4096 --replica-steps 100
  bench "ala-$m" 35 -Dmolten.cuda.denseMath=$m --sizes 22 --replicas 64,256,1024 --replica-steps 100
done
# the bundled model, from the forcefield jar (not carried twice: the device tool's 64 MiB)
python3 -c "import zipfile, sys; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('org/molten/forcefield/student/student-gfn2.safetensors'))" \
  "$(ls "$here"/lib/forcefield-*.jar | head -1)" /tmp/student-gfn2.safetensors
for spec in ethanol:1024 alanine-dipeptide:256; do
  m=${spec%%:*}; r=${spec#*:}
  timeout "$(lim 60)" python3 "$here/torch_replica_bench.py" /tmp/student-gfn2.safetensors "$here/molecules/$m.xyz" \
    "$r" "$out/torch-replicas-$m.tsv" > "$out/torch-replicas-$m.txt" 2>&1
  echo "torch $m exit $? after $(el) s"; grep -v Warning "$out/torch-replicas-$m.txt" | tail -4
done
TAIL=40 bench "sizes-tf32x3" 90 -Dmolten.cuda.denseMath=tf32x3 --sizes 9,22,200,1500,3000 --repeats 10 \
  --time-budget-s 1 --warmup-s 0.3 --json "$out/bench-sizes-tf32x3.json" --markdown "$out/bench-sizes-tf32x3.md"
TAIL=40 bench "sizes-fp32" 70 -Dmolten.cuda.denseMath=fp32 --sizes 200,1500,3000 --repeats 10 \
  --time-budget-s 1 --warmup-s 0.3 --json "$out/bench-sizes-fp32.json" --markdown "$out/bench-sizes-fp32.md"
timeout "$(lim 40)" "${java[@]}" org.molten.forcefield.cuda.StageProfile ethanolx1024,alanine-dipeptidex256,water3000 \
  > "$out/profile.txt" 2>&1
echo "StageProfile exit $? after $(el) s"; grep "^profile" "$out/profile.txt"
# is a dense stage bound by its chain of K-chunks? the same batch with 3 K splits, and with narrow tiles
for v in denseSplit=3 denseTiles=narrow; do
  timeout "$(lim 30)" "${java[@]}" -Dmolten.cuda.$v org.molten.forcefield.cuda.StageProfile ethanolx1024 > "$out/profile-$v.txt" 2>&1
  echo "StageProfile $v exit $? after $(el) s"; grep "^profile" "$out/profile-$v.txt"
done
# where a dense stage's time goes, where Nsight Compute exists and may read the counters
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [[ -n $ncu ]]; then
  timeout "$(lim 60)" "$ncu" -k regex:'k_(phi1|mlp2)_(t|x)$' -c 4 --section SpeedOfLight --section WarpStateStats \
    --section Occupancy "${java[@]}" org.molten.forcefield.cuda.StageProfile ethanolx1024 > "$out/ncu.txt" 2>&1
  echo "ncu exit $? after $(el) s"; grep -E "k_(phi1|mlp2)|Throughput|Stall|Warp Cycles|Achieved Occ|Duration|ERR" "$out/ncu.txt" | head -60
else
  echo "no ncu on this machine"
fi
[[ ${CHECK:-1} == 1 ]] && check fp32 quick only=water-201
echo "done after $(el) s"
