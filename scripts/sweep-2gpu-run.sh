#!/usr/bin/env bash
# Sweep on two GPUs of one host (issue 31; the nvidia-h200-x2 kind): one `molten worker --gpu` per GPU
# (CUDA_VISIBLE_DEVICES=0 and =1; Molten's CUDA context takes device 0 of what it sees) and a coordinating
# `molten sweep --cluster --slots 0`, against the same grid on one GPU; then the two-GPU run again with one
# member killed (SIGKILL) mid-batch: the sweep must end with every task stored once, the killed member's batch
# run again by the other member (its tasks name 'left the cluster' as the reason).
#
#   scripts/sweep-2gpu-run.sh bundle [DEST]   on the development machine: builds DEST (default .device/sweep2gpu:
#                                             git-ignored) = a jlinked runtime, the project's and the sweep's
#                                             runtime jars (no PyTorch), this script; then packs
#                                             .device/sweep2gpu.tar.xz and prints its size. Checkout and bundle travel
#                                             together, 64 MiB at most (see docs/scaling.md).
#   tar -xJf .device/sweep2gpu.tar.xz -C /tmp && /tmp/sweep2gpu/sweep-2gpu-run.sh
#                                             on the GPU machine (two H200s), the bundle beside the checkout:
#                                             the three runs, figures in $OUT/sweep-2gpu.json, logs in $OUT/logs.tar.gz
#
# Grid (env): SYSTEMS (default ethanol,alanine-dipeptide), TEMPERATURES (300,350,400,450), SEEDS per key (16),
# STEPS (2000 production), EQ_STEPS (500), GPU_BATCH (16: 8 keys x 16 seeds = 8 batches per run, 4 per GPU),
# BASELINE (reference), DEVICE (cuda; cpu only for a dry run of the plumbing), BUDGET (540 s for the three runs),
# GPU_IDS ("0 1"), RUNS (one,two,kill),
# MOLTEN (the command that runs molten; default the bundle's runtime), KILL_AFTER_S (when the kill run's second
# member is killed; default a third of the two-GPU run's wall time).
# tasks/hour = tasks / wall time of `molten sweep` (workers already up and warm from the previous run would flatter
# the later runs: every run starts its own fresh workers and counts from the sweep's start, workers' start excluded
# and reported apart).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [[ "${1:-}" == bundle ]]; then
  set -e
  root=$(cd "$here/.." && pwd)
  dest=${2:-$root/.device/sweep2gpu}
  jdk=${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
  (cd "$root" && mvn -o -q -DskipTests -pl sweep -am package)
  rm -rf "$dest"; mkdir -p "$dest/lib"
  # No java.desktop (6 MB packed): the validation's PNG plots are then skipped with one warning each (PngFiles),
  # the figures are not. java.naming, java.sql, java.scripting: classes Hazelcast refers to (jdeps).
  "$jdk/bin/jlink" --add-modules java.base,java.logging,java.management,java.naming,java.sql,java.scripting,jdk.unsupported \
    --strip-debug --no-header-files --no-man-pages --output "$dest/jre"
  command -v strip >/dev/null && strip --strip-unneeded "$dest/jre/lib/server/libjvm.so"
  for m in md-core structures forcefield platform-cuda teacher-xtb integrators validation bench cli sweep; do
    cp "$root/$m/target/$m-"*[0-9T].jar "$dest/lib/"
  done
  # the bundled model and the kernels' fatbin (3.8 MB) travel with the checkout: taken from its resources
  zip -q -d "$dest/lib/forcefield-"*.jar '*.safetensors' >/dev/null
  zip -q -d "$dest/lib/platform-cuda-"*.jar '*.fatbin' >/dev/null
  deps=$(mktemp -d); trap 'rm -rf "$deps"' EXIT
  (cd "$root/sweep" && mvn -o -q dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$deps" >/dev/null)
  for j in "$deps"/*.jar; do
    case $(basename "$j") in
      pytorch-*|api-0.*|forcefield-torchscript-*|junit-*|opentest4j-*|apiguardian-*|jcuda-natives-*|molten-*|md-core-*|structures-*|forcefield-*|integrators-*|validation-*|bench-*|cli-*) ;;
      pdfbox-*|fontbox-*|graphics2d-*|VectorGraphics2D-*|animated-gif-*|commons-logging-*) ;;   # PDF/SVG/GIF export: never used
      *) cp "$j" "$dest/lib/" ;;
    esac
  done
  # only the driver binding of JCuda's natives (as scripts/gpu-bundle.sh)
  (cd "$deps" && mkdir nat && cd nat && unzip -q ../jcuda-natives-*-linux-x86_64.jar 'lib/libJCudaDriver-*' 'META-INF/MANIFEST.MF' \
    && zip -q -r "$dest/lib/jcuda-natives-driver-only.jar" .)
  cp "$here/sweep-2gpu-run.sh" "$dest/"
  tar -C "$(dirname "$dest")" -cf - "$(basename "$dest")" | xz -6 -T2 > "$dest.tar.xz"
  echo "bundle $dest.tar.xz: $(du -h "$dest.tar.xz" | cut -f1); the checkout: $(cd "$root" && git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1) bytes"
  exit 0
fi

out=${OUT:-/tmp/sweep-2gpu-out}
mkdir -p "$out/logs"
exec > >(tee "$out/logs/run.log") 2>&1
if [[ -n "${MOLTEN:-}" ]]; then
  read -r -a molten <<<"$MOLTEN"
else
  molten=("$here/jre/bin/java" -Xmx24g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -Djava.awt.headless=true
    -cp "$here/lib/*:${TREE:-$PWD}/forcefield/src/main/resources:${TREE:-$PWD}/platform-cuda/src/main/resources" org.molten.cli.MoltenCli)
  [[ -f ${TREE:-$PWD}/platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin ]] \
    || { echo "run from the checkout (or TREE=checkout): its forcefield and platform-cuda resources hold the model and kernels" >&2; exit 2; }
fi
systems=${SYSTEMS:-ethanol,alanine-dipeptide}
temps=${TEMPERATURES:-300,350,400,450}
seeds=${SEEDS:-16}
device=${DEVICE:-cuda}
grid=(--systems "$systems" --temperatures "$temps" --replicas "$seeds" --seed 1 --steps "${STEPS:-2000}"
  --equilibration-steps "${EQ_STEPS:-500}" --baseline "${BASELINE:-reference}" --device "$device" --no-plots)
batch=${GPU_BATCH:-16}
# GPU_IDS: the two devices' indices (default "0 1": another pair where other work holds GPUs 0, 1); RUNS: which of
# one, two, kill run (default all three; the kill run alone measures that a killed member loses nothing)
read -r -a gpu_ids <<< "${GPU_IDS:-0 1}"
runs=${RUNS:-one,two,kill}
# an empty CUDA_VISIBLE_DEVICES would hide every GPU and the worker would run on the CPU, timing the wrong thing
(( ${#gpu_ids[@]} == 2 )) || { echo "GPU_IDS='${GPU_IDS:-}': give two device indices, e.g. GPU_IDS=\"1 2\"" >&2; exit 2; }
[[ $runs =~ ^(one|two|kill)(,(one|two|kill))*$ ]] || { echo "RUNS='$runs': a comma-separated list of one, two, kill" >&2; exit 2; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
left() { echo $(( ${BUDGET:-540} - $(el) )); }
pids=()
stop_workers() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done; pids=(); }
trap stop_workers EXIT

# run LABEL GPUS [KILL_AFTER_S]: fresh workers (one per GPU), one sweep, its wall time; the kill run kills the last
# worker KILL_AFTER_S after the sweep starts
run() {
  local label=$1 gpus=$2 kill_after=${3:-} cluster="molten-2gpu-$1-$$" port=$((20000 + RANDOM % 20000))
  local w0; w0=$(date +%s.%N)
  sub() { awk "BEGIN { printf \"%.1f\", $1 - $2 }"; }
  for ((g = 0; g < gpus; g++)); do
    local join=(); ((g > 0)) && join=(--join "127.0.0.1:$port")   # the first worker starts the cluster
    mkdir -p "$out/tmp-$label-w$g"   # the worker's task folders (molten-task-*) show when it holds a task
    JAVA_TOOL_OPTIONS="-Djava.io.tmpdir=$out/tmp-$label-w$g" CUDA_VISIBLE_DEVICES=${gpu_ids[$g]} "${molten[@]}" worker --gpu --gpu-batch "$batch" --slots 1 --cluster-name "$cluster" \
      --port $((port + 100 * g)) "${join[@]}" 2>"$out/logs/$label-worker$g.log" &
    pids+=($!)
    for _ in $(seq 1 240); do grep -q "molten worker: member" "$out/logs/$label-worker$g.log" && break; sleep 0.5; done
    grep -q "molten worker: member" "$out/logs/$label-worker$g.log" || { echo "worker $g of $label did not start" >&2; return 1; }
  done
  local w1; w1=$(date +%s.%N)
  if [[ -n "$kill_after" ]]; then
    # after KILL_AFTER_S, as soon as the last worker holds a task (a batch in flight): SIGKILL, no goodbye
    local victim=${pids[-1]} vtmp="$out/tmp-$label-w$((gpus - 1))"
    (sleep "$kill_after"
     for _ in $(seq 1 600); do compgen -G "$vtmp/molten-task-*" >/dev/null && break; sleep 0.2; done
     held=$(compgen -G "$vtmp/molten-task-*" | wc -l)
     kill -9 "$victim" 2>/dev/null
     echo "$held" > "$out/killed-holding.txt"
     echo "== $label: killed worker $((gpus - 1)) (pid $victim) $kill_after s or more into the sweep, holding $held task(s)") &
  fi
  local t0; t0=$(date +%s.%N)
  timeout "$(left)" "${molten[@]}" sweep "${grid[@]}" --cluster "127.0.0.1:$port" --cluster-name "$cluster" \
    --port $((port + 500)) --slots 0 --out "$out/$label" >"$out/logs/$label-sweep.log" 2>&1
  local rc=$? t1; t1=$(date +%s.%N)
  echo "$label $gpus $rc $(sub "$w1" "$w0") $(sub "$t1" "$t0")" >> "$out/runs.txt"
  echo "== $label: $gpus GPU(s), sweep exit $rc, workers' start $(sub "$w1" "$w0") s, sweep $(sub "$t1" "$t0") s, at $(el) s"
  tail -3 "$out/logs/$label-sweep.log"
  stop_workers
}

: > "$out/runs.txt"
[[ $runs == *one* ]] && run one-gpu 1
[[ $runs == *two* ]] && run two-gpus 2
two_wall=$(awk '$1 == "two-gpus" {print $5}' "$out/runs.txt")
[[ $runs == *kill* ]] && run two-gpus-kill 2 "${KILL_AFTER_S:-$(python3 -c "print(max(5, round(float('${two_wall:-60}') / 3)))")}"

python3 - "$out" <<'PY'
import json, os, sys, datetime, collections
out = sys.argv[1]
runs = {}
for line in open(os.path.join(out, "runs.txt")):
    label, gpus, rc, start_s, wall_s = line.split()
    rep = os.path.join(out, label, "sweep-report.json")
    r = json.load(open(rep)) if os.path.exists(rep) else {}
    tasks = r.get("tasks", [])
    members = collections.Counter(t.get("member") for t in tasks if t.get("status") == "done")
    ids = [t["task"]["id"] for t in tasks]
    stored = len([d for d in os.listdir(os.path.join(out, label, "tasks"))]) if os.path.isdir(os.path.join(out, label, "tasks")) else 0
    rerun = [t["task"]["id"] + ": " + "; ".join(t.get("reruns", [])) for t in tasks if t.get("reruns")]
    runs[label] = {"gpus": int(gpus), "sweep_exit": int(rc), "workers_start_s": round(float(start_s), 1),
                   "sweep_wall_s": round(float(wall_s), 1), "tasks_total": r.get("tasks_total"),
                   "tasks_done": r.get("tasks_done"), "tasks_failed": r.get("tasks_failed"),
                   "task_dirs_stored": stored, "distinct_task_ids": len(set(ids)),
                   "tasks_per_hour": round(r.get("tasks_done", 0) / float(wall_s) * 3600, 1) if r else None,
                   "tasks_per_member": dict(members), "reruns": rerun}
one, two, kill = (runs.get(k, {}) for k in ("one-gpu", "two-gpus", "two-gpus-kill"))
fig = {"date_utc": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"), "cpu_cores": os.cpu_count(),
       "grid": {k: os.environ.get(k) for k in ("SYSTEMS", "TEMPERATURES", "SEEDS", "STEPS", "EQ_STEPS", "GPU_BATCH", "BASELINE", "DEVICE")},
       "runs": runs,
       "speedup_two_vs_one": round(one["sweep_wall_s"] / two["sweep_wall_s"], 3) if one.get("sweep_wall_s") and two.get("sweep_wall_s") else None,
       "killed_member_held_tasks": int(open(os.path.join(out, "killed-holding.txt")).read()) if os.path.exists(os.path.join(out, "killed-holding.txt")) else None,
       "kill_run_tasks_rerun": len(kill.get("reruns", [])) if kill else None,
       "kill_run_lost_nothing": bool(kill) and kill.get("tasks_done") == kill.get("tasks_total") == kill.get("task_dirs_stored")
                                == kill.get("distinct_task_ids") and kill.get("tasks_failed") == 0}
json.dump(fig, open(os.path.join(out, "sweep-2gpu.json"), "w"), indent=1)
print(json.dumps({k: v for k, v in fig.items() if k != "runs"}))
for k, v in runs.items():
    print(k, {x: v[x] for x in ("sweep_exit", "sweep_wall_s", "tasks_done", "tasks_total", "tasks_per_hour", "tasks_per_member")},
          "reruns:", len(v["reruns"]))
PY
echo "done after $(el) s"
tar -C "$out" -czf "$out/logs.tar.gz" logs one-gpu/sweep-report.md two-gpus/sweep-report.md two-gpus-kill/sweep-report.md 2>/dev/null
rm -rf "$out/logs" "$out/one-gpu" "$out/two-gpus" "$out/two-gpus-kill" "$out"/tmp-*
