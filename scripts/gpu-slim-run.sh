#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (figures so far: one H200, driver 580.159.04): lighter prologues/epilogues of the dense stages (issues 18 and 20) against the
# code they replace, side by side in one run. The variants differ only in the kernel image: lib-<variant>/ holds a
# jar with nothing but org/molten/forcefield/cuda/molten_kernels.{fatbin,manifest}, put before lib/ on the class
# path, and lib/'s platform-cuda jar has no fatbin (one platform-cuda jar per variant would not fit the 64 MiB the bundle
# travels in with the checkout; the variants' Java code must be the same). Each image is sm_90 machine code alone, built the same way
# (nvcc -fatbin -O3 --compress-mode=size -gencode arch=compute_90,code=sm_90 molten_kernels.cu); its manifest is the
# full image's.
#   base: lib-base/ (the kernels of the commit compared against);
#   pre:  lib-pre/ (per (atom, channel) quantities precomputed by the epilogues, each prologue's arithmetic still done
#         at its loads), if the bundle has it: measured slower than new, it left the code; build it from commit 8781a10
#         with -DMOLTEN_PRO_SPLIT=0 added to the nvcc line above;
#   new:  lib-new/ (precomputed quantities, prologue arithmetic when a chunk is stored).
# Steps: GpuCheck correctness (quick) of new (and pre, last); molten bench --device cuda --replicas: ethanol R = 1024,
# alanine dipeptide R = 256 (100 steps); StageProfile ethanolx1024,alanine-dipeptidex256,water3000; molten bench
# --sizes 200,1500,3000w (10 repeats, 1 s budget): each step for every variant in turn, before the next step.
# Bundle: GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/slim, the kernel jars, this script copied into DIR/slim, packed as
# one tar.xz (docs/benchmarks.md gives the commands). Everything goes into slim.log, the raw outputs into raw.tar.gz,
# both in the output directory OUT (default /tmp/gpu-slim-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-slim-out}
mkdir -p "$out/raw"
log="$out/slim.log"
exec > >(tee "$log") 2>&1
variants=(base)
[[ -d "$here/lib-pre" ]] && variants+=(pre)
variants+=(new)
cp_of() { echo "$here/lib-$1/*:$here/lib/*"; }  # class path of a variant: its kernel image first
jvm=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
# every step's limit is cut to what is left of ${BUDGET:-420} s, so that the run ends in time
lim() { local l=$1 left=$(( ${BUDGET:-420} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
check() {
  timeout "$(lim 45)" "${jvm[@]}" -cp "$(cp_of "$1")" org.molten.forcefield.cuda.GpuCheck "$out/raw/check-$1" sections=correctness quick \
    > "$out/raw/check-$1.txt" 2>&1
  echo "== GpuCheck $1 exit $? after $(el) s"; grep -E "^check |FAIL|ERROR|Exception" "$out/raw/check-$1.txt"
}
bench() {  # label, limit, variant, bench arguments...
  local label=$1 l=$2 v=$3; shift 3
  timeout "$(lim "$l")" "${jvm[@]}" -cp "$(cp_of "$v")" org.molten.cli.MoltenCli bench --device cuda "$@" > "$out/raw/bench-$label-$v.txt" 2>&1
  echo "== bench $label $v exit $? after $(el) s"; grep -vE "^\s*$|WARNING" "$out/raw/bench-$label-$v.txt" | tail -"${TAIL:-14}"
}
for v in "${variants[@]}"; do  # the kernel image each variant loads first
  echo "== $v: $(ls "$here/lib-$v")"
done
check new
for v in "${variants[@]}"; do bench eth 35 "$v" --sizes 9 --replicas 1024 --replica-steps 100; done
for v in "${variants[@]}"; do bench ala 35 "$v" --sizes 22 --replicas 256 --replica-steps 100; done
for v in "${variants[@]}"; do
  timeout "$(lim 45)" "${jvm[@]}" -cp "$(cp_of "$v")" org.molten.forcefield.cuda.StageProfile ethanolx1024,alanine-dipeptidex256,water3000 \
    > "$out/raw/profile-$v.txt" 2>&1
  echo "== StageProfile $v exit $? after $(el) s"; grep "^profile" "$out/raw/profile-$v.txt"
done
for v in "${variants[@]}"; do
  TAIL=30 bench sizes 60 "$v" --sizes 200,1500,3000w --repeats 10 --time-budget-s 1 --warmup-s 0.3 \
    --json "$out/raw/bench-sizes-$v.json" --markdown "$out/raw/bench-sizes-$v.md"
done
[[ -d "$here/lib-pre" ]] && check pre
echo "done after $(el) s"
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
