#!/usr/bin/env bash
# Regenerates the committed kernels of the CUDA path:
#   platform-cuda/src/main/cuda/*.cu{,h}  ->  platform-cuda/src/main/resources/org/molten/forcefield/cuda/molten_kernels.fatbin
#                                             + molten_kernels.manifest (what KernelImage and KernelImageTest read)
# The fatbin holds machine code (SASS) for sm_80 (A100), sm_86 (RTX 30xx, A40), sm_89 (L40, RTX 40xx) and sm_90
# (H100, H200), so that the driver loads it at once instead of compiling PTX (~46 s on a fresh H100), plus the
# PTX of compute_90 for newer GPUs (the driver compiles that once and caches it). Built with nvcc 13.0: the
# driver must support CUDA 13.0 (Linux 580 or newer). Hopper-only instructions are guarded by __CUDA_ARCH__
# in the sources (molten_kernels.cu, molten_small.cuh, molten_small_schedule.cuh, molten_cluster_copy.cuh, and
# stage_entry in molten_common.cuh).
# The manifest records the sources' hash (defined in KernelImage: for each source file in byte order of its
# name, the name, a newline, the bytes), the fatbin's hash, the architectures and the kernel entries.
# Also writes ptxas's register/spill report for sm_90 into platform-cuda/target/ptxas-report.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src="$root/platform-cuda/src/main/cuda"
res="$root/platform-cuda/src/main/resources/org/molten/forcefield/cuda"
command -v nvcc >/dev/null || { echo "build-kernels.sh: nvcc not found" >&2; exit 1; }
archs="80 86 89 90"
hash=$(cd "$src" && for f in $(ls *.cu *.cuh | LC_ALL=C sort); do printf '%s\n' "$f"; cat "$f"; done | sha256sum | cut -d' ' -f1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gencode=()
for a in $archs; do
  if [[ $a == 90 ]]; then gencode+=(-gencode "arch=compute_90,code=[sm_90,compute_90]"); else gencode+=(-gencode "arch=compute_$a,code=sm_$a"); fi
done
# --compress-mode=size: the compressed images (the driver decompresses them when it loads the module)
nvcc -fatbin -O3 --compress-mode=size "${gencode[@]}" -o "$tmp/k.fatbin" "$src/molten_kernels.cu"
nvcc -ptx -arch=sm_90 -O3 -o "$tmp/k.ptx" "$src/molten_kernels.cu"
mkdir -p "$res"
cp "$tmp/k.fatbin" "$res/molten_kernels.fatbin"
rm -f "$res/molten_kernels.ptx"
entries=$(grep -oE '^\.visible \.entry [A-Za-z0-9_]+|^\.entry [A-Za-z0-9_]+' "$tmp/k.ptx" | awk '{print $NF}' | LC_ALL=C sort | tr '\n' ' ')
{
  echo "# Written by scripts/build-kernels.sh; checked by KernelImageTest. Do not edit."
  echo "sources-sha256 $hash"
  echo "fatbin-sha256 $(sha256sum "$res/molten_kernels.fatbin" | cut -d' ' -f1)"
  echo "nvcc $(nvcc --version | grep -oE 'release [0-9.]+, V[0-9.]+' | head -1)"
  echo "sass$(for a in $archs; do printf ' sm_%s' "$a"; done)"
  echo "ptx compute_90"
  echo "entries ${entries% }"
} > "$res/molten_kernels.manifest"
if [[ "${PTXAS_REPORT:-1}" == 1 ]]; then
  report="$root/platform-cuda/target/ptxas-report.txt"
  mkdir -p "$root/platform-cuda/target"
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
echo "wrote $res/molten_kernels.fatbin ($(wc -c < "$res/molten_kernels.fatbin") bytes, PTX alone $(wc -c < "$tmp/k.ptx") bytes), sources-sha256 $hash"
