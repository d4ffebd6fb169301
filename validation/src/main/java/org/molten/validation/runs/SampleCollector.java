package org.molten.validation.runs;

import java.util.ArrayList;
import java.util.List;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;
import org.molten.validation.metrics.StructuralIntegrity;

/**
 * The validation's observer on a {@link Simulation}: every {@code intervalSteps} steps it records
 * the energies, temperature and bath energy, checks structural integrity and (optionally) keeps
 * a copy of the positions, forces and potential energy (for the baseline comparison, the teacher
 * checks and the observables).
 */
final class SampleCollector implements Reporter {
    private final int intervalSteps;
    private final EnergySeries series = new EnergySeries();
    private final StructuralIntegrity integrity;
    private final boolean keepFrames;
    private final List<double[]> frames = new ArrayList<>();
    private final List<Long> frameSteps = new ArrayList<>();
    private final List<double[]> frameForces = new ArrayList<>();
    private final List<Double> frameEnergies = new ArrayList<>();

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
            frameForces.add(sim.forces().clone());
            frameEnergies.add(epot);
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

    /** The model's forces (eV/Å) on each kept frame. */
    List<double[]> frameForces() {
        return frameForces;
    }

    /** The model's potential energy (eV) of each kept frame. */
    List<Double> frameEnergies() {
        return frameEnergies;
    }
}
