#!/bin/bash
# The general organic student on one GPU machine with 16 cores, in two commands of < 10 minutes each
# (forcefield/training/README.md, "The general organic student"). Run from the repository root.
#
#   device_organic.sh data-and-train WORK OUT DEADLINE_S   sample + label (15 processes), then training run A
#   device_organic.sh train-and-eval WORK OUT DEADLINE_S   training run B warm-started from A, then the figures
#   device_organic.sh all|multi WORK OUT DEADLINE_S        everything, detached (see the phases below); multi with
#                                                          SOUP_ALPHA=0.5 also exports and evaluates INIT and the run's
#                                                          average (interpolate.py) beside the run (see soup)
#   device_organic.sh weighting WORK OUT DEADLINE_S        the force loss per atom against per structure, one GPU
#   device_organic.sh widths WORK OUT DEADLINE_S           F = 128 against the widened F = 256 (one GPU, or one each:
#                                                          ARM_GPUS)
#   device_organic.sh depths WORK OUT DEADLINE_S           T = 3 against the deepened T = 4 (one GPU each: ARM_GPUS)
# Each phase ends its training so that the whole command ends by DEADLINE_S seconds after it started.
#
# WORK is a git-ignored folder that outlives one command while the machine stays up; if it was lost
# (a fresh machine), train-and-eval regenerates the data first (deterministic: same seeds, same frames).
# libxtb 6.5.1 and its Fortran/BLAS libraries travel as .model-payload/xtblib.tar.xz (make_organic_payload.sh).
set -euo pipefail
phase=$1; work=$2; out=$3; deadline=$4
here=$(pwd)
tr=forcefield/training
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
mkdir -p "$work" "$out"
out=$(cd "$out" && pwd)   # absolute: the testset tar runs from inside $work/data
if [[ ! -e "$work/lib/libxtb.so.6" ]]; then
  tar -xJf .model-payload/xtblib.tar.xz -C "$work"
fi
export LD_LIBRARY_PATH="$here/$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LIBXTB="$here/$work/lib/libxtb.so.6"
python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu")'
cores=$(python3 -c "import os; print(len(os.sched_getaffinity(0)))")   # not nproc: it obeys OMP_NUM_THREADS
echo "$cores cores"

generate() {
  python3 $tr/organic_data.py --starts $tr/organic --out "$work/data" ${DATA_OPTS:-} --workers $(( cores > 1 ? cores - 1 : 1 )) 2>&1 | tee "$out/organic_data_stdout.txt"
  cp "$work/data/organic-data.json" "$out/"
}

train_run() {   # NAME MINUTES [INIT] [LR] [LR_FINAL]
  local name=$1 mins=$2 init=$3 lr=$4 lrf=$5
  python3 $tr/train.py --data $tr/data "$work/data" --test forcefield/src/main/resources/org/molten/forcefield/student/testset \
    --out "$work/$name" --minutes "$mins" --batch 128 --lr "$lr" --lr-final "$lrf" --warmup 300 --patience 1000 \
    --seed 20261128 --init "$init" --checkpoint 2>&1 | tee "$out/train_${name}_stdout.txt"
  cp "$work/$name/state.npz" "$out/state_${name}.npz"; cp "$work/$name/state_last.npz" "$out/state_${name}_last.npz" 2>/dev/null || true
  cp "$work/$name/train_log.json" "$out/train_log_${name}.json"
}

# organic_eval.py's figures of weights $1 on the test frames and the older six into $2 (its output also in $3); with
# EVAL_BUDGET_S > 0 (default 150) also its PyTorch stability loop over the test starts, cut at that many seconds. A
# window whose last call runs MLIPAudit's protocol in Java (`molten stability`, device-window-h200.sh call3) passes 0:
# in round 9 the loop reached 12 of 100 ps in its 120 s and scored nothing, time the training can have instead
figures() {
  local stab=()
  if (( ${EVAL_BUDGET_S:-150} > 0 )); then
    stab=(--starts "$tr/organic/starts.test.xyz.gz" --replicas 1 --ps 100 --budget-s "${EVAL_BUDGET_S:-150}")
  fi
  python3 "$tr/organic_eval.py" --weights "$1" --test "$work/data/organic-test.npz" \
    --independent "$tr/testset-independent" "${stab[@]}" --out "$2" 2>&1 | tee "$3"
}
# The pools DATA_OPTS adds to the list (organic_data.py --small, --conjugated, --rare, --motifs, --coverage, --rings,
# --coverage2, --rings2, --rings3, --coverage3), as the weight file's dataset entry says
pools_text() {
  local t=""
  if [[ " ${DATA_OPTS:-} " == *" --small "* ]]; then t="the small-molecule pool (organic/small.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --conjugated "* ]]; then t="${t:+$t and }the conjugated pool (organic/conjugated.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --rare "* ]]; then t="${t:+$t and }the rare-bond pool (organic/rare.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --motifs "* ]]; then t="${t:+$t and }the motif pool (organic/motifs.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --coverage "* ]]; then t="${t:+$t and }the coverage pool (organic/coverage.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --rings "* ]]; then t="${t:+$t and }the ring-system pool (organic/rings.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --coverage2 "* ]]; then t="${t:+$t and }the second coverage draw (organic/coverage2.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --rings2 "* ]]; then t="${t:+$t and }the second ring-system draw (organic/rings2.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --rings3 "* ]]; then t="${t:+$t and }the third ring-system draw (organic/rings3.csv)"; fi
  if [[ " ${DATA_OPTS:-} " == *" --coverage3 "* ]]; then t="${t:+$t and }the third coverage draw (organic/coverage3.csv)"; fi
  if [[ -n $t ]]; then echo ", with $t"; fi
}

# The weight file for the Java side with its domain (docs/model.md): v5's data and the RDKit starts of the training
# molecules (and of the pools DATA_OPTS adds: --small, --conjugated, --rare, --motifs, --coverage, --rings, --coverage2, --rings2,
# --rings3, --coverage3), named as the preview's.   RUN WEIGHTS TS
# The starts go to a file of this export's own (named after TS): widths exports its two arms at the same time.
# TRAINING (optional): the metadata's training line (export.py --training; `{train}` in it stands for train.py's line
# of the run's log), for weights that are not the run's own (soup's average).   RUN WEIGHTS TS [TRAINING]
export_v6() {
  local run=$1 weights=$2 ts=$3 training=${4:-}
  local starts
  starts=$work/organic-starts.$(basename "${ts%.pt}").xyz.gz
  python3 -c "
import sys; sys.path.insert(0, '$tr'); import extxyz
fr = list(extxyz.read('$tr/organic/starts.train.xyz.gz'))
for pool in ('small', 'conjugated', 'rare', 'motifs', 'coverage', 'rings', 'coverage2', 'rings2', 'rings3', 'coverage3'):   # trained on
    if '--' + pool in '${DATA_OPTS:-}'.split(): fr += list(extxyz.read('$tr/organic/starts.' + pool + '.xyz.gz'))
import numpy as np
for f in fr: f.info['system'] = f.info['name']; f.energy = 0.0; f.forces = np.zeros_like(f.positions)   # unlabelled: the domain reads geometry only
extxyz.write('$starts', fr)"
  timeout 300 python3 $tr/export.py --state "$run/state.npz" --log "$run/train_log.json" \
    --weights "$weights" --torchscript "$ts" --training-commit "${COMMIT:-unknown}" ${training:+--training "$training"} \
    --dataset "molten-gfn2-organic (forcefield/training/organic, organic_data.py)$(pools_text)" \
    --domain-data ${V5DATA:-$tr/data} "$starts" 2>&1 | grep -v '^ "domain"' | tail -25
}

pin() { if [[ -n ${1:-} ]]; then echo "taskset -c $1"; fi; }

# SOUP_ALPHA (multi, e.g. 0.5): the weight-space average (1 - SOUP_ALPHA) INIT + SOUP_ALPHA run (interpolate.py), since
# round 14's midpoint of INIT and its fine-tuning was better than both on both test sets, and a model may replace the
# shipped preview only after the window's stability survey (call3 STABILITY=1 surveys this file too). Run in the
# background beside the run's export and figures, once the training ended: the average as $work/soup/state.npz
# (copied to state_soup.npz), exported with export_v6's domain and dataset (student-gfn2-v6-soup.safetensors, its
# training line naming interpolate.py's alpha, INIT and its sha256, and the run; export-soup_stdout.txt), then its
# figures (eval-soup.json, eval-soup_stdout.txt) on the second of TRAIN_GPUS where there are two, else beside the
# run's on the first. Reads init and gpu_list (multi's).
soup() {
  local sha gpu=${gpu_list[1]:-${gpu_list[0]}}
  mkdir -p "$work/soup"
  python3 $tr/interpolate.py --a "$init" --b "$work/run/state.npz" --alpha "$SOUP_ALPHA" --out "$work/soup/state.npz"
  cp "$work/soup/state.npz" "$out/state_soup.npz"
  cp "$work/run/train_log.json" "$work/soup/train_log.json"   # export.py reads the architecture there
  sha=$(sha256sum "$init" | cut -d' ' -f1)
  export_v6 "$work/soup" "$out/student-gfn2-v6-soup.safetensors" "$work/v6-soup.pt" \
    "interpolate.py --alpha $SOUP_ALPHA: (1 - $SOUP_ALPHA) x INIT $(basename "$init") (sha256 $sha) + $SOUP_ALPHA x its fine-tuning in this round (device_organic.sh multi, training commit ${COMMIT:-unknown}: {train})" \
    > "$out/export-soup_stdout.txt"
  export CUDA_VISIBLE_DEVICES=$gpu
  echo "the soup's figures on GPU $gpu"
  figures "$work/soup/state.npz" "$out/eval-soup.json" "$out/eval-soup_stdout.txt" > /dev/null
}

# The data of the organic list (and DATA_OPTS' additions) on DATA_CPUS, unless WORK has them from an earlier start
data_once() {
  local workers=${DATA_WORKERS:-$(( cores > 1 ? cores - 1 : 1 ))}
  [[ -e $work/data/organic.train.npz ]] || $(pin "${DATA_CPUS:-}") python3 $tr/organic_data.py --starts $tr/organic \
    --out "$work/data" ${DATA_OPTS:-} --workers "$workers" 2>&1 | tee "$out/organic_data_stdout.txt"
  cp "$work/data/organic-data.json" "$out/"
}

# ACTIVE_WITH_DATA=1 (multi): held_gpus and active_check, the settings' check before anything starts; in one file
# with the window (scripts/device-window-h200.sh), which runs the same check before it starts this script detached
source "$tr/active_settings.sh"
# The start files of every molecule the data hold: the list's training molecules and the pools DATA_OPTS adds
# (organic_data.py --small, --conjugated, --rare, --motifs, --coverage, --rings, --coverage2, --rings2, --rings3,
# --coverage3), as export_v6's domain
active_starts() {
  local pool starts=("$tr/organic/starts.train.xyz.gz")
  for pool in small conjugated rare motifs coverage rings coverage2 rings2 rings3 coverage3; do
    if [[ " ${DATA_OPTS:-} " == *" --$pool "* ]]; then starts+=("$tr/organic/starts.$pool.xyz.gz"); fi
  done
  echo "${starts[@]}"
}
# ACTIVE_WITH_DATA=1: the active round (organic_active.py) from weights $1 while the data are labelled: the student's
# own MD of every molecule the data hold (active_starts) on ACTIVE_GPUS (default TRAIN_GPUS; one process a GPU),
# cut at ACTIVE_MD_S seconds of MD (default 200: --budget-s, the frames sampled by then are labelled), labels by
# ACTIVE_WORKERS processes (default the data's DATA_WORKERS) beside the data's, the whole round pinned to ACTIVE_CPUS
# (default DATA_CPUS; wider where cores are spare, for the MD's driver processes), ACTIVE_OPTS added
# (organic_active.py options: lengths, families); the whole round bounded by ACTIVE_BUDGET_S (default 480 s: a
# round killed there leaves only its md-batch files, no frames). Output in $work/active, log in $out/active_stdout.txt
active_with_data() {
  local gpus=${ACTIVE_GPUS:-${TRAIN_GPUS:-0}} list devices= k
  IFS=, read -r -a list <<< "$gpus"
  for ((k = 0; k < ${#list[@]}; k++)); do devices+=${devices:+,}cuda:$k; done
  # shellcheck disable=SC2046   # the start files and ACTIVE_OPTS split into words
  CUDA_VISIBLE_DEVICES=$gpus timeout "${ACTIVE_BUDGET_S:-480}" $(pin "${ACTIVE_CPUS:-${DATA_CPUS:-}}") \
    python3 $tr/organic_active.py --weights "$1" --out "$work/active" --round "${ACTIVE_ROUND:-1}" \
    --workers "${ACTIVE_WORKERS:-$workers}" --devices "$devices" --budget-s "${ACTIVE_MD_S:-200}" \
    --starts $(active_starts) ${ACTIVE_OPTS:-} > "$out/active_stdout.txt" 2>&1
}
# The active round's frames (in $work/active) join the training: active_data (a --data folder) and SYSTEM_WEIGHTS
# (organic-active-r<ACTIVE_ROUND>, weight ACTIVE_WEIGHT, default 2), only where its train file was written
active_join() {
  cp "$work"/active/organic-active-r*.json "$out/" 2>/dev/null || true
  if [[ -e $work/active/organic-active-r${ACTIVE_ROUND:-1}.train.npz ]]; then
    active_data=$work/active
    SYSTEM_WEIGHTS="${SYSTEM_WEIGHTS:-} --system-weight organic-active-r${ACTIVE_ROUND:-1}=${ACTIVE_WEIGHT:-2}"
  fi
  return 0
}
# ACTIVE_WITH_DATA=1 (multi, widths): the settings' check (exit 2 before anything starts), then the active round from
# weights $1 in the background while the data are labelled (active_pid; empty without the setting)
active_begin() {
  active_data= active_pid=
  if [[ ${ACTIVE_WITH_DATA:-0} == 1 ]]; then
    active_check || exit 2
    echo "active round on GPUs ${ACTIVE_GPUS:-${TRAIN_GPUS:-0}} while the data are labelled, from $1"
    active_with_data "$1" &
    active_pid=$!
  fi
}
# ... and once the data are there: wait for the round, its frames into the training (active_join)
active_end() {
  if [[ -n $active_pid ]]; then
    wait "$active_pid" || echo "the active round ended with $?"
    tail -2 "$out/active_stdout.txt" || true
    active_join
    echo "active round joined at $SECONDS s: $([[ -n $active_data ]] && echo "its frames" || echo "no frames")" \
      "in the training"
  fi
}

# A round's data: the active round started beside the labelling where ACTIVE_WITH_DATA asks (active_begin, from the
# weights INIT), the list and pools labelled (data_once), the test frames packed in the background, the active round
# joined (active_end). multi, widths and depths.   INIT
round_data() {
  active_begin "$1"
  data_once
  (cd "$work/data" && tar -cJf "$out/testset-organic.tar.xz" testset) &
  active_end
}

# train.py's options of multi's training (and of widths' arms on their own GPUs, so that the F = 128 arm is what multi
# trains on one GPU): v1-v5's data, the organic data and the active round's where it joined; BATCH frames a step (per
# rank), LR to LR_FINAL after WARMUP steps, SYSTEM_WEIGHTS, the best state by train.py's default (--select force-mae).
# LAYERS (optional, depths' arms): train.py --layers LAYERS (T); left out, train.py's default (3) and the options as
# they always were. Into the array train_args.   OUT MINUTES INIT HIDDEN [LAYERS]
multi_args() {
  # shellcheck disable=SC2206   # V5DATA, active_data and SYSTEM_WEIGHTS split into words, as they always were
  train_args=(--data ${V5DATA:-$tr/data} "$work/data" ${active_data:-} \
    --test forcefield/src/main/resources/org/molten/forcefield/student/testset --out "$1" --minutes "$2" \
    --hidden "$4" --batch "${BATCH:-256}" --lr "${LR:-1e-3}" --lr-final "${LR_FINAL:-1e-5}" --warmup "${WARMUP:-300}" \
    --val-every-s 45 --patience 1000 --seed 20261128 --init "$3" --checkpoint ${SYSTEM_WEIGHTS:-})
  if [[ -n ${5:-} ]]; then train_args+=(--layers "$5"); fi
}

# The best weights so far of the runs named (run-NAME) copied to $out every minute, where a later command (and a lost
# machine's last archive) finds them. Run in the background; kill it when the trainings end.
save_every_minute() {
  local n
  while sleep 60; do
    for n in "$@"; do cp "$work/run-$n/checkpoint.npz" "$out/checkpoint-$n.npz" 2>/dev/null || true; done
  done
}
# a run's final, last and log files into $out   NAME
keep_run() {
  cp "$work/run-$1/state.npz" "$out/state_$1.npz"; cp "$work/run-$1/state_last.npz" "$out/state_$1_last.npz" 2>/dev/null || true
  cp "$work/run-$1/train_log.json" "$out/train_log_$1.json"
}

# Two fine-tunings side by side on the one GPU, the same in everything (data, the active round's where it joined, seed,
# batch, learning rates, system weights, wall-clock budget) but their own train.py options; best weights so far copied
# to $out every minute.
#   side_by_side MINUTES NAME1 "OPTIONS1" NAME2 "OPTIONS2"
side_by_side() {
  local minutes=$1 names=("$2" "$4") opts=("$3" "$5") pids=() i
  save_every_minute "${names[@]}" &
  local saver=$!
  for i in 0 1; do
    mkdir -p "$work/run-${names[$i]}"
    $(pin "${TRAIN_CPUS:-}") python3 $tr/train.py --data ${V5DATA:-$tr/data} "$work/data" ${active_data:-} \
      --test forcefield/src/main/resources/org/molten/forcefield/student/testset --out "$work/run-${names[$i]}" \
      --minutes "$minutes" --batch "${BATCH:-256}" --lr "${LR:-3e-4}" --lr-final "${LR_FINAL:-1e-5}" \
      --warmup "${WARMUP:-300}" --val-every-s 45 --patience 1000 --seed 20261128 --checkpoint ${opts[$i]} \
      ${SYSTEM_WEIGHTS:-} > "$out/train_${names[$i]}.txt" 2>&1 &
    pids+=($!)
  done
  for i in 0 1; do wait "${pids[$i]}" || echo "training ${names[$i]} ended with $?"; done
  kill $saver 2>/dev/null || true
  for n in "${names[@]}"; do keep_run "$n"; done
}

# The cores of a taskset list (e.g. 0-31, or 0-13,16-29) in N equal shares, in order: share K (from 0), as a list;
# the whole list where it has fewer cores than shares, nothing where none was given.   LIST K N
cpu_share() {
  local part a b c cores=() share=() parts
  [[ -n $1 ]] || return 0
  IFS=, read -r -a parts <<< "$1"
  for part in "${parts[@]}"; do
    a=${part%-*}; b=${part#*-}
    for ((c = a; c <= b; c++)); do cores+=("$c"); done
  done
  if (( ${#cores[@]} < $3 )); then echo "$1"; return 0; fi
  for ((c = $2 * ${#cores[@]} / $3; c < ($2 + 1) * ${#cores[@]} / $3; c++)); do share+=("${cores[$c]}"); done
  (IFS=,; echo "${share[*]}")
}
# Two fine-tunings each alone on its own GPU (ARM_GPUS: the first arm's, the second's) for the same minutes, each one
# train.py process with multi's options (multi_args) and its own start and width, pinned to its share of TRAIN_CPUS
# (half each, where given); best weights copied to $out every minute, as side_by_side's. LAYERS1 LAYERS2 (depths):
# each arm's T (multi_args' LAYERS); left out, as before.
#   apart MINUTES NAME1 INIT1 HIDDEN1 NAME2 INIT2 HIDDEN2 [LAYERS1 LAYERS2]
apart() {
  local minutes=$1 names=("$2" "$5") inits=("$3" "$6") widths=("$4" "$7") layers=("${8:-}" "${9:-}") gpus pids=() i
  IFS=, read -r -a gpus <<< "$ARM_GPUS"
  save_every_minute "${names[@]}" &
  local saver=$!
  for i in 0 1; do
    mkdir -p "$work/run-${names[$i]}"
    multi_args "$work/run-${names[$i]}" "$minutes" "${inits[$i]}" "${widths[$i]}" "${layers[$i]}"
    CUDA_VISIBLE_DEVICES=${gpus[$i]} $(pin "$(cpu_share "${TRAIN_CPUS:-}" "$i" 2)") python3 $tr/train.py \
      "${train_args[@]}" > "$out/train_${names[$i]}.txt" 2>&1 &
    pids+=($!)
  done
  for i in 0 1; do wait "${pids[$i]}" || echo "training ${names[$i]} ended with $?"; done
  kill $saver 2>/dev/null || true
  for i in 0 1; do keep_run "${names[$i]}"; done
}

# After apart: each arm's export with its domain (student-gfn2-v6-NAME.safetensors; the first arm's also as
# student-gfn2-v6.safetensors, the round's weight file, which the window's call3 STABILITY=1 surveys) and its accuracy
# on the test frames (organic_eval.py, eval_NAME.json, on the arm's GPU of ARM_GPUS), both arms at once.   NAME1 NAME2
arms_finish() {
  local names=("$1" "$2") arm_gpus pids=() i n p
  IFS=, read -r -a arm_gpus <<< "$ARM_GPUS"
  for i in 0 1; do
    n=${names[$i]}
    (
      export_v6 "$work/run-$n" "$out/student-gfn2-v6-$n.safetensors" "$work/v6-$n.pt" > "$out/export_$n.txt"
      # the first arm's export is the round's weight file: call3's stability survey (STABILITY=1) reads this name
      if [[ $i == 0 ]]; then cp "$out/student-gfn2-v6-$n.safetensors" "$out/student-gfn2-v6.safetensors"; fi
      CUDA_VISIBLE_DEVICES=${arm_gpus[$i]} python3 $tr/organic_eval.py --weights "$work/run-$n/state.npz" \
        --test "$work/data/organic-test.npz" --independent $tr/testset-independent --out "$out/eval_$n.json" \
        > "$out/eval_$n.txt" 2>&1 || echo "eval $n: $?"
    ) &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || echo "an arm's export or evaluation ended with $?"; done
}

case "$phase" in
  data-and-train)
    generate
    minutes=$(python3 -c "print(round(($deadline - $SECONDS - 75) / 60, 2))")
    train_run runA "$minutes" forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors 1e-3 1e-4
    (cd "$work/data" && tar -cJf "$out/testset-organic.tar.xz" testset)
    ;;
  train-and-eval)
    if [[ ! -e "$work/data/organic.train.npz" ]]; then
      echo "data lost with the machine: regenerating (same seeds)"; generate
    fi
    init="$work/runA/state.npz"
    [[ -e "$init" ]] || init=.model-payload/state_runA.npz
    minutes=$(python3 -c "print(round(($deadline - $SECONDS - 75 - ${EVAL_BUDGET_S:-150}) / 60, 2))")
    train_run runB "$minutes" "$init" 4e-4 1e-5
    python3 $tr/organic_eval.py --weights "$work/runB/state.npz" --test "$work/data/organic-test.npz" \
      --starts $tr/organic/starts.test.xyz.gz --independent $tr/testset-independent --replicas 2 --ps 100 \
      --budget-s "${EVAL_BUDGET_S:-150}" --out "$out/eval_runB.json" 2>&1 | tee "$out/eval_stdout.txt"
    ;;
  all)
    # everything in one go, meant to run detached (setsid) across several commands of < 10 minutes:
    # data, one training run ending so that the figures end by DEADLINE_S, the figures, then a DONE marker
    generate
    minutes=$(python3 -c "print(round(($deadline - $SECONDS - 60 - ${EVAL_BUDGET_S:-150} - 60) / 60, 2))")
    train_run run "$minutes" forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors 1e-3 1e-5
    (cd "$work/data" && tar -cJf "$out/testset-organic.tar.xz" testset)
    python3 $tr/organic_eval.py --weights "$work/run/state.npz" --test "$work/data/organic-test.npz" \
      --starts $tr/organic/starts.test.xyz.gz --independent $tr/testset-independent --replicas 1 --ps 100 \
      --budget-s "${EVAL_BUDGET_S:-150}" --out "$out/eval.json" 2>&1 | tee "$out/eval_stdout.txt"
    touch "$out/DONE"
    ;;
  multi)
    # One machine with several GPUs and many cores (nvidia-h200-x4: 64 cores, 4 GPUs), detached (setsid) across
    # several commands, beside other GPU work: data on DATA_CPUS (taskset list, default all), DATA_WORKERS processes;
    # then data-parallel training on TRAIN_GPUS (default 0; one rank a GPU, pinned to TRAIN_CPUS) warm-started from
    # INIT (default: the organic preview), ending so that the figures (EVAL_BUDGET_S on the first training GPU) and
    # the export end by DEADLINE_S; a copy of the best weights so far in $out every minute (a lost machine
    # keeps them); the weight file for the Java side (student-gfn2-v6.safetensors, with its domain) right after the
    # training (what the measurements that follow need first), then the figures.
    # Settings: HIDDEN (F, 128; 256 with INIT from widen.py), BATCH (per rank, 256), LR (1e-3), LR_FINAL (1e-5), WARMUP (300), SYSTEM_WEIGHTS (" --system-weight
    # NAME=K ..."), DATA_OPTS (organic_data.py options), V5DATA (v1-v5's data folder, default forcefield/training/data:
    # elsewhere where a sparse checkout leaves it out, since each command's copy of the checkout resets tracked paths).
    # Data already generated in WORK (an earlier, failed start) are used as they are. GPU_GATE: see below.
    # ACTIVE_WITH_DATA=1: the active round runs while the data are labelled, on the GPUs they leave idle (see
    # active_with_data; ACTIVE_GPUS must leave out those the measurements hold: active_check refuses before
    # anything starts); the training waits for it, then for the gate. Default: the sequential round of ACTIVE_OPTS.
    # SOUP_ALPHA (a number in (0,1), e.g. 0.5; refused otherwise before anything starts): INIT and the run's average
    # exported and evaluated too, beside the run's export and figures (see soup); DONE after both.
    soup_check || exit 2
    if [[ ! ${TRAIN_MIN_S:-300} =~ ^[0-9]+$ ]]; then
      echo "multi: TRAIN_MIN_S='$TRAIN_MIN_S': expected a whole number of seconds (nothing started)" >&2
      exit 2
    fi
    workers=${DATA_WORKERS:-$(( cores > 1 ? cores - 1 : 1 ))}
    gpus=${TRAIN_GPUS:-0}
    IFS=, read -r -a gpu_list <<< "$gpus"
    n=${#gpu_list[@]}
    init=${INIT:-forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors}
    round_data "$init"
    # GPU_GATE (a file name): measurements share the machine and want the GPU to themselves until they create it;
    # the GPU work below (active round, training) waits for it, at most GPU_GATE_S (default 300) seconds after the data are ready
    if [[ -n ${GPU_GATE:-} ]]; then
      gate_end=$(( SECONDS + ${GPU_GATE_S:-300} ))
      while [[ ! -e $GPU_GATE ]] && (( SECONDS < gate_end )); do sleep 2; done
      echo "GPU gate: $([[ -e $GPU_GATE ]] && echo open || echo "timed out") at $SECONDS s"
    fi
    # an active round on the student's own MD first, when ACTIVE_OPTS names its families (organic_active.py options,
    # e.g. "--only-weighted --weight-category imine=3 ..."): MD on ACTIVE_GPU (default the first training GPU), labels
    # on DATA_CPUS, cut at ACTIVE_BUDGET_S; its frames join the training data as organic-active-r<ACTIVE_ROUND>
    if [[ -z $active_pid && -n ${ACTIVE_OPTS:-} ]]; then
      CUDA_VISIBLE_DEVICES=${ACTIVE_GPU:-${gpu_list[0]}} timeout "${ACTIVE_BUDGET_S:-240}" $(pin "${DATA_CPUS:-}") \
        python3 $tr/organic_active.py --weights "$init" --out "$work/active" --round "${ACTIVE_ROUND:-1}" \
        --workers "$workers" $ACTIVE_OPTS 2>&1 | tee "$out/active_stdout.txt" || echo "the active round ended with $?"
      active_join   # its frames weighted as the round asks (default 2), only when there are some
    fi
    # after the training: 120 s for the export and the figures; with SOUP_ALPHA 30 s more, as widths' two arms: the
    # soup's interpolate.py (a few seconds) comes before its export, and the two exports share the cores
    soup_s=0; if [[ -n ${SOUP_ALPHA:-} ]]; then soup_s=30; fi
    minutes=$(python3 -c "print(round(($deadline - $SECONDS - ${EVAL_BUDGET_S:-150} - 120 - $soup_s) / 60, 2))")
    # TRAIN_MIN_S (seconds, default 300): the training's floor. On a slow machine the data can take the deadline's
    # minutes (round 22: 1,103 s of labelling at 58.7 frames/s/core left 2.5 min, where rounds 19-21 kept their best
    # state after one epoch of ~100 s, past the warm-up); the round then ends after DEADLINE_S and call3's stability
    # survey gets what is left of its call
    short=$minutes
    minutes=$(python3 -c "print(round(max($short, ${TRAIN_MIN_S:-300} / 60), 2))")
    if [[ $minutes != "$short" ]]; then
      echo "the deadline leaves $short min for the training, under TRAIN_MIN_S=${TRAIN_MIN_S:-300}: $minutes min," \
        "ending past DEADLINE_S"
    fi
    echo "training on GPUs $gpus ($n ranks) for $minutes min from $init"
    mkdir -p "$work/run"
    ( while sleep 60; do   # the best weights so far, where a later command finds them
        cp "$work/run/checkpoint.npz" "$out/checkpoint.npz" 2>/dev/null || true; done ) &
    saver=$!
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1   # never NVLink multicast
    export MASTER_ADDR=127.0.0.1 MASTER_PORT=${MASTER_PORT:-29533} WORLD_SIZE=$n CUDA_VISIBLE_DEVICES=$gpus
    pids=()
    multi_args "$work/run" "$minutes" "$init" "${HIDDEN:-128}"
    for ((r = n - 1; r >= 0; r--)); do
      RANK=$r LOCAL_RANK=$r $(pin "${TRAIN_CPUS:-}") python3 $tr/train.py "${train_args[@]}" > "$out/train_rank$r.txt" 2>&1 &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || echo "a training rank ended with $?"; done
    kill $saver 2>/dev/null || true
    cp "$work/run/state.npz" "$out/state_run.npz"; cp "$work/run/state_last.npz" "$out/state_run_last.npz" 2>/dev/null || true
    cp "$work/run/train_log.json" "$out/train_log_run.json"
    soup_pid=
    if [[ -n ${SOUP_ALPHA:-} ]]; then
      echo "INIT and the run's average at alpha $SOUP_ALPHA: exported and evaluated beside the run's"
      soup &
      soup_pid=$!
    fi
    export_v6 "$work/run" "$out/student-gfn2-v6.safetensors" "$work/v6.pt" | tee "$out/export_stdout.txt"
    export CUDA_VISIBLE_DEVICES=${gpu_list[0]}
    figures "$work/run/state.npz" "$out/eval.json" "$out/eval_stdout.txt"
    if [[ -n $soup_pid ]]; then wait "$soup_pid" || echo "the soup's export or figures ended with $?"; fi
    wait
    touch "$out/DONE"
    ;;
  weighting)
    # One GPU, detached across several commands: does weighing every frame alike (train.py --force-weighting
    # structure) take the tail of small molecules down? Data on DATA_CPUS (DATA_WORKERS processes), then two
    # fine-tunings from INIT (default the organic preview) side by side, ending by DEADLINE_S; the figures are taken
    # elsewhere (organic_eval.py on the same test frames, both beside INIT in one run).
    data_once
    init=${INIT:-forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors}
    minutes=$(python3 -c "print(round(($deadline - $SECONDS - 45) / 60, 2))")
    echo "two trainings on one GPU for $minutes min from $init"
    side_by_side "$minutes" atom "--init $init --force-weighting atom" structure "--init $init --force-weighting structure"
    touch "$out/DONE"
    ;;
  widths)
    # Detached across several commands: does a wider student (F = 256, widen.py's function-preserving copy of INIT)
    # fit the organic frames better than INIT's F = 128 given the same data and wall-clock budget? Data with DATA_OPTS
    # (the pools: --small, --conjugated, --rare, --motifs) on DATA_CPUS (DATA_WORKERS processes); ACTIVE_WITH_DATA=1: the active
    # round beside them and its frames in both arms' data, as multi's (on ACTIVE_GPUS, default ARM_GPUS: the round
    # ends before the training starts); then two fine-tunings, f128 from INIT and f256 from its widened copy:
    #  - ARM_GPUS unset: side by side on the one GPU (side_by_side; round of 2026-11-29, each had half the GPU);
    #  - ARM_GPUS (two GPU indices, e.g. 0,1): f128 alone on the first, f256 alone on the second (apart), each with
    #    multi's train.py options (BATCH, LR, LR_FINAL, WARMUP, SYSTEM_WEIGHTS, V5DATA, the active round's frames:
    #    f128 is what multi trains on one GPU), each pinned to half of TRAIN_CPUS where given; a wrong ARM_GPUS is
    #    refused before anything starts (arm_check).
    # Each exported with its domain (student-gfn2-v6-f128/-f256.safetensors; f128's also as student-gfn2-v6
    # .safetensors, which the window's call3 STABILITY=1 surveys) and their accuracy on the test frames
    # (organic_eval.py without the stability loop, which `molten stability` does for a model worth it), all by
    # DEADLINE_S; then DONE. With ARM_GPUS each arm's export and evaluation run at once, the evaluation on its GPU.
    workers=${DATA_WORKERS:-$(( cores > 1 ? cores - 1 : 1 ))}
    arm_check || exit 2
    if [[ -n ${ARM_GPUS:-} ]]; then ACTIVE_GPUS=${ACTIVE_GPUS:-$ARM_GPUS}; fi   # the active round's default GPUs
    init=${INIT:-forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors}
    round_data "$init"
    python3 $tr/widen.py --weights "$init" --out "$work/wide.npz" --noise 0.01 --seed 1
    if [[ -n ${ARM_GPUS:-} ]]; then
      # after the trainings (seconds): train.py's last validation and test, then each arm's export (~1 min, both at
      # once on the CPU) and its evaluation on its GPU (< 1 min): multi's 120 s for one export and one evaluation,
      # and 30 s for F = 256's larger export and the two sharing the cores
      minutes=$(python3 -c "print(round(($deadline - $SECONDS - 150) / 60, 2))")
      echo "two trainings for $minutes min, each on a GPU of its own: F = 128 from $init on GPU ${ARM_GPUS%%,*}," \
        "F = 256 from its widened copy on GPU ${ARM_GPUS##*,}"
      apart "$minutes" f128 "$init" 128 f256 "$work/wide.npz" 256
      arms_finish f128 f256
    else
      minutes=$(python3 -c "print(round(($deadline - $SECONDS - 240) / 60, 2))")   # 2 exports and 2 evaluations after
      echo "two trainings on one GPU for $minutes min: F = 128 from $init, F = 256 from its widened copy"
      side_by_side "$minutes" f128 "--init $init --hidden 128" f256 "--init $work/wide.npz --hidden 256"
      for n in f128 f256; do
        export_v6 "$work/run-$n" "$out/student-gfn2-v6-$n.safetensors" "$work/v6-$n.pt" > "$out/export_$n.txt"
      done
      cp "$out/student-gfn2-v6-f128.safetensors" "$out/student-gfn2-v6.safetensors"   # as above
      for n in f128 f256; do
        python3 $tr/organic_eval.py --weights "$work/run-$n/state.npz" --test "$work/data/organic-test.npz" \
          --independent $tr/testset-independent --out "$out/eval_$n.json" > "$out/eval_$n.txt" 2>&1 || echo "eval $n: $?"
      done
    fi
    wait
    touch "$out/DONE"
    ;;
  depths)
    # Detached across several commands: does a deeper student (T = 4 interaction blocks, deepen.py's function-preserving
    # copy of INIT: the new block the identity at the start) fit the organic frames better than INIT's T = 3 given the
    # same data and wall-clock budget? Width was level (round 12: F = 256 against F = 128); depth is issue 27's other
    # capacity axis. As widths with ARM_GPUS, which it requires (two GPU indices, refused before anything starts
    # without them: arm_check depths): data with DATA_OPTS on DATA_CPUS (DATA_WORKERS processes); ACTIVE_WITH_DATA=1:
    # the active round beside them (ACTIVE_GPUS, default ARM_GPUS) and its frames in both arms' data; then two
    # fine-tunings at F = 128, each alone on its GPU with multi's train.py options (apart): t3 from INIT with --layers 3
    # on the first of ARM_GPUS, t4 from the deepened copy with --layers 4 on the second, each pinned to half of
    # TRAIN_CPUS where given. Each exported with its domain (student-gfn2-v6-t3/-t4.safetensors, export.py's metadata
    # naming its layers; t3's also as student-gfn2-v6.safetensors, which the window's call3 STABILITY=1 surveys, and
    # STABILITY_ARM=t4 the t4 one beside it) and evaluated on the test frames on its GPU (eval_t3/eval_t4.json), all
    # by DEADLINE_S; then DONE. T = 4 costs about 4/3 of T = 3's GPU time a step, so it takes fewer steps in the same
    # minutes: the comparison is at equal wall-clock time, as widths' was.
    workers=${DATA_WORKERS:-$(( cores > 1 ? cores - 1 : 1 ))}
    arm_check depths || exit 2
    ACTIVE_GPUS=${ACTIVE_GPUS:-$ARM_GPUS}   # the active round's default GPUs: it ends before the arms train
    init=${INIT:-forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors}
    round_data "$init"
    python3 $tr/deepen.py --weights "$init" --out "$work/deep.npz" --layers 4 --seed 1
    # after the trainings: 150 s, as widths' two arms (train.py's last validation and test, the two exports at once on
    # the CPU, each evaluation on its GPU)
    minutes=$(python3 -c "print(round(($deadline - $SECONDS - 150) / 60, 2))")
    echo "two trainings for $minutes min, each on a GPU of its own: T = 3 from $init on GPU ${ARM_GPUS%%,*}," \
      "T = 4 from its deepened copy on GPU ${ARM_GPUS##*,}"
    apart "$minutes" t3 "$init" 128 t4 "$work/deep.npz" 128 3 4
    arms_finish t3 t4
    wait
    touch "$out/DONE"
    ;;
  *) echo "unknown phase $phase"; exit 2 ;;
esac
