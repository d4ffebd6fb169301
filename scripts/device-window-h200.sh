#!/usr/bin/env bash
# One device window on an nvidia-h200 machine (one H200, 16 cores), three commands of < 10 minutes chained so the
# machine stays warm (it is given back ~30 s after a command ends):
#   widths: issue 27's capacity question: the data as round1's (DATA_OPTS, EXTRA_WEIGHTS, ACTIVE_WITH_DATA=1's active
#          round beside them), then F = 128 from INIT (default the preview) and its widened F = 256 copy trained for the
#          same minutes, side by side on the one GPU, or with ARM_GPUS=0,1 (nvidia-h200-x2) each alone on its own GPU;
#          both exported and evaluated on the test frames, F = 128's export also as the round's weight file
#          (forcefield/training/device_organic.sh widths), detached, DEADLINE_S (default 1380) after this call's start;
#          call3 with STABILITY=1 surveys F = 128's export, with STABILITY_ARM=f256 (or STABILITY_F256=1, as before)
#          F = 256's beside it (below)
#   depths (instead of widths; nvidia-h200-x2, ARM_GPUS=0,1 required: refused without, exit 2, before anything
#          starts): issue 27's depth question, the same data and settings as widths with ARM_GPUS, then T = 3 from INIT
#          and deepen.py's T = 4 copy (both F = 128) trained for the same minutes, each alone on its GPU; both exported
#          (student-gfn2-v6-t3/-t4.safetensors, t3's also as the round's weight file) and evaluated on the test frames
#          (device_organic.sh depths), DEADLINE_S (default 1380); call3 with STABILITY=1 surveys t3's export, with
#          STABILITY_ARM=t4 the T = 4 one beside it on the second of ARM_GPUS (the Java engine runs T = 4 on its stage
#          kernels, MOLTEN_MAXT 4; the group kernel is T = 3 only)
#   call2: waits while the training runs, copies their best weights so far; with STABILITY_INIT=1 surveys INIT (default
#          the shipped preview) on the first of TRAIN_GPUS meanwhile (below)
#   call3: waits for the pipeline's DONE (or CALL_S), copies the final weights and logs; then, on the card, the
#          stability survey (STABILITY=1) and the engine's GroupCheck (CHECK_ENGINE=1), each where time is left
#   round1 (instead of widths): issue 27's round at F = 128 alone, the small-molecule pool in its data (device_organic.sh
#          multi on the one GPU and 15 cores); call2 and call3 then wait for it as above; TRAIN_PROFILE=1 profiles
#          train.py's step on the GPU while the data are labelled (below)
#   round-and-engine (instead of round1): the same round, and issue 29's engine measurements on the GPU alone first
#          (group-engine-run.sh, PyTorch's baseline) while its data are labelled; call3 with
#          STABILITY=1 then runs the stability survey of the round's export
#   SOUP_ALPHA=0.5 (round1, round-and-engine; a number in (0,1)): the round also exports and evaluates INIT and its
#          run's weight-space average (device_organic.sh soup); call3 with STABILITY=1 surveys it beside the export
#          on the second of TRAIN_GPUS (default 0,1), its files in stability-soup/; on one GPU after the export's,
#          or with STABILITY_ORDER=better the better of the two by the pipeline's figures first (soup_first)
#   stability, survey: a candidate weight file's GPU checks before it may replace the shipped preview (see below)
# Every call leaves ONE archive in $OUT (a call returns only a few files): window-<call>.tar.gz, in parts (pack).
# Carry: .device/data.tar.xz (v1-v5's data, where the sparse checkout leaves forcefield/training/data out),
# .model-payload/xtblib.tar.xz. (Issue 28's call1, main's constraint kernels beside branch cons-v2's while the
# weighting round ran, is in git history.)
set -uo pipefail
phase=$1
out=${OUT:-/tmp/window-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
work=.organic-run            # git-ignored, outlives one command while the machine stays warm
broot=${BUNDLE_ROOT:-/tmp/b} # where a carried bundle is unpacked, outliving one command as work does (tests: elsewhere)
stage=$(mktemp -d)           # what this call returns, packed into one archive at the end
# A file comes back only under 16 MiB (at most 8 of them): the archive is cut into 15 MiB parts
# (window-PHASE.tar.gz.0, .1, ...; `cat window-PHASE.tar.gz.* | tar -xz` joins them); once the pipeline is DONE
# its minute-by-minute checkpoints (the final states are there) and the test frames' tar (regenerated bit for bit
# by organic_data.py anywhere) stay behind.
pack() {
  mkdir -p "$stage/organic" && cp -r "$work/out/." "$stage/organic/" 2>/dev/null
  [[ -f $stage/organic/DONE ]] && rm -f "$stage"/organic/checkpoint*.npz "$stage/organic/testset-organic.tar.xz"
  # the test frames as organic_eval.py reads them (~7 MB; a fresh development machine need not label them again)
  cp "$work/data/organic-test.npz" "$stage/organic/" 2>/dev/null
  cp "$work/pipeline.log" "$stage/" 2>/dev/null
  tail -4 "$work/pipeline.log" 2>/dev/null
  tar -C "$stage" -czf - . | split -b 15M -d -a 1 - "$out/window-$phase.tar.gz." && ls -la "$out"
}
# v1-v5's six-molecule data, where the sparse checkout leaves forcefield/training/data out: unpacked into the
# ignored WORK (each command's copy of the checkout resets tracked paths), gzipped as the loaders read them
v5data() {
  if [[ -f .device/data.tar.xz ]]; then
    mkdir -p "$work/v5data" && XZ_OPT=-T0 tar -C "$work/v5data" -xJf .device/data.tar.xz
    ls "$work"/v5data/*.xyz | xargs -P 16 -n 1 gzip -1
    export V5DATA=$work/v5data
  fi
}
# TRAIN_GPUS (and ENGINE_GPU, where given) before anything starts: GPU indices separated by commas, each one this
# machine has (where nvidia-smi answers); a wrong one would otherwise fail the training after the data's minutes of
# labelling
check_gpus() {  # the setting's name, its value
  local n g list
  IFS=, read -r -a list <<< "$2"
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  for g in "${list[@]}"; do
    if [[ ! $g =~ ^[0-9]+$ ]] || { (( n > 0 )) && (( g >= n )); }; then
      echo "$phase: $1='$2' names GPU '$g', not one of this machine's ${n:-0} (nothing started)" >&2
      exit 2
    fi
  done
}
check_train_gpus() { check_gpus TRAIN_GPUS "${TRAIN_GPUS:-0}"; }
# ACTIVE_WITH_DATA=1 (the pipeline's active round beside the data): the pipeline's own check (active_check of
# forcefield/training/active_settings.sh, which device_organic.sh sources) here, before anything starts, with the
# settings the pipeline will be started with given as assignments before the call (as start_round1's): the pipeline
# runs detached, so its refusal would show only in pipeline.log while this call waited CALL_S for a DONE never coming
check_active() {
  [[ ${ACTIVE_WITH_DATA:-0} == 1 ]] || return 0
  local msg
  msg=$( { source forcefield/training/active_settings.sh && active_check; } 2>&1 ) && return 0
  echo "$phase: $msg" >&2
  exit 2
}
# widths' and depths' ARM_GPUS (two GPUs of this machine, not one twice, depths: required; TRAIN_CPUS a taskset list):
# the pipeline's own check (arm_check of active_settings.sh, given the phase) here, before anything starts, for the
# reason check_active gives
check_arms() {
  local msg
  msg=$( { source forcefield/training/active_settings.sh && arm_check "$phase"; } 2>&1 ) && return 0
  echo "$phase: $msg" >&2
  exit 2
}
# SOUP_ALPHA (the pipeline's average of INIT and its run, device_organic.sh soup): the pipeline's own check (soup_check
# of active_settings.sh) here, before anything starts, for the reason check_active gives: a wrong one would otherwise
# fail the average only after the training
check_soup() {
  [[ -n ${SOUP_ALPHA:-} ]] || return 0
  local msg
  msg=$( { source forcefield/training/active_settings.sh && soup_check; } 2>&1 ) && return 0
  echo "$phase: $msg" >&2
  exit 2
}
# until the pipeline's DONE, or 20 s before this call's CALL_S (default 570 s) ends; at once, returning 1, where this
# machine holds no running pipeline (start_pipeline's $work/pipeline.pid absent, or its process gone without a DONE).
# 2026-12-01: the tool gave the warm machine back between round1 and call2, and call2 waited its 530 s on a bare
# machine for a DONE that could not come, a third of the session's device time.
wait_done() {
  local left=$(( ${CALL_S:-570} - SECONDS )) pid
  while [[ ! -f $work/out/DONE ]] && (( left > 20 )); do
    pid=$(cat "$work/pipeline.pid" 2>/dev/null)
    if [[ -z $pid ]]; then
      echo "$phase: no round on this machine ($work/pipeline.pid absent: a fresh machine, the one round1 started" \
        "given back between calls?); not waiting" >&2
      return 1
    elif ! kill -0 "$pid" 2> /dev/null && [[ ! -f $work/out/DONE ]]; then
      echo "$phase: the pipeline (PID $pid) ended without DONE; its log's last lines:" >&2
      tail -5 "$work/pipeline.log" >&2 2> /dev/null
      return 1
    fi
    sleep 10; left=$(( ${CALL_S:-570} - SECONDS ))
  done
}
# the carried Java bundle (.device/g3.tar.xz, carried in this call or an earlier one of this machine) in $broot, once
unpack_bundle() {
  mkdir -p "$broot" && [[ -x $broot/g3/jre/bin/java ]] || XZ_OPT=-T0 tar -C "$broot" -xJf .device/g3.tar.xz
}

# The CUDA kernels that call3's stability survey needs (organic-stability-run.sh's class path: the bundle's jars, then
# the checkout's platform-cuda resources), before anything starts: the checkout's fatbin, or the carried bundle's
# platform-cuda jar holding one (KEEP_FATBIN=1 at bundling). Without either the survey falls back to the CPU and
# measures nothing: 2026-11-30's depths window lost both surveys so (a sparse checkout that left the fatbin out, a
# bundle built without it). NO_SURVEY=1: a window that runs no survey starts anyway.
kernels=platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin
check_kernels() {
  [[ ${NO_SURVEY:-0} == 1 || -f $kernels ]] && return 0
  local b=${BUNDLE_TAR:-.device/g3.tar.xz} t
  if [[ -f $b ]]; then
    t=$(mktemp -d)
    tar -C "$t" -xJf "$b" --wildcards '*/lib/platform-cuda-*.jar' 2>/dev/null
    if compgen -G "$t/*/lib/platform-cuda-*.jar" > /dev/null \
        && unzip -l "$t"/*/lib/platform-cuda-*.jar 2>/dev/null | grep 'molten_kernels\.fatbin$' > /dev/null; then
      rm -rf "$t"; return 0
    fi
    rm -rf "$t"
  fi
  echo "$phase: no CUDA kernels for call3's stability survey: the checkout has no $kernels (a sparse checkout leaves" \
    "it out?) and ${b} (carried: $([[ -f $b ]] && echo yes || echo no)) holds no platform-cuda jar with one" \
    "(KEEP_FATBIN=1 scripts/device-window-x4.sh bundle keeps it); the survey would run on the CPU. NO_SURVEY=1 starts" \
    "a window without a survey (nothing started)" >&2
  exit 2
}

# call3's STABILITY=1: the seconds a stability survey gets, STABILITY_S (default 300) or what is left of CALL_S less 30 s
# for the archive, whichever is less
stability_budget() {
  local b=${STABILITY_S:-300} left=$(( ${CALL_S:-570} - SECONDS - 30 ))
  (( left < b )) && b=$left
  echo "$b"
}
# MLIPAudit's stability survey (the bundle's organic-stability-run.sh, copied there) of weight file $1 on GPU $2 (empty:
# the GPUs this call sees) into the archive's $3/, cut at sbudget seconds
stability_survey() {
  local gpu=()
  if [[ -n $2 ]]; then gpu=(env CUDA_VISIBLE_DEVICES="$2"); fi
  "${gpu[@]}" env MODEL="$1" BUDGET="$sbudget" OUT="$stage/$3" bash "$broot/g3/organic-stability-run.sh"
}
# the words for a survey beside the export's (student-gfn2-v6-NAME.safetensors)   NAME
survey_name() { case $1 in f256) echo "F = 256" ;; t4) echo "T = 4" ;; soup) echo "the soup" ;; *) echo "$1" ;; esac; }

# The pipeline (device_organic.sh PHASE: multi for round1 and round-and-engine, widths, depths) detached, with the settings
# below; DEADLINE_S (default: DEFAULT seconds) after this call's start.   PHASE DEFAULT
start_pipeline() {
  # issue 27's next round (forcefield/training/README.md, "The small-molecule pool in the next round"): data with the
  # small-molecule pool on 15 cores (DATA_CPUS, DATA_WORKERS: fewer where a probe shares the machine), then training on the GPU from the preview, the v6 weight file with its domain,
  # the figures; call2/call3 wait and copy. Settings given to this call pass through as they are (INIT, TRAIN_CPUS,
  # ARM_GPUS, ACTIVE_*, WARMUP); the ones below get their defaults here (SOUP_ALPHA: none, no average; named here so
  # that it reaches the pipeline even where it was not exported).
  v5data
  mkdir -p "$work/out"
  # the file the round starts from, for call2's STABILITY_INIT=1 survey (a later command of this machine): given INIT
  # again there or not, call2 surveys this start, not the shipped preview it would otherwise default to
  if [[ -n ${INIT:-} ]]; then echo "$INIT" > "$work/init-path"; else rm -f "$work/init-path"; fi
  # bash reads a script as it runs: the pipeline runs a copy that the next command's copy of the checkout cannot touch
  cp forcefield/training/device_organic.sh "$work/device_organic.sh"
  # DATA_OPTS (default --small; "--small --conjugated" adds the conjugated pool, organic/conjugated.csv) and
  # EXTRA_WEIGHTS (e.g. "--system-weight organic-conjugated=3") for the pools beyond the small one
  # TRAIN_GPUS (default 0): "0,1" on an nvidia-h200-x2 machine (two ranks, data parallel; with DATA_CPUS=0-31
  # DATA_WORKERS=31 the data take about half the time), the same phases and calls otherwise
  # EVAL_BUDGET_S (default 0): no PyTorch stability loop in the pipeline's figures, since call3 (STABILITY=1) runs
  # MLIPAudit's protocol in Java on the export; round 9's loop reached 12 of 100 ps in its 120 s and scored nothing,
  # and those seconds now go to the training
  # TRAIN_MIN_S (default 300, device_organic.sh multi): the training's floor where the data leave the deadline less
  # (round 22's slow machine: 1,103 s of labelling); the round then ends past DEADLINE_S, call3's survey gets the rest
  # BATCH (frames a step per rank, default 256): the step is bound by the host's launches (round 7: 30 ms a step at
  # 256 frames of ~18 atoms, gfn2-v1: 22 ms at 64 frames of ~22), so 512 passes about twice the frames a second
  DATA_CPUS=${DATA_CPUS:-0-15} DATA_WORKERS=${DATA_WORKERS:-15} TRAIN_GPUS=${TRAIN_GPUS:-0} BATCH=${BATCH:-256} LR=${LR:-3e-4} LR_FINAL=1e-5 DATA_OPTS="${DATA_OPTS:---small}" \
    EVAL_BUDGET_S=${EVAL_BUDGET_S:-0} COMMIT=${COMMIT:-unknown} SOUP_ALPHA=${SOUP_ALPHA:-} \
    SYSTEM_WEIGHTS="--system-weight water=2 --system-weight ethanol=2 --system-weight benzene=2 --system-weight alanine-dipeptide=2 --system-weight ace-ala5-nme=3 --system-weight water-clusters=2 --system-weight organic-small=${SMALL_WEIGHT:-3} ${EXTRA_WEIGHTS:-}" \
    setsid nohup bash "$work/device_organic.sh" "$1" "$work" "$work/out" "${DEADLINE_S:-$2}" \
    > "$work/pipeline.log" 2>&1 < /dev/null &
  echo $! > "$work/pipeline.pid"   # wait_done's sign that this machine runs the round (setsid and nohup exec: bash's PID)
}
start_round1() { start_pipeline multi 1500; }

# The numeric settings, before anything starts: a BATCH or PROFILE_S that is not a whole number would otherwise fail
# the training after the data's minutes of labelling, or reach bash's arithmetic as 0 (a probe cut at once, a survey
# given no time)
for v in BATCH PROFILE_S PROFILE_CPU CALL_S STABILITY_S MEASURE_S DEADLINE_S EVAL_BUDGET_S TRAIN_MIN_S; do
  if [[ -n ${!v:-} && ! ${!v} =~ ^[0-9]+$ ]] || [[ $v == BATCH && ${!v:-1} == 0 ]]; then
    case $v in
      BATCH) what="a whole number of frames a step, at least 1" ;;
      PROFILE_CPU) what="a CPU core's index (a whole number)" ;;
      *) what="a whole number of seconds" ;;
    esac
    echo "$phase: $v='${!v}': expected $what (nothing started)" >&2
    exit 2
  fi
done
# STABILITY_ARM (call3): the arm whose export is surveyed beside the round's weight file, f256 (after widths; what
# STABILITY_F256=1 has always asked for) or t4 (after depths); anything else would survey nothing beside it unannounced
case ${STABILITY_ARM:-} in
  ""|f256|t4) ;;
  *) echo "$phase: STABILITY_ARM='$STABILITY_ARM': expected f256 or t4 (nothing started)" >&2; exit 2 ;;
esac
# STABILITY_ORDER (call3, one GPU and a soup): export (default) surveys the export first and the soup after it in what
# is left, better the one of the two whose pipeline figures are better first (soup_first); a typo would otherwise
# leave the order as it was unannounced
case ${STABILITY_ORDER:-} in
  ""|export|better) ;;
  *) echo "$phase: STABILITY_ORDER='$STABILITY_ORDER': expected export or better (nothing started)" >&2; exit 2 ;;
esac
# STABILITY_ORDER=better: true where the soup's pipeline figures (eval-soup.json) are better than the export's
# (eval.json): the test frames' force MAE medians and p95 at 300 K and 600 K summed, eV/A, lower is better. On one
# card only the first survey is sure of its time, so it goes to the model the round would ship. Without both files,
# false (the export first, as before), said.
soup_first() {
  python3 - "$work/out/eval.json" "$work/out/eval-soup.json" <<'PY'
import json, sys
def score(path):
    s = json.load(open(path))["organic_test"]["summary"]
    return sum(s[t][k] for t in ("300K", "600K") for k in ("median_force_mae", "p95_force_mae"))
try:
    export, soup = score(sys.argv[1]), score(sys.argv[2])
except (OSError, KeyError, ValueError) as e:
    print(f"STABILITY_ORDER=better: no figures to compare ({e}): the export's survey first")
    sys.exit(1)
first = "soup" if soup < export else "export"
print(f"STABILITY_ORDER=better: medians + p95 at 300 K and 600 K, export {export:.4f}, soup {soup:.4f} eV/A: "
      f"the {first}'s survey first")
sys.exit(0 if soup < export else 1)
PY
}

# the training-step probe (TRAIN_PROFILE=1, see round1) for at most $1 seconds pinned to core $2, on the first
# TRAIN_GPUS GPU, into the archive's organic/train-profile/; a failed probe leaves the round as it was
train_profile() {
  local prof=$work/out/train-profile gpu0=${TRAIN_GPUS:-0}
  mkdir -p "$prof"
  CUDA_VISIBLE_DEVICES=${gpu0%%,*} OMP_NUM_THREADS=1 timeout -k 10 "$1" taskset -c "$2" \
    python3 scripts/probes/train_step_profile.py --device cuda --out "$prof" --budget-s $(( $1 - 30 )) \
    > "$prof/probe.log" 2>&1 || echo "$phase: the training-step probe ended with $? (the round goes on)"
}

case "$phase" in
  widths|depths)
    # depths: as widths with ARM_GPUS, which it requires (check_arms: arm_check depths), T = 3 against T = 4.
    # The settings as round1's (start_pipeline; LR 3e-4 now, not the 5e-4 of 2026-11-29's widths round, which cost the
    # older six: training README), and ARM_GPUS; refused before anything starts: a wrong ARM_GPUS, ACTIVE_WITH_DATA=1's
    # settings (ACTIVE_GPUS default ARM_GPUS, as the pipeline's: the active round ends before the arms train, so the
    # two may name the same GPUs), a file not carried
    check_arms
    if [[ -n ${ARM_GPUS:-} ]]; then ACTIVE_GPUS=${ACTIVE_GPUS:-$ARM_GPUS} check_active; else check_active; fi
    v5=; [[ -d forcefield/training/data ]] || v5=.device/data.tar.xz   # as round1
    for f in .model-payload/xtblib.tar.xz ${INIT:+"$INIT"} $v5; do
      [[ -f $f ]] || { echo "$phase: $f was not carried (nothing started)" >&2; exit 2; }
    done
    check_kernels
    start_pipeline "$phase" 1380
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    wait_done || no_round=1
    pack
    ;;
  round1)
    check_train_gpus
    check_soup
    if [[ ${TRAIN_PROFILE:-0} == 1 ]]; then   # the probe's gate and data cores, as the round is started below
      DATA_CPUS=${DATA_CPUS:-0-14} GPU_GATE=$PWD/$work/GPU_FREE check_active
    else
      check_active
    fi
    # v1-v5's data: the checkout's, or .device/data.tar.xz where a sparse checkout leaves them out
    v5=; [[ -d forcefield/training/data ]] || v5=.device/data.tar.xz
    for f in .model-payload/xtblib.tar.xz ${INIT:+"$INIT"} $v5; do
      [[ -f $f ]] || { echo "round1: $f was not carried (nothing started)" >&2; exit 2; }
    done
    check_kernels
    if [[ ${TRAIN_PROFILE:-0} == 1 ]]; then
      # TRAIN_PROFILE=1: where train.py's step spends its time (issue 27's training: 29.6 ms at 256 frames a step,
      # 47.5 ms at 512, so at 512 the GPU's work dominates, in kernels not yet known), measured while the round's
      # data are labelled and the GPU is idle (about 440 s): scripts/probes/train_step_profile.py at 256, 512 and
      # 1,024 frames a step (ms/step, phases, torch.profiler's top ops and kernels, launches a step) on the first
      # TRAIN_GPUS GPU, pinned to PROFILE_CPU (default 15), cut at PROFILE_S (default 240) seconds; its files come
      # back in the archive's organic/train-profile/. The data then default to DATA_CPUS=0-14 (15 workers as before,
      # the pool's parent, which mostly waits, on their cores) so that no labelling process perturbs the probe's
      # host side (the launches: ~11.6 ms of the 29.6 ms step at 256 frames); with DATA_CPUS given, keep PROFILE_CPU
      # outside it. The training waits for the probe through the pipeline's GPU gate (device_organic.sh GPU_GATE, as
      # round-and-engine), opened when the probe ends or fails: within PROFILE_S + 10 s of the pipeline's start, well
      # before the data are ready, so the round is neither delayed nor shares the GPU (were this call cut first, the
      # gate gives way GPU_GATE_S = 300 s after the data); a failed probe leaves the round as it was.
      rm -f "$work/GPU_FREE"
      DATA_CPUS=${DATA_CPUS:-0-14} GPU_GATE=$PWD/$work/GPU_FREE start_round1
      train_profile "${PROFILE_S:-240}" "${PROFILE_CPU:-15}"
      touch "$work/GPU_FREE"
      echo "GPU handed to the round after $SECONDS s"
      grep -h "ms/step\|^check\|cut" "$work/out/train-profile/train-step-profile.txt" 2>/dev/null
    else
      start_round1
    fi
    wait_done || no_round=1
    pack
    ;;
  round-and-engine)
    # issue 27's round (as round1) and issue 29's engine measurements in one call, the GPU to the measurements alone:
    # the round's data are labelled on DATA_CPUS (default 0-12) while the measurements run on PROBE_CPUS (13-15) and
    # the card; the training waits for the gate file (device_organic.sh GPU_GATE) that the measurements create when
    # they end. Measurements (logs in the archive's organic/engine/): the bundle's group-engine-run.sh (GroupCheck and
    # `molten bench --replicas`, the group kernel's paths against the stage kernels), PyTorch's batched baseline
    # beside them (torch_replica_bench.py, 1,024 ethanols and 256 alanine dipeptides). (The group-force probe's
    # variants that followed them left with the probe: git history, commit 8312246.)
    # Carry: .device/g3.tar.xz (rebuilt with the engine to measure: NO_SWEEP=1 scripts/device-window-x4.sh bundle,
    # 20.8 MB), .device/data.tar.xz (only where the sparse checkout leaves forcefield/training/data out, as round1),
    # .model-payload/xtblib.tar.xz, with the sparse checkout of call1 (about 62.5 MB in all).
    # ENGINE: group (the default, and the only value since the variants mode left with scripts/group-variants-run.sh,
    # its variants measured: docs/performance-notes.md, 2026-11-29)
    # ENGINE_GPU (on nvidia-h200-x2, e.g. 1; default: none): the engine's measurements on that GPU alone while, with
    # TRAIN_PROFILE=1, the training-step probe runs at the same time on the first TRAIN_GPUS GPU (pinned to
    # PROFILE_CPU, default 15; keep it outside DATA_CPUS and PROBE_CPUS), so both fit in the data's few minutes on 28
    # cores; without it, the probe follows the engine on one GPU as before
    case ${ENGINE:-group} in
      group) ;;
      *) echo "round-and-engine: ENGINE='$ENGINE' is not group, the only engine measurement (nothing started)" >&2
         exit 2 ;;
    esac
    check_train_gpus
    check_soup
    engine_env=()
    if [[ -n ${ENGINE_GPU:-} ]]; then
      check_gpus ENGINE_GPU "$ENGINE_GPU"
      pgpu=${TRAIN_GPUS:-0}
      if [[ $ENGINE_GPU == *,* ]] || [[ ${TRAIN_PROFILE:-0} == 1 && $ENGINE_GPU == "${pgpu%%,*}" ]]; then
        echo "round-and-engine: ENGINE_GPU='$ENGINE_GPU' must be one GPU, not the probe's (the first of" \
          "TRAIN_GPUS='${TRAIN_GPUS:-0}') (nothing started)" >&2
        exit 2
      fi
      engine_env=(env CUDA_VISIBLE_DEVICES="$ENGINE_GPU")
    fi
    # the gate and data cores as the round is started below (ENGINE_GPU and TRAIN_PROFILE as given)
    DATA_CPUS=${DATA_CPUS:-0-12} DATA_WORKERS=${DATA_WORKERS:-13} GPU_GATE=$PWD/$work/GPU_FREE check_active
    bundle_tar=${BUNDLE_TAR:-.device/g3.tar.xz}
    v5=; [[ -d forcefield/training/data ]] || v5=.device/data.tar.xz   # as round1
    for f in "$bundle_tar" $v5 .model-payload/xtblib.tar.xz ${INIT:+"$INIT"}; do
      [[ -f $f ]] || { echo "round-and-engine: $f was not carried (nothing started)" >&2; exit 2; }
    done
    check_kernels
    mkdir -p "$broot" && XZ_OPT=-T0 tar -C "$broot" -xJf "$bundle_tar"
    rm -f "$work/GPU_FREE"
    DATA_CPUS=${DATA_CPUS:-0-12} DATA_WORKERS=${DATA_WORKERS:-13} GPU_GATE=$PWD/$work/GPU_FREE start_round1
    probe=${PROBE_CPUS:-13-15}
    # everything measured goes to $work/out/engine (packed by this call, and by call2 should this call be cut), and
    # the measurements end within MEASURE_S (default 420) seconds of the call's start: each step gets at most its cap
    # and what is left, a step with less than 30 s left is skipped, so the gate opens and the call packs in time
    eng=$work/out/engine
    mkdir -p "$eng"
    cap() { local c=$1 left=$(( ${MEASURE_S:-420} - SECONDS - 10 )); (( left < c )) && c=$left; echo "$c"; }
    probe_pid=
    if [[ -n ${ENGINE_GPU:-} && ${TRAIN_PROFILE:-0} == 1 ]]; then
      train_profile "$(cap "${PROFILE_S:-240}")" "${PROFILE_CPU:-15}" &
      probe_pid=$!
    fi
    if (( $(cap 300) >= 30 )); then
      OUT=$eng "${engine_env[@]}" timeout "$(cap 300)" taskset -c "$probe" bash "$broot"/g3/group-engine-run.sh \
        > "$eng/group-engine-run.log" 2>&1
      tail -30 "$eng/group-engine-run.log"
    fi
    model=$PWD/forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors
    # PyTorch's batched baseline beside the engine's figures (issue 29's figures stand only with it rerun in the same
    # call), in what is left of MEASURE_S; the checkout's script (a bundle built on another branch may carry an older
    # copy), the bundle's molecules
    for spec in 1024:ethanol 256:alanine-dipeptide; do
      IFS=: read -r r m <<< "$spec"
      (( $(cap 70) >= 30 )) || { echo "no time left for PyTorch's $m"; continue; }
      "${engine_env[@]}" timeout "$(cap 70)" taskset -c "$probe" python3 scripts/torch_replica_bench.py "$model" \
        "$broot/g3/molecules/$m.xyz" "$r" "$eng/torch-$m.tsv" 2>&1 | grep -v -i warn | tail -2
    done
    # TRAIN_PROFILE=1 here too: the training-step probe (round1) after the engine's figures, in what is left of
    # MEASURE_S (at most PROFILE_S, default 240; not under 90 s), on the last of PROBE_CPUS
    if [[ -n $probe_pid ]]; then
      wait "$probe_pid"
    elif [[ ${TRAIN_PROFILE:-0} == 1 ]]; then
      if (( $(cap "${PROFILE_S:-240}") >= 90 )); then
        train_profile "$(cap "${PROFILE_S:-240}")" "${probe##*[-,]}"
      else
        echo "round-and-engine: $(( ${MEASURE_S:-420} - SECONDS - 10 )) s left of MEASURE_S, too little for the training-step probe (not started)"
      fi
    fi
    touch "$work/GPU_FREE"
    echo "GPU handed to the training after $SECONDS s"
    wait_done || no_round=1
    pack
    ;;
  stability|survey)
    # a candidate weight file (CANDIDATE, carried; e.g. .model-payload/organic-candidate-halfway-2026-11-29.safetensors)
    # before it may replace the shipped preview: MLIPAudit's stability protocol over the 144 independent molecules as
    # one GPU batch (stability, ~200 s), or the validate survey over them (survey, ~420 s on 16 cores and the card).
    # Carry: .device/g3.tar.xz (the Java bundle), CANDIDATE, and for survey .model-payload/xtblib.tar.xz.
    [[ -f ${CANDIDATE:-} ]] || { echo "CANDIDATE (a .safetensors file, carried) is not there: '${CANDIDATE:-}'" >&2; exit 2; }
    mkdir -p "$broot" && XZ_OPT=-T0 tar -C "$broot" -xJf .device/g3.tar.xz
    if [[ $phase == stability ]]; then
      cp scripts/organic-stability-run.sh "$broot"/g3/   # it finds the JRE and jars beside itself
      MODEL=$PWD/$CANDIDATE BUDGET=${BUDGET:-420} OUT=$stage/stability bash "$broot"/g3/organic-stability-run.sh | tail -25
    else
      mkdir -p "$work" && tar -C "$work" -xJf .model-payload/xtblib.tar.xz
      MOLTEN="$broot"/g3 MODEL=$PWD/$CANDIDATE DEVICE=cuda LIBXTB_DIR=$PWD/$work/lib PARALLEL=16 BUDGET=${BUDGET:-460} \
        STABILITY=0 OUT=$stage/survey bash scripts/organic-validate-survey.sh | tail -25
    fi
    tar -C "$stage" -czf - . | split -b 15M -d -a 1 - "$out/window-$phase.tar.gz." && ls -la "$out"
    ;;
  call2|call3)
    # STABILITY_INIT=1 (call2): the same survey of INIT (given here, else the one call1 started the round from, else
    # the shipped preview; a file in this checkout or carried) on the first of TRAIN_GPUS (default 0,1) while the training runs, in STABILITY_S or what is
    # left of CALL_S less 30 s, files in the archive's stability-init/. For a preview shipped before its own survey
    # (round 14's midpoint, made after its machine was gone); it slows the training beside it for ~200 s.
    init_pid=
    if [[ ${STABILITY_INIT:-0} == 1 && $phase == call2 ]]; then
      sinit=${INIT:-$(cat "$work/init-path" 2>/dev/null)}   # call1's INIT, recorded by start_pipeline
      sinit=${sinit:-forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors}
      sbudget=$(stability_budget)
      if [[ ! -f $sinit ]]; then
        echo "$phase: INIT '$sinit' is not there: no survey of it"
      elif (( sbudget >= 60 )); then
        unpack_bundle
        cp scripts/organic-stability-run.sh "$broot/g3/"
        IFS=, read -r -a tgpus <<< "${TRAIN_GPUS:-0,1}"
        stability_survey "$PWD/$sinit" "${tgpus[0]}" stability-init > "$stage/stability-init.txt" 2>&1 &
        init_pid=$!
      else
        echo "$phase: ${sbudget} s left of CALL_S=${CALL_S:-570}, too little for INIT's stability survey (not started)"
      fi
    fi
    wait_done || no_round=1
    if [[ -n $init_pid ]]; then
      wait "$init_pid"
      echo "INIT's survey: exit $?"; tail -4 "$stage/stability-init.txt"
    fi
    grep -h "epoch\|stopped\|kept" "$work"/out/train_*.txt 2>/dev/null | tail -8
    # STABILITY=1 (call3): MLIPAudit's stability survey of the round's export on the card once the pipeline is DONE
    # (about 200 s for the 144 molecules; needs .device/g3.tar.xz, carried in this call or an earlier one of this
    # machine). It gets STABILITY_S (default 300) or what is left of CALL_S less 30 s for the archive, whichever is
    # less, so the call ends within CALL_S: round 8's first call3 waited for the pipeline, then ran the survey past
    # the tool's limit and came back with nothing. Under 60 s left it is not started (a next call3 runs it).
    # STABILITY_ARM=f256 (after widths; STABILITY_F256=1 says the same): the same survey of the F = 256 arm's export
    # (student-gfn2-v6-f256.safetensors) at the same time on the second of ARM_GPUS (default 0,1), the F = 128 one's
    # on the first, with the same budget, its files in the archive's stability-f256/. STABILITY_ARM=t4 (after
    # depths): the same of the T = 4 arm's export (student-gfn2-v6-t4.safetensors, stability-t4/) beside T = 3's; the
    # CUDA engine runs T = 4 on its stage kernels (MOLTEN_MAXT 4), as every mixed batch of this survey. The CUDA engine takes F = 256 (DeviceWeights: a multiple of 32 up to
    # 256; the group kernel only F = 128 and replicas of one size, so this mixed batch runs on the stage kernels
    # either way) but no F = 256 file has run on a card yet, and at about twice to four times the dense work a step it
    # may be cut before 100 ps: its stability.json then says how far it came (frames_done, time_done_ps).
    # The round's average of INIT and its run (student-gfn2-v6-soup.safetensors, SOUP_ALPHA), wherever the pipeline
    # wrote one: the same survey at the same time on the second of TRAIN_GPUS (default 0,1), the export's on the
    # first, with the same budget, its files in stability-soup/ (a model may replace the shipped preview only after
    # it). Where TRAIN_GPUS names one GPU, or nvidia-smi lists one, it follows the export's survey there in what is
    # left of CALL_S (not under 60 s), so the export's survey is as it was. Without the file, nothing changes.
    if [[ ${STABILITY:-0} == 1 && -f $work/out/DONE && -f $work/out/student-gfn2-v6.safetensors ]]; then
      sbudget=$(stability_budget)
      if (( sbudget >= 60 )); then
        unpack_bundle
        cp scripts/organic-stability-run.sh "$broot/g3/"
        IFS=, read -r -a sgpus <<< "${ARM_GPUS:-0,1}"
        IFS=, read -r -a tgpus <<< "${TRAIN_GPUS:-0,1}"
        sgpu=     # the export's survey on the first GPU where another runs beside it, else as before (none named)
        beside=() # NAME GPU ... of the surveys at the same time beside it (student-gfn2-v6-NAME.safetensors)
        after=    # the soup's survey after it, on its one GPU
        sarm=${STABILITY_ARM:-}
        if [[ -z $sarm && ${STABILITY_F256:-0} == 1 ]]; then sarm=f256; fi
        if [[ -n $sarm && -f $work/out/student-gfn2-v6-$sarm.safetensors ]]; then
          sgpu=${sgpus[0]}; beside+=("$sarm" "${sgpus[1]}")
        elif [[ -n $sarm ]]; then
          echo "$phase: no student-gfn2-v6-$sarm.safetensors in the pipeline's output:" \
            "$([[ $sarm == t4 ]] && echo "T = 3" || echo "F = 128")'s survey alone"
        fi
        if [[ -f $work/out/student-gfn2-v6-soup.safetensors ]]; then
          if [[ -z ${tgpus[1]:-} ]] || (( $(nvidia-smi -L 2>/dev/null | grep -c '^GPU ') == 1 )); then
            after=${tgpus[0]}
          else
            sgpu=${sgpu:-${tgpus[0]}}; beside+=(soup "${tgpus[1]}")
          fi
        fi
        first=student-gfn2-v6 first_dir=stability later=soup   # the survey sure of its time; the one after it
        if [[ -n $after && ${STABILITY_ORDER:-} == better ]] && soup_first; then
          first=student-gfn2-v6-soup first_dir=stability-soup later=export
        fi
        pids=()
        for ((i = 0; i < ${#beside[@]}; i += 2)); do
          stability_survey "$PWD/$work/out/student-gfn2-v6-${beside[i]}.safetensors" "${beside[i + 1]}" \
            "stability-${beside[i]}" > "$stage/stability-${beside[i]}.txt" 2>&1 &
          pids+=($!)
        done
        stability_survey "$PWD/$work/out/$first.safetensors" "$sgpu" "$first_dir" | tail -4
        for ((i = 0; i < ${#pids[@]}; i++)); do
          wait "${pids[i]}"
          rc=$?
          echo "$(survey_name "${beside[2 * i]}")'s survey: exit $rc"; tail -4 "$stage/stability-${beside[2 * i]}.txt"
        done
        if [[ -n $after ]]; then
          sbudget=$(stability_budget)
          if (( sbudget >= 60 )); then
            if [[ $later == soup ]]; then lfile=student-gfn2-v6-soup ldir=stability-soup; else lfile=student-gfn2-v6 ldir=stability; fi
            stability_survey "$PWD/$work/out/$lfile.safetensors" "$after" "$ldir" > "$stage/$ldir.txt" 2>&1
            rc=$?   # before the words below: a command substitution there would reset $?
            echo "the $later's survey (after the $([[ $later == soup ]] && echo export || echo soup)'s, on GPU $after):" \
              "exit $rc"; tail -4 "$stage/$ldir.txt"
          else
            echo "$phase: ${sbudget} s left of CALL_S=${CALL_S:-570}, too little for the $later's stability survey" \
              "after the $([[ $later == soup ]] && echo export || echo soup)'s on its one GPU (not started)"
          fi
        fi
      else
        echo "$phase: ${sbudget} s left of CALL_S=${CALL_S:-570}, too little for the stability survey (not started)"
      fi
    fi
    # CHECK_ENGINE=1 (call3): the bundle's group-engine-run.sh (GroupCheck of the group kernel's defaults against the
    # float64 reference, then molten bench of them) in what is left of CALL_S less 30 s for the archive, not under
    # 30 s; logs in the archive's engine/. For a window whose GPUs all go to the round: the card still checks the
    # engine's defaults (k_group_n22_tc was measured on a card only under its earlier name, k_group_n24_tc_p)
    if [[ ${CHECK_ENGINE:-0} == 1 && $phase == call3 ]]; then
      eleft=$(( ${CALL_S:-570} - SECONDS - 30 ))
      if (( eleft >= 30 )); then
        unpack_bundle
        mkdir -p "$stage/engine"
        OUT=$stage/engine timeout "$eleft" bash "$broot/g3/group-engine-run.sh" \
          > "$stage/engine/group-engine-run.log" 2>&1
        echo "engine check: exit $? after $SECONDS s"
        grep -hE "^FAIL|group check" "$stage/engine/group-check.txt" 2>/dev/null | tail -3
      else
        echo "$phase: ${eleft} s left of CALL_S=${CALL_S:-570}, too little for the engine check (not started)"
      fi
    fi
    pack
    ;;
  *) echo "unknown phase $phase (widths|depths|round1|round-and-engine|call2|call3|stability|survey)" >&2; exit 2 ;;
esac
# wait_done found no running round (a fresh machine, or a pipeline that ended without DONE): the call's archive holds
# what there was, and its exit status says so
[[ -z ${no_round:-} ]] || exit 3
