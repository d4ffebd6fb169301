# shellcheck shell=bash
# ACTIVE_WITH_DATA=1's checks (and widths' ARM_GPUS, arm_check; multi's SOUP_ALPHA, soup_check), sourced by
# device_organic.sh (multi and widths refuse before anything starts, when run by hand) and by
# scripts/device-window-h200.sh (round1, round-and-engine, widths: the pipeline runs detached there, so its own refusal
# would show only in pipeline.log while the window's call waited CALL_S for a DONE that never comes). One file, so that
# the window and the pipeline cannot disagree on what the measurements hold. Functions only.

# GPU indices (comma-separated) that the measurements sharing the machine hold while the data are labelled
# (GPU_GATE: they want them to themselves until they create the gate file): with TRAIN_PROFILE=1 the training-step
# probe's (the first of TRAIN_GPUS; listed first, as the setting that chose it), ENGINE_GPU where given, else 0 (the
# measurements' default device); ENGINE_GPU is held whenever it is given. One "SETTING='VALUE' GPUS" a line.
held_gpus() {
  if [[ -n ${GPU_GATE:-} && ${TRAIN_PROFILE:-0} == 1 ]]; then
    local first=${TRAIN_GPUS:-0}
    echo "TRAIN_PROFILE=1 (the probe on the first of TRAIN_GPUS='${TRAIN_GPUS:-0}') ${first%%,*}"
  fi
  if [[ -n ${ENGINE_GPU:-} ]]; then echo "ENGINE_GPU='$ENGINE_GPU' $ENGINE_GPU"
  elif [[ -n ${GPU_GATE:-} ]]; then echo "GPU_GATE (the measurements' default device, ENGINE_GPU unset) 0"; fi
  return 0
}
# ACTIVE_WITH_DATA=1's settings before anything starts, else a message and 2: ACTIVE_MD_S, ACTIVE_BUDGET_S,
# ACTIVE_WORKERS, ACTIVE_ROUND and ACTIVE_WEIGHT whole numbers (they would fail the round only after it started, or
# reach bash's arithmetic as 0); ACTIVE_GPUS (default TRAIN_GPUS) GPU indices, none held by the measurements
# (held_gpus: the MD would disturb what they measure, and the two would share a GPU's memory)
active_check() {
  local gpus=${ACTIVE_GPUS:-${TRAIN_GPUS:-0}} list g line what held h v
  for v in ACTIVE_MD_S ACTIVE_BUDGET_S ACTIVE_WORKERS ACTIVE_ROUND ACTIVE_WEIGHT; do
    if [[ -n ${!v:-} && ! ${!v} =~ ^[0-9]+$ ]]; then
      echo "$v='${!v}': expected a whole number (nothing started)" >&2
      return 2
    fi
  done
  IFS=, read -r -a list <<< "$gpus"
  for g in "${list[@]}"; do
    if [[ ! $g =~ ^[0-9]+$ ]]; then
      echo "ACTIVE_GPUS='$gpus' names '$g', not a GPU index (nothing started)" >&2
      return 2
    fi
    while read -r line; do
      [[ -n $line ]] || continue
      what=${line% *}
      IFS=, read -r -a held <<< "${line##* }"
      for h in "${held[@]}"; do
        if [[ $g == "$h" ]]; then
          echo "ACTIVE_GPUS='$gpus' and $what both name GPU $g: the measurements want it to themselves while the" \
            "data are labelled; give ACTIVE_GPUS without it (nothing started)" >&2
          return 2
        fi
      done
    done <<< "$(held_gpus)"
  done
}

# widths' ARM_GPUS (device_organic.sh widths: the F = 128 arm alone on the first GPU, F = 256 on the second) before
# anything starts, else a message and 2: two GPU indices, not the same one twice (then both arms would share it
# unannounced: leave ARM_GPUS out for that), each one this machine has where nvidia-smi answers; TRAIN_CPUS, where
# given, a taskset list of cores (halved between the arms). Here and not only in the pipeline, since the window
# (scripts/device-window-h200.sh widths) starts the pipeline detached, where a refusal would show only in pipeline.log.
# `arm_check depths`: depths' arms (T = 3 on the first GPU, T = 4 on the second), where ARM_GPUS is required (depths
# has no side-by-side mode on one GPU).
arm_check() {
  local list g n arms="the F = 128 arm's and the F = 256 arm's"
  if [[ ${1:-} == depths ]]; then
    arms="the T = 3 arm's and the T = 4 arm's"
    if [[ -z ${ARM_GPUS:-} ]]; then
      echo "ARM_GPUS is not set: depths trains its two arms each alone on a GPU of its own; give two GPU indices," \
        "$arms, e.g. ARM_GPUS=0,1 on nvidia-h200-x2 (nothing started)" >&2
      return 2
    fi
  fi
  [[ -n ${ARM_GPUS:-} ]] || return 0
  IFS=, read -r -a list <<< "$ARM_GPUS"
  if (( ${#list[@]} != 2 )) || [[ $ARM_GPUS == *, || $ARM_GPUS == ,* ]]; then
    echo "ARM_GPUS='$ARM_GPUS': expected two GPU indices, $arms (nothing started)" >&2
    return 2
  fi
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
  for g in "${list[@]}"; do
    if [[ ! $g =~ ^[0-9]+$ ]] || { (( n > 0 )) && (( g >= n )); }; then
      echo "ARM_GPUS='$ARM_GPUS' names GPU '$g', not one of this machine's ${n:-0} (nothing started)" >&2
      return 2
    fi
  done
  if (( list[0] == list[1] )); then
    echo "ARM_GPUS='$ARM_GPUS' names GPU ${list[0]} twice: each arm has a GPU of its own$([[ ${1:-} == depths ]] ||
      echo " (without ARM_GPUS both share one)") (nothing started)" >&2
    return 2
  fi
  if [[ -n ${TRAIN_CPUS:-} && ! $TRAIN_CPUS =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]]; then
    echo "TRAIN_CPUS='$TRAIN_CPUS': expected a taskset list of cores such as 0-31 (nothing started)" >&2
    return 2
  fi
}

# multi's SOUP_ALPHA (device_organic.sh soup: INIT and the run's average, interpolate.py) before anything starts, else
# a message and 2: empty (no average), or a number strictly between 0 and 1 written as 0.5 or .5 (the run's share; 0
# and 1 are INIT and the run themselves). Here and not only in the pipeline, for the reason arm_check gives: a wrong
# one would otherwise fail only the average, after the window's training.
soup_check() {
  [[ -n ${SOUP_ALPHA:-} ]] || return 0
  if [[ ! $SOUP_ALPHA =~ ^0?\.[0-9]*[1-9][0-9]*$ ]]; then
    echo "SOUP_ALPHA='$SOUP_ALPHA': expected a number between 0 and 1 (exclusive), the run's share in its average" \
      "with INIT, e.g. 0.5 (nothing started)" >&2
    return 2
  fi
}
