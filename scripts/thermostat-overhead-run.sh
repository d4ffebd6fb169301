#!/usr/bin/env bash
# On the GPU machine (one H200), issue 29 section 1 after the thermostats' overhead work (branch thermo): thermostatted
# `molten run --device cuda --steps 40000 --seed 7` against NVE (verlet) for ethanol, alanine dipeptide and
# Ace-(Ala)5-NMe x langevin, bussi, nose-hoover, berendsen (target: each within 10 % of verlet, ratio >= 0.90).
# 15 runs, < 240 s (BUDGET, default 230 s, cuts each run to what is left); logs under $OUT, the table printed last.
# Bundle and device call as scripts/gpu3-run.sh (the same bundle: jre/ and lib/ beside this script, in $here):
#   GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/g3 && cp scripts/thermostat-overhead-run.sh DIR/g3/, pack DIR/g3, then
#   mkdir -p /tmp/b && XZ_OPT=-T0 tar -C /tmp/b -xJf .device/g3.tar.xz && bash /tmp/b/g3/thermostat-overhead-run.sh
# The checkout's resources (TREE, default the working directory) follow the jars on the class path: a bundle whose
# forcefield jar lacks the fatbin runs this branch's platform-cuda/src/main/resources/.../molten_kernels.fatbin.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/thermostat-overhead-out}
mkdir -p "$out/raw"
exec > >(tee "$out/thermostat-overhead.log") 2>&1
res=${TREE:-$PWD}/forcefield/src/main/resources
java=("$here/jre/bin/java" -Xmx16g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*:$res:${TREE:-$PWD}/platform-cuda/src/main/resources")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$out/raw/nvidia-smi.txt"
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-230} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
steps=${RUN_STEPS:-40000}
integrators=(verlet langevin bussi nose-hoover berendsen)
declare -A rate
for sys in ethanol alanine-dipeptide ace-ala5-nme; do
  for integ in "${integrators[@]}"; do
    f="$out/raw/run-$sys-$integ.txt"
    timeout "$(lim 30)" "${java[@]}" org.molten.cli.MoltenCli run --system "$sys" --device cuda --integrator "$integ" \
      --steps "$steps" --seed 7 > "$f" 2>&1
    s=$?
    r=$(grep -oE '[0-9]+ steps/s' "$f" | tail -1 | cut -d' ' -f1)
    rate[$sys,$integ]=${r:-NA}
    echo "== run $sys $integ exit $s after $(el) s: ${r:-NA} steps/s ($(grep -oE '\| (cuda[^|]*|cpu[^|]*) \|' "$f" | head -1))"
  done
done

echo
echo "==== thermostats in the small-molecule kernel, steps/s and ratio to verlet ($steps steps, $(el) s; $(head -2 "$out/raw/nvidia-smi.txt" | tail -1)) ===="
printf "%-18s %8s" system verlet
for i in "${integrators[@]:1}"; do printf " %17s" "$i"; done
printf "  %s\n" "worst / verlet (target >= 0.90)"
for sys in ethanol alanine-dipeptide ace-ala5-nme; do
  v=${rate[$sys,verlet]}
  printf "%-18s %8s" "$sys" "$v"
  worst=NA
  for i in "${integrators[@]:1}"; do
    r=${rate[$sys,$i]} ratio=NA
    if [[ $v =~ ^[0-9]+$ && $r =~ ^[0-9]+$ && $v -gt 0 ]]; then
      ratio=$(awk -v a="$r" -v b="$v" 'BEGIN{printf "%.3f", a/b}')
      [[ $worst == NA ]] || awk -v a="$ratio" -v b="$worst" 'BEGIN{exit !(a<b)}' && worst=$ratio
    fi
    printf " %9s (%5s)" "$r" "$ratio"
  done
  printf "  %s\n" "$worst"
done
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
