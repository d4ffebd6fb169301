#!/bin/bash
# Stability survey of a student model (model card, "Stability"): Langevin NVT, 0.5 fs, 10 ps per system and
# temperature on the optimised CPU path, then the covalent-bond check of every trajectory (md_check.py, the rule
# of org.molten.core.Bonds). Systems: the built-in molecules, starts outside validate's set taken from the first
# frame of the independent test set (ethanol trans, alanine dipeptide cis-pII, water clusters of 10 and 20
# molecules) and the periodic 64-water box (5 ps at 300 K only: ~18 steps/s on two cores).
#   usage: [MODEL_ARGS="--model FILE.safetensors"] [TEMPS="600 300"] [ONLY="name ..."] [BOX=1|0] \
#          scripts/stability-survey.sh OUTDIR          (default: the bundled model, every system, both temperatures)
set -e
[[ $# -eq 1 && -n $1 ]] || { echo "usage: scripts/stability-survey.sh OUTDIR (see the header for MODEL_ARGS, TEMPS, ONLY, BOX)" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
ind=$repo/forcefield/training/testset-independent
first_frame() {  # first frame of a gzipped extended XYZ file -> plain XYZ (positions only, Å)
  zcat "$1" | awk -v src="$(basename "$1")" 'NR==1{n=$1; print; next} NR==2{print "first frame of " src; next} NR<=n+2{print $1, $2, $3, $4}' > "$2"
}
first_frame $ind/ethanol_trans_300K.xyz.gz "$out/ethanol-trans.xyz"
first_frame $ind/alanine-dipeptide_cis-pII_300K.xyz.gz "$out/alanine-dipeptide-cis-pII.xyz"
first_frame $ind/water-clusters_n10_300K.xyz.gz "$out/water-n10.xyz"
first_frame $ind/water-clusters_n20_300K.xyz.gz "$out/water-n20.xyz"
run() {  # name, steps, temperature, system arguments...
  local name=$1 steps=$2 T=$3; shift 3
  [[ -z ${ONLY:-} || " $ONLY " == *" $name "* ]] || return 0
  echo "== $name ${T} K, $steps steps"
  "$repo/molten" run "$@" --integrator langevin --temperature "$T" --timestep 0.5 --steps "$steps" --seed "$T" \
    --report-interval 100 --device cpu --log "$out/$name-${T}K.csv" --trajectory "$out/$name-${T}K.xyz" \
    ${MODEL_ARGS} 2>&1 | tail -2 || echo "   (run ended with an error)"
}
for T in ${TEMPS:-600 300}; do  # 600 K first: where a model breaks, it breaks hot
  for s in water ethanol benzene alanine-dipeptide ace-ala5-nme; do run $s 20000 $T --system $s; done
  for s in ethanol-trans alanine-dipeptide-cis-pII water-n10 water-n20; do run $s 20000 $T --structure "$out/$s.xyz"; done
done
[[ ${BOX:-1} == 0 ]] || run water-box 10000 300 --system water-box
/usr/bin/python3 "$repo/forcefield/training/md_check.py" --trajectory "$out"/*K.xyz --json "$out/bonds.json" | tee "$out/bonds.txt"
