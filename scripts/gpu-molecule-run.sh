#!/usr/bin/env bash
# Device-side driver of the small-molecule kernel figures (docs/benchmarks.md, "Small-molecule kernel"):
#  1. GpuCheck (correctness, NVE, timing) with the default kernel k_small_c16 (st.async + mbarrier exchange);
#  2. the timing of the barrier variant k_small_bar_c16 in the same session, side by side;
#  3. one Nsight Compute profile of k_small_c16 on alanine dipeptide, if ncu exists and the bundle has a
#     PTX built with -lineinfo in li/ (same sources, same header; put first on the class path);
#  4. the suite bench (--device cuda), within what is left of LIMIT seconds.
# Expects the bundle (jlinked JRE in jre/, runtime jars in lib/, CPU reference trajectories in ref/)
# unpacked into BUNDLE. Results under $OUT (at most 8 files come back from the device tool).
set -uo pipefail
B=${BUNDLE:-/tmp/g3b}
out=${OUT:-/tmp/gpu-molecule-out}; mkdir -p "$out"
w=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
J="$B/jre/bin/java --enable-native-access=ALL-UNNAMED -Xss8m -Xmx30g -XX:+UseParallelGC -Dmolten.torch.dir=$w/torch"
CP="$B/lib/*"
S=${SYSTEMS:-ethanol,alanine-dipeptide}
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
$J -cp "$CP" -Dmolten.gpucheck.ref="$B/ref" org.molten.forcefield.cuda.GpuCheck "$w/async" \
  sections=${SECTIONS:-correctness,nve,timing} only=$S > "$w/async.txt" 2>&1
echo "GpuCheck k_small_c16 exit $? after $(el) s"
$J -cp "$CP" -Dmolten.cuda.moleculeKernel=k_small_bar_c16 org.molten.forcefield.cuda.GpuCheck "$w/bar" \
  sections=timing only=$S > "$w/bar.txt" 2>&1
echo "GpuCheck k_small_bar_c16 exit $? after $(el) s"
{ cat "$w/async.txt"; echo "===== k_small_bar_c16 (-Dmolten.cuda.moleculeKernel=k_small_bar_c16)"; cat "$w/bar.txt"; } > "$out/gpucheck.txt"
NCU=$(command -v ncu || true)
if [[ -n "$NCU" && -d "$B/li" && "${PROFILE:-1}" == 1 ]]; then
  timeout 150 "$NCU" --clock-control none -k 'regex:^k_small_c16$' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats \
    --section SourceCounters --section Occupancy -o "$w/prof" \
    $J -cp "$B/li:$CP" org.molten.forcefield.cuda.GpuCheck "$w/ncu" quick sections=timing only=alanine-dipeptide \
    > "$w/ncu-run.txt" 2>&1
  echo "ncu exit $? after $(el) s"
  "$NCU" -i "$w/prof.ncu-rep" --page details > "$out/ncu-details.txt" 2>&1
  "$NCU" -i "$w/prof.ncu-rep" --page source --csv --print-source cuda,sass 2>&1 | gzip > "$out/ncu-source.csv.gz"
fi
if [[ "${BENCH:-1}" == 1 ]]; then
  left=$(( ${LIMIT:-580} - $(el) - 10 ))
  timeout "$left" $J -cp "$CP" org.molten.cli.MoltenCli bench --device cuda --repeats 20 --time-budget-s 2 \
    --warmup-s 0.5 --sizes ${SIZES:-3,9,12,22,50,200,1500,3000} --json "$out/bench-h200.json" \
    --markdown "$out/bench-h200.md" > "$out/bench-stdout.txt" 2>&1
  echo "bench exit $? after $(el) s (limit $left s)"
fi
sed -n '/==== summary ====/,$p' "$w/async.txt" | grep -v "^time .*\(cluster\|grid\) " || tail -30 "$w/async.txt"
grep -h "^time .*molecule\|^time .*stages-warp" "$w/bar.txt" | sed 's/^/bar: /'
