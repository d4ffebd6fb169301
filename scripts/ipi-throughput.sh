#!/usr/bin/env bash
# Steps/s of an MD run driven from Python through the i-PI socket against Molten advancing the same molecule itself,
# both on the CPU: ASE 3.22's velocity Verlet with SocketIOCalculator (ASE the server) and `molten serve` as its
# force engine, over loopback TCP and over a UNIX socket, against `molten run --integrator verlet`, the same
# student and molecule. The figure in docs/benchmarks.md comes from this script.
# Usage: scripts/ipi-throughput.sh [SYSTEM] [STEPS]   (defaults: ethanol 2000); needs /usr/bin/python3 with ASE.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sys="${1:-ethanol}"
steps="${2:-2000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"

# Molten alone (its own steps/s, JVM start and warm-up excluded by the command's own timer)
./molten run --system "$sys" --integrator verlet --steps "$steps" --device cpu --report-interval "$steps" \
    --trajectory "$work/start.extxyz" 2>&1 | grep -o '[0-9.]* steps/s' | sed "s/^/molten run ($sys): /"

cat > "$work/drive.py" <<'PY'
import sys, time
import numpy as np
from ase import units
from ase.io import read
from ase.calculators.socketio import SocketIOCalculator
from ase.md.verlet import VelocityVerlet
from ase.md.velocitydistribution import MaxwellBoltzmannDistribution
structure, where, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
atoms = read(structure, index=0)
kw = dict(unixsocket=where[5:]) if where.startswith('unix:') else dict(port=int(where))
with SocketIOCalculator(timeout=300, **kw) as calc:
    atoms.calc = calc
    MaxwellBoltzmannDistribution(atoms, temperature_K=300, rng=np.random.RandomState(1))
    dyn = VelocityVerlet(atoms, 0.5 * units.fs)
    dyn.run(200)                       # connection, JIT warm-up
    t = time.perf_counter()
    dyn.run(steps)
    dt = time.perf_counter() - t
print('%.0f steps/s' % (steps / dt))
PY
port=$((31415 + RANDOM % 1000))
for where in "$port" "unix:molten-bench-$$"; do
  /usr/bin/python3 "$work/drive.py" "$work/start.extxyz" "$where" "$steps" > "$work/py.out" &
  py=$!
  if [[ "$where" == unix:* ]]; then address="$where"; label="a UNIX socket"; else address="localhost:$where"; label="loopback TCP"; fi
  ./molten serve --ipi "$address" --structure "$work/start.extxyz" --device cpu --wait 60 > /dev/null
  wait "$py"
  echo "ASE VelocityVerlet + molten serve over $label: $(cat "$work/py.out")"
done
