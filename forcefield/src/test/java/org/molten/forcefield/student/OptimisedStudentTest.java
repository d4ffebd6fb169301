package org.molten.forcefield.student;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.student.OptimisedStudent.DenseBackend;
import org.molten.forcefield.student.OptimisedStudent.Options;
import org.molten.forcefield.student.OptimisedStudent.Precision;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The optimised path against the reference oracle (energies, forces, per-atom energies), plus the
 * physical contracts of {@link StudentForceFieldContract} run on it directly.
 */
class OptimisedStudentTest extends StudentForceFieldContract {

    /** Two threads from the first atom, so the threaded code runs even on small test systems. */
    static Options threaded() {
        return Options.defaults().withThreads(2).withParallelMinAtoms(0);
    }

    @Override
    ForceField create(StudentWeights weights) {
        return new OptimisedStudent(weights, threaded());
    }

    /** Compares energy, forces and per-atom energies of {@code fast} with the reference. */
    static void assertAgrees(ReferenceStudent ref, ForceField fast, Atoms atoms, double tol, String what) {
        int n = atoms.size();
        double[] fr = new double[3 * n];
        double[] fo = new double[3 * n];
        double[] er = new double[n];
        double[] eo = new double[n];
        double eRef = ref.energyAndForces(atoms, fr, er);
        double eOpt = fast.energyAndForces(atoms, fo, eo);
        assertEquals(eRef, eOpt, tol * Math.abs(eRef), what + ": energy");
        if (n > 1) {
            double err = StudentFixtures.relativeMaxError(fo, fr);
            assertTrue(err < tol, what + ": relative force error " + err);
            assertTrue(StudentFixtures.maxAbs(fr) > 1e-3, what + ": forces too small to compare");
        }
        assertTrue(StudentFixtures.relativeMaxError(eo, er) < tol, what + ": per-atom energies");
    }

    /**
     * The pair passes split the pairs at atom boundaries; each thread adds into the rows of its own
     * atoms and keeps foreign rows for the others (ForeignRowsR). A periodic 600-atom water box with
     * 1, 3 and 7 threads, both layouts: energies, forces and per-atom energies equal to the
     * single thread's to 1e-12 relative (only the summation order differs), on a second call too.
     */
    @Test
    void anyThreadCountGivesTheSingleThreadsResults() throws Exception {
        StudentWeights w = org.molten.forcefield.bundled.BundledModel.weights();
        Atoms box = org.molten.structures.WaterBox.forAtomCount(600, 13);
        int n = box.size();
        double[] f1 = new double[3 * n], e1 = new double[n];
        double energy1;
        try (OptimisedStudent one = new OptimisedStudent(w, Options.defaults().withThreads(1))) {
            energy1 = one.energyAndForces(box, f1, e1);
        }
        for (int threads : new int[]{3, 7}) {
            for (boolean saving : new boolean[]{false, true}) {
                try (OptimisedStudent ff = new OptimisedStudent(w, Options.defaults().withThreads(threads))) {
                    if (saving) {
                        ff.useMemorySavingLayout();
                    }
                    for (int call = 0; call < 2; call++) {
                        double[] f = new double[3 * n], e = new double[n];
                        double energy = ff.energyAndForces(box, f, e);
                        String what = threads + " threads" + (saving ? ", memory-saving" : "") + ", call " + call;
                        assertEquals(energy1, energy, 1e-12 * Math.abs(energy1), what + ": energy");
                        assertTrue(StudentFixtures.relativeMaxError(f, f1) < 1e-12, what + ": forces");
                        assertTrue(StudentFixtures.relativeMaxError(e, e1) < 1e-12, what + ": per-atom energies");
                    }
                }
            }
        }
    }

    @Test
    void agreesWithReferenceOnMoleculesAtTheDefaultSize() {
        StudentWeights w = StudentWeights.random(31);
        ReferenceStudent ref = new ReferenceStudent(w);
        RandomStream rng = new RandomStream(201);
        try (OptimisedStudent f64 = new OptimisedStudent(w, threaded());
             OptimisedStudent f64serial = new OptimisedStudent(w, Options.defaults().withThreads(1));
             OptimisedStudent f32 = new OptimisedStudent(w, threaded().withPrecision(Precision.FLOAT32))) {
            for (int n : new int[]{1, 2, 3, 9, 12, 22}) {
                Atoms atoms = StudentFixtures.cluster(rng, n, 0.95);
                assertAgrees(ref, f64, atoms, 1e-10, "f64 threaded n=" + n);
                assertAgrees(ref, f64serial, atoms, 1e-10, "f64 serial n=" + n);
                assertAgrees(ref, f32, atoms, 1e-5, "f32 n=" + n);
            }
            assertEquals("student/optimised-f32", f32.name());
        }
    }

    @Test
    void agreesWithReferenceWhenTheWidthsAreOdd() {
        // F = 9 and F/2 = 4: the dense loops' odd-input tails and every row-block size (1, 2, 3, 4+
        // rows per thread) against the oracle
        StudentWeights w = StudentWeights.random(37, new int[]{1, 6, 7, 8}, 9, 2, 7, 4.0, 4.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        RandomStream rng = new RandomStream(203);
        try (OptimisedStudent f64 = new OptimisedStudent(w, threaded());
             OptimisedStudent f32 = new OptimisedStudent(w, threaded().withPrecision(Precision.FLOAT32))) {
            for (int n : new int[]{1, 2, 3, 5, 7, 13}) {
                Atoms atoms = StudentFixtures.cluster(rng, n, 0.95);
                assertAgrees(ref, f64, atoms, 1e-10, "F=9 f64 n=" + n);
                assertAgrees(ref, f32, atoms, 1e-5, "F=9 f32 n=" + n);
            }
        }
    }

    @Test
    void agreesWithReferenceInPeriodicBoxes() {
        RandomStream rng = new RandomStream(202);
        StudentWeights small = StudentFixtures.smallWeights(32, 3.2);
        ReferenceStudent ref = new ReferenceStudent(small);
        try (OptimisedStudent f64 = new OptimisedStudent(small, threaded());
             OptimisedStudent f32 = new OptimisedStudent(small, threaded().withPrecision(Precision.FLOAT32))) {
            Cell[] cells = {Cell.orthorhombic(7.0, 6.6, 8.0), StudentFixtures.triclinic(7.2),
                    Cell.of(new double[][]{{7, 0, 0}, {0, 7, 0}, {0, 0, 7}}, new boolean[]{true, false, true})};
            for (Cell cell : cells) {
                Atoms atoms = StudentFixtures.periodic(rng, 36, cell, 0.9);
                assertAgrees(ref, f64, atoms, 1e-10, "f64 " + cell);
                assertAgrees(ref, f32, atoms, 1e-5, "f32 " + cell);
            }
        }
        // Default hyper-parameters in a box of liquid density (r_c = 5 Å needs 10 Å).
        StudentWeights w = StudentWeights.random(33);
        ReferenceStudent refDefault = new ReferenceStudent(w);
        Atoms box = StudentFixtures.periodic(rng, 64, Cell.orthorhombic(10.1, 10.1, 10.1), 1.0);
        try (OptimisedStudent f64 = new OptimisedStudent(w, threaded());
             OptimisedStudent f32 = new OptimisedStudent(w, threaded().withPrecision(Precision.FLOAT32))) {
            assertAgrees(refDefault, f64, box, 1e-10, "f64 default box");
            assertAgrees(refDefault, f32, box, 1e-5, "f32 default box");
        }
    }

    @Test
    void agreesWithReferenceOnTheNd4jPath() {
        // Large enough for the default ND4J threshold; F = 32 keeps the reference affordable.
        RandomStream rng = new RandomStream(203);
        StudentWeights w = StudentWeights.random(34, new int[]{1, 6, 7, 8}, 32, 2, 12, 4.0, 8.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        int n = Math.max(300, OptimisedStudent.ND4J_MIN_ATOMS + 50);
        double side = Math.cbrt(n / StudentFixtures.LIQUID_DENSITY);
        Atoms box = StudentFixtures.periodic(rng, n, Cell.orthorhombic(side, side, side), 0.95);
        try (OptimisedStudent auto = new OptimisedStudent(w, threaded());
             OptimisedStudent loops = new OptimisedStudent(w, threaded().withDense(DenseBackend.LOOPS));
             OptimisedStudent f32 = new OptimisedStudent(w, threaded().withPrecision(Precision.FLOAT32))) {
            assertAgrees(ref, auto, box, 1e-10, "f64 auto (ND4J)");
            assertEquals(Nd4jSupport.available(), auto.lastCallUsedNd4j(), "ND4J path taken when available");
            assertAgrees(ref, loops, box, 1e-10, "f64 loops");
            assertFalse(loops.lastCallUsedNd4j());
            assertAgrees(ref, f32, box, 1e-5, "f32 auto (ND4J)");
        }
    }

    @Test
    void repeatedCallsAndChangingSizesReuseBuffersCorrectly() {
        StudentWeights w = StudentFixtures.smallWeights(35, 4.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        RandomStream rng = new RandomStream(204);
        try (OptimisedStudent opt = new OptimisedStudent(w, threaded())) {
            Atoms big = StudentFixtures.cluster(rng, 40, 0.95);
            Atoms small = StudentFixtures.cluster(rng, 7, 0.95);
            double[] f1 = new double[120];
            double[] f2 = new double[120];
            double e1 = opt.energyAndForces(big, f1);
            assertAgrees(ref, opt, small, 1e-10, "after a larger system");
            double e2 = opt.energyAndForces(big, f2);
            assertEquals(e1, e2, 0.0, "same input, same energy bit for bit");
            assertArrayEquals(f1, f2, 0.0);
            // A failed call (unsupported element) leaves nothing behind.
            Atoms bad = Atoms.of(new int[]{6, 16}, new double[]{0, 0, 0, 1.8, 0, 0}, null);
            assertThrows(IllegalArgumentException.class, () -> opt.energyAndForces(bad, new double[6]));
            assertEquals(e1, opt.energyAndForces(big, f2), 0.0);
        }
    }

    /**
     * The energy is the sum of the per-atom energies in atom index order, not in the processing
     * (space-filling-curve) order that is recomputed at each neighbour-list rebuild, so that it does
     * not depend on where the list was last built. Checked on a box whose list and order were built
     * at translated positions (the list is reused) and on a fresh instance, in float64 and float32.
     * (Mutation checked: summing in processing order fails it.) The per-atom energies and forces
     * themselves still accumulate their pair terms in list order; their differences between the two
     * histories are printed, not asserted (ulps, see the engine-host report).
     */
    @Test
    void energyIsTheIndexOrderSumOfThePerAtomEnergiesWhateverTheListHistory() {
        StudentWeights w = StudentWeights.random(38);
        RandomStream rng = new RandomStream(206);
        Atoms box = StudentFixtures.periodic(rng, 96, Cell.orthorhombic(12.4, 12.4, 12.4), 1.0);   // full 1 A skin
        for (Precision p : Precision.values()) {
            try (OptimisedStudent used = new OptimisedStudent(w, threaded().withPrecision(p));
                 OptimisedStudent fresh = new OptimisedStudent(w, threaded().withPrecision(p))) {
                Atoms moving = box.copy();
                double[] r = moving.positions();
                for (int i = 0; i < box.size(); i++) {   // 0.42 A: within half the 1 A skin, so the list is reused
                    r[3 * i] -= 0.30;
                    r[3 * i + 1] -= 0.23;
                    r[3 * i + 2] -= 0.17;
                }
                used.evaluate(moving);
                System.arraycopy(box.positions(), 0, r, 0, r.length);
                double[] fu = new double[3 * box.size()], ff = new double[3 * box.size()];
                double[] eu = new double[box.size()], ef = new double[box.size()];
                double energyUsed = used.energyAndForces(moving, fu, eu);
                assertEquals(1, used.neighbourListRebuilds(), p + ": the list built at the other positions was reused");
                double energyFresh = fresh.energyAndForces(box, ff, ef);
                assertEquals(indexOrderSum(eu), energyUsed, 0.0, p + ": energy after a list built elsewhere");
                assertEquals(indexOrderSum(ef), energyFresh, 0.0, p + ": energy with a fresh list");
                System.out.printf(java.util.Locale.ROOT, "%s: list history changes per-atom energies by up to %.3g eV,"
                        + " forces by up to %.3g eV/A%n", p, maxDifference(eu, ef), maxDifference(fu, ff));
            }
        }
    }

    private static double indexOrderSum(double[] perAtom) {
        double s = 0.0;
        for (double e : perAtom) {
            s += e;
        }
        return s;
    }

    private static double maxDifference(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    @Test
    void followsAMovingSystemThroughNeighbourListReuse() {
        StudentWeights w = StudentFixtures.smallWeights(36, 3.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        RandomStream rng = new RandomStream(205);
        Atoms atoms = StudentFixtures.periodic(rng, 60, StudentFixtures.triclinic(8.0), 0.9);
        try (OptimisedStudent opt = new OptimisedStudent(w, threaded().withSkinA(0.6))) {
            double[] r = atoms.positions();
            for (int step = 0; step < 25; step++) {
                for (int k = 0; k < r.length; k++) {
                    r[k] += 0.04 * rng.nextGaussian();
                }
                assertAgrees(ref, opt, atoms, 1e-10, "step " + step);
            }
            long rebuilds = opt.neighbourListRebuilds();
            assertTrue(rebuilds > 1 && rebuilds < 25, "the list was both reused and rebuilt: " + rebuilds);
        }
    }

    @Test
    void closedInstanceRefusesCalls() {
        OptimisedStudent opt = new OptimisedStudent(StudentFixtures.smallWeights(37, 4.0), threaded());
        opt.close();
        Atoms a = Atoms.of(new int[]{1, 1}, new double[]{0, 0, 0, 0.74, 0, 0}, null);
        assertThrows(IllegalStateException.class, () -> opt.energyAndForces(a, new double[6]));
    }
}
