/**
 * Benchmarks of the force-field paths, measured side by side in one run so that ratios are
 * meaningful on a shared machine. {@link org.molten.bench.BenchSuite} is the suite behind
 * {@code molten bench}: CPU paths (reference, optimised float64/float32, ND4J against loops), the
 * TorchScript baseline through DJL and the CUDA paths (eager launches, graph replay, the
 * device-resident integrator), per size: latency per energy+forces call and per MD step,
 * throughput, memory, and the force error against the float64 reference, with a proof that every
 * timed call computed from new positions ({@link org.molten.bench.FreshInputGuard}).
 * {@link org.molten.bench.SuiteJson} stores a run; {@link org.molten.bench.Comparison} flags
 * regressions against a stored one. {@link org.molten.bench.CpuBenchmark} is the finer CPU latency
 * comparison ({@code --paths}). Benchmarks are not tests: nothing here asserts a timing.
 */
package org.molten.bench;
