#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (figures so far: one H200, driver 580.159.04): the wide dense tiles with 4 rows per thread (32-row tiles) against 8 rows per
# thread (64-row tiles, dense_tile's RT; -Dmolten.cuda.tileRows=4|8) of the same binary, side by side, in one run:
#   1. GpuCheck correctness of every mode against the float64 reference (quick), each tileRows;
#   2. molten bench --device cuda --replicas: ethanol R = 1024, alanine dipeptide R = 256 (100 steps), each tileRows;
#   3. StageProfile ethanolx1024,alanine-dipeptidex256,water3000 (GPU time per stage kernel), each tileRows;
#   4. molten bench --device cuda --sizes 200,1500,3000w (10 repeats, 1 s budget), each tileRows.
# The property and the 64-row kernels (k_*_t8) exist at commit c97b799 only: measured slower, they left the code
# (docs/performance-notes.md, "wide tiles of 64 rows"); build the bundle from that commit to rerun the comparison.
# Bundle: GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/tile, this script copied into DIR/tile, packed as one tar.xz (the
# docs section gives the commands). Everything goes into tile.log and the raw outputs into raw.tar.gz, in the
# output directory OUT (default /tmp/gpu-tile-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-tile-out}
mkdir -p "$out/raw"
log="$out/tile.log"
exec > >(tee "$log") 2>&1
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
# every step's limit is cut to what is left of ${BUDGET:-420} s, so that the run ends in time
lim() { local l=$1 left=$(( ${BUDGET:-420} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
for rt in 4 8; do
  timeout "$(lim 45)" "${java[@]}" -Dmolten.cuda.tileRows=$rt -Dmolten.torch.dir=/tmp/molten-torch \
    org.molten.forcefield.cuda.GpuCheck "$out/raw/check-$rt" sections=correctness quick > "$out/raw/check-$rt.txt" 2>&1
  echo "== GpuCheck tileRows=$rt exit $? after $(el) s"; grep -E "^check |FAIL|ERROR" "$out/raw/check-$rt.txt"
done
bench() {  # label, limit, tileRows, bench arguments...
  local label=$1 l=$2 rt=$3; shift 3
  timeout "$(lim "$l")" "${java[@]}" -Dmolten.cuda.tileRows=$rt org.molten.cli.MoltenCli bench --device cuda "$@" \
    > "$out/raw/bench-$label-$rt.txt" 2>&1
  echo "== bench $label tileRows=$rt exit $? after $(el) s"; grep -vE "^\s*$|WARNING" "$out/raw/bench-$label-$rt.txt" | tail -"${TAIL:-14}"
}
for rt in 4 8; do
  bench eth 35 $rt --sizes 9 --replicas 1024 --replica-steps 100
  bench ala 35 $rt --sizes 22 --replicas 256 --replica-steps 100
done
for rt in 4 8; do
  timeout "$(lim 45)" "${java[@]}" -Dmolten.cuda.tileRows=$rt org.molten.forcefield.cuda.StageProfile \
    ethanolx1024,alanine-dipeptidex256,water3000 > "$out/raw/profile-$rt.txt" 2>&1
  echo "== StageProfile tileRows=$rt exit $? after $(el) s"; grep "^profile" "$out/raw/profile-$rt.txt"
done
for rt in 4 8; do
  TAIL=30 bench sizes 60 $rt --sizes 200,1500,3000w --repeats 10 --time-budget-s 1 --warmup-s 0.3 \
    --json "$out/raw/bench-sizes-$rt.json" --markdown "$out/raw/bench-sizes-$rt.md"
done
echo "done after $(el) s"
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
