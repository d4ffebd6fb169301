/**
 * The student force field on NVIDIA GPUs through JCuda's driver API: CUDA C kernels
 * ({@code platform-cuda/src/main/cuda}, committed as one fatbin: machine code for sm_80/86/89/90, PTX for newer
 * GPUs; {@link org.molten.forcefield.cuda.KernelImage}) for the cell-list neighbour search,
 * the fused message passing forward and exact backward pass, the atom-wise dense layers and the
 * integrators (velocity Verlet, Langevin BAOAB); CUDA graphs per system size
 * ({@link org.molten.forcefield.cuda.CudaGraphCache}); a device-resident MD engine
 * ({@link org.molten.forcefield.cuda.CudaMdEngine}); and the factory that falls back to the CPU
 * path with one warning when no GPU can be used ({@link org.molten.forcefield.cuda.GpuAvailability},
 * counters in {@link org.molten.forcefield.cuda.GpuStatus}).
 */
package org.molten.forcefield.cuda;
