package org.molten.validation.runs;

import java.nio.file.Path;
import org.molten.core.RandomStream;
import org.molten.core.ForceField;
import org.molten.integrators.Integrator;
import org.molten.integrators.constraints.Constraints;
import org.molten.validation.reports.Ensemble;
import org.molten.validation.reports.ModelRole;
import org.molten.validation.reports.Precision;
import org.molten.validation.reports.RunPhase;
import org.molten.validation.metrics.StructuralIntegrity;

/**
 * One run to do: its label, what it is, the force field and integrator, how long, and where
 * its energy log goes.
 *
 * @param label              "optimised NVE"
 * @param phase              equilibration or production
 * @param role               optimised or baseline
 * @param ensemble           NVE or NVT
 * @param forceField         the model (not closed by the run)
 * @param precision          its arithmetic precision
 * @param integrator         a fresh integrator for this run
 * @param removedConstraints constraints the start satisfies (3: zero centre-of-mass momentum); the simulation
 *                           derives its degrees of freedom and the run checks they agree
 * @param seed               seed of the run's random stream (NVT), or null for none
 * @param random             an already-started stream created from {@code seed} to continue, or
 *                           null for a fresh {@code RandomStream(seed)}
 * @param steps              steps to run
 * @param sampleIntervalSteps steps between samples
 * @param integrity          a fresh integrity tracker against the starting structure
 * @param keepFrames         true to keep the sampled positions (for the baseline comparison)
 * @param energyLog          CSV energy log to write (ASE MDLogger columns)
 * @param constraints        bond constraints of the run (resolved against its start; their count is subtracted
 *                           from the degrees of freedom on top of {@code removedConstraints})
 */
record RunSpec(String label, RunPhase phase, ModelRole role, Ensemble ensemble, ForceField forceField, Precision precision,
               Integrator integrator, int removedConstraints, Long seed, RandomStream random, long steps, int sampleIntervalSteps,
               StructuralIntegrity integrity, boolean keepFrames, Path energyLog, Constraints constraints) {
    /** A run without constraints. */
    RunSpec(String label, RunPhase phase, ModelRole role, Ensemble ensemble, ForceField forceField, Precision precision,
            Integrator integrator, int removedConstraints, Long seed, RandomStream random, long steps, int sampleIntervalSteps,
            StructuralIntegrity integrity, boolean keepFrames, Path energyLog) {
        this(label, phase, role, ensemble, forceField, precision, integrator, removedConstraints, seed, random, steps,
                sampleIntervalSteps, integrity, keepFrames, energyLog, Constraints.none());
    }
}
