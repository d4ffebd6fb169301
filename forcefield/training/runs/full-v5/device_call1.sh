#!/bin/bash
# r4 (issue 14, round 4), device call 1, run from the repository root of the tree the device tool sends (/work/main
# at the same data as branch r4; only xtb travels as a carried payload, .model-payload/r4/xtb.tar.xz, because the
# full make_payload.sh tar (28.5 MiB) plus the tree would pass the tool's 64 MiB): active round 3 of runs/active-v2
# (collect + label only, starts weighted to the weak systems, threshold 0.015 eV/Å) from the bundled v4, then
# full-length warm-start retraining from v4 on all data (original + active r0-r3), seed 1234, each part under
# `timeout`; everything packed into ONE tar in $OUT (the tool returns at most 8 files), also when training is cut.
set -o pipefail
t0=$(date +%s)
W=/tmp/r4; rm -rf $W; mkdir -p $W/log $W/al $W/data
tar -xJf .model-payload/r4/xtb.tar.xz -C . || exit 2      # xtb/ at the repo root, where device_active.sh looks
cp forcefield/training/runs/active-v2/rounds.json $W/al/
W8=forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors
timeout 170 bash forcefield/training/device_active.sh $W/al 3 1 $W8 --steps 2000 --every 100 --replicas 1 \
  --train-minutes 0 --threshold 0.015 --ethanol-starts 20 --dipeptide-starts 16 --ala5-starts 10 \
  --cluster-starts 4 --droplets 1 2>&1 | tee $W/log/active_stdout.txt
cp forcefield/training/data/*.active-r3.* $W/data/
el=$(( $(date +%s) - t0 ))
mins=$(python3 -c "print(round(max(1.0, (520 - $el) / 60), 2))")
echo "elapsed $el s; training --minutes $mins" | tee $W/log/timing.txt
PYTHONUNBUFFERED=1 timeout $((555 - el)) python3 forcefield/training/train.py --data forcefield/training/data \
  --test forcefield/src/main/resources/org/molten/forcefield/student/testset --out $W/run --minutes $mins \
  --seed 1234 --init $W8 --checkpoint 2>&1 | tee $W/log/train_stdout.txt
echo "train rc ${PIPESTATUS[0]}; total $(( $(date +%s) - t0 )) s" | tee -a $W/log/timing.txt
ls -la $W/run $W/data
tar -cf $OUT/r4-call1.tar -C $W al data run log; ls -la $OUT
