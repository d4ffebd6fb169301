#!/usr/bin/env bash
# Sweep throughput, one member against two on this machine (issue 16: >= 1.8x tasks per hour on 2 cores).
# Run A: `molten sweep` embedded, one slot (one member, one core).
# Run B: a `molten worker` with one slot plus `molten sweep --cluster` with one slot of its own (two members).
# Same grid, same protocol; tasks/hour = tasks / wall time of the sweep (member start and report included).
# Each member emulates a one-core machine: it is pinned to a core of its own (taskset), so the JVM sees one
# processor (its slot's model threads, JIT and GC threads included). Without pinning, one member already uses
# both cores (a slot gets cores/slots threads, and the JIT compiler runs beside it), and the comparison would
# measure the student's thread scaling, not the sweep's.
# Usage: [SWEEP_SYSTEM=name] scripts/sweep-bench.sh [TASKS] [STEPS]   (defaults 8 tasks of water, 400 production steps)
# Prints one JSON line; append it to docs/ or wherever the figures are recorded, with the date and the machine's load.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tasks="${1:-8}"
steps="${2:-400}"
work="$(mktemp -d /tmp/molten-sweep-bench.XXXXXX)"
cluster="molten-bench-$$-$RANDOM"
port=$((30000 + RANDOM % 20000))
system="${SWEEP_SYSTEM:-water}"
grid=(--systems "$system" --replicas "$tasks" --seed 1 --steps "$steps" --equilibration-steps 100 --baseline reference --no-plots)
worker_pid=""
cleanup() { [[ -n "$worker_pid" ]] && kill "$worker_pid" 2>/dev/null || true; }
trap cleanup EXIT

"$root/molten" --version >/dev/null  # build first, outside the timings

t0=$(date +%s.%N)
taskset -c 0 "$root/molten" sweep "${grid[@]}" --slots 1 --out "$work/one" >"$work/one.log"
t1=$(date +%s.%N)

taskset -c 1 "$root/molten" worker --cluster-name "$cluster" --port "$port" --slots 1 2>"$work/worker.log" &
worker_pid=$!
for _ in $(seq 1 240); do grep -q "molten worker: member" "$work/worker.log" && break; sleep 0.5; done
grep -q "molten worker: member" "$work/worker.log" || { echo "worker did not start: $(cat "$work/worker.log")" >&2; exit 1; }
t2=$(date +%s.%N)
taskset -c 0 "$root/molten" sweep "${grid[@]}" --cluster "127.0.0.1:$port" --cluster-name "$cluster" --port $((port + 200)) --slots 1 \
  --out "$work/two" >"$work/two.log"
t3=$(date +%s.%N)
kill "$worker_pid"; wait "$worker_pid" 2>/dev/null || true; worker_pid=""

python3 - "$tasks" "$t0" "$t1" "$t2" "$t3" "$work" <<'PY'
import json, os, sys
n = int(sys.argv[1]); t0, t1, t2, t3 = map(float, sys.argv[2:6]); work = sys.argv[6]
one, two = t1 - t0, t3 - t2
members = {}
for t in json.load(open(os.path.join(work, "two", "sweep-report.json")))["tasks"]:
    members[t["member"]] = members.get(t["member"], 0) + 1
print(json.dumps({"date_utc": __import__("datetime").datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "tasks": n, "cores": os.cpu_count(), "load_average_1min": os.getloadavg()[0],
                  "one_member_wall_s": round(one, 1), "two_members_wall_s": round(two, 1),
                  "one_member_tasks_per_hour": round(n / one * 3600, 1), "two_members_tasks_per_hour": round(n / two * 3600, 1),
                  "speedup": round(one / two, 3), "tasks_per_member_in_two": members, "work_dir": work}))
PY
