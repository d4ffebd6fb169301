#!/usr/bin/env bash
# One device window on an nvidia-h200 machine (one H200, 16 cores), three commands of < 10 minutes chained so the
# machine stays warm (it is given back ~30 s after a command ends):
#   call1: unpack the bundles; start forcefield/training/device_organic.sh weighting detached (issue 27: data on
#          cores 3-15, then two fine-tunings side by side on the GPU, the force loss per atom against per structure);
#          meanwhile, on cores 0-2 and the GPU (the data phase leaves the GPU idle), issue 28's constraint solve:
#          main's kernel image (kA) against branch cons-v2's (kB), alanine dipeptide at 0.5 fs and at 2 fs with
#          h-bonds constraints, three rounds alternating kA, kB; then 1,024 ethanols at both timesteps with each
#   call2: waits while the trainings run, copies their best weights so far
#   call3: waits for the pipeline's DONE (or CALL_S), copies the final weights and logs
#   round1 (instead of call1): issue 27's next round alone, the small-molecule pool in its data (device_organic.sh
#          multi on the one GPU and 15 cores); call2 and call3 then wait for it as above
# Every call leaves ONE archive in $OUT (a call returns only a few files): window-<call>.tar.gz.
# Carry: .device/g3.tar.xz (scripts/device-window-x4.sh bundle, without the sweep's jars), .device/kab.tar.xz (kB/
# org/molten/forcefield/cuda/molten_kernels.{fatbin,manifest}: the other build; kA is main's, the checkout's own), .device/data.tar.xz (v1-v5's data,
# where the sparse checkout leaves forcefield/training/data out), .model-payload/xtblib.tar.xz.
set -uo pipefail
phase=$1
out=${OUT:-/tmp/window-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
work=.organic-run            # git-ignored, outlives one command while the machine stays warm
b=/tmp/b
stage=$(mktemp -d)           # what this call returns, packed into one archive at the end
pack() {
  mkdir -p "$stage/organic" && cp -r "$work/out/." "$stage/organic/" 2>/dev/null
  cp "$work/pipeline.log" "$stage/" 2>/dev/null
  tail -4 "$work/pipeline.log" 2>/dev/null
  tar -C "$stage" -czf "$out/window-$phase.tar.gz" . && ls -la "$out"
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
# until the pipeline's DONE, or 20 s before this call's CALL_S (default 570 s) ends
wait_done() {
  local left=$(( ${CALL_S:-570} - SECONDS ))
  while [[ ! -f $work/out/DONE ]] && (( left > 20 )); do sleep 10; left=$(( ${CALL_S:-570} - SECONDS )); done
}

case "$phase" in
  call1)
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    mkdir -p $b && XZ_OPT=-T0 tar -C $b -xJf .device/g3.tar.xz && tar -C $b -xJf .device/kab.tar.xz && mkdir -p $b/kA   # kA: empty, main's image from the checkout
    v5data
    mkdir -p "$work/out"
    # bash reads a script as it runs: the pipeline runs a copy that the next command's copy of the checkout cannot touch
    cp forcefield/training/device_organic.sh "$work/device_organic.sh"
    DATA_CPUS=3-15 DATA_WORKERS=13 TRAIN_CPUS=3-15 BATCH=256 LR=3e-4 LR_FINAL=1e-5 \
      SYSTEM_WEIGHTS="--system-weight water=2 --system-weight ethanol=2 --system-weight benzene=2 --system-weight alanine-dipeptide=2 --system-weight ace-ala5-nme=3 --system-weight water-clusters=2" \
      setsid nohup bash "$work/device_organic.sh" weighting "$work" "$work/out" "${DEADLINE_S:-1380}" \
      > "$work/pipeline.log" 2>&1 < /dev/null &
    sleep 2
    for r in 1 2 3; do
      for k in kA kB; do
        CP_PREFIX=$b/$k RUNS="ala-0.5fs ala-2fs-hbonds" OUT=$stage/cons/r$r-$k BUDGET=80 taskset -c 0-2 \
          bash $b/g3/constraints-figures-run.sh > /dev/null 2>&1
        grep -E "^ala" "$stage/cons/r$r-$k/constraints-figures.log" | sed "s/^/r$r $k /"
      done
    done
    for k in kA kB; do
      CP_PREFIX=$b/$k RUNS="eth1024-0.5fs eth1024-2fs-hbonds" OUT=$stage/cons/eth-$k BUDGET=120 taskset -c 0-2 \
        bash $b/g3/constraints-figures-run.sh > /dev/null 2>&1
      grep -E "^eth" "$stage/cons/eth-$k/constraints-figures.log" | sed "s/^/$k /"
    done
    wait_done
    pack
    ;;
  round1)
    # issue 27's next round (forcefield/training/README.md, "The small-molecule pool in the next round"): data with the
    # small-molecule pool on 15 cores, then training on the GPU from the preview, the v6 weight file with its domain,
    # the figures; detached, DEADLINE_S (default 1500) after this call's start; call2/call3 wait and copy.
    v5data
    mkdir -p "$work/out"
    cp forcefield/training/device_organic.sh "$work/device_organic.sh"
    DATA_CPUS=0-15 DATA_WORKERS=15 TRAIN_GPUS=0 BATCH=256 LR=${LR:-5e-4} LR_FINAL=1e-5 DATA_OPTS="--small" \
      EVAL_BUDGET_S=120 COMMIT=${COMMIT:-unknown} \
      SYSTEM_WEIGHTS="--system-weight water=2 --system-weight ethanol=2 --system-weight benzene=2 --system-weight alanine-dipeptide=2 --system-weight ace-ala5-nme=3 --system-weight water-clusters=2 --system-weight organic-small=${SMALL_WEIGHT:-3}" \
      setsid nohup bash "$work/device_organic.sh" multi "$work" "$work/out" "${DEADLINE_S:-1500}" \
      > "$work/pipeline.log" 2>&1 < /dev/null &
    wait_done
    pack
    ;;
  call2|call3)
    wait_done
    grep -h "epoch\|stopped" "$work"/out/train_*.txt 2>/dev/null | tail -6
    pack
    ;;
  *) echo "unknown phase $phase (call1|round1|call2|call3)" >&2; exit 2 ;;
esac
