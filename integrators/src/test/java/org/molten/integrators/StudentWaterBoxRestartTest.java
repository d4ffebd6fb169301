package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.structures.WaterBox;

/**
 * A periodic box of 36 waters (108 atoms, edge 10.3 Å) with the bundled student under Langevin,
 * restarted from its checkpoint at step 200, continues bit for bit: positions, forces and the
 * potential energy at every report (every 10 steps) to step 230. The restarted force field builds its neighbour
 * list at step 200 while the uninterrupted one carries a list built earlier, so the student's
 * processing (Morton) order differs between the two; the energy must not depend on it.
 */
class StudentWaterBoxRestartTest {
    private static final long SEED = 3600;

    /** What a report saw, exactly. */
    private record Seen(long step, double energyEv, double[] positions, double[] forces) {
    }

    private static Simulation start(String platform, ForceField ff) {
        Atoms box = WaterBox.build(36, SEED);
        return Simulation.builder(box, ff, new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01)))
                .seed(SEED).temperature(300).platform(platform).build();
    }

    private static Reporter recorder(List<Seen> seen) {
        return new Reporter() {
            @Override
            public int intervalSteps() {
                return 10;
            }

            @Override
            public void report(Simulation s) {
                seen.add(new Seen(s.stepCount(), s.potentialEnergyEv(), s.atoms().positions().clone(), s.forces().clone()));
            }
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cpu", "fake"})
    void restartedAtStep200TheBoxContinuesBitForBitInPositionsForcesAndEnergy(String platform) throws Exception {
        List<Seen> straight = new ArrayList<>();
        List<Checkpoint> at200 = new ArrayList<>();
        try (ForceField ff = new OptimisedStudent(BundledModel.weights());
             ForceField ff2 = new OptimisedStudent(BundledModel.weights())) {
            Simulation a = start(platform, ff);
            assertEquals(platform, a.platformName());
            a.addReporter(recorder(straight)).addReporter(new Reporter() {
                @Override
                public int intervalSteps() {
                    return 200;
                }

                @Override
                public void report(Simulation s) {
                    if (s.stepCount() == 200) {
                        at200.add(s.checkpoint());
                    }
                }

                @Override
                public boolean runsLast() {
                    return true;
                }
            });
            a.step(230);
            a.close();

            List<Seen> resumed = new ArrayList<>();
            Simulation b = start(platform, ff2);
            b.restore(at200.get(0));
            b.addReporter(recorder(resumed));
            b.step(30);
            b.close();

            List<Seen> tail = straight.subList(straight.size() - 3, straight.size());
            assertEquals(3, resumed.size());
            for (int i = 0; i < 3; i++) {
                Seen x = tail.get(i), y = resumed.get(i);
                assertEquals(x.step(), y.step());
                assertArrayEquals(x.positions(), y.positions(), 0.0, platform + ": positions at step " + x.step());
                assertArrayEquals(x.forces(), y.forces(), 0.0, platform + ": forces at step " + x.step());
                assertEquals(x.energyEv(), y.energyEv(), 0.0, platform + ": potential energy at step " + x.step()
                        + " (a difference of ulps means a sum whose order depends on the neighbour-list history)");
            }
        }
    }
}
