# shellcheck shell=bash
# ACTIVE_WITH_DATA=1's checks, sourced by device_organic.sh (multi refuses before anything starts, when run by hand)
# and by scripts/device-window-h200.sh (round1, round-and-engine: the pipeline runs detached there, so its own
# refusal would show only in pipeline.log while the window's call waited CALL_S for a DONE that never comes). One
# file, so that the window and the pipeline cannot disagree on what the measurements hold. Functions only.

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
