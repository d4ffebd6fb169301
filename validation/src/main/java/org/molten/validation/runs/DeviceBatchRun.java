package org.molten.validation.runs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.molten.core.Atoms;
import org.molten.integrators.ReplicaSet;
import org.molten.integrators.Simulation;
import org.molten.integrators.reporters.EnergyLogReporter;

/**
 * One phase (equilibration, NVE or NVT) of several replicas run as one {@link ReplicaSet} on a
 * device platform: one binding, one batched model evaluation per step for all replicas, K steps
 * per launch, the state pulled only at the sample interval. Each replica keeps its own seed,
 * samples, energy log and final state, which are what {@link ProductionRun} gives that replica
 * alone on the platform (to float32 rounding: a batch's kernels may round differently from one
 * molecule's).
 *
 * <p>A blow-up, or a geometry the model refuses, in any replica stops the whole binding. The phase
 * is then run again replica by replica, each alone on the platform ({@link ProductionRun}), so
 * that every replica gets its own failure step and its samples up to it, as it would alone.
 */
final class DeviceBatchRun {
    /** Steps per chunk between progress updates (a stop or a cancelled validation is honoured there). */
    private static final int CHUNK_STEPS = 100;

    private DeviceBatchRun() {}

    /**
     * Runs replica k's spec ({@code specs.get(k).get()}, a fresh spec each call) from {@code starts.get(k)}.
     * Every spec has the same steps, integrator kind and timestep.
     *
     * @param warnings where a platform fallback to the host is said, once
     * @return replica k's outcome at index k
     */
    static List<RunOutcome> run(List<Supplier<RunSpec>> specs, List<Atoms> starts, String platform, Progress progress,
                                Consumer<String> warnings) throws IOException {
        List<RunSpec> batch = new ArrayList<>(specs.size());
        for (Supplier<RunSpec> s : specs) {
            batch.add(s.get());
        }
        long steps = batch.get(0).steps();
        for (RunSpec s : batch) {
            if (s.steps() != steps) {
                throw new IllegalArgumentException("a batch runs one phase: " + s.label() + " has " + s.steps()
                        + " steps, " + batch.get(0).label() + " " + steps);
            }
        }
        Counting counted = new Counting(progress);
        List<RunOutcome> out = specs.size() > 1 ? together(batch, starts, platform, counted, warnings) : null;
        if (out != null) {
            return out;
        }
        // Alone, one after the other; the steps the failed batch already counted are not counted twice.
        Progress rest = new Skipping(progress, counted.total);
        out = new ArrayList<>(specs.size());
        for (int k = 0; k < specs.size(); k++) {
            RunSpec spec = specs.size() > 1 ? specs.get(k).get() : batch.get(0);
            out.add(ProductionRun.run(spec, starts.get(k), rest, platform, warnings));
        }
        return out;
    }

    /** The batch; null when a replica failed (blew up, or the model or device refused its state). */
    private static List<RunOutcome> together(List<RunSpec> batch, List<Atoms> starts, String platform, Progress progress,
                                             Consumer<String> warnings) throws IOException {
        int r = batch.size();
        List<Atoms> atoms = new ArrayList<>(r);
        List<SampleCollector> collectors = new ArrayList<>(r);
        List<Simulation.Builder> builders = new ArrayList<>(r);
        for (int k = 0; k < r; k++) {
            RunSpec spec = batch.get(k);
            Atoms a = starts.get(k).copy();
            atoms.add(a);
            collectors.add(new SampleCollector(spec.sampleIntervalSteps(), spec.integrity(), spec.keepFrames()));
            // The start's velocities are kept, as in ProductionRun; the device draws its noise from the seed.
            Simulation.Builder b = Simulation.builder(a, spec.forceField(), spec.integrator()).constraints(spec.constraints()).platform(platform)
                    .warnings(warnings);
            if (spec.random() != null) {
                b.random(spec.random(), spec.seed());
            } else if (spec.seed() != null) {
                b.seed(spec.seed());
            }
            builders.add(b);
        }
        ReplicaSet set;
        try {
            set = ReplicaSet.of(builders).platform(platform).warnings(warnings).build();
        } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {  // a SimulationBlowUpException too
            warnings.accept(batch.get(0).label() + " and its batch-mates: the device batch of " + r
                    + " replicas could not start (" + e.getMessage() + "); they run again one at a time");
            return null;
        }
        long steps = batch.get(0).steps();
        long done = 0;
        double wall;
        List<RunOutcome> out = new ArrayList<>(r);
        try (set) {
            for (int k = 0; k < r; k++) {
                RunSpec spec = batch.get(k);
                Simulation sim = set.replica(k);
                int expected = 3 * atoms.get(k).size() - spec.removedConstraints() - set.replica(k).constraintSet().count();
                if (sim.degreesOfFreedom() != expected) {
                    throw new IllegalStateException(spec.label() + ": the simulation derived " + sim.degreesOfFreedom()
                            + " degrees of freedom from the start, the run expects " + expected);
                }
                sim.addReporter(collectors.get(k));
                sim.addReporter(EnergyLogReporter.create(spec.energyLog(), spec.sampleIntervalSteps()));
            }
            long t0 = System.nanoTime();
            while (done < steps) {
                int chunk = (int) Math.min(CHUNK_STEPS, steps - done);
                try {
                    set.step(chunk);
                } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {  // a SimulationBlowUpException too
                    // one replica's blow-up stops the batch: each replica runs again alone, so that every one gets
                    // its own outcome (the blown-up one where it blows up alone); said, so the cost is not hidden
                    warnings.accept(batch.get(0).label() + " and its batch-mates: the device batch of " + r
                            + " replicas stopped near step " + done + " (" + e.getMessage() + "); they run again one at a time");
                    return null;
                }
                long now = set.stepCount();
                progress.advance((now - done) * r);
                done = now;
            }
            wall = (System.nanoTime() - t0) * 1e-9;
            for (int k = 0; k < r; k++) {
                Simulation sim = set.replica(k);
                SampleCollector c = collectors.get(k);
                out.add(new RunOutcome(batch.get(k), c.series(), c.frames(), c.frameSteps(), c.frameForces(), c.frameEnergies(),
                        c.integrity().result(), done, wall, sim.degreesOfFreedom(), null, sim.atoms().copy(),
                        set.platformName(), r));
            }
        }
        return out;
    }

    /** Forwards progress and counts the steps forwarded. */
    private static final class Counting implements Progress {
        private final Progress inner;
        long total;

        Counting(Progress inner) {
            this.inner = inner;
        }

        @Override
        public void phase(String text) {
            inner.phase(text);
        }

        @Override
        public void advance(long steps) {
            inner.advance(steps);
            total += steps;
        }
    }

    /** Forwards progress once the first {@code skip} steps have passed (still letting a stop through at each update). */
    private static final class Skipping implements Progress {
        private final Progress inner;
        private long skip;

        Skipping(Progress inner, long skip) {
            this.inner = inner;
            this.skip = skip;
        }

        @Override
        public void phase(String text) {
            inner.phase(text);
        }

        @Override
        public void advance(long steps) {
            long skipped = Math.min(skip, steps);
            skip -= skipped;
            inner.advance(steps - skipped);
        }
    }
}
