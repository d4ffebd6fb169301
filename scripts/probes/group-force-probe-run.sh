#!/usr/bin/env bash
# group_force_probe on the GPU machine, from the repository root: bash scripts/probes/group-force-probe-run.sh [REPS]
# GFP_DIR (default .device/gfp, carried) holds the binary and its inputs, made here (no GPU needed):
#   nvcc -O3 -arch=sm_90 -cudart static -o .device/gfp/group_force_probe scripts/probes/group_force_probe.cu
#   OMP_NUM_THREADS=1 /usr/bin/python3 scripts/probes/group_force_probe.py write .device/gfp 1024 256
# One line per configuration (molecule, R, G molecules a block, RT rows a register tile, threads a block, variant):
# µs per force evaluation (energies + exact forces, one launch), replica-evals/s, max |dF| and |dE| against the
# float64 PyTorch reference of every replica, then the attribution timings of the same binary (forward only; without
# the message pair loops; forward without pair loops). Outputs (energies, forces) go to ${OUT:-/tmp}/out_*.bin.
set -u
d=${GFP_DIR:-.device/gfp}
o=${OUT:-/tmp}
reps=${1:-200}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null || true
for cfg in "1 9 128" "2 9 128" "2 9 256" "4 9 128" "4 9 256"; do
  set -- $cfg
  "$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G$1_T$3.bin" "$1" "$2" "$3" "$reps"
done
for cfg in "1 11 128" "1 11 256" "2 11 256"; do
  set -- $cfg
  "$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G$1_T$3.bin" "$1" "$2" "$3" "$reps"
done
# Variants (9th argument VAR: VGX 1, VMOLH 2, VRACC 4, VRACCB 8, VTC 16, VTCA 32; see the .cu header), not yet measured:
"$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G1_T128_v1.bin" 1 11 128 "$reps" 1
"$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G1_T128_v13.bin" 1 11 128 "$reps" 13
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G2_T256_v2.bin" 2 9 256 "$reps" 2
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G2_T256_v6.bin" 2 9 256 "$reps" 6
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G2_T256_v14.bin" 2 9 256 "$reps" 14
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G1_T128_v4.bin" 1 9 128 "$reps" 4
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G1_T128_v12.bin" 1 9 128 "$reps" 12
# VTC (16: dense products on the tensor cores, 3xTF32; 32 = VTCA: small terms in their own accumulators), checked on
# the CPU emulator only, not yet measured; ethanol G 2 / G 4 draw each weight from L2 once for 2 / 4 molecules:
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G1_T128_v20.bin" 1 9 128 "$reps" 20
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G2_T128_v20.bin" 2 9 128 "$reps" 20
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G2_T128_v52.bin" 2 9 128 "$reps" 52
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G4_T256_v22.bin" 4 9 256 "$reps" 22
"$d/group_force_probe" "$d/weights.bin" "$d/eth_pos.bin" "$d/eth_ref.bin" "$o/out_eth_G4_T256_v54.bin" 4 9 256 "$reps" 54
"$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G1_T128_v29.bin" 1 11 128 "$reps" 29
"$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G1_T128_v61.bin" 1 11 128 "$reps" 61
"$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G1_T128_v17.bin" 1 11 128 "$reps" 17
"$d/group_force_probe" "$d/weights.bin" "$d/dip_pos.bin" "$d/dip_ref.bin" "$o/out_dip_G1_T256_v16.bin" 1 11 256 "$reps" 16
