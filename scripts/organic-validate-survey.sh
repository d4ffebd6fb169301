#!/usr/bin/env bash
# Issue 27's two survey targets over the 144 independent organic test molecules (forcefield/training/organic/):
#   1. `molten validate --structure FILE` (quick protocol, default seed) PASS for >= 90 % of them;
#   2. the stability survey keeps every one intact at 300 and 600 K.
# Run from the root of a checkout. Per molecule (the first conformer of starts.test.xyz.gz; why: see
# scripts/organic_validate_survey.py split):
#   - validate --structure FILE --weights MODEL --baseline reference --threads THREADS --device DEVICE (quick protocol:
#     4 replicas x 0.5 ps Langevin equilibration + 1.7 ps NVE + 0.75 ps NVT at 300 K, 400 frames checked by GFN2-xTB).
#     It runs at 300 K only, and its structural check is bond stretch / hydrogen detachment, not the bond graph; so
#   - with STABILITY=1 (default) also the stability survey of scripts/stability-survey.sh: `molten run` Langevin
#     (0.5 fs, friction 0.02 fs^-1) for STABILITY_PS ps at 300 K and at 600 K (seed = T), a frame every 50 fs, then the
#     bond-graph check of md_check.py --trajectory (organic_validate_survey.py bonds; numpy only).
# Every run is one JVM pinned to THREADS processors (-XX:ActiveProcessorCount: the student's threads, the replica
# workers, GC and JIT all follow it; without it validate --threads 1 still gives its one worker all the cores);
# PARALLEL of them at once. After BUDGET seconds nothing new starts and runs still going are stopped (timeout):
# the summary counts those as "cut by BUDGET" and the rest as "not run".
#
#   [MODEL=preview|v5|FILE.safetensors] [PARALLEL=N] [THREADS=1] [BUDGET=480] [DEVICE=cpu|cuda] [VALIDATE=1|0] [STABILITY=1|0]
#   [STABILITY_PS=10] [LIMIT=N | ONLY="name ..."] [LIBXTB_DIR=DIR] [MOLTEN=BUNDLE_DIR|COMMAND] [OUT=DIR] \
#     scripts/organic-validate-survey.sh
#
# MOLTEN (or HERE): unset -> ./molten of this checkout (builds on first use); a folder with jre/ and lib/ (scripts/gpu-bundle.sh)
# -> its java with lib/* and this checkout's forcefield and platform-cuda resources on the class path (the
# java=(...) convention of gpu-langevin-temperature-run.sh); anything else -> that command.
# LIBXTB_DIR: a folder holding libxtb.so.6 and the libraries it links (make_organic_payload.sh's xtblib.tar.xz):
# -Djna.library.path, -Dmolten.xtb.library and LD_LIBRARY_PATH; without it the system's libxtb6. Validate's teacher checks need it: a
# short preflight validate stops the survey (exit 5) when the teacher is missing, unless NO_TEACHER_OK=1.
# Writes $OUT/organic-validate-survey.json, $OUT/organic-validate-survey.md, $OUT/organic-validate-survey.log and
# $OUT/runs.tar.gz (per molecule: report.json/report.md, logs, the bond check; no trajectories, energy logs or plots).
# Two calls (VALIDATE=0 in one, STABILITY=0 in the other) combine: untar both runs.tar.gz into one folder and run
#   scripts/organic_validate_survey.py summary DIR/runs DIR/xyz/molecules.tsv survey.json survey.md --model M
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/organic-validate-survey}
mkdir -p "$out" && out=$(cd "$out" && pwd)
exec > >(tee "$out/organic-validate-survey.log") 2>&1
py=${PYTHON:-python3}
helper="$repo/scripts/organic_validate_survey.py"
model=${MODEL:-preview}
device=${DEVICE:-cpu}
threads=${THREADS:-1}
cores=$("$py" -c "import os; print(len(os.sched_getaffinity(0)))")   # not nproc: it obeys OMP_NUM_THREADS
parallel=${PARALLEL:-$(( cores / threads > 0 ? cores / threads : 1 ))}
budget=${BUDGET:-480}
stability=${STABILITY:-1}
stab_ps=${STABILITY_PS:-10}
stab_steps=$("$py" -c "print(int(round(float('$stab_ps') * 2000)))")   # 0.5 fs steps
every=100                                                                # a frame every 50 fs
starts=${STARTS:-$repo/forcefield/training/organic/starts.test.xyz.gz}
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1   # libxtb's OpenMP and BLAS: one thread per run

jopts=(-Xmx${HEAP:-2g} -Xss8m -XX:+UseParallelGC -XX:ActiveProcessorCount="$threads")
if [[ -n ${LIBXTB_DIR:-} ]]; then
  LIBXTB_DIR=$(cd "$LIBXTB_DIR" && pwd) || exit 2
  [[ -e $LIBXTB_DIR/libxtb.so.6 ]] || echo "warning: no libxtb.so.6 in LIBXTB_DIR=$LIBXTB_DIR" >&2
  export LD_LIBRARY_PATH="$LIBXTB_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # the teacher's own property names the file (a missing one is then reported as such, not as the system's
  # libxtb); JNA's path and the loader's for the libraries libxtb links (Fortran, OpenMP, BLAS, mctc)
  jopts+=(-Djna.library.path="$LIBXTB_DIR" -Dmolten.xtb.library="$LIBXTB_DIR/libxtb.so.6")
fi
MOLTEN=${MOLTEN:-${HERE:-}}   # HERE=BUNDLE_DIR as scripts/constraints-distributions.sh names it
if [[ -z ${MOLTEN:-} ]]; then
  molten=("$repo/molten")
  export MOLTEN_JAVA_OPTS="${jopts[*]} ${MOLTEN_JAVA_OPTS:-}"
elif [[ -x ${MOLTEN}/jre/bin/java ]]; then
  res=$repo/forcefield/src/main/resources
  # scripts/gpu-bundle.sh packs what gpu-check needs; validate's statistics also need commons-math3 (measured here:
  # ClassNotFoundException SimpleRegression without it). xchart may be absent: the plots are skipped with a warning.
  if ! compgen -G "$MOLTEN/lib/commons-math3-*.jar" > /dev/null; then
    echo "MOLTEN=$MOLTEN: lib/ lacks commons-math3 (validate's regressions); add it where the bundle is made:" >&2
    echo "  cp ~/.m2/repository/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar $MOLTEN/lib/" >&2
    exit 2
  fi
  molten=("$MOLTEN/jre/bin/java" "${jopts[@]}" --enable-native-access=ALL-UNNAMED
          -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
          -cp "$MOLTEN/lib/*:$res:$repo/platform-cuda/src/main/resources" org.molten.cli.MoltenCli)
else
  read -r -a molten <<< "$MOLTEN"
fi
case $model in
  *.safetensors) [[ -f $model ]] || { echo "MODEL=$model: no such file" >&2; exit 2; }
                 model=$(cd "$(dirname "$model")" && pwd)/$(basename "$model") ;;
esac

t0=$(date +%s.%N)
elapsed() { "$py" -c "import time; print(int(time.time() - $t0))"; }
echo "== organic validate survey: model $model, device $device, $parallel runs at once x $threads thread(s) ($cores cores)," \
     "budget $budget s, stability ${stability} (${stab_ps} ps at 300 and 600 K)"
echo "   molten: ${molten[*]}"

runs=$out/runs
rm -rf "$runs" "$out/xyz"
split_args=()
[[ -n ${LIMIT:-} ]] && split_args+=(--limit "$LIMIT")
[[ -n ${ONLY:-} ]] && { read -r -a only <<< "$ONLY"; split_args+=(--only "${only[@]}"); }
"$py" "$helper" split "$starts" "$out/xyz" "${split_args[@]}" || exit 2
mapfile -t stems < <(cut -f1 "$out/xyz/molecules.tsv")
(( ${#stems[@]} > 0 )) || { echo "no molecules selected" >&2; exit 2; }

# Preflight (a few seconds): the teacher loads and the model is accepted, before PARALLEL x hundreds of runs.
pre=$out/preflight
rm -rf "$pre"
"${molten[@]}" validate --weights "$model" --baseline reference --device "$device" --threads 1 \
  --structure "$out/xyz/${stems[-1]}.xyz" --replicas 1 --equilibration-steps 20 --steps 100 --teacher-frames 2 \
  --out "$pre" > "$out/preflight.log" 2>&1
pre_rc=$?
echo "   preflight validate (${stems[-1]}, 1 replica, 220 steps): exit $pre_rc, $(elapsed) s"
if [[ ! -f $pre/report.json ]]; then
  echo "preflight failed (no report):" >&2; tail -20 "$out/preflight.log" >&2; exit 5
fi
if grep -q '"criterion" *: *"teacher-force-mae"[^}]*"skipped" *: *true' <(tr -d '\n' < "$pre/report.json"); then
  echo "preflight: the teacher (GFN2-xTB via libxtb) is unavailable: $(grep -o 'libxtb[^"]*' "$pre/report.json" | head -1)" >&2
  [[ ${NO_TEACHER_OK:-0} == 1 ]] || { echo "set LIBXTB_DIR (or NO_TEACHER_OK=1 to go on without the teacher checks)" >&2; exit 5; }
fi

timed() {  # STATUS_FILE LOG command...: runs it; STATUS_FILE gets "exit wall_s cpu_s" (CPU: user + sys of the JVM)
  local status=$1 log=$2 rc TIMEFORMAT='%R %U %S' t
  shift 2
  t=$( { time "$@" > "$log" 2>&1; } 2>&1 ); rc=$?
  read -r real user sys <<< "$t"
  echo "$rc $real $("$py" -c "print(round($user + $sys, 2))")" > "$status"
  return $rc
}

run_validate() {  # stem seconds-left
  local d=$runs/$1 left=$2 rc
  mkdir -p "$d"
  timed "$d/validate.status" "$d/validate.log" timeout -k 10 "$left" "${molten[@]}" validate --weights "$model" \
    --baseline reference --device "$device" --threads "$threads" --structure "$out/xyz/$1.xyz" --out "$d/validate"
  rc=$?
  echo "   $(elapsed) s  validate $1: exit $rc  $(grep -a '^molten validate:' "$d/validate.log" | sed 's/; report in.*//')"
}

run_stability() {  # stem T seconds-left
  local d=$runs/$1 T=$2 left=$3 rc
  mkdir -p "$d"
  timed "$d/stability-${T}K.status" "$d/stability-${T}K.log" timeout -k 10 "$left" "${molten[@]}" run \
    --structure "$out/xyz/$1.xyz" --model "$model" --integrator langevin --temperature "$T" --timestep 0.5 \
    --steps "$stab_steps" --seed "$T" --report-interval "$every" --device "$device" \
    --trajectory "$d/md-${T}K.xyz" --log "$d/md-${T}K.csv"
  rc=$?
  "$py" "$helper" bonds "$d/md-${T}K.xyz" "$d/stability-${T}K.json" --rc "$rc" --steps "$stab_steps" --every "$every" \
    --status "$d/stability-${T}K.status" --temperature "$T" | sed "s/^/   $(elapsed) s  stability ${T} K $1: /"
  [[ ${KEEP_TRAJ:-0} == 1 ]] || rm -f "$d/md-${T}K.xyz"
}

# Tasks: every validate first (largest molecules first, so that the pool ends together), then the stability runs
# (600 K first: where a model breaks, it breaks hot), likewise largest first.
tasks=()
[[ ${VALIDATE:-1} == 1 ]] && for m in "${stems[@]}"; do tasks+=("validate $m"); done
if [[ $stability == 1 ]]; then
  for T in 600 300; do for m in "${stems[@]}"; do tasks+=("stability $m $T"); done; done
fi
not_started=0
for t in "${tasks[@]}"; do
  while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
  left=$(( budget - $(elapsed) ))
  if (( left < 5 )); then not_started=$((not_started + 1)); continue; fi
  set -- $t
  if [[ $1 == validate ]]; then run_validate "$2" "$left" & else run_stability "$2" "$3" "$left" & fi
done
# not a bare `wait`: it would also wait for the log's tee (a process substitution), which ends only with this script
while (( $(jobs -rp | wc -l) > 0 )); do wait -n; done
echo "== all runs ended after $(elapsed) s; $not_started of ${#tasks[@]} tasks not started (BUDGET $budget s)"

"$py" "$helper" summary "$runs" "$out/xyz/molecules.tsv" "$out/organic-validate-survey.json" "$out/organic-validate-survey.md" \
  --model "$model" --device "$device" --parallel "$parallel" --threads "$threads" --budget-s "$budget" \
  --elapsed-s "$(elapsed)" --stability-ps "$([[ $stability == 1 ]] && echo "$stab_ps" || echo off)"
# what travels back: reports, logs and bond checks (the energy logs, plots and trajectories stay here unless KEEP=1)
if [[ ${KEEP:-0} != 1 ]]; then
  find "$runs" \( -name '*.csv' -o -name '*.png' -o -name 'md-*.xyz' \) -delete
fi
# the split starts and the preflight's log go into the archive too and leave $OUT: a device call returns only a few
# files (2026-11-29: the 144 starts beside the reports kept the reports from coming back)
tar -C "$out" -czf "$out/runs.tar.gz" runs xyz preflight.log && rm -rf "$runs" "$pre" "$out/xyz" "$out/preflight.log"
echo "== wrote $out/organic-validate-survey.{json,md} and runs.tar.gz after $(elapsed) s"
