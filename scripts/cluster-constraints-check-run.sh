#!/usr/bin/env bash
# On the GPU machine (issue 28): the small-molecule cluster kernel with RATTLE/SETTLE (k_small_c16_cons) on a real
# card, against the stage path (-Dmolten.cuda.mode=stages) of the same binary. The emulator runs a cluster's blocks
# one after another, so a race between blocks or threads would not show there; here both paths run the same
# Langevin and NVE trajectories of alanine dipeptide at 2 fs with h-bonds and their energy logs are compared: on a
# card the two kernels sum the forces in different orders, so they agree to float32 rounding (measured 2026-11-28:
# 5e-7 eV at the start, Langevin <= 2e-5 eV over 10 ps), not bit for bit as on the emulator. NVE drift of the cluster kernel over 10 ps is reported
# from the same log (eV per atom per ps, least-squares slope of Etot).
# Bundle in $HERE (jre/, lib/) as scripts/constraints-figures-run.sh; log: $OUT/cluster-constraints-check.log.
set -uo pipefail
here=${HERE:-$(cd "$(dirname "$0")" && pwd)}
out=${OUT:-/tmp/cluster-constraints-check}
mkdir -p "$out"
exec > >(tee "$out/cluster-constraints-check.log") 2>&1
res=$PWD/forcefield/src/main/resources
java=("$here/jre/bin/java" -Xmx20g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*:$res:$PWD/platform-cuda/src/main/resources")
one() {  # label integrator steps [JVM options]
  local label=$1 integ=$2 steps=$3; shift 3
  timeout 120 "${java[@]}" "$@" org.molten.cli.MoltenCli run --system alanine-dipeptide --device cuda --integrator "$integ" \
    --timestep 2 --constraints h-bonds --steps "$steps" --seed 11 --report-interval 50 --log "$out/$label.log" \
    > "$out/$label.txt" 2>&1
  echo "$label: exit $? $(grep -oE '\| [^|]+ \| Etot' "$out/$label.txt" | tail -1) $(grep -oE '[0-9.]+ steps/s' "$out/$label.txt" | tail -1)"
}
for integ in verlet langevin; do
  one "$integ-cluster" $integ 5000
  one "$integ-stages" $integ 5000 -Dmolten.cuda.mode=stages
done
# the two kernels sum the forces in different orders: equal to float32 rounding at the start, and NVE trajectories
# then part as chaos allows; the first rows, the first ps and the whole run say which (scripts/energy_logs.py)
for integ in verlet langevin; do
  python3 "$PWD/scripts/energy_logs.py" compare "$integ" cluster "$out/$integ-cluster.log" stages "$out/$integ-stages.log"
done
python3 "$PWD/scripts/energy_logs.py" drift "  NVE (cluster kernel)" "$out/verlet-cluster.log" 22
