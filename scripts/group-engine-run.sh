#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, from the bundle of scripts/gpu-bundle.sh (run .device/gpu/group-engine-run.sh):
# the group kernel as the replica force path (issue 29 section 3, molten_group.cuh) against the stage kernels, side
# by side in one call, one binary:
#   1. GroupCheck: 1,024 ethanols and 256 alanine dipeptides (perturbed, each its own), on the group path and on
#      the stage kernels, replicas 0, 1, R/2, R - 1 against the float64 reference student (PASS/FAIL lines);
#   2. molten bench --device cuda --replicas: ethanol R = 1024 and alanine dipeptide R = 256 (Langevin, us per
#      step, replica-steps/s), group / stages / group / stages (-Dmolten.cuda.replicaForces), so that a drift of
#      the machine shows; the mode column names the path.
# At most 240 + 8 x 120 s; logs in the output directory OUT (default /tmp/group-engine-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/group-engine-out}
mkdir -p "$out"
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.txt"
start=$(date +%s)
timeout 240 "${java[@]}" org.molten.forcefield.cuda.GroupCheck > "$out/group-check.txt" 2>&1
echo "GroupCheck exit $? after $(( $(date +%s) - start )) s"
grep -E "^(PASS|FAIL)|group check|, (group|stages): " "$out/group-check.txt"
bench() {  # size replicas path round; at most 2 minutes each
  local log="$out/bench-$1-$3-$4.txt"
  timeout 120 "${java[@]}" -Dmolten.cuda.replicaForces="$3" org.molten.cli.MoltenCli bench --device cuda --sizes "$1" \
    --replicas "$2" > "$log" 2>&1
  status=$?
  cat "$log"
  if [[ $status -ne 0 && $status -ne 124 ]]; then  # the CLI did not start in the bundle's runtime: the same without it
    echo "molten bench exit $status; the same timing through org.molten.bench.DeviceReplicaBench:"
    timeout 120 "${java[@]}" -Dmolten.cuda.replicaForces="$3" org.molten.bench.DeviceReplicaBench "$1" "$2" | tee "$log.direct"
  fi
}
for round in 1 2; do
  for path in group stages; do
    bench 9 1024 "$path" "$round"
    bench 22 256 "$path" "$round"
  done
done
echo "done after $(( $(date +%s) - start )) s"
