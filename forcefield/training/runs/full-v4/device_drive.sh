#!/bin/bash
# r3 (issue 14, round 3): active round 2 of runs/active-v2 (collect + label only, ethanol rotamer starts) from the
# bundled v3, then full-length warm-start retraining from v3 on all data; each part under `timeout`.
set -o pipefail
t0=$(date +%s)
W=/tmp/w; mkdir -p $W && tar -xJf .model-payload/r3/payload.tar.xz -C $W && cd $W || exit 2
mkdir -p al && cp forcefield/training/runs/active-v2/rounds.json al/
W8=forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors
timeout 200 bash forcefield/training/device_active.sh $W/al 2 1 $W8 --steps 2000 --every 100 --replicas 1 \
  --train-minutes 0 --dipeptide-starts 12 --ala5-starts 6 --cluster-starts 8 --droplets 2 --ethanol-starts 10 \
  2>&1 | tee $OUT/active_stdout.txt
cp al/rounds.json $OUT/; mkdir -p $OUT/data; cp forcefield/training/data/*.active-r2.* $OUT/data/
el=$(( $(date +%s) - t0 ))
mins=$(python3 -c "print(round(max(1.0, (560 - $el) / 60), 2))")
echo "elapsed $el s; training --minutes $mins"
PYTHONUNBUFFERED=1 timeout $((588 - el)) python3 forcefield/training/train.py --data forcefield/training/data \
  --test forcefield/src/main/resources/org/molten/forcefield/student/testset --out $OUT/run --minutes $mins \
  --seed 1234 --init $W8 --checkpoint 2>&1 | tee $OUT/train_stdout.txt
echo "total $(( $(date +%s) - t0 )) s"; ls -la $OUT/run
