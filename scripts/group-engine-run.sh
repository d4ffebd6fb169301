#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, from the bundle of scripts/gpu-bundle.sh (run .device/gpu/group-engine-run.sh):
# the group kernel as the replica force path (issue 29 section 3, molten_group.cuh), with SIMT dense products and
# on the tensor cores (k_group_*_tc, -Dmolten.cuda.groupDense=tc: 3xTF32 mma.sync), against the stage kernels, side by
# side in one call, one binary, each path named explicitly (the defaults, group and auto, are what this measured on an
# H200 on 2026-11-29: docs/bench/group-engine-h200-2026-11-29.log):
#   1. GroupCheck: 1,024 ethanols and 256 alanine dipeptides (perturbed, each its own), on group-simt, group-tc and
#      the stage kernels, replicas 0, 1, R/2, R - 1 against the float64 reference student (PASS/FAIL lines);
#   2. molten bench --device cuda --replicas: ethanol R = 1024 and alanine dipeptide R = 256 (Langevin, us per
#      step, replica-steps/s), group-simt / group-tc / stages alternating (-Dmolten.cuda.replicaForces,
#      -Dmolten.cuda.groupDense), led by the defaults (no property: the path a user gets, since the defaults became
#      group and auto, whose stage buffers are no longer allocated, 8b80094); the mode column names the path and the
#      entry. Round 1 always; round 2 (the same eight benches again, so that a drift of the machine shows) only if it
#      fits in ~6 minutes from the start,
#      judged by round 1's duration: on a slow start only one round of benches is run, and the log says so.
# Limits: GroupCheck 200 s, each bench 60 s (a bench is ~10-20 s: JVM and context start, 5 samples of ~20 ms);
# worst case one round: 200 + 8 x 60 s. Logs in the output directory OUT (default /tmp/group-engine-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/group-engine-out}
mkdir -p "$out"
# the checkout's resources (TREE, default the working directory) serve the model and the fatbin where a bundle took
# them out of its jars (device-window-x4.sh bundle); a bundle that kept them finds them in its jars first
tree=${TREE:-$PWD}
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED
      -cp "$here/lib/*:$tree/forcefield/src/main/resources:$tree/platform-cuda/src/main/resources")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.txt"
start=$(date +%s)
timeout 200 "${java[@]}" org.molten.forcefield.cuda.GroupCheck > "$out/group-check.txt" 2>&1
echo "GroupCheck exit $? after $(( $(date +%s) - start )) s"
grep -E "^(PASS|FAIL)|group check|, (group-simt|group-tc|stages): " "$out/group-check.txt"
bench() {  # size replicas path round; at most 60 s each
  local log="$out/bench-$1-$3-$4.txt" forces=group dense=simt
  [[ $3 == stages ]] && forces=stages
  [[ $3 == group-tc ]] && dense=tc
  local props=(-Dmolten.cuda.replicaForces="$forces" -Dmolten.cuda.groupDense="$dense")
  [[ $3 == defaults ]] && props=()   # no property: what a user gets (the mode column names the path auto chose)
  timeout 60 "${java[@]}" "${props[@]}" org.molten.cli.MoltenCli bench --device cuda --sizes "$1" --replicas "$2" \
    > "$log" 2>&1
  status=$?
  echo "== bench $1 x $2, $3 (round $4), exit $status"
  cat "$log"
  if [[ $status -ne 0 && $status -ne 124 ]]; then  # the CLI did not start in the bundle's runtime: the same without it
    echo "molten bench exit $status; the same timing through org.molten.bench.DeviceReplicaBench:"
    timeout 60 "${java[@]}" "${props[@]}" org.molten.bench.DeviceReplicaBench "$1" "$2" | tee "$log.direct"
  fi
}
for round in 1 2; do
  r0=$(date +%s)
  if [[ $round -eq 2 ]] && (( r0 - start + rlen > 360 )); then
    echo "round 2 of the benches skipped: round 1 took $rlen s, $(( r0 - start )) s gone (budget ~360 s)"
    break
  fi
  for size in "9 1024" "22 256"; do
    for path in defaults group-simt group-tc stages; do
      bench ${size% *} ${size#* } "$path" "$round"
    done
  done
  rlen=$(( $(date +%s) - r0 ))
done
echo "done after $(( $(date +%s) - start )) s"
