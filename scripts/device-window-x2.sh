#!/usr/bin/env bash
# One device window on an nvidia-h200-x2 machine (2 H200s, 32 cores): three commands of < 10 minutes chained so the
# machine stays warm (it goes back 30 s after a command), everything that can run side by side doing so, timings
# never on a GPU that trains. Phases (run from the repository root; bundles as scripts/device-window-x4.sh's):
#   call1: unpack; start forcefield/training/device_organic.sh multi detached (data on cores 8-31, an active round
#          aimed at the tail's families, then data-parallel training on GPUs 0,1 pinned to cores 24-31); meanwhile
#          GPU 0 / cores 0-3 time what must be timed (thermostat overhead, issue 29; ns/day with constraints and the
#          constrained cluster kernel against the stage path, issue 28) before the training takes it, and GPU 1 /
#          cores 4-7 runs `molten stability` (MLIPAudit's protocol) over the 144 independent molecules with the
#          organic preview (issue 27)
#   call2: waits for the training, copying its outputs (a lost machine keeps the best weights)
#   call3: once the exported weights exist: `molten stability` with them on GPU 1 and the organic validate survey on
#          cores 0-23, while the pipeline's figures (organic_eval.py) run on GPU 0; everything back in one archive
# Carry: .device/g3.tar.xz, .model-payload/xtblib.tar.xz and, with the sparse checkout, .device/data.tar.xz.
# Its one use (2026-11-28): call1 timed issues 28 and 29 and ran molten stability; the training died at once (the active
# round's --weight-smarts needs RDKit, absent there; categories only since, as here), and the organic round ran in
# scripts/device-window-organic.sh on an x4 instead.
set -uo pipefail
phase=$1
out=${OUT:-/tmp/window-out}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
work=.organic-run
b=/tmp/b
preview=$PWD/forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors
copy_pipeline() { mkdir -p "$out/organic" && cp -r "$work/out/." "$out/organic/" 2>/dev/null; tail -4 "$work/pipeline.log"; }
pack() {  # one file back (the transfer returns a limited count of files)
  tar -C "$out" -czf /tmp/pack.tgz . && find "$out" -mindepth 1 -delete && mv /tmp/pack.tgz "$out/$1.tgz"
}
stability() {  # label model gpu cores budget_s
  if [[ -f scripts/organic-stability-run.sh ]]; then
    CUDA_VISIBLE_DEVICES=$3 MODEL=$2 OUT=$out/stability-$1 BUDGET=$5 taskset -c "$4" \
      bash $b/g3/organic-stability-run.sh > "$out/stability-$1.txt" 2>&1
    echo "stability $1 exit $?"; tail -8 "$out/stability-$1.txt"
  fi
}

case "$phase" in
  call1)
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    mkdir -p $b && XZ_OPT=-T0 tar -C $b -xJf .device/g3.tar.xz
    cp scripts/*-run.sh $b/g3/ 2>/dev/null
    mkdir -p "$work/v5data" && XZ_OPT=-T0 tar -C "$work/v5data" -xJf .device/data.tar.xz
    ls "$work"/v5data/*.xyz | xargs -P 16 -n 1 gzip -1
    mkdir -p "$work/out" && tar -C "$work" -xJf .model-payload/xtblib.tar.xz
    cp forcefield/training/device_organic.sh "$work/device_organic.sh"
    V5DATA=$work/v5data DATA_CPUS=8-31 DATA_WORKERS=24 TRAIN_GPUS=0,1 TRAIN_CPUS=24-31 ACTIVE_GPU=1 \
      BATCH=${BATCH:-256} LR=${LR:-7e-4} EVAL_BUDGET_S=${EVAL_BUDGET_S:-120} COMMIT=${COMMIT:-unknown} \
      DATA_OPTS="--train-frames ${TRAIN_FRAMES:-16}" ACTIVE_BUDGET_S=${ACTIVE_BUDGET_S:-200} \
      ACTIVE_OPTS="--only-weighted --ps 1.5 --equil-fs 300 --every-fs 100 --weight-category imine=3 --weight-category nitrile=3 --weight-category hydrazine=3 --weight-category oxime=2 --weight-category nitro=2" \
      SYSTEM_WEIGHTS="--system-weight water=2 --system-weight ethanol=2 --system-weight benzene=2 --system-weight alanine-dipeptide=2 --system-weight ace-ala5-nme=3 --system-weight water-clusters=2" \
      setsid nohup bash "$work/device_organic.sh" multi "$work" "$work/out" "${DEADLINE_S:-1390}" \
      > "$work/pipeline.log" 2>&1 < /dev/null &
    sleep 1
    ( stability preview "$preview" 1 4-7 ${STAB_BUDGET:-330} > "$out/stability-preview.summary" 2>&1 ) &
    export CUDA_VISIBLE_DEVICES=0
    # GPU 0 is the training's from about 460 s (data ~260 s, active round <= 200 s): the timings first, by priority
    OUT=$out/constraints BUDGET=${CONSTRAINTS_BUDGET:-110} taskset -c 0-3 bash $b/g3/constraints-figures-run.sh \
      > "$out/constraints.txt" 2>&1
    tail -13 "$out/constraints.txt"
    if [[ -f scripts/thermostat-overhead-run.sh ]]; then
      HERE=$b/g3 OUT=$out/thermostats BUDGET=${THERMO_BUDGET:-200} taskset -c 0-3 \
        bash $b/g3/thermostat-overhead-run.sh > "$out/thermostats.txt" 2>&1
      tail -22 "$out/thermostats.txt"
    fi
    OUT=$out/check HERE=$b/g3 taskset -c 0-3 bash $b/g3/cluster-constraints-check-run.sh > "$out/check.txt" 2>&1
    tail -12 "$out/check.txt"
    if [[ -f scripts/constraint-groups-check-run.sh ]] && (( SECONDS < 400 )); then
      OUT=$out/groups HERE=$b/g3 taskset -c 0-3 timeout $(( 470 - SECONDS )) bash $b/g3/constraint-groups-check-run.sh \
        > "$out/groups.txt" 2>&1
      tail -12 "$out/groups.txt"
    fi
    wait
    cat "$out/stability-preview.summary"
    copy_pipeline
    pack call1
    ;;
  call2)
    left=$(( ${CALL_S:-575} - SECONDS ))
    while [[ ! -f $work/out/student-gfn2-v6.safetensors ]] && (( left > 20 )); do sleep 10; left=$(( ${CALL_S:-575} - SECONDS )); done
    grep -E "epoch .* val F MAE" "$work/out/train_rank0.txt" | tail -4
    copy_pipeline
    pack call2
    ;;
  call3)
    left=$(( ${CALL_S:-560} - SECONDS ))
    while [[ ! -f $work/out/student-gfn2-v6.safetensors ]] && (( left > 200 )); do sleep 5; left=$(( ${CALL_S:-560} - SECONDS )); done
    model=$PWD/$work/out/student-gfn2-v6.safetensors
    if [[ -f $model ]]; then
      budget=$(( ${CALL_S:-560} - SECONDS - 30 ))
      ( stability round3 "$model" 1 24-27 $budget > "$out/stability-round3.summary" 2>&1 ) &
      if [[ -f scripts/organic-validate-survey.sh ]]; then
        MOLTEN=$b/g3 MODEL=$model LIBXTB_DIR=$PWD/$work/lib OUT=$out/survey PARALLEL=24 STABILITY=0 \
          BUDGET=$budget taskset -c 0-23 bash scripts/organic-validate-survey.sh > "$out/survey.txt" 2>&1
        tail -10 "$out/survey.txt"
      fi
      wait
      cat "$out/stability-round3.summary"
    fi
    while [[ ! -f $work/out/DONE ]] && (( ${CALL_S:-560} - SECONDS > 15 )); do sleep 3; done
    copy_pipeline
    rm -rf "$out"/survey/*/runs 2>/dev/null
    pack call3
    ;;
  *) echo "unknown phase $phase (call1, call2, call3)"; exit 2 ;;
esac
