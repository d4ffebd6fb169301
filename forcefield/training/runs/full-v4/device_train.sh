#!/bin/bash
# r3, retraining again (the first run's state did not come back: $OUT's 8-file limit): same data (original +
# active r0-r2), same seed and the a shorter schedule (11,000 planned steps; the first run had 14,930) for the device time left, warm start from v3.
set -o pipefail
W=/tmp/w2; rm -rf $W; mkdir -p $W && tar -xf .model-payload/r3t/train.tar -C $W && cd $W || exit 2
ls forcefield/training/data/*.gz | wc -l
W8=forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors
PYTHONUNBUFFERED=1 timeout 400 python3 forcefield/training/train.py --data forcefield/training/data \
  --test forcefield/src/main/resources/org/molten/forcefield/student/testset --out $OUT/run --minutes 6.2 \
  --steps 11000 --seed 1234 --init $W8 --checkpoint 2>&1 | tee $OUT/train_stdout.txt
