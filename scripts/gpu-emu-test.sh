#!/usr/bin/env bash
# Runs the GPU tests of forcefield.cuda on this machine's CPU through the CUDA emulator
# (a fake libcuda.so.1 that executes the same kernel sources; see forcefield/src/test/cuda-emu).
#   scripts/gpu-emu-test.sh [TestClass[#method]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$("$root/forcefield/src/test/cuda-emu/build.sh" | tail -1)
test=${1:-'CudaStudentTest,CudaMdEngineTest,CudaDynamicsTest,KernelLaunchTest,OlderGpuTest,KernelImageTest'}
cd "$root"
MOLTEN_CUDA_EMULATOR="$lib" mvn -o -q -pl forcefield -am test -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false
grep -h "Tests run" forcefield/target/surefire-reports/*Cuda*.txt
