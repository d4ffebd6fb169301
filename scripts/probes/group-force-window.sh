#!/usr/bin/env bash
# One call on an nvidia-h200 machine (issue 29 §3): the channel-parallel group kernel's force evaluation
# (group_force_probe.cu, group-force-probe-run.sh) beside Molten's replica engine (`molten bench --replicas`, the stage
# kernels of today) and PyTorch's batched baseline (torch_replica_bench.py: eager, CUDA graph, torch.compile + graph;
# TF32 off), 1,024 ethanols and 256 alanine dipeptides, all in the same call on the same card.
# Carry: .device/g3.tar.xz (scripts/device-window-x4.sh bundle, without the sweep's jars, 20.8 MB) and .device/gfp
# (the probe binary and its inputs, ~8 MB, made here: see group-force-probe-run.sh) with the sparse checkout of
# the training README (`git sparse-checkout set --no-cone '/*' '!/forcefield/training/data/' ...`, 14.6 MB): the whole
# tree beside them is over the 64 MiB a call carries. Everything in $OUT/gfw.log; BUDGET seconds (default 300).
set -uo pipefail
out=${OUT:-/tmp/gfw-out}
mkdir -p "$out"
exec > >(tee "$out/gfw.log") 2>&1
export PYTHONUNBUFFERED=1
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-300} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
b=/tmp/b
mkdir -p $b && XZ_OPT=-T0 tar -C $b -xJf .device/g3.tar.xz
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
res=$PWD/forcefield/src/main/resources
model=$res/org/molten/forcefield/student/student-gfn2.safetensors
java=("$b/g3/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED
      -cp "$b/g3/lib/*:$res:$PWD/platform-cuda/src/main/resources")

echo "== group force probe ($(el) s)"
timeout "$(lim 90)" bash scripts/probes/group-force-probe-run.sh
for spec in 9:1024:ethanol 22:256:alanine-dipeptide; do
  IFS=: read -r size r m <<< "$spec"
  echo "== molten bench $m x $r ($(el) s)"
  timeout "$(lim 45)" "${java[@]}" org.molten.cli.MoltenCli bench --device cuda --sizes "$size" --replicas "$r" \
    --replica-steps 100 2>&1 | grep -E "^\|" | tail -3
  echo "== torch $m x $r ($(el) s)"
  timeout "$(lim 80)" python3 "$b/g3/torch_replica_bench.py" "$model" "$b/g3/molecules/$m.xyz" "$r" "$out/torch-$m.tsv" \
    2>&1 | grep -v Warning | tail -4
done
echo "== done after $(el) s"
