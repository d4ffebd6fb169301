#!/bin/bash
# The general organic student on one GPU machine with 16 cores, in two commands of < 10 minutes each
# (forcefield/training/README.md, "The general organic student"). Run from the repository root.
#
#   device_organic.sh data-and-train WORK OUT DEADLINE_S   sample + label (15 processes), then training run A
#   device_organic.sh train-and-eval WORK OUT DEADLINE_S   training run B warm-started from A, then the figures
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
  cp "$work/$name/state.npz" "$out/state_${name}.npz"
  cp "$work/$name/train_log.json" "$out/train_log_${name}.json"
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
  *) echo "unknown phase $phase"; exit 2 ;;
esac
