package org.molten.validation.stability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.BuiltInMolecules;

/**
 * The protocol end to end on the host with the bundled student: water, ethanol and benzene (3, 9, 12 atoms) in one
 * batch, 100 fs (200 steps) checked at 10 frames, fixed seed. They stay intact (score 1); a molecule forced to fail
 * (a hydrogen pulled off, or forces that turn NaN mid-run) scores its event while the others still score 1.
 */
class StabilityRunTest {
    private static final int FRAMES = 10;
    private static StudentWeights weights;

    @BeforeAll
    static void load() throws IOException {
        weights = BundledModel.weights();
    }

    private static List<StabilityMolecule> molecules(String... names) {
        List<StabilityMolecule> out = new ArrayList<>();
        for (String n : names) {
            out.add(new StabilityMolecule(n, "built-in " + n, BuiltInMolecules.load(n)));
        }
        return out;
    }

    private static StabilitySettings settings(int replicas) {
        return new StabilitySettings(300, 0.1, 0.5, 0.01, replicas, 42, FRAMES, "cpu");
    }

    private static StabilityReport run(List<StabilityMolecule> molecules, StabilitySettings s, Supplier<ForceField> ff,
                                       List<StabilityReport> writes) throws IOException {
        return new StabilityRun(molecules, s, ff, "v5", 0.95, w -> { }).run(writes::add, 2, () -> false);
    }

    @Test
    void threeTrainedMoleculesInOneBatchAreStable(@TempDir Path dir) throws IOException {
        List<StabilityReport> writes = new ArrayList<>();
        StabilityReport r = run(molecules("water", "ethanol", "benzene"), settings(2), () -> new OptimisedStudent(weights),
                writes);
        assertEquals("complete", r.status());
        assertEquals(FRAMES, r.framesDone());
        for (MoleculeStability m : r.molecules()) {
            assertEquals(1.0, m.score(), 0.0, m.name() + ": " + m.worst().detail());
            assertEquals(2, m.replicas().size());
        }
        assertEquals(1.0, r.meanScore(), 0.0);
        assertTrue(r.passed());
        // written as it went: after frames 2, 4, 6, 8 (running) and at the end (complete)
        assertEquals(List.of("running", "running", "running", "running", "complete"),
                writes.stream().map(StabilityReport::status).toList());
        assertEquals(4, writes.get(1).framesDone());
        StabilityFiles.write(r, dir);
        List<String> csv = Files.readAllLines(dir.resolve(StabilityFiles.CSV));
        assertEquals(StabilityFiles.CSV_HEADER, csv.get(0));
        assertTrue(csv.get(2).startsWith("ethanol,9,2,1.000000,stable,,,2,0,0,"), csv.get(2));
        String json = Files.readString(dir.resolve(StabilityFiles.JSON));
        assertTrue(json.contains("\"mean_score\" : 1.0") && json.contains("\"verdict\" : \"PASS\""), json);
    }

    @Test
    void aHydrogenPulledOffScoresItsFrameAndTheOthersStayAtOne() throws IOException {
        // ethanol's atom 8 (a hydrogen) pulled away from the molecule by 6 eV/Å until it is 1.6 Å farther out than at
        // the start: it leaves its bonded atom (> 2.5 Å) gently, without heating the molecule to an explosion
        Supplier<ForceField> ff = () -> new Perturbed(new OptimisedStudent(weights), 9, 8, 6.0, Long.MAX_VALUE);
        StabilityReport r = run(molecules("water", "ethanol", "benzene"), settings(1), ff, new ArrayList<>());
        MoleculeStability ethanol = r.molecules().get(1);
        ReplicaStability e = ethanol.replicas().get(0);
        assertEquals(StabilityEvent.HYDROGEN_DETACHED, e.event(), e.detail());
        assertTrue(e.detail().startsWith("hydrogen H8 is"), e.detail());
        int f = e.detachmentFrame();
        assertTrue(f >= 1 && f < FRAMES, "detached within the run: " + f);
        assertEquals(0.5 + 0.5 * f / FRAMES, ethanol.score(), 1e-15);
        assertEquals(1.0, r.molecules().get(0).score(), 0.0);
        assertEquals(1.0, r.molecules().get(2).score(), 0.0);
        assertEquals((2 + 0.5 + 0.5 * f / FRAMES) / 3, r.meanScore(), 1e-15);
    }

    @Test
    void aReplicaWhoseForcesTurnNaNExplodesAloneAndDoesNotPoisonTheBatch() throws IOException {
        // water's forces become NaN from its 90th force call (about step 88, frame 5 of 10 at 20 steps a frame): the
        // guard stops the batch; water is dropped, the others are restored to the last frame and go on
        Supplier<ForceField> bad = () -> new Perturbed(new OptimisedStudent(weights), 3, 0, 0.0, 90);
        List<StabilityMolecule> mols = molecules("water", "ethanol", "benzene");
        StabilityReport r = run(mols, settings(2), bad, new ArrayList<>());
        MoleculeStability water = r.molecules().get(0);
        for (ReplicaStability w : water.replicas()) {
            assertEquals(StabilityEvent.EXPLOSION, w.event(), w.detail());
            assertEquals(5, w.explosionFrame(), w.detail());
            assertEquals(0.25, w.score(), 0.0);
            assertTrue(w.detail().contains("not finite"), w.detail());
        }
        for (MoleculeStability m : r.molecules().subList(1, 3)) {
            assertEquals(1.0, m.score(), 0.0, m.name() + ": " + m.worst().detail());
            for (ReplicaStability x : m.replicas()) {
                assertEquals(FRAMES, x.framesDone());
            }
        }
        assertEquals((2 * 0.25 + 4) / 6, r.meanScore(), 1e-15);
        assertEquals("FAIL", r.verdict());
    }

    @Test
    void theSurvivorsOfABlowUpEndBitForBitWhereTheyEndWithoutIt() throws IOException {
        // the same batch, seeds and steps, once with water's forces turning NaN at call 90 and once without: ethanol's
        // and benzene's last states agree to the bit (restored from their checkpoints and the frame run again)
        List<StabilityMolecule> mols = molecules("water", "ethanol", "benzene");
        StabilityRun bad = new StabilityRun(mols, settings(1), () -> new Perturbed(new OptimisedStudent(weights), 3, 0, 0.0, 90),
                "v5", 0.95, w -> { });
        StabilityRun good = new StabilityRun(mols, settings(1), () -> new OptimisedStudent(weights), "v5", 0.95, w -> { });
        bad.run(x -> { }, FRAMES, () -> false);
        good.run(x -> { }, FRAMES, () -> false);
        assertEquals(5 * 20 - 20, bad.lastCheckpoint(0).step(), "water's last checkpoint is frame 4's");
        for (int k = 1; k < 3; k++) {
            assertEquals(200, bad.lastCheckpoint(k).step());
            assertTrue(java.util.Arrays.equals(good.lastCheckpoint(k).atoms().positions(), bad.lastCheckpoint(k).atoms().positions()),
                    mols.get(k).name() + " moved differently beside a blown-up water");
            assertTrue(java.util.Arrays.equals(good.lastCheckpoint(k).atoms().velocities(), bad.lastCheckpoint(k).atoms().velocities()));
        }
    }

    @Test
    void aStartTheGuardRefusesScoresZeroAndTheOthersRun() throws IOException {
        Atoms squashed = BuiltInMolecules.load("water");
        squashed.positions()[3] = squashed.positions()[0] + 0.05;   // an H 0.05 Å from the O: huge forces at step 0
        squashed.positions()[4] = squashed.positions()[1];
        squashed.positions()[5] = squashed.positions()[2];
        List<StabilityMolecule> mols = new ArrayList<>(molecules("ethanol"));
        mols.add(0, new StabilityMolecule("squashed", "test", squashed));
        StabilityReport r = run(mols, settings(1), () -> new OptimisedStudent(weights), new ArrayList<>());
        ReplicaStability s = r.molecules().get(0).replicas().get(0);
        assertEquals(0, s.explosionFrame(), s.detail());
        assertEquals(0.0, s.score(), 0.0);
        assertEquals(1.0, r.molecules().get(1).score(), 0.0);
    }

    @Test
    void anInterruptedRunKeepsWhatItMeasuredWithoutScoringTheUnfinished(@TempDir Path dir) throws IOException {
        int[] asked = {0};
        List<StabilityReport> writes = new ArrayList<>();
        StabilityReport r = new StabilityRun(molecules("water", "ethanol"), settings(1), () -> new OptimisedStudent(weights),
                "v5", 0.95, w -> { }).run(writes::add, 2, () -> ++asked[0] > 3);   // stop asked before frame 4
        assertEquals("interrupted", r.status());
        assertEquals(3, r.framesDone());
        assertEquals("INCOMPLETE", r.verdict());
        assertTrue(Double.isNaN(r.meanScore()), "stable for 3 of 10 frames is no score yet");
        assertEquals(0, r.scoredReplicas());
        assertEquals(List.of("running", "interrupted"), writes.stream().map(StabilityReport::status).toList());
        StabilityFiles.write(r, dir);
        String json = Files.readString(dir.resolve(StabilityFiles.JSON));
        assertTrue(json.contains("\"mean_score\" : null") && json.contains("\"frames_done\" : 3"), json);
        assertTrue(Files.readAllLines(dir.resolve(StabilityFiles.CSV)).get(1).startsWith("water,3,1,,stable,"));
    }

    /**
     * The student, plus for molecules of {@code size} atoms a constant pull (eV/Å) on {@code atom} away from the
     * centre of the molecule while it is less than 1.6 Å farther out than at the first call, and NaN forces from
     * force call {@code nanFrom} on.
     */
    static final class Perturbed implements ForceField {
        private final ForceField inner;
        private final int size;
        private final int atom;
        private final double pullEvPerA;
        private final long nanFrom;
        private long calls;
        private double startA = Double.NaN;

        Perturbed(ForceField inner, int size, int atom, double pullEvPerA, long nanFrom) {
            this.inner = inner;
            this.size = size;
            this.atom = atom;
            this.pullEvPerA = pullEvPerA;
            this.nanFrom = nanFrom;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public String parametersFingerprint() {
            return inner.parametersFingerprint();
        }

        @Override
        public double energyAndForces(Atoms atoms, double[] forces) {
            double e = inner.energyAndForces(atoms, forces);
            if (atoms.size() != size) {
                return e;
            }
            if (++calls >= nanFrom) {
                java.util.Arrays.fill(forces, Double.NaN);
                return Double.NaN;
            }
            double[] r = atoms.positions();
            double[] c = new double[3];
            for (int i = 0; i < atoms.size(); i++) {
                for (int k = 0; k < 3; k++) {
                    c[k] += r[3 * i + k] / atoms.size();
                }
            }
            double[] d = {r[3 * atom] - c[0], r[3 * atom + 1] - c[1], r[3 * atom + 2] - c[2]};
            double len = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (Double.isNaN(startA)) {
                startA = len;
            }
            for (int k = 0; k < 3 && len < startA + 1.6; k++) {
                forces[3 * atom + k] += pullEvPerA * d[k] / len;
            }
            return e;   // the pull is a test's push, not a potential: the energy is left as the student's
        }

        @Override
        public void close() {
            try {
                inner.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
