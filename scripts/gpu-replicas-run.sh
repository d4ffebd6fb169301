#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, from the bundle of scripts/gpu-bundle.sh (run .device/gpu/gpu-replicas-run.sh):
# the device check and the timings of the replica MD stack (issue 18). Builds nothing: the bundle
# comes from scripts/gpu-bundle.sh (it copies this script, the validation, bench and cli jars and picocli too).
#   1. ReplicaCheck: batched NVE Verlet against the CPU reference student, replica k of 64 against
#      the same system alone with seed + k over 1,000 steps, canonical kinetic-energy statistics of
#      every thermostat over 256 ethanols, E_kin + E_pot + bath, restart bit for bit (PASS/FAIL lines).
#   2. molten bench --device cuda --replicas: ethanol R = 1 ... 4096, alanine dipeptide R = 1 ... 1024
#      (us per step, replica-steps/s, FP32 fraction), each preceded by the single system under NVE.
# At most 200 + 2 x 120 s (plus 2 x 120 s only if the CLI cannot start); logs and tables in the output directory OUT (default /tmp/gpu-replicas-out).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-replicas-out}
mkdir -p "$out"
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/nvidia-smi.txt"
start=$(date +%s)
quick=${QUICK:-}
timeout 200 "${java[@]}" org.molten.forcefield.cuda.ReplicaCheck $quick > "$out/replica-check.txt" 2>&1
echo "ReplicaCheck exit $? after $(( $(date +%s) - start )) s"
grep -E "^(PASS|FAIL)|replica check|  \(" "$out/replica-check.txt"
bench() {  # sizes replicas; at most 2 minutes each
  timeout 120 "${java[@]}" org.molten.cli.MoltenCli bench --device cuda --sizes "$1" --replicas "$2" > "$out/bench-$1.txt" 2>&1
  status=$?
  cat "$out/bench-$1.txt"
  if [[ $status -ne 0 && $status -ne 124 ]]; then  # the CLI did not start in the bundle's runtime: the same without it
    echo "molten bench exit $status; the same timing through org.molten.bench.DeviceReplicaBench:"
    timeout 120 "${java[@]}" org.molten.bench.DeviceReplicaBench "$1" "$2" | tee "$out/bench-$1-direct.txt"
  fi
}
bench 9 1,2,4,8,16,32,64,128,256,512,1024,2048,4096
bench 22 1,2,4,8,16,32,64,128,256,512,1024
echo "done after $(( $(date +%s) - start )) s"
