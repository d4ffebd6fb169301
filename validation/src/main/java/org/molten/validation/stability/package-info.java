/**
 * MLIPAudit's stability protocol (issue 27) as a Molten run: every molecule × replica Langevin NVT in one batch of
 * replicas, the state checked at N frames, each replica scored ½·f/N on an explosion at frame f, ½ + ½·f/N when a
 * hydrogen first leaves its bonded heavy atom by more than 2.5 Å, 1 when stable ({@link ReplicaStability});
 * {@link StabilityRun} runs it, {@link StabilityReport} holds the figures and {@link StabilityFiles} writes them.
 */
package org.molten.validation.stability;
