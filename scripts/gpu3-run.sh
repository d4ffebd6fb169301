#!/usr/bin/env bash
# On the GPU machine, issue 29 ("GPU round 3") in one call, < 9 min, everything cut to what is left
# of BUDGET (default 520 s); logs under $OUT, a short table printed last:
#   1. thermostatted `molten run --device cuda` steps/s against NVE (verlet) for ethanol, alanine dipeptide and
#      Ace-(Ala)5-NMe (langevin, bussi, nose-hoover, berendsen; target within 10 % of verlet), and langevin once more
#      with -Dmolten.cuda.mode=stages (the stage kernels the thermostatted molecules ran before: the same binary);
#   2. a mixed batch, 64 different molecules of 9-40 atoms x 8 replicas (own temperatures, frictions, seeds), against
#      a uniform batch of the same atom count (DeviceReplicaBench mixed; target >= 0.80 of its atom-steps/s);
#   3. GpuCheck sections=correctness,thermostats on ethanol and alanine dipeptide: every mode against the float64
#      reference, and every thermostat in the cluster kernel against the stage kernels (20 steps) and canonical
#      (10 ps, per element for Langevin);
#   4. replica throughput, 1,024 ethanols and 256 alanine dipeptides (molten bench --replicas), with PyTorch's batched
#      baseline rerun beside them (torch_replica_bench.py: eager, CUDA graph, torch.compile + graph; TF32 off).
# Bundle (on the build machine, from this branch): GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/g3, then
# cp scripts/gpu3-run.sh DIR/g3/ and pack DIR/g3 (tar.xz; a transfer limit of 64 MiB with the checkout).
# Device tool: carry [".device/g3.tar.xz"], command
#   mkdir -p /tmp/b && XZ_OPT=-T0 tar -C /tmp/b -xJf .device/g3.tar.xz && BUDGET=520 bash /tmp/b/g3/gpu3-run.sh
# The checkout's forcefield resources (TREE, default the working directory: the checkout on the GPU machine)
# are on the class path after the jars, so to fit the 64 MiB the model and the fatbin may be taken out of the bundle's
# forcefield jar (zip -d DIR/g3/lib/forcefield-*.jar org/molten/forcefield/student/student-gfn2.safetensors
# org/molten/forcefield/cuda/molten_kernels.fatbin) as for gpu-figures-run.sh: then the checkout's copies serve,
# which must be this branch's (the fatbin of commit 47164c2 or later, with the thermostats in k_small_c16).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/gpu3-out}
mkdir -p "$out/raw"
exec > >(tee "$out/gpu3.log") 2>&1
export PYTHONUNBUFFERED=1
res=${TREE:-$PWD}/forcefield/src/main/resources
model=$res/org/molten/forcefield/student/student-gfn2.safetensors
if [[ ! -f $model ]]; then
  model=/tmp/gpu3-model.safetensors
  unzip -p "$here"/lib/forcefield-*.jar org/molten/forcefield/student/student-gfn2.safetensors > "$model" 2>/dev/null \
    || echo "no model for the PyTorch baseline (neither $res nor the forcefield jar has it)"
fi
java=("$here/jre/bin/java" -Xmx60g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*:$res:${TREE:-$PWD}/platform-cuda/src/main/resources")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$out/raw/nvidia-smi.txt"
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
lim() { local l=$1 left=$(( ${BUDGET:-520} - $(el) )); (( left < l )) && l=$left; (( l < 5 )) && l=5; echo "$l"; }
steps=${RUN_STEPS:-20000}

# 1. molten run: steps/s of each integrator (the CLI's own figure over the run)
declare -A rate
for sys in ethanol alanine-dipeptide ace-ala5-nme; do
  for integ in verlet langevin bussi nose-hoover berendsen langevin-stages; do
    props=(); name=$integ
    if [[ $integ == langevin-stages ]]; then props=(-Dmolten.cuda.mode=stages); name=langevin; fi
    f="$out/raw/run-$sys-$integ.txt"
    timeout "$(lim 40)" "${java[@]}" ${props[@]+"${props[@]}"} org.molten.cli.MoltenCli run --system "$sys" --device cuda \
      --integrator "$name" --steps "$steps" --seed 7 > "$f" 2>&1
    s=$?
    r=$(grep -oE '[0-9]+ steps/s' "$f" | tail -1 | cut -d' ' -f1)
    rate[$sys,$integ]=${r:-NA}
    echo "== run $sys $integ exit $s after $(el) s: ${r:-NA} steps/s ($(grep -oE '\| (cuda[^|]*|cpu[^|]*) \|' "$f" | head -1))"
  done
done

# 2. mixed batch against a uniform one of the same atom count
timeout "$(lim 90)" "${java[@]}" org.molten.bench.DeviceReplicaBench mixed 64x8 9-40 > "$out/raw/mixed.txt" 2>&1
echo "== mixed batch exit $? after $(el) s"; grep -E "^\||mixed /" "$out/raw/mixed.txt"
mixed=$(grep -oE 'mixed / uniform atom-steps/s: [0-9.]+' "$out/raw/mixed.txt" | awk '{print $NF}')

# 3. GpuCheck: correctness of every mode, thermostats in the cluster kernel
timeout "$(lim 120)" "${java[@]}" org.molten.forcefield.cuda.GpuCheck "$out/raw/check" sections=correctness,thermostats \
  quick only=ethanol,alanine-dipeptide > "$out/raw/check.txt" 2>&1
echo "== GpuCheck exit $? after $(el) s"; grep -E "^(check|thermostat|canonical) |FAIL|ERROR|failures:" "$out/raw/check.txt" | sort -u
checkfail=$(grep -oE '^failures: [0-9]+' "$out/raw/check.txt" | tail -1 | awk '{print $2}')

# 4. replica throughput, Molten and PyTorch on the same card
declare -A rep
for spec in 9:1024:ethanol 22:256:alanine-dipeptide; do
  IFS=: read -r size r m <<< "$spec"
  timeout "$(lim 45)" "${java[@]}" org.molten.cli.MoltenCli bench --device cuda --sizes "$size" --replicas "$r" \
    --replica-steps 100 > "$out/raw/bench-$m.txt" 2>&1
  echo "== bench $m x $r exit $? after $(el) s"; grep -E "^\|" "$out/raw/bench-$m.txt" | tail -3
  rep[$m]=$(grep -E "^\| .* \| $r \|" "$out/raw/bench-$m.txt" | tail -1 | awk -F'|' '{gsub(/ /,"",$6); print $6}')
  mol=$here/molecules/$m.xyz
  timeout "$(lim 100)" python3 "$here/torch_replica_bench.py" "$model" "$mol" "$r" "$out/raw/torch-$m.tsv" \
    > "$out/raw/torch-$m.txt" 2>&1
  echo "== torch $m x $r exit $? after $(el) s"; grep -v Warning "$out/raw/torch-$m.txt" | tail -4
done

echo
echo "==== issue 29 summary ($(el) s; $(head -2 "$out/raw/nvidia-smi.txt" | tail -1)) ===="
printf "%-18s %9s %9s %9s %11s %9s %15s  %s\n" system verlet langevin bussi nose-hoover berendsen langevin-stages \
  "worst thermostat / verlet (target >= 0.90)"
for sys in ethanol alanine-dipeptide ace-ala5-nme; do
  v=${rate[$sys,verlet]}
  worst=$(for i in langevin bussi nose-hoover berendsen; do echo "${rate[$sys,$i]}"; done | sort -n | head -1)
  ratio=NA
  [[ $v =~ ^[0-9]+$ && $worst =~ ^[0-9]+$ && $v -gt 0 ]] && ratio=$(awk -v a="$worst" -v b="$v" 'BEGIN{printf "%.3f", a/b}')
  printf "%-18s %9s %9s %9s %11s %9s %15s  %s\n" "$sys" "$v" "${rate[$sys,langevin]}" "${rate[$sys,bussi]}" \
    "${rate[$sys,nose-hoover]}" "${rate[$sys,berendsen]}" "${rate[$sys,langevin-stages]}" "$ratio"
done
echo "mixed 64 molecules (9-40 atoms) x 8 / uniform, atom-steps/s: ${mixed:-NA} (target >= 0.80)"
for m in ethanol alanine-dipeptide; do
  t=$(grep -oE 'best [0-9]+' "$out/raw/torch-$m.txt" 2>/dev/null | tail -1 | awk '{print $2}')
  ratio=NA
  [[ ${rep[$m]:-} =~ ^[0-9.]+$ && ${t:-} =~ ^[0-9]+$ ]] && ratio=$(awk -v a="${rep[$m]}" -v b="$t" 'BEGIN{printf "%.2f", a/b}')
  echo "replicas $m: Molten ${rep[$m]:-NA} replica-steps/s; PyTorch best (graph or compile+graph) ${t:-NA}; Molten/PyTorch $ratio"
done
echo "GpuCheck failures: ${checkfail:-NA}"
tar -C "$out" -czf "$out/raw.tar.gz" raw && rm -rf "$out/raw"
