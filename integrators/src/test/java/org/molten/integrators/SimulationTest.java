package org.molten.integrators;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.classical.ClassicalReferencePotential;
import org.molten.integrators.reporters.CheckpointReporter;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.reporters.TrajectoryReporter;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;
import org.molten.integrators.thermostats.BussiThermostat;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.integrators.thermostats.NoseHooverChain;

class SimulationTest {

    private static Simulation ethanolRun(double dtFs, Thermostat thermostat, long seed) {
        Atoms eth = TestSystems.ethanol();
        return Simulation.builder(eth, ClassicalReferencePotential.inferredFrom(eth), new VelocityVerlet(dtFs, thermostat))
                .seed(seed).temperature(300).build();
    }

    @Test
    void blowUpStopsWithStepAtomAndCauseAndKeepsTheOutputs(@TempDir Path dir) throws IOException {
        // 3.8 fs is beyond Verlet's stability limit for the C-H and O-H springs (ω dt > 2 for a period
        // near 11 fs): the stretch grows by a factor ~1.7 per step until the guard trips.
        Simulation sim = ethanolRun(3.8, null, 7);
        Path log = dir.resolve("energy.csv");
        Path chk = dir.resolve("run.chk");
        Path traj = dir.resolve("run.extxyz");
        sim.addReporter(EnergyLogReporter.create(log, 1)).addReporter(TrajectoryReporter.create(traj, 2))
                .addReporter(new CheckpointReporter(chk, 3));
        SimulationBlowUpException e = assertThrows(SimulationBlowUpException.class, () -> sim.step(10_000));
        String m = e.getMessage();
        assertTrue(m.matches("simulation blew up at step \\d+ \\(t = [0-9.]+ fs\\): atom \\d \\((H|C|O)\\): .*"), m);
        assertTrue(e.step() > 4 && e.step() < 10_000, "blows up after a few good steps: " + m);
        assertTrue(e.blowUpCause() == SimulationBlowUpException.Cause.FORCE_TOO_LARGE
                || e.blowUpCause() == SimulationBlowUpException.Cause.SPEED_TOO_LARGE, m);
        assertEquals(sim.atoms().element(e.atom()), e.element());
        System.out.println("blow-up message: " + m);

        // The log holds every good step (0 .. step-1) and nothing of the bad one; it was flushed.
        List<String> rows = Files.readAllLines(log);
        assertTrue(rows.get(0).startsWith("# T[K]"), rows.get(0));
        assertEquals(EnergyLogReporter.HEADER, rows.get(1));
        assertEquals(e.step() + 2, rows.size(), "comment, header plus steps 0 .. " + (e.step() - 1));
        // The checkpoint is the last good one: the last multiple of 3 before the blow-up, sound, readable.
        Checkpoint c = Checkpoint.read(chk);
        assertEquals(3 * ((e.step() - 1) / 3), c.step());
        assertTrue(c.step() > 0);
        BlowUpGuard.defaults().check(c.step(), c.timeFs(), c.atoms(), c.forcesEvPerA(), c.potentialEnergyEv());
        // The trajectory holds the good even steps, each frame whole and finite.
        List<Frame> frames = StructureFiles.readAll(traj);
        assertEquals((e.step() - 1) / 2 + 1, frames.size());
        try (var files = Files.list(dir)) {
            assertEquals(3, files.count(), "no temporary checkpoint files left behind");
        }
    }

    @Test
    void guardNamesNonFiniteValuesAndRespectsCustomBounds() {
        Atoms eth = TestSystems.ethanol();
        double[] f = new double[27];
        eth.positions()[3 * 4 + 1] = Double.NaN;
        SimulationBlowUpException e = assertThrows(SimulationBlowUpException.class,
                () -> BlowUpGuard.defaults().check(12, 6.0, eth, f, -1.0));
        assertEquals("simulation blew up at step 12 (t = 6.0 fs): atom 4 (H): position is not finite (0.042557, NaN, 0.886933) A",
                e.getMessage());
        eth.positions()[3 * 4 + 1] = 1.2;
        f[3 * 2] = 20;
        BlowUpGuard.defaults().check(1, 0.5, eth, f, -1.0);
        e = assertThrows(SimulationBlowUpException.class, () -> BlowUpGuard.of(10, 1).check(1, 0.5, eth, f, -1.0));
        assertTrue(e.getMessage().contains("atom 2 (O): force exceeds the bound: |F| = 20.00 eV/A > 10.0 eV/A"), e.getMessage());
        e = assertThrows(SimulationBlowUpException.class,
                () -> BlowUpGuard.defaults().check(3, 1.5, eth, f, Double.POSITIVE_INFINITY));
        assertEquals(SimulationBlowUpException.Cause.NON_FINITE_ENERGY, e.blowUpCause());
        assertEquals(2, e.atom(), "the atom with the largest force is named");
        eth.velocities()[0] = 2.0;
        e = assertThrows(SimulationBlowUpException.class, () -> BlowUpGuard.defaults().check(1, 0.5, eth, f, -1.0));
        assertTrue(e.getMessage().contains("atom 0 (C): speed exceeds the bound"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BlowUpGuard.of(-1, 1));
    }

    @Test
    void restartRefusesAnotherSystemIntegratorOrCorruptFile(@TempDir Path dir) throws IOException {
        Simulation sim = ethanolRun(0.5, new BussiThermostat(300, 50), 1);
        sim.step(10);
        Path chk = dir.resolve("eth.chk");
        sim.checkpoint().writeAtomically(chk);
        Checkpoint c = Checkpoint.read(chk);

        Simulation otherIntegrator = ethanolRun(0.5, new BussiThermostat(310, 50), 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> otherIntegrator.restore(c));
        assertTrue(e.getMessage().contains("written for another integrator: 'velocity-verlet(dt=0.5 fs) + bussi(T=300.0 K,"
                + " tau=50.0 fs)', this run uses 'velocity-verlet(dt=0.5 fs) + bussi(T=310.0 K, tau=50.0 fs)'"), e.getMessage());
        assertTrue(e.getMessage().contains(chk.toString()), "names the file: " + e.getMessage());

        Atoms water = Atoms.of(new int[] {8, 1, 1}, new double[] {0, 0, 0, 0.96, 0, 0, -0.24, 0.93, 0}, null);
        Simulation otherSystem = Simulation.builder(water, ClassicalReferencePotential.inferredFrom(water),
                new VelocityVerlet(0.5, new BussiThermostat(300, 50))).seed(1).temperature(300).build();
        e = assertThrows(IllegalArgumentException.class, () -> otherSystem.restore(c));
        assertTrue(e.getMessage().contains("is for another system: 9 atoms C2H6O, this run has 3 atoms H2O"), e.getMessage());

        Atoms boxed = TestSystems.ethanol().withCell(Cell.orthorhombic(20, 20, 20));
        Simulation otherCell = Simulation.builder(boxed, ClassicalReferencePotential.inferredFrom(TestSystems.ethanol()),
                new VelocityVerlet(0.5, new BussiThermostat(300, 50))).seed(1).temperature(300).build();
        e = assertThrows(IllegalArgumentException.class, () -> otherCell.restore(c));
        assertTrue(e.getMessage().contains("is for another cell: no cell"), e.getMessage());

        byte[] bytes = Files.readAllBytes(chk);
        bytes[bytes.length / 2] ^= 0x10;
        Path bad = dir.resolve("bad.chk");
        Files.write(bad, bytes);
        IOException io = assertThrows(IOException.class, () -> Checkpoint.read(bad));
        assertTrue(io.getMessage().startsWith("checkpoint " + bad + " is corrupted or truncated: its CRC-32 check fails"),
                io.getMessage());
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "this is not a checkpoint at all, just text");
        io = assertThrows(IOException.class, () -> Checkpoint.read(text));
        assertTrue(io.getMessage().contains("is not a Molten checkpoint"), io.getMessage());
        Files.write(bad, java.util.Arrays.copyOf(Files.readAllBytes(chk), 100));
        io = assertThrows(IOException.class, () -> Checkpoint.read(bad));
        assertTrue(io.getMessage().contains("is truncated"), io.getMessage());
        // a checkpoint of the earlier format (version 1: no force-field fingerprint) is named, not misread
        byte[] v1 = Files.readAllBytes(chk);
        java.nio.ByteBuffer.wrap(v1).putInt(8, 1);
        Files.write(bad, v1);
        io = assertThrows(IOException.class, () -> Checkpoint.read(bad));
        assertEquals("checkpoint " + bad + " has format version 1; this Molten reads versions 2 and 3", io.getMessage());
    }

    @Test
    void restartRefusesACheckpointWrittenWithOtherWeightsOfTheSameModelName(@TempDir Path dir) throws IOException {
        org.molten.forcefield.student.StudentWeights w1 = org.molten.forcefield.student.StudentWeights.random(1,
                new int[] {1, 6, 8}, 8, 1, 6, 4.0, 8.0);
        org.molten.forcefield.student.StudentWeights w2 = org.molten.forcefield.student.StudentWeights.random(2,
                new int[] {1, 6, 8}, 8, 1, 6, 4.0, 8.0);
        Path chk = dir.resolve("student.chk");
        try (ForceField a = new org.molten.forcefield.student.OptimisedStudent(w1);
             ForceField b = new org.molten.forcefield.student.OptimisedStudent(w2);
             ForceField sameWeights = new org.molten.forcefield.student.ReferenceStudent(w1)) {
            assertEquals(a.name(), b.name(), "the case this guards: same name, other parameters");
            Atoms eth = TestSystems.ethanol();
            Simulation sim = Simulation.builder(eth, a, new VelocityVerlet(0.5, null)).seed(3).temperature(300).build();
            sim.step(3);
            sim.checkpoint().writeAtomically(chk);
            Checkpoint c = Checkpoint.read(chk);
            assertEquals("student-weights sha256:" + w1.fingerprint(), c.forceFieldFingerprint());

            Simulation other = Simulation.builder(TestSystems.ethanol(), b, new VelocityVerlet(0.5, null)).build();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> other.restore(c));
            assertTrue(e.getMessage().contains("written for another force-field parameter set: 'student-weights sha256:"
                    + w1.fingerprint() + "', this run uses 'student-weights sha256:" + w2.fingerprint() + "'"), e.getMessage());
            // the same weights through another implementation is another force field by name, also refused
            Simulation ref = Simulation.builder(TestSystems.ethanol(), sameWeights, new VelocityVerlet(0.5, null)).build();
            e = assertThrows(IllegalArgumentException.class, () -> ref.restore(c));
            assertTrue(e.getMessage().contains("written for another force field: 'student/optimised'"), e.getMessage());
            // and the same weights again are accepted
            try (ForceField again = new org.molten.forcefield.student.OptimisedStudent(w1)) {
                Simulation same = Simulation.builder(TestSystems.ethanol(), again, new VelocityVerlet(0.5, null)).seed(3).build();
                same.restore(c);
                assertEquals(3, same.stepCount());
            }
        }
    }

    @Test
    void degreesOfFreedomAreDerivedFromWhatTheIntegratorConserves() {
        ForceField ff = ClassicalReferencePotential.inferredFrom(TestSystems.ethanol());
        // Langevin thermalises rotation, keeps the momentum at zero: 3N - 3.
        assertEquals(24, Simulation.builder(TestSystems.ethanol(), ff, new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01)))
                .seed(1).temperature(300).build().degreesOfFreedom());
        // Langevin without drift removal thermalises every degree of freedom: 3N.
        assertEquals(27, Simulation.builder(TestSystems.ethanol(), ff,
                new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01).keepingCentreOfMassMotion())).seed(1).temperature(300)
                .build().degreesOfFreedom());
        // A deterministic thermostat on an isolated molecule keeps both momenta: 3N - 6, and they are removed.
        Simulation nhc = Simulation.builder(TestSystems.ethanol(), ff, new VelocityVerlet(0.5, new NoseHooverChain(300, 50)))
                .seed(1).temperature(300).build();
        assertEquals(21, nhc.degreesOfFreedom());
        assertEquals(0, org.molten.core.Observables.angularMomentum(nhc.atoms())[2], 1e-12);
        // A periodic cell has no rotation to remove: 3N - 3.
        assertEquals(24, Simulation.builder(TestSystems.ethanol().withCell(Cell.orthorhombic(20, 20, 20)), ff,
                new VelocityVerlet(0.5)).seed(1).temperature(300).build().degreesOfFreedom());
        // Given velocities are kept; what they satisfy counts: a net momentum leaves all 3N.
        Atoms moving = TestSystems.ethanol();
        java.util.Arrays.fill(moving.velocities(), 0.001);
        Simulation kept = Simulation.builder(moving, ff, new VelocityVerlet(0.5)).build();
        assertEquals(27, kept.degreesOfFreedom());
        assertEquals(0.001, kept.atoms().velocities()[5], 0.0, "velocities kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Simulation.builder(
                TestSystems.ethanol(), ff, new VelocityVerlet(0.5)).temperature(300).build());
        assertTrue(e.getMessage().contains("needs a seed"), e.getMessage());
    }

    @Test
    void stochasticThermostatWithoutSeedAndRescalingAtRestAreRefused() {
        Atoms eth = TestSystems.ethanol();
        ForceField ff = ClassicalReferencePotential.inferredFrom(eth);
        MaxwellBoltzmann.at(300).assign(eth, new RandomStream(4));
        Simulation noSeed = Simulation.builder(eth, ff, new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.01))).build();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> noSeed.step(1));
        assertTrue(e.getMessage().contains("give the simulation a seed"), e.getMessage());

        Atoms still = TestSystems.ethanol();
        Simulation atRest = Simulation.builder(still, ff, new VelocityVerlet(0.5, new BussiThermostat(300, 50)))
                .seed(3).build();
        e = assertThrows(IllegalStateException.class, () -> atRest.step(1));
        assertTrue(e.getMessage().contains("cannot thermostat a system at rest"), e.getMessage());
    }

    @Test
    void reportersRunAtTheirIntervalAndTheLogHasAseColumns(@TempDir Path dir) throws IOException {
        Simulation sim = ethanolRun(0.5, null, 2);
        Path log = dir.resolve("e.csv");
        int[] calls = {0};
        sim.addReporter(EnergyLogReporter.create(log, 4)).addReporter(new Reporter() {
            @Override
            public int intervalSteps() {
                return 3;
            }

            @Override
            public void report(Simulation s) {
                assertEquals(0, s.stepCount() % 3);
                calls[0]++;
            }
        });
        sim.step(10);
        sim.step(2);
        sim.close();
        assertEquals(5, calls[0], "steps 0, 3, 6, 9, 12");
        List<String> rows = Files.readAllLines(log);
        // ethanol with centre-of-mass momentum and rotation removed: 3N - 6 = 21 degrees of freedom
        assertEquals("# T[K] = 2 Ekin / (dof kB) with dof = 3N - 6 = 21 (N = 9 atoms, centre-of-mass momentum and "
                + "rotation removed); ASE's MDLogger uses 3N: T_ASE = T * 21/27", rows.get(0));
        assertEquals("Time[ps],Etot[eV],Epot[eV],Ekin[eV],T[K]", rows.get(1));
        assertEquals(6, rows.size(), "comment, header + steps 0, 4, 8, 12");
        String[] last = rows.get(5).split(",");
        assertEquals(0.006, Double.parseDouble(last[0]), 1e-12, "12 steps of 0.5 fs = 0.006 ps");
        assertEquals(Double.parseDouble(last[1]), Double.parseDouble(last[2]) + Double.parseDouble(last[3]), 2e-8);
        assertEquals(sim.temperatureK(), Double.parseDouble(last[4]), 1e-3);
        // the stated convention holds: T = 2 Ekin / (21 kB), and ASE's 3N temperature is T * 21/27
        double ekin = Double.parseDouble(last[3]);
        assertEquals(2 * ekin / (21 * org.molten.core.Units.BOLTZMANN_EV_PER_K), Double.parseDouble(last[4]), 2e-3);
        assertEquals(2 * ekin / (27 * org.molten.core.Units.BOLTZMANN_EV_PER_K), Double.parseDouble(last[4]) * 21 / 27, 2e-3);
    }

    @Test
    void aLongRunWithoutCheckpointsShowsItsLogWhileItRuns(@TempDir Path dir) throws Exception {
        Simulation sim = ethanolRun(0.5, null, 2);
        Path log = dir.resolve("e.csv");
        sim.addReporter(EnergyLogReporter.create(log, 1));
        sim.step(1);
        Thread.sleep(EnergyLogReporter.FLUSH_AFTER_NS / 1_000_000 + 100);  // past the flush interval
        sim.step(1);
        // not closed, no checkpoint: the rows of steps 0 .. 2 are in the file already
        assertEquals(5, Files.readAllLines(log).size(), "comment, header + steps 0, 1, 2 before close");
        sim.close();
    }
}
