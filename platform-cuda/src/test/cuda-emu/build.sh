#!/usr/bin/env bash
# Builds the CUDA emulator (a fake libcuda.so.1 running Molten's kernels on the CPU) into
# platform-cuda/target/cuda-emu/libcuda.so.1. Needs g++ and the JCuda natives jar in ~/.m2.
# The platform-cuda tests build and use it by themselves where no NVIDIA device is present and g++
# exists (CudaTestSupport); scripts/gpu-emu-test.sh runs just the GPU tests through it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ff=$(cd "$here/../../.." && pwd)
out="$ff/target/cuda-emu"
mkdir -p "$out"
# One build at a time: platform-cuda's tests run in two JVMs (its pom), each of which may call this script first; the
# second waits here, then finds the first's library and key and reuses it (the lock is released when this shell ends)
exec 9> "$out/build.lock"
flock 9
# The JCuda natives jar: JCUDA_NATIVES_JAR (the tests pass the one on their class path), else ~/.m2.
jar=${JCUDA_NATIVES_JAR:-$(ls ~/.m2/repository/org/jcuda/jcuda-natives/*/jcuda-natives-*-linux-x86_64.jar | head -1)}
(cd "$out" && unzip -o -q "$jar" 'lib/libJCudaDriver-*-linux-x86_64.so')
lib=$(ls "$out"/lib/libJCudaDriver-*.so | head -1)
# Every driver symbol JCuda's library refers to gets a definition: the implemented ones in
# fake_driver.cpp, the rest a stub that reports and fails with CUDA_ERROR_NOT_SUPPORTED.
grep -oE 'EMU_API CUresult (cu[A-Za-z0-9_]+)' "$here/fake_driver.cpp" | awk '{print $3}' | sort -u > "$out/implemented.txt"
nm -D --undefined-only "$lib" | awk '$2 ~ /^cu/ {print $2}' | sort -u > "$out/wanted.txt"
comm -23 "$out/wanted.txt" "$out/implemented.txt" | while read -r s; do
  echo "extern \"C\" __attribute__((visibility(\"default\"))) int $s() { emu_unimplemented(\"$s\"); return 801; }"
done > "$out/stubs.inc"
# A library built from the same inputs is reused (every module's GPU tests run this script: platform-cuda's, cli's
# through EmulatedCuda, once per test, and the sweep's; each compile takes ~20 s of one core): the key hashes this
# script (the compiler flags), the emulator's sources, every file of the kernel sources, the stubs (JCuda's driver
# library) and the compiler's version, so that any change of them rebuilds. The key file also holds the library's own
# hash, so that a library written over by another build (an older checkout's script) is not taken for this one; it is
# removed before a build and written after the library is in place, so an interrupted build is never taken for a
# finished one.
key=$( { sha256sum "$here/build.sh" "$here/fake_driver.cpp" "$here/emu_cuda.h" "$out/stubs.inc" "$lib" | awk '{print $1}'
         (cd "$ff/src/main/cuda" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
         g++ --version; } | sha256sum | awk '{print $1}')
if [[ -f "$out/libcuda.so.1" && -f "$out/libcuda.key" ]] \
   && [[ $(<"$out/libcuda.key") == "$key $(sha256sum < "$out/libcuda.so.1" | awk '{print $1}')" ]]; then
  echo "$out/libcuda.so.1"
  exit 0
fi
rm -f "$out/libcuda.key"
g++ -std=c++17 -O2 -g -fPIC -shared -U_FORTIFY_SOURCE -fno-strict-aliasing -Wno-unused-result \
  -I"$here" -I"$ff/src/main/cuda" -I"$out" \
  -Wl,-soname,libcuda.so.1 -o "$out/libcuda.so.1.$$" "$here/fake_driver.cpp"
mv -f "$out/libcuda.so.1.$$" "$out/libcuda.so.1"
echo "$key $(sha256sum < "$out/libcuda.so.1" | awk '{print $1}')" > "$out/libcuda.key"
echo "$out/libcuda.so.1"
