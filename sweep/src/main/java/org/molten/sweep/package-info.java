/**
 * {@code molten sweep}: validation campaigns (models × systems × temperatures × replicas) run as
 * tasks on Hazelcast — embedded in the calling JVM by default, spread over machines with
 * {@code molten worker --join HOST:PORT}. The only class that calls into the validation module is
 * {@link org.molten.sweep.ValidationTaskExecutor}; the only class that knows report.json's keys
 * is {@link org.molten.sweep.TaskReportReader}. Design and guarantees: docs/sweep.md.
 */
package org.molten.sweep;
