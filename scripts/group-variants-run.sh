#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, from a bundle folder BUNDLE (default: this script's folder; jre/ and lib/ as
# scripts/group-engine-run.sh uses them): the group kernel's pair-loop variants (-Dmolten.cuda.groupVariant=p,
# molten_group_pairs.cuh) timed beside the defaults in one binary:
#   1. GroupCheck (CHECK_ARGS ethanols and dipeptides, default "2 256": the dipeptides at the bench's count) without
#      and with the property: replicas 0, 1, R/2, R - 1 against the float64 reference student, PASS/FAIL lines; the
#      variant's lines must name k_group_n12_p (ethanol, SIMT) and k_group_n24_tc_p (dipeptide);
#   2. molten bench --device cuda, in order of importance, two rounds each alternating, so that a drift of the machine
#      shows: 1,024 ethanols, default (k_group_n12, the number issue 29 counts) and p (k_group_n12_p, the same entry's
#      pair-loop variant); 256 alanine dipeptides (22 atoms), default (k_group_n24_tc) and p (k_group_n24_tc_p); last,
#      1,024 ethanols on the tensor cores, tc (k_group_n12_tc) and tcp (k_group_n12_tc_p, groupDense=tc too). us a step
#      and replica-steps/s, the mode column names the entry.
# Limits: each GroupCheck 200 s, each bench 60 s (a bench is ~10-20 s); a step that would end past BUDGET_S seconds
# from the start (default 540) is skipped and the log says so: worst case 2 x 200 + 12 x 60 = 1,120 s, so a short
# window loses the tensor-core benches first and keeps the ethanols' default / p (round 1 even at 540 s worst case).
# Logs in OUT (default /tmp/group-variants-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bundle=${BUNDLE:-$here}
out=${OUT:-/tmp/group-variants-out}
budget=${BUDGET_S:-540}
mkdir -p "$out"
# the checkout's resources (TREE, default the working directory) serve the model and the fatbin where a bundle took
# them out of its jars (device-window-x4.sh bundle); a bundle that kept them finds them in its jars first
tree=${TREE:-$PWD}
java=("$bundle/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED
      -cp "$bundle/lib/*:$tree/forcefield/src/main/resources:$tree/platform-cuda/src/main/resources")
variant=(-Dmolten.cuda.groupVariant=p)
tc=(-Dmolten.cuda.groupDense=tc)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv 2>&1 | tee "$out/nvidia-smi.txt"
start=$(date +%s)
fits() {  # seconds a step may take; says so and fails where it would end past the budget
  local gone=$(( $(date +%s) - start ))
  if (( gone + $1 > budget )); then echo "skipped ($2): $gone s gone, up to $1 s more, budget $budget s"; return 1; fi
}
check() {  # name, java properties...
  local name=$1; shift
  fits 200 "GroupCheck $name" || return
  timeout 200 "${java[@]}" "$@" org.molten.forcefield.cuda.GroupCheck ${CHECK_ARGS:-2 256} > "$out/group-check-$name.txt" 2>&1
  echo "== GroupCheck $name: exit $?"
  grep -E "^(PASS|FAIL)|group check" "$out/group-check-$name.txt"
}
bench() {  # size replicas name round, java properties...
  local log="$out/bench-$1-$3-$4.txt" size=$1 reps=$2 name=$3 round=$4; shift 4
  fits 60 "bench $size x $reps $name round $round" || return
  timeout 60 "${java[@]}" "$@" org.molten.cli.MoltenCli bench --device cuda --sizes "$size" --replicas "$reps" > "$log" 2>&1
  echo "== bench $size x $reps, $name (round $round), exit $?"
  cat "$log"
}
check default
check p "${variant[@]}"
for round in 1 2; do
  bench 9 1024 default "$round"
  bench 9 1024 p "$round" "${variant[@]}"
done
for round in 1 2; do
  bench 22 256 default "$round"
  bench 22 256 p "$round" "${variant[@]}"
done
for round in 1 2; do
  bench 9 1024 tc "$round" "${tc[@]}"
  bench 9 1024 tcp "$round" "${tc[@]}" "${variant[@]}"
done
echo "done after $(( $(date +%s) - start )) s"
