#!/usr/bin/env bash
# On the GPU machine: nanoseconds per day with bond constraints (issue 28, docs/constraints.md):
#   alanine dipeptide, molten run --device cuda, Langevin, 0.5 fs unconstrained against 2 fs with h-bonds;
#   1,024 ethanol replicas likewise (replica-ns per day).
# ns/day = steps/s x dt (fs) x 86400 / 1e6, from the run's own summary line (steps/s of the timed steps, the JVM's
# start excluded). Each run's platform is printed (a constrained run that fell back to the host would say so in its
# warning). One small molecule takes the small-molecule cluster kernel, constrained or not (RATTLE/SETTLE inside its
# step since branch cluster-constraints; before it a constrained run took the stage path); a batch of replicas takes
# the stage path (RATTLE/SETTLE as stages of its K-step graph). ala-0.5fs-stages and ala-2fs-hbonds-stages
# (-Dmolten.cuda.mode=stages) are the same runs in the stage path, so that the ratio can be split into what the kernel
# organisation costs and what the constraints cost.
# Bundle as scripts/gpu-figures-run.sh's (GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/fig, this script copied into
# DIR/fig); log: $OUT/constraints-figures.log; every run is cut to what is left of BUDGET (default 540 s).
set -uo pipefail
labels="ala-0.5fs ala-0.5fs-stages ala-2fs-hbonds eth1024-0.5fs eth1024-2fs-hbonds ala-2fs-hbonds-stages"
for l in ${RUNS:-}; do   # a misspelt label would run nothing and cost a device call
  [[ " $labels " == *" $l "* ]] || { echo "constraints-figures-run.sh: RUNS names '$l', not one of: $labels" >&2; exit 2; }
done
[[ -z ${CP_PREFIX:-} || -d $CP_PREFIX ]] || { echo "constraints-figures-run.sh: CP_PREFIX=$CP_PREFIX is not a folder" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/constraints-figures-out}
mkdir -p "$out/raw"
exec > >(tee "$out/constraints-figures.log") 2>&1
res=${TREE:-$PWD}/forcefield/src/main/resources
[[ -d $res ]] || { echo "no checkout resources at $res" >&2; exit 2; }
# CP_PREFIX: a folder put first on the class path, e.g. another build's org/molten/forcefield/cuda/molten_kernels.fatbin
# and .manifest, to time two kernel builds side by side in one call; RUNS: the labels to run (default: all six)
java=("$here/jre/bin/java" -Xmx100g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED
      -cp "${CP_PREFIX:+$CP_PREFIX:}$here/lib/*:$res:${TREE:-$PWD}/platform-cuda/src/main/resources")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-540} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
md() {  # label, limit s, timestep fs, molten run arguments... (JVM options in JOPTS, report interval in RI, default 1000;
        # an argument list may not repeat --report-interval: picocli refuses a second match)
  local label=$1 l=$2 dt=$3; shift 3
  [[ -z ${RUNS:-} || " $RUNS " == *" $label "* ]] || return 0
  timeout "$(lim "$l")" "${java[@]}" ${JOPTS:-} org.molten.cli.MoltenCli run --device cuda --integrator langevin --seed 1 \
    --timestep "$dt" --report-interval "${RI:-1000}" "$@" > "$out/raw/$label.txt" 2>&1
  local rc=$?
  python3 - "$out/raw/$label.txt" "$label" "$dt" "$rc" <<'PY'
import re, sys
text = open(sys.argv[1]).read(); label, dt, rc = sys.argv[2], float(sys.argv[3]), sys.argv[4]
many = re.search(r"(\d+) replicas on (\S+), ([\d.]+) replica-steps/s", text)
one = re.findall(r"\| ([^|]+?) \| Etot .*?\| ([\d.]+) steps/s", text)
warn = [l for l in text.splitlines() if "warning" in l][:1]
if many:
    print(f"{label}: {many.group(1)} replicas on {many.group(2)}: {float(many.group(3)):.0f} replica-steps/s = "
          f"{float(many.group(3)) * dt * 86400 / 1e6:.1f} replica-ns/day (exit {rc}) {warn}")
elif one:
    platform, rate = one[-1]
    print(f"{label}: on {platform}: {float(rate):.0f} steps/s = {float(rate) * dt * 86400 / 1e6:.2f} ns/day (exit {rc}) {warn}")
else:
    print(f"{label}: no summary (exit {rc}):\n" + text[-2000:])
PY
  echo "   after $(el) s"
}
md ala-0.5fs 90 0.5 --system alanine-dipeptide --steps 40000
JOPTS=-Dmolten.cuda.mode=stages md ala-0.5fs-stages 90 0.5 --system alanine-dipeptide --steps 40000
md ala-2fs-hbonds 90 2 --system alanine-dipeptide --steps 40000 --constraints h-bonds
RI=2000 md eth1024-0.5fs 110 0.5 --system ethanol --replicas 1024 --steps 2000
RI=2000 md eth1024-2fs-hbonds 110 2 --system ethanol --replicas 1024 --steps 2000 --constraints h-bonds
JOPTS=-Dmolten.cuda.mode=stages md ala-2fs-hbonds-stages 90 2 --system alanine-dipeptide --steps 40000 --constraints h-bonds
echo "done after $(el) s"
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
