#!/usr/bin/env bash
# Runs the GPU tests of platform-cuda (org.molten.forcefield.cuda) on this machine's CPU through the CUDA emulator
# (a fake libcuda.so.1 that executes the same kernel sources; see platform-cuda/src/test/cuda-emu).
#   scripts/gpu-emu-test.sh [TestClass[#method]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$("$root/platform-cuda/src/test/cuda-emu/build.sh" | tail -1)
test=${1:-'CudaStudentTest,CudaMdEngineTest,CudaDynamicsTest,KernelLaunchTest,OlderGpuTest,KernelImageTest'}
cd "$root"
MOLTEN_CUDA_EMULATOR="$lib" mvn -o -q -pl platform-cuda -am test -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false
grep -h "Tests run" platform-cuda/target/surefire-reports/*Cuda*.txt
