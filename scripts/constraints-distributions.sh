#!/usr/bin/env bash
# Structural distributions at 2 fs with h-bond constraints against unconstrained 0.5 fs (issue 28's target "bond-angle,
# dihedral (phi, psi, omega) and O-O distributions within the validation's observable limits"; docs/constraints.md).
# On the cpu platform, Langevin NVT at 300 K (friction: molten run's default), from the built-in structures:
#   alanine dipeptide (bond angles, backbone phi/psi/omega) and the 64-water periodic box (O-O g(r); relaxed first
#   with --minimize, as the drift runs are), each at 0.5 fs without constraints and at 2 fs with --constraints h-bonds
#   (rigid waters), the same seeds on both sides, every run an independent process, PARALLEL of them at a time.
# Every run is asked for PS ps (PS_WATER for the box) and cut to what is left of BUDGET seconds (SIGTERM: molten
# keeps what it wrote); the analysis (scripts/constraints_distributions.py, numpy only) cuts each seed's two runs to
# the shorter one, so both sides cover the same simulated time, leaves out EQUIL_PS, and applies molten validate's
# observable-divergence criterion (JS and W1 within DivergenceThresholds' defaults) to 2 fs against 0.5 fs.
#
# Usage: scripts/constraints-distributions.sh [OUTDIR]      (from the checkout's root)
#   PARALLEL  runs at a time (default: the number of cores)      BUDGET   seconds for everything (default 540)
#   SEEDS     alanine dipeptide seeds per side (default 16)      SEEDS_WATER  water-box seeds per side (default 8)
#   PS        ps asked of each dipeptide run (default 50)        PS_WATER ps asked of each box run (default 10)
#   EQUIL_PS  ps left out at the start of every run (default 1)  FRAME_FS fs between frames (default 10)
#   SYSTEMS   "alanine-dipeptide water-box" (default both)       THREADS  cores per run (default 1)
#   WORK      where the trajectories go (default OUTDIR/runs; they are large: ~2.5 MB per dipeptide ps at 10 fs)
#   RESERVE   seconds kept for the analysis at the end (default 90)
# How molten is started, first match:
#   MOLTEN="cmd ..."   a command line ending in the main class, e.g.
#                      MOLTEN="/tmp/b/g3/jre/bin/java -cp '/tmp/b/g3/lib/*:forcefield/src/main/resources' org.molten.cli.MoltenCli"
#   HERE=DIR           a bundle of scripts/gpu-bundle.sh (DIR/jre, DIR/lib), with this checkout's forcefield resources
#                      on the class path, as scripts/constraints-figures-run.sh builds its java command
#   otherwise          ./molten of this checkout (Maven builds it on first use)
set -uo pipefail
tree=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${OUT:-/tmp/constraints-distributions}}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=${WORK:-$out/runs}
mkdir -p "$work" "$out/raw"
exec > >(tee "$out/constraints-distributions.log") 2>&1
budget=${BUDGET:-540}
parallel=${PARALLEL:-$(nproc)}
threads=${THREADS:-1}
reserve=${RESERVE:-90}
frame_fs=${FRAME_FS:-10}
systems=${SYSTEMS:-alanine-dipeptide water-box}
if [[ -n ${MOLTEN:-} ]]; then
  eval "molten=($MOLTEN)"          # keeps a quoted 'lib/*' whole
elif [[ -n ${HERE:-} ]]; then
  res=$tree/forcefield/src/main/resources
  [[ -d $res ]] || { echo "no checkout resources at $res" >&2; exit 2; }
  molten=("$HERE/jre/bin/java" -Xmx2g -Xss8m -XX:+UseSerialGC -XX:ActiveProcessorCount="$threads"
          --enable-native-access=ALL-UNNAMED -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
          -cp "$HERE/lib/*:$res" org.molten.cli.MoltenCli)
else
  export MOLTEN_JAVA_OPTS="${MOLTEN_JAVA_OPTS:-} -Xmx2g -XX:+UseSerialGC -XX:ActiveProcessorCount=$threads"
  molten=("$tree/molten")
  "${molten[@]}" --help > /dev/null || { echo "./molten does not start" >&2; exit 2; }   # builds once, not per run
fi
echo "== $(date -u '+%F %T') UTC, $(nproc) cores, $(uname -n); PARALLEL=$parallel BUDGET=$budget s THREADS=$threads"
echo "== molten: ${molten[*]}"
echo "== commit $(git -C "$tree" rev-parse --short HEAD 2>/dev/null || echo '?'); runs in $work"
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }

run() {  # system, side, seed: one molten run, cut to the budget's remainder
  local system=$1 side=$2 seed=$3 dt opts=() ps
  if [[ $side == 0.5fs ]]; then dt=0.5; else dt=2; opts=(--constraints h-bonds); fi
  if [[ $system == water-box ]]; then ps=${PS_WATER:-10}; opts+=(--minimize); else ps=${PS:-50}; fi
  local steps every
  steps=$(python3 -c "print(round($ps * 1000 / $dt))")
  every=$(python3 -c "print(max(1, round($frame_fs / $dt)))")
  local left=$(( budget - reserve - $(el) )) label="$system-$side-s$seed" t0=$(date +%s)
  if (( left < 10 )); then echo "$label: not started, $left s of the budget left"; return; fi
  rm -f "$work/$label".*
  timeout --signal=TERM --kill-after=30 "$left" "${molten[@]}" run --system "$system" --integrator langevin \
    --temperature 300 --seed "$seed" --device cpu --timestep "$dt" --steps "$steps" --report-interval "$every" \
    --checkpoint "$work/$label.chk" --checkpoint-interval 1000000000 --log "$work/$label.csv" --trajectory "$work/$label.extxyz" "${opts[@]}" > "$out/raw/$label.txt" 2>&1
  local rc=$?
  echo "$label: exit $rc after $(( $(date +%s) - t0 )) s, reached $(tail -n 1 "$work/$label.csv" 2>/dev/null | cut -d, -f1) ps" \
       "of $ps | $(grep -m1 -o 'constraints h-bonds: [^;]*; [0-9]* degrees of freedom' "$out/raw/$label.txt")"
}

jobs_list=()
for system in $systems; do
  n=${SEEDS:-16}; [[ $system == water-box ]] && n=${SEEDS_WATER:-8}
  for (( seed = 1; seed <= n; seed++ )); do
    for side in 0.5fs 2fs-hbonds; do jobs_list+=("$system $side $seed"); done
  done
done
echo "== ${#jobs_list[@]} runs: $systems"
pids=()
for j in "${jobs_list[@]}"; do
  while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
  run $j &
  pids+=($!)
done
wait "${pids[@]}"    # these runs only: a bare wait would also wait for the log's tee
echo "== runs done after $(el) s"
python3 "$tree/scripts/constraints_distributions.py" "$work" --equil-ps "${EQUIL_PS:-1}" \
  --json "$out/constraints-distributions.json" --markdown "$out/constraints-distributions.md"
rc=$?
echo "== analysis exit $rc after $(el) s (0 pass, 3 fail); $out/constraints-distributions.{json,md}"
rm -f "$work"/*.chk    # the checkpoint a cut run leaves
exit $rc
