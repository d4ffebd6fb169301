#!/bin/bash
# r4, device call 2: continue the retraining warm-started from call 1's best EMA state (13,139 steps, lr 1e-3 -> 1e-5)
# at a lower peak learning rate (3e-4, 200 warm-up steps, decay to 1e-5 over the planned steps) on the same data
# (original + active r0-r3; r3's files travel in the carried .model-payload/r4/c2), seed 1234, under `timeout`;
# packed into ONE tar in $OUT, also when cut.
set -o pipefail
t0=$(date +%s)
W=/tmp/r4b; rm -rf $W; mkdir -p $W/log
cp .model-payload/r4/c2/data/*.active-r3.* forcefield/training/data/ || exit 2
ls forcefield/training/data/*.gz | wc -l | tee $W/log/timing.txt
el=$(( $(date +%s) - t0 ))
mins=$(python3 -c "print(round(max(1.0, (530 - $el) / 60), 2))")
echo "elapsed $el s; training --minutes $mins" | tee -a $W/log/timing.txt
PYTHONUNBUFFERED=1 timeout $((555 - el)) python3 forcefield/training/train.py --data forcefield/training/data \
  --test forcefield/src/main/resources/org/molten/forcefield/student/testset --out $W/run --minutes $mins \
  --lr 3e-4 --warmup 200 --seed 1234 --init .model-payload/r4/c2/state.npz --checkpoint 2>&1 | tee $W/log/train_stdout.txt
echo "train rc ${PIPESTATUS[0]}; total $(( $(date +%s) - t0 )) s" | tee -a $W/log/timing.txt
ls -la $W/run
tar -cf $OUT/r4-call2.tar -C $W run log; ls -la $OUT
