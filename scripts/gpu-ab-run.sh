#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (figures so far: one H200, driver 580.159.04): two builds of the kernels side by side in one run, on the same card: "base"
# (lib-base/*.jar, e.g. main's) and "new" (the bundle's own lib/{forcefield,platform-cuda}-*.jar); everything else of
# the bundle is shared. Alternates base/new for each measurement:
#   1. GpuCheck correctness of every mode against the float64 reference (quick), new only;
#   2. molten bench --device cuda --replicas: ethanol R = 1024, alanine dipeptide R = 256 (100 steps);
#   3. StageProfile ethanolx1024,alanine-dipeptidex256,water3000 (GPU time per stage kernel);
#   4. molten bench --device cuda --sizes 200,1500,3000w (10 repeats, 1 s budget).
# Bundle (kept under 64 MiB with the checkout it travels with, so nothing travels twice):
# GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/ab; the bundled model taken out of lib/forcefield-*.jar (zip -d; it comes
# from the checkout's resources); DIR/ab/lib-base/ a jar of the base build's changed host classes only (e.g.
# DeviceSystem*.class), the base's kernels being the checkout's; this script copied into DIR/ab; one tar.xz. Everything goes into ab.log and the raw outputs into raw.tar.gz, in the
# output directory OUT (default /tmp/gpu-ab-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-ab-out}
mkdir -p "$out/raw"
exec > >(tee "$out/ab.log") 2>&1
shared=$(ls "$here"/lib/*.jar | grep -Ev '/(forcefield|platform-cuda)-[0-9]' | tr '\n' ':')
own=$(ls "$here"/lib/forcefield-[0-9]*.jar "$here"/lib/platform-cuda-[0-9]*.jar | tr '\n' ':') && own=${own%:}
# the checkout's forcefield and platform-cuda resources (the checkout copied beside the bundle, the command's working directory
# or TREE): the bundled model, left out of the bundle's jar, and the base's kernels (the checkout is the base)
tree=${TREE:-$PWD}
res=$tree/forcefield/src/main/resources:$tree/platform-cuda/src/main/resources
[[ -f $tree/platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin ]] || { echo "no checkout resources at $res" >&2; exit 2; }
cp_of() {  # variant -> class path; base: its host classes, then the checkout's kernels, shadow the bundle's
  if [[ $1 == base ]]; then echo "$(ls "$here"/lib-base/*.jar | tr '\n' ':')$res:$own:$shared"; else echo "$own:$res:$shared"; fi
}
jrun() {  # limit (s), variant, java arguments...: java with the variant's class path, cut to what is left of BUDGET
  local l=$1 v=$2; shift 2
  timeout "$(lim "$l")" "$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED \
    -cp "$(cp_of "$v")" "$@"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-420} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
jrun 60 new -Dmolten.torch.dir=/tmp/molten-torch org.molten.forcefield.cuda.GpuCheck "$out/raw/check" \
  sections=correctness quick > "$out/raw/check-new.txt" 2>&1
echo "== GpuCheck new exit $? after $(el) s"; grep -E "^check |FAIL|ERROR" "$out/raw/check-new.txt"
bench() {  # label, limit, variant, bench arguments...
  local label=$1 l=$2 v=$3; shift 3
  jrun "$l" "$v" org.molten.cli.MoltenCli bench --device cuda "$@" > "$out/raw/bench-$label-$v.txt" 2>&1
  echo "== bench $label $v exit $? after $(el) s"; grep -vE "^\s*$|WARNING" "$out/raw/bench-$label-$v.txt" | tail -"${TAIL:-8}"
}
for v in base new base new; do
  bench eth 35 $v --sizes 9 --replicas 1024 --replica-steps 100
  bench ala 35 $v --sizes 22 --replicas 256 --replica-steps 100
done
for v in base new; do
  jrun 45 $v org.molten.forcefield.cuda.StageProfile ethanolx1024,alanine-dipeptidex256,water3000 \
    > "$out/raw/profile-$v.txt" 2>&1
  echo "== StageProfile $v exit $? after $(el) s"; grep "^profile" "$out/raw/profile-$v.txt"
done
for v in base new; do
  TAIL=30 bench sizes 60 $v --sizes 200,1500,3000w --repeats 10 --time-budget-s 1 --warmup-s 0.3 \
    --json "$out/raw/bench-sizes-$v.json" --markdown "$out/raw/bench-sizes-$v.md"
done
echo "done after $(el) s"
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
