#!/usr/bin/env bash
# On the GPU machine: MLIPAudit's stability protocol (issue 27) over the 144 independent organic test molecules
# (forcefield/training/organic/starts.test.xyz.gz, first conformer of each: --select conformer=0), all as ONE mixed
# batch of replicas on the GPU: `molten stability --device cuda`, Langevin NVT at 300 K, 0.5 fs, friction 0.01 1/fs,
# PS ps (default 100: 200,000 steps), 1,000 frames, REPLICAS per molecule (default 1), seed 20261128.
#
# Estimate (docs/benchmarks.md, H200 2026-11-28): 256 alanine dipeptides (5,632 atoms) advance 136,713 replica-steps/s,
# i.e. ~530 batch steps/s; the 144 molecules hold 2,433 atoms (5-38 each), so ~800-1,500 batch steps/s, and 100 ps
# (200,000 steps) takes ~130-250 s, plus ~10 s of frame checks (1,000 frames x 144 replicas pulled and checkpointed)
# and the JVM and graph start. If it does not fit, the run is cut at BUDGET: timeout sends SIGTERM, the command
# writes what it measured (status "interrupted", frames_done) and exits 130; then rerun with a smaller PS
# (e.g. PS=50) and report the ps reached.
#
# Bundle as scripts/gpu-figures-run.sh's (GPUCHECK_REF=0 scripts/gpu-bundle.sh DIR/st, this script copied into
# DIR/st; the model and fatbin may be taken out of the forcefield jar, the checkout's resources then serve).
# Device tool: carry [".device/st.tar.xz"], command
#   mkdir -p /tmp/b && XZ_OPT=-T0 tar -C /tmp/b -xJf .device/st.tar.xz && MODEL=preview BUDGET=300 bash /tmp/b/st/organic-stability-run.sh
# RULE: the hydrogen rule, bonded (default: MLIPAudit's documentation, issue 27) or drift (MLIPAudit's code).
# MODEL: a bundled version by name (preview = student-gfn2-organic-preview, v5) or a safetensors path (default
# preview). Output in $OUT (default /tmp/organic-stability-out): stability.json, stability.csv, stability.log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/organic-stability-out}
mkdir -p "$out"
exec > >(tee "$out/stability.log") 2>&1
tree=${TREE:-$PWD}
res=$tree/forcefield/src/main/resources
starts=$tree/forcefield/training/organic/starts.test.xyz.gz
[[ -d $res ]] || { echo "no checkout resources at $res" >&2; exit 2; }
[[ -f $starts ]] || { echo "no organic test starts at $starts" >&2; exit 2; }
# the CUDA kernels, in a jar of the bundle (KEEP_FATBIN=1) or the checkout's resources: without them `molten stability
# --device cuda` warns and runs on the CPU, 1-2 of the 100 ps in the budget, a survey that measures nothing
fatbin=$tree/platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin
# (grep reads the whole listing: one stopping at its first match would break the pipe, a failure under pipefail)
if [[ ! -f $fatbin ]] && ! for j in "$here"/lib/*.jar; do unzip -l "$j" 2>/dev/null; done \
    | grep 'molten_kernels\.fatbin$' > /dev/null; then
  echo "no CUDA kernels: neither $fatbin (a sparse checkout leaves it out?) nor a jar in $here/lib holds" \
    "molten_kernels.fatbin; the survey would run on the CPU (nothing started)" >&2
  exit 2
fi
java=("$here/jre/bin/java" -Xmx24g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED
      -cp "$here/lib/*:$res:$tree/platform-cuda/src/main/resources")
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
start=$(date +%s)
budget=${BUDGET:-300}
timeout --signal=TERM --kill-after=20 "$budget" "${java[@]}" org.molten.cli.MoltenCli stability --device cuda \
  --structure "$starts" --select conformer=0 --model "${MODEL:-preview}" --ps "${PS:-100}" --replicas "${REPLICAS:-1}" \
  --frames "${FRAMES:-1000}" --hydrogen-rule "${RULE:-bonded}" --seed 20261128 --out "$out"
rc=$?
# the exit status, named: 0 pass, 3 mean score below 0.95, 124 or 130 cut at BUDGET (timeout's TERM; the figures
# reached are in stability.json, frames_done)
case $rc in 0) why="pass" ;; 3) why="mean score below 0.95" ;; 124|130|137|143) why="cut at BUDGET=$budget s" ;; *) why="failed" ;; esac
echo "exit $rc ($why) after $(( $(date +%s) - start )) s; the figures reached are in $out/stability.json"
python3 - "$out/stability.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counts"]
print(f"{r['status']} {r['verdict']}: mean score {r['mean_score']} over {c['molecules']} molecules, "
      f"{r['time_done_ps']} of {r['settings']['length_ps']} ps on {r['platform']}, wall {r['wall_s']} s; replicas "
      f"stable {c['replicas_stable']}, H-detached {c['replicas_hydrogen_detached']}, exploded {c['replicas_explosion']}")
for m in r["molecules"]:
    if m["event"] != "stable":
        print(f"  {m['name']}: {m['event']} at frame {m['event_frame']} ({m['event_time_ps']} ps), score {m['score']}")
PY
exit $rc
