#!/usr/bin/env bash
# Regenerates the committed PTX of the CUDA kernels:
#   forcefield/src/main/cuda/*.cu{,h}  ->  forcefield/src/main/resources/org/molten/forcefield/cuda/molten_kernels.ptx
# with a first line "// molten-ptx sources-sha256 <hex>" (hash defined in PtxModule: for each
# source file in byte order of its name, the name, a newline, the bytes). Needs nvcc (CUDA 12.x/13.x).
# Also prints ptxas's register/spill report for sm_90 (-v) into target/ptxas-report.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/forcefield/src/main/cuda"
out="$root/forcefield/src/main/resources/org/molten/forcefield/cuda/molten_kernels.ptx"
command -v nvcc >/dev/null || { echo "build-ptx.sh: nvcc not found" >&2; exit 1; }
hash=$(cd "$src" && for f in $(ls *.cu *.cuh | LC_ALL=C sort); do printf '%s\n' "$f"; cat "$f"; done | sha256sum | cut -d' ' -f1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -ptx -arch=sm_90 -O3 -o "$tmp/k.ptx" "$src/molten_kernels.cu"
mkdir -p "$(dirname "$out")"
{ echo "// molten-ptx sources-sha256 $hash"; cat "$tmp/k.ptx"; } > "$out"
if [[ "${PTXAS_REPORT:-1}" == 1 ]]; then
  report="$root/forcefield/target/ptxas-report.txt"
  mkdir -p "$root/forcefield/target"
  ptxas -arch=sm_90 -v "$tmp/k.ptx" -o "$tmp/k.cubin" 2> "$report" || true
  python3 - "$report" <<'PY'
import re, sys
cur, spill = None, ("?", "?", "?")
for line in open(sys.argv[1]):
    m = re.search(r"Compiling entry function '(\w+)'", line)
    if m:
        cur = m.group(1); continue
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m:
        spill = m.groups(); continue
    m = re.search(r"Used (\d+) registers", line)
    if m and cur:
        print(f"{cur:22s} regs {m.group(1):>4s}  stack {spill[0]:>4s}  spill st/ld {spill[1]}/{spill[2]}")
        cur = None
PY
fi
echo "wrote $out ($(wc -c < "$out") bytes), sources-sha256 $hash"
