#!/usr/bin/env bash
# NVE energy drift with bond constraints on the CPU (issue 28's targets, docs/constraints.md): velocity Verlet from
# the built-in (minimised) structures with Maxwell-Boltzmann velocities at TEMP (default 600 K, seed 1): from the
# minimum, equipartition halves it, so the runs hold about 300 K; the student on the CPU, PS ps (default 10) each:
#   alanine dipeptide and Ace-(Ala)5-NMe at 2 fs with h-bonds; the 64-water box with rigid water at 2 fs;
#   the same two peptides at 4 fs with h-bonds and 3 amu hydrogens; alanine dipeptide unconstrained at 0.5 fs.
# Drift: the slope of a least-squares line through Etot(t), per atom, meV/atom/ps; RMS(Etot - line) beside it.
# The water box is relaxed first (--minimize, FIRE): generated, it releases enough energy to heat itself to ~950 K.
# Usage: scripts/constraints-drift-cpu.sh [OUTDIR] (MOLTEN=path of the molten launcher, PS=ps per run, RUNS=labels)
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
molten=${MOLTEN:-$here/molten}
out=${1:-/tmp/constraints-drift}
ps=${PS:-10}
temp=${TEMP:-600}
mkdir -p "$out"
run() {  # label, system, timestep fs, extra options...
  local label=$1 system=$2 dt=$3; shift 3
  [[ -n ${RUNS:-} && " $RUNS " != *" $label "* ]] && return
  local steps; steps=$(python3 -c "print(round($ps * 1000 / $dt))")
  local t0; t0=$(date +%s)
  "$molten" run --system "$system" --integrator verlet --temperature "$temp" --seed 1 --device cpu --timestep "$dt" \
    --steps "$steps" --report-interval "$(python3 -c "print(max(1, round(10 / $dt)))")" --log "$out/$label.csv" "$@" \
    > "$out/$label.out" 2>&1
  local rc=$?
  python3 - "$out/$label.csv" "$label" "$rc" "$(( $(date +%s) - t0 ))" "$*" <<'PY'
import sys
path, label, rc, wall, opts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
rows = [l.split(',') for l in open(path) if l[0].isdigit()]
header = open(path).readline().strip()
n = int(header.split('(N = ')[1].split()[0])
t = [float(r[0]) for r in rows]; e = [float(r[1]) for r in rows]
m = len(t); tm = sum(t) / m; em = sum(e) / m
slope = sum((a - tm) * (b - em) for a, b in zip(t, e)) / sum((a - tm) ** 2 for a in t)
rms = (sum((b - em - slope * (a - tm)) ** 2 for a, b in zip(t, e)) / m) ** 0.5
temps = [float(r[4]) for r in rows]
print(f"{label}: exit {rc}, {t[-1]:.2f} ps, N = {n}, <T> {sum(temps) / m:.0f} K, drift {1000 * slope / n:+.4f} meV/atom/ps, "
      f"RMS(Etot - fit) {1000 * rms / n:.4f} meV/atom, wall {wall} s | {opts}")
print("   " + header)
PY
}
run ala-2fs-hbonds alanine-dipeptide 2 --constraints h-bonds
run ace5-2fs-hbonds ace-ala5-nme 2 --constraints h-bonds
run ala-4fs-hbonds-hmr3 alanine-dipeptide 4 --constraints h-bonds --hydrogen-mass 3
run ace5-4fs-hbonds-hmr3 ace-ala5-nme 4 --constraints h-bonds --hydrogen-mass 3
run ala-0.5fs-none alanine-dipeptide 0.5
run waterbox-2fs-rigid water-box 2 --constraints h-bonds --minimize   # the generated box is not relaxed
