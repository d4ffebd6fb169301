/**
 * Optional: the optimised student's atom-wise dense layers through ND4J (OpenBLAS) GEMMs, picked up
 * by {@link org.molten.forcefield.student.Nd4jSupport} through {@link java.util.ServiceLoader} when
 * this module is on the class path. Kept out of forcefield because ND4J brings ~120 MB of natives
 * for a gain that is small or absent on the CPUs measured (docs/benchmarks.md) and cannot load on
 * the GPU machine.
 */
package org.molten.forcefield.nd4j;
