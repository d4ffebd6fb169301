package org.molten.validation.runs;

import java.io.IOException;
import org.molten.core.Atoms;
import org.molten.integrators.Simulation;
import org.molten.integrators.SimulationBlowUpException;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.validation.reports.BlowUp;

/**
 * Runs one {@link RunSpec} from a starting state with a {@link Simulation}, in chunks so that
 * progress can be shown. A blow-up (the simulation's guard: non-finite or excessive forces,
 * speeds, positions, energy) or a force field that refuses the geometry mid-run does not
 * propagate: the run ends there and its {@link BlowUp} records the step, atom and cause. The
 * samples up to that point, and the energy log, are kept.
 */
final class ProductionRun {
    /** Steps per chunk between progress updates. */
    private static final int CHUNK_STEPS = 100;

    private ProductionRun() {}

    static RunOutcome run(RunSpec spec, Atoms start, Progress progress) throws IOException {
        return run(spec, start, progress, "cpu", w -> { });
    }

    /**
     * As {@link #run(RunSpec, Atoms, Progress)} on {@code platform}: "cpu" (the host integrator) or a
     * device platform ("cuda", whole steps on the device, the state pulled at the sample interval);
     * a device that cannot run it leaves it on the host and says why to {@code warnings}.
     */
    static RunOutcome run(RunSpec spec, Atoms start, Progress progress, String platform,
                          java.util.function.Consumer<String> warnings) throws IOException {
        Atoms atoms = start.copy();
        SampleCollector collector = new SampleCollector(spec.sampleIntervalSteps(), spec.integrity(), spec.keepFrames());
        double dt = spec.integrator().timestepFs();
        Simulation sim;
        try {
            // The start's velocities are kept; the force field given is what runs (on the host by default).
            Simulation.Builder b = Simulation.builder(atoms, spec.forceField(), spec.integrator()).platform(platform)
                    .warnings(warnings).constraints(spec.constraints());
            if (spec.random() != null) {
                b.random(spec.random(), spec.seed());
            } else if (spec.seed() != null) {
                b.seed(spec.seed());
            }
            sim = b.build();
        } catch (SimulationBlowUpException e) {
            progress.advance(spec.steps());
            return new RunOutcome(spec, collector.series(), collector.frames(), collector.frameSteps(),
                    collector.frameForces(), collector.frameEnergies(), collector.integrity().result(), 0, 0, 0, new BlowUp(0, 0, e.atom(), e.getMessage()), atoms.copy(),
                    platform, 1);
        } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
            // The force field refused the start (a teacher whose SCF fails on the state another of its runs left,
            // atoms overlapping): a run that stopped before its first step, as a refusal mid-run is, not a crash
            // of the whole validation.
            progress.advance(spec.steps());
            return new RunOutcome(spec, collector.series(), collector.frames(), collector.frameSteps(),
                    collector.frameForces(), collector.frameEnergies(), collector.integrity().result(), 0, 0, 0,
                    new BlowUp(0, 0, -1, spec.forceField().name() + " failed on the start: " + e.getMessage()), atoms.copy(),
                    platform, 1);
        }
        int expected = 3 * atoms.size() - spec.removedConstraints() - sim.constraintSet().count();
        if (sim.degreesOfFreedom() != expected) {
            sim.close();
            throw new IllegalStateException(spec.label() + ": the simulation derived " + sim.degreesOfFreedom()
                    + " degrees of freedom from the start, the run expects " + expected);
        }
        sim.addReporter(collector);
        sim.addReporter(EnergyLogReporter.create(spec.energyLog(), spec.sampleIntervalSteps()));
        BlowUp blowUp = null;
        long done = 0;
        long t0 = System.nanoTime();
        try (sim) {
            while (done < spec.steps()) {
                int chunk = (int) Math.min(CHUNK_STEPS, spec.steps() - done);
                try {
                    sim.step(chunk);
                } catch (SimulationBlowUpException e) {
                    blowUp = new BlowUp(e.step(), e.step() * dt, e.atom(), e.getMessage());
                } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
                    // The force field refused the geometry (atoms overlapping, a cutoff larger than
                    // half the cell, ...): the run has left the physical regime.
                    long at = sim.stepCount() + 1;
                    blowUp = new BlowUp(at, at * dt, -1, spec.forceField().name() + " failed: " + e.getMessage());
                }
                // A step the guard rejected does not count as done.
                long now = blowUp != null ? Math.max(0, blowUp.step() - 1) : sim.stepCount();
                progress.advance(now - done);
                done = now;
                if (blowUp != null) {
                    progress.advance(spec.steps() - done);
                    break;
                }
            }
        }
        double wall = (System.nanoTime() - t0) * 1e-9;
        return new RunOutcome(spec, collector.series(), collector.frames(), collector.frameSteps(),
                collector.frameForces(), collector.frameEnergies(), collector.integrity().result(), done, wall, sim.degreesOfFreedom(), blowUp, atoms.copy(),
                sim.platformName(), 1);
    }
}
