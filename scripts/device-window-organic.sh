#!/usr/bin/env bash
# The organic student's round 3 (issue 27) in one device window of two chained commands (< 10 minutes each; the
# machine goes back 30 s after a command), on an nvidia-h200-x4 (4 H200s, 64 cores; the layout below) or x2
# (2 H200s, 32 cores: LAYOUT=x2). Run from the repository root; bundles as scripts/device-window-x4.sh's.
#   call1: unpack; forcefield/training/device_organic.sh multi detached: GFN-FF data on the data cores, an active
#          round on the student's own MD aimed at the tail's families (organic_active.py --only-weighted, categories
#          only: RDKit is not on the GPU machine), data-parallel training on every GPU warm-started from the preview,
#          the Java weights exported, then organic_eval.py's figures on GPU 0
#   call2: once the weights exist: `molten stability` (MLIPAudit's protocol, 144 independent molecules as one GPU
#          batch) on GPU 1 and the organic validate survey on the other cores, until the call's end; everything back
#          in one archive (the pipeline's outputs, the best weights)
# Carry: .device/g3.tar.xz, .model-payload/xtblib.tar.xz and, with the sparse checkout, .device/data.tar.xz.
set -uo pipefail
phase=$1
out=${OUT:-/tmp/window-out}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
work=.organic-run
b=/tmp/b
if [[ ${LAYOUT:-x4} == x4 ]]; then
  data_cpus=16-63 workers=48 gpus=0,1,2,3 train_cpus=48-63 active_gpu=3 survey_cpus=0-47 survey_n=48 stab_cpus=48-51
else
  data_cpus=8-31 workers=24 gpus=0,1 train_cpus=24-31 active_gpu=1 survey_cpus=0-23 survey_n=24 stab_cpus=24-27
fi
copy_pipeline() { mkdir -p "$out/organic" && cp -r "$work/out/." "$out/organic/" 2>/dev/null; tail -4 "$work/pipeline.log"; }
pack() { tar -C "$out" -czf /tmp/pack.tgz . && find "$out" -mindepth 1 -delete && mv /tmp/pack.tgz "$out/$1.tgz"; }

case "$phase" in
  call1)
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    mkdir -p $b && XZ_OPT=-T0 tar -C $b -xJf .device/g3.tar.xz
    cp scripts/*-run.sh $b/g3/ 2>/dev/null
    mkdir -p "$work/v5data" && XZ_OPT=-T0 tar -C "$work/v5data" -xJf .device/data.tar.xz
    ls "$work"/v5data/*.xyz | xargs -P 16 -n 1 gzip -1
    mkdir -p "$work/out" && tar -C "$work" -xJf .model-payload/xtblib.tar.xz
    cp forcefield/training/device_organic.sh "$work/device_organic.sh"
    V5DATA=$work/v5data DATA_CPUS=$data_cpus DATA_WORKERS=$workers TRAIN_GPUS=$gpus TRAIN_CPUS=$train_cpus \
      ACTIVE_GPU=$active_gpu BATCH=${BATCH:-256} LR=${LR:-7e-4} EVAL_BUDGET_S=${EVAL_BUDGET_S:-120} \
      COMMIT=${COMMIT:-unknown} DATA_OPTS="--train-frames ${TRAIN_FRAMES:-16}" ACTIVE_BUDGET_S=${ACTIVE_BUDGET_S:-150} \
      ACTIVE_OPTS="--only-weighted --ps 1.5 --equil-fs 300 --every-fs 100 --weight-category imine=3 --weight-category nitrile=3 --weight-category hydrazine=3 --weight-category oxime=2 --weight-category nitro=2" \
      SYSTEM_WEIGHTS="--system-weight water=2 --system-weight ethanol=2 --system-weight benzene=2 --system-weight alanine-dipeptide=2 --system-weight ace-ala5-nme=3 --system-weight water-clusters=2" \
      setsid nohup bash "$work/device_organic.sh" multi "$work" "$work/out" "${DEADLINE_S:-1100}" \
      > "$work/pipeline.log" 2>&1 < /dev/null &
    left=$(( ${CALL_S:-570} - SECONDS ))
    while (( left > 15 )); do sleep 10; left=$(( ${CALL_S:-570} - SECONDS )); done
    grep -E "epoch .* val F MAE" "$work/out/train_rank0.txt" | tail -3
    tail -3 "$work/out/active_stdout.txt" 2>/dev/null | cut -c1-400
    copy_pipeline
    pack call1
    ;;
  call2)
    while [[ ! -f $work/out/student-gfn2-v6.safetensors ]] && (( ${CALL_S:-560} - SECONDS > 150 )); do sleep 5; done
    model=$PWD/$work/out/student-gfn2-v6.safetensors
    if [[ -f $model ]]; then
      budget=$(( ${CALL_S:-560} - SECONDS - 25 ))
      ( CUDA_VISIBLE_DEVICES=1 MODEL=$model OUT=$out/stability BUDGET=$budget taskset -c $stab_cpus \
          bash $b/g3/organic-stability-run.sh > "$out/stability.txt" 2>&1 ) &
      MOLTEN=$b/g3 MODEL=$model LIBXTB_DIR=$PWD/$work/lib OUT=$out/survey PARALLEL=$survey_n STABILITY=0 \
        BUDGET=$budget taskset -c $survey_cpus bash scripts/organic-validate-survey.sh > "$out/survey.txt" 2>&1
      tail -10 "$out/survey.txt"
      wait
      tail -12 "$out/stability.txt"
    fi
    while [[ ! -f $work/out/DONE ]] && (( ${CALL_S:-560} - SECONDS > 12 )); do sleep 3; done
    copy_pipeline
    pack call2
    ;;
  *) echo "unknown phase $phase (call1, call2)"; exit 2 ;;
esac
