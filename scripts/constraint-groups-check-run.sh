#!/usr/bin/env bash
# On the GPU machine (issue 28 speed): RATTLE's pair solve over constraint groups (one group per lane of warp 0,
# molten_constraints.cuh rattle_view) against the serial solve of the same binary (-Dmolten.cuda.serialConstraints=true:
# all pairs one group, one lane), alanine dipeptide at 2 fs with h-bonds (12 pairs in 6 groups), Langevin, in the
# cluster kernel (k_small_c16_cons) and on the stage path (-Dmolten.cuda.mode=stages). The emulator runs a block's
# threads one after another, so a race between lanes would not show there. Since the small groups are solved directly
# (a CH3 or N-H as one system in registers, not by the sweeps) grouped and serial meet the constraints to the
# tolerance, not bit for bit (the emulator tests: ~1e-10 A after 6 steps on the stage path); the energy logs are
# compared as the cluster kernel's against the stage path's (scripts/cluster-constraints-check-run.sh): the first
# rows, the first ps and the whole run, Langevin's noise keeping chaos in check. steps/s of each run give the grouped
# solve's gain (the run's own summary; the JVM's start excluded).
# Bundle in $HERE (jre/, lib/) as scripts/constraints-figures-run.sh; log: $OUT/constraint-groups-check.log.
# Four runs of 10,000 steps, about 2 min in all.
set -uo pipefail
here=${HERE:-$(cd "$(dirname "$0")" && pwd)}
out=${OUT:-/tmp/constraint-groups-check}
mkdir -p "$out"
exec > >(tee "$out/constraint-groups-check.log") 2>&1
res=$PWD/forcefield/src/main/resources
java=("$here/jre/bin/java" -Xmx20g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -cp "$here/lib/*:$res:$PWD/platform-cuda/src/main/resources")
one() {  # label [JVM options]
  local label=$1; shift
  timeout 120 "${java[@]}" "$@" org.molten.cli.MoltenCli run --system alanine-dipeptide --device cuda --integrator langevin \
    --timestep 2 --constraints h-bonds --steps 10000 --seed 11 --report-interval 50 --log "$out/$label.log" \
    > "$out/$label.txt" 2>&1
  echo "$label: exit $? $(grep -oE '[0-9,.]+ steps/s' "$out/$label.txt" | tail -1)"
}
for path in cluster stages; do
  mode=(); [[ $path == stages ]] && mode=(-Dmolten.cuda.mode=stages)
  one "$path-grouped" "${mode[@]}"
  one "$path-serial" "${mode[@]}" -Dmolten.cuda.serialConstraints=true
done
for path in cluster stages; do
  python3 "$PWD/scripts/energy_logs.py" compare "$path" grouped "$out/$path-grouped.log" serial "$out/$path-serial.log"
done
