#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (one run; bundle from scripts/gpu-bundle.sh, packed as .device/gpu.tar.xz): issue 20's
# start-up and issue 18's thermostat check.
#   1. FirstStep: ms from the JVM's start to the first MD step of ethanol done, driver cache off
#      (CUDA_CACHE_DISABLE=1: what a fresh machine sees), with the fatbin's machine code (twice) and, last,
#      with CUDA_FORCE_PTX_JIT=1 (the driver compiles the fatbin's PTX instead, as for the PTX-only jar before).
#   2. ReplicaCheck only=canonical: kinetic-energy statistics of every thermostat on 256 ethanols, the global
#      thermostats started from a Langevin-equilibrated state.
#   3. GpuCheck quick sections=correctness: every remaining execution mode against the float64 reference.
# Each step has its own time limit (about 4.5 minutes in all); logs in the output directory OUT (default /tmp/gpu-startup-out), a summary last.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu-startup-out}
mkdir -p "$out"
java=("$here/jre/bin/java" -Xmx32g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*")
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/nvidia-smi.txt"
start=$(date +%s)
first() {  # label, extra environment...
  local label=$1; shift
  local t0; t0=$(date +%s%N)
  env CUDA_CACHE_DISABLE=1 "$@" timeout 60 "${java[@]}" org.molten.forcefield.cuda.FirstStep ethanol > "$out/first-$label.txt" 2>&1
  local rc=$?
  echo "$label (exit $rc, wall $(( ($(date +%s%N) - t0) / 1000000 )) ms incl. launching java): $(grep first-step "$out/first-$label.txt" || tail -3 "$out/first-$label.txt")"
}
{
  first fatbin-1
  first fatbin-2
  timeout 100 "${java[@]}" org.molten.forcefield.cuda.ReplicaCheck only=canonical > "$out/replica-check.txt" 2>&1
  echo "ReplicaCheck canonical exit $? after $(( $(date +%s) - start )) s"
  grep -E "^(PASS|FAIL)|replica check|  \(" "$out/replica-check.txt"
  timeout 70 "${java[@]}" -Dmolten.gpucheck.ref="$here/ref" org.molten.forcefield.cuda.GpuCheck /tmp/gpucheck-out quick \
    sections=correctness > "$out/gpucheck.txt" 2>&1
  echo "GpuCheck correctness exit $? after $(( $(date +%s) - start )) s"
  sed -n '/==== summary ====/,$p' "$out/gpucheck.txt" | head -40
  grep -E "kernels sources" "$out/gpucheck.txt" | head -2
  first ptx-jit CUDA_FORCE_PTX_JIT=1
  echo "done after $(( $(date +%s) - start )) s"
} 2>&1 | tee "$out/summary.txt"
