package org.molten.validation.observables;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.integrators.MaxwellBoltzmann;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

/**
 * Not a test: the measurement behind the defaults of {@link DivergenceThresholds}. Two sides of
 * the same model (the bundled student, CPU), each {@code replicas} Langevin runs at 300 K from the
 * same start with different velocity seeds, pooled as the validation protocol pools them; prints
 * JS and W1 per observable. Run with
 * {@code mvn -o -q -pl validation -am test -Dtest=SameModelSpreadMeasurement -Dmolten.measure=true
 * -Dsurefire.failIfNoSpecifiedTests=false} (optionally -Dmolten.measure.systems=..., .steps=..., .replicas=...).
 */
@EnabledIfSystemProperty(named = "molten.measure", matches = "true")
class SameModelSpreadMeasurement {

    @Test
    void measure() throws Exception {
        String[] systems = System.getProperty("molten.measure.systems", "alanine-dipeptide,ethanol").split(",");
        int steps = Integer.getInteger("molten.measure.steps", 2000);
        int replicas = Integer.getInteger("molten.measure.replicas", 4);
        int every = Integer.getInteger("molten.measure.every", 10);
        ForceField ff = new OptimisedStudent(BundledModel.weights(),
                OptimisedStudent.Options.defaults().withPrecision(OptimisedStudent.Precision.FLOAT64));
        for (String name : systems) {
            Atoms start = name.equals("water-box") ? WaterBox.build(Integer.getInteger("molten.measure.waters", 32), 1)
                    : BuiltInMolecules.load(name);
            ObservableSet set = ObservableSet.of(start);
            List<ObservableAccumulator> sides = new ArrayList<>();
            long t0 = System.nanoTime();
            for (long base : new long[] {1000, 2000}) {
                ObservableAccumulator acc = new ObservableAccumulator(set);
                for (int r = 0; r < replicas; r++) {
                    Atoms a = start.copy();
                    RandomStream rng = new RandomStream(base + r);
                    MaxwellBoltzmann.at(300).assign(a, rng);
                    VelocityVerlet vv = new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01));
                    try (Simulation sim = Simulation.builder(a, ff, vv).random(rng, base + r).build()) {
                        sim.step(200);   // 100 fs to leave the minimum
                        for (int s = 0; s < steps; s += every) {
                            sim.step(every);
                            acc.add(sim.atoms().positions(), sim.atoms().cellOrNull());
                        }
                    }
                }
                sides.add(acc);
            }
            System.out.printf(Locale.ROOT, "%s: %d replicas x %d steps (0.5 fs, 300 K Langevin 0.01/fs), frame every %d steps, %.0f s%n",
                    name, replicas, steps, every, (System.nanoTime() - t0) * 1e-9);
            for (ObservableComparison c : ObservableComparison.compareAll(sides.get(0), sides.get(1), DivergenceThresholds.defaults())) {
                System.out.printf(Locale.ROOT, "  %-22s n=%7d/%7d  JS %.4f  W1 %.4g %s  %s%n", c.name(), c.studentSamples(),
                        c.teacherSamples(), c.jensenShannon(), c.wasserstein1(), c.unit(), c.passed() ? "pass" : "FAIL " + c.reason());
            }
        }
    }
}
