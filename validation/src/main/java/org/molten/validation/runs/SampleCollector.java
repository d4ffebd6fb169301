package org.molten.validation.runs;

import java.util.ArrayList;
import java.util.List;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;
import org.molten.validation.metrics.StructuralIntegrity;

/**
 * The validation's observer on a {@link Simulation}: every {@code intervalSteps} steps it records
 * the energies, temperature and bath energy, checks structural integrity and (optionally) keeps
 * a copy of the positions for the baseline comparison.
 */
final class SampleCollector implements Reporter {
    private final int intervalSteps;
    private final EnergySeries series = new EnergySeries();
    private final StructuralIntegrity integrity;
    private final boolean keepFrames;
    private final List<double[]> frames = new ArrayList<>();
    private final List<Long> frameSteps = new ArrayList<>();

    SampleCollector(int intervalSteps, StructuralIntegrity integrity, boolean keepFrames) {
        this.intervalSteps = intervalSteps;
        this.integrity = integrity;
        this.keepFrames = keepFrames;
    }

    @Override
    public int intervalSteps() {
        return intervalSteps;
    }

    @Override
    public void report(Simulation sim) {
        double ekin = sim.kineticEnergyEv();
        double epot = sim.potentialEnergyEv();
        double bath = sim.integrator().bathEnergyEv(sim.degreesOfFreedom());
        series.add(sim.stepCount(), sim.timeFs(), epot, ekin, sim.temperatureK(), bath);
        integrity.check(sim.stepCount(), sim.timeFs(), sim.atoms());
        if (keepFrames) {
            frames.add(sim.atoms().positions().clone());
            frameSteps.add(sim.stepCount());
        }
    }

    EnergySeries series() {
        return series;
    }

    StructuralIntegrity integrity() {
        return integrity;
    }

    List<double[]> frames() {
        return frames;
    }

    List<Long> frameSteps() {
        return frameSteps;
    }
}
