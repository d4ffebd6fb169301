package org.molten.validation.runs;

import java.util.List;
import org.molten.core.Atoms;
import org.molten.validation.metrics.IntegrityResult;
import org.molten.validation.reports.BlowUp;

/**
 * What a run produced.
 *
 * @param spec             what was asked
 * @param series           the samples (step 0 included)
 * @param frames           sampled positions (Å, flat) when asked for, else empty
 * @param frameSteps       the step of each frame
 * @param frameForces      the model's forces on each frame, eV/Å
 * @param frameEnergies    the model's potential energy of each frame, eV
 * @param integrity        structural integrity over the samples
 * @param stepsCompleted   steps done
 * @param wallSeconds      wall-clock time of the MD loop, s
 * @param degreesOfFreedom dof of the temperature
 * @param blowUp           why it stopped early, or null
 * @param finalState       the state at the end (a copy)
 * @param platform         where the steps ran: "cpu" (host integrator) or a device platform ("cuda")
 * @param batchedReplicas  replicas advanced together in that platform's one binding (1: alone)
 */
record RunOutcome(RunSpec spec, EnergySeries series, List<double[]> frames, List<Long> frameSteps,
                  List<double[]> frameForces, List<Double> frameEnergies, IntegrityResult integrity,
                  long stepsCompleted, double wallSeconds, int degreesOfFreedom, BlowUp blowUp, Atoms finalState,
                  String platform, int batchedReplicas) {
}
