/**
 * Latency benchmarks of the force-field paths (reference, optimised CPU in float64/float32, with
 * ND4J or loops; later CUDA), measured side by side in one run so that ratios are meaningful on
 * a shared machine. Results go to a table on stdout and, optionally, a JSON file; the figures
 * recorded in docs/benchmarks.md come from here. Benchmarks are not tests: nothing here asserts
 * a timing.
 */
package org.molten.bench;
