#!/usr/bin/env bash
# Device-side driver for timing kernel variants side by side (docs/benchmarks.md): for each variant
# "label=JVM options" of VARIANTS ('|'-separated), GpuCheck's timing section (and, for the labels in
# PROFILE, its per-stage profile) on the systems in SYSTEMS, restricted to the GpuCheck modes in MODES;
# then, unless CHECK=0, GpuCheck's correctness section with the default options.
#   BUNDLE=<unpacked bundle> VARIANTS='narrow=-Dmolten.cuda.denseTiles=narrow|wide=-Dmolten.cuda.denseTiles=wide' \
#     SYSTEMS=water-201,water-3000 MODES=stages-tiled PROFILE='narrow wide' bash gpu-variants-run.sh
# With NCU_KERNELS (a regex of kernel names) and ncu on the machine: one Nsight Compute profile of each
# matching kernel (one launch each, on NCU_SYSTEM) with the line-info build of $BUNDLE/li if present.
# Expects the bundle (jlinked JRE in jre/, runtime jars in lib/) unpacked into BUNDLE; results in the output directory OUT (default /tmp/gpu-variants-out).
set -uo pipefail
B=${BUNDLE:-/tmp/g}
out=${OUT:-/tmp/gpu-variants-out}; mkdir -p "$out"
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
J="$B/jre/bin/java --enable-native-access=ALL-UNNAMED -Xss8m -Xmx30g -XX:+UseParallelGC -Dmolten.torch.dir=$w/torch"
CP="$B/lib/*"
S=${SYSTEMS:-water-201,water-3000}
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
: > "$out/variants.txt"
IFS='|' read -ra vs <<< "${VARIANTS:-default=}"
for v in "${vs[@]}"; do
  label=${v%%=*}; opts=${v#*=}
  sec=timing
  [[ " ${PROFILE:-} " == *" $label "* ]] && sec=timing,profile
  # shellcheck disable=SC2086
  $J $opts -Dmolten.gpucheck.modes=${MODES:-stages-warp,stages-tiled} -cp "$CP" org.molten.forcefield.cuda.GpuCheck \
    "$w/$label" sections=$sec only=$S > "$w/$label.txt" 2>&1
  echo "GpuCheck $label ($opts) exit $? after $(el) s"
  { echo "===== $label: $opts"; cat "$w/$label.txt"; } >> "$out/variants.txt"
  [[ -f "$w/$label/profile.tsv" ]] && cp "$w/$label/profile.tsv" "$out/profile-$label.tsv"
done
NCU=$(command -v ncu || true)
if [[ -n "${NCU_KERNELS:-}" && -n "$NCU" ]]; then
  timeout "${NCU_LIMIT:-200}" "$NCU" --clock-control none -k "regex:${NCU_KERNELS}" --launch-skip "${NCU_SKIP:-40}" \
    --launch-count "${NCU_COUNT:-3}" --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --section SourceCounters -o "$w/prof" \
    $J -Dmolten.gpucheck.modes=${MODES:-stages-tiled} -cp "$B/li:$CP" org.molten.forcefield.cuda.GpuCheck "$w/ncu" \
    sections=timing only=${NCU_SYSTEM:-water-3000} > "$w/ncu-run.txt" 2>&1
  echo "ncu exit $? after $(el) s"
  tail -5 "$w/ncu-run.txt"
  "$NCU" -i "$w/prof.ncu-rep" --page details > "$out/ncu-details.txt" 2>&1
  "$NCU" -i "$w/prof.ncu-rep" --page source --csv --print-source cuda,sass 2>&1 | gzip > "$out/ncu-source.csv.gz"
fi
if [[ "${CHECK:-1}" == 1 ]]; then
  $J -cp "$CP" org.molten.forcefield.cuda.GpuCheck "$w/check" sections=correctness only=${CHECK_SYSTEMS:-$S} \
    > "$w/check.txt" 2>&1
  echo "GpuCheck correctness exit $? after $(el) s"
  { echo "===== correctness (defaults)"; cat "$w/check.txt"; } >> "$out/variants.txt"
  grep "^check\|failures" "$w/check.txt"
fi
for v in "${vs[@]}"; do
  label=${v%%=*}
  sed -n '/==== summary ====/,$p' "$w/$label.txt" | grep "^time\|^prof" | sed "s/^/$label: /"
done
