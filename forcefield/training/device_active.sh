#!/bin/bash
# One GPU-machine command of the active distillation (forcefield/training/README.md, "Active distillation").
# The machine has torch and 16 cores but no xtb: xtb 6.5.1 and its libraries travel in xtb/ (see
# make_payload.sh) and label with 15 processes while the GPU runs the student's MD and the training.
#   usage: device_active.sh OUTDIR START_ROUND ROUNDS INIT_WEIGHTS [extra active_loop.py options]
set -o pipefail
out=$1; start=$2; rounds=$3; init=$4; shift 4
here=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$here/xtb/bin:$PATH" PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
xtb --version 2>&1 | grep "xtb version" || { echo "xtb does not run here"; exit 3; }
python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))'
cd "$here"
python3 forcefield/training/active_loop.py --out "$out" --start-round "$start" --rounds "$rounds" --init "$init" \
  --workers 15 --test forcefield/src/main/resources/org/molten/forcefield/student/testset "$@"
