package org.molten.forcefield.student;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.HeapBudget;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.neighbours.EdgeList;
import org.molten.forcefield.neighbours.VerletList;
import org.molten.structures.WaterBox;

/**
 * {@link StudentMemory}'s estimate against the heap the optimised student really keeps, and the
 * refusal of a system too large for the heap.
 */
class StudentMemoryTest {

    /**
     * Used heap once it stops falling: a closed model's worker threads let go of their buffers only
     * when they have ended, so one GC right after close can still count them (seen in a full suite:
     * "retained -25 KB/atom"); GC until two readings agree within 1 MB, at most 20 times.
     */
    static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            System.gc();
            long used = rt.totalMemory() - rt.freeMemory();
            if (Math.abs(last - used) < (1 << 20)) {
                return Math.min(last, used);
            }
            last = used;
            Thread.sleep(50);
        }
        return last;
    }

    /**
     * A 3000-atom water box (seed 3), float64 and float32, both layouts, two threads: the retained
     * heap (used after GC with the model evaluated, minus before it was built) within 0.93 to 1.08
     * of the estimate, and under these bounds: at most 14.5 KB per atom in the memory-saving float32
     * layout (measured 13.6), 26 in the memory-saving float64 one (25.5 on this box, where the
     * engine's copies of the weights, about 3 KB per atom in float64, the tiles, about 1 KB, and the
     * threads' boundary rows, a larger share on a box this small, still count; issue 19's 20 is for
     * large systems, see docs/benchmarks.md): one more F-wide row per atom (1.02 KB in float64)
     * fails it; 86 and 45 in the fast ones (84.6, 43.7). The estimate counts every array (then adds
     * 4% for G1's whole-region humongous arrays and allocation slack), with the edge list's capacity
     * taken at its most, 1/8 above the edges, so that it errs on the safe side.
     */
    @Test
    void theEstimateMatchesTheRetainedHeapOfAMidSizeWaterBox() throws Exception {
        StudentWeights w = BundledModel.weights();
        Atoms atoms = WaterBox.forAtomCount(3000, 3);
        int n = atoms.size();
        EdgeList edges = new EdgeList();
        new VerletList(0).search(atoms, w.cutoffA(), edges);
        long pairs = edges.size() / 2;
        for (OptimisedStudent.Precision p : OptimisedStudent.Precision.values()) {
            for (boolean saving : new boolean[]{false, true}) {
                OptimisedStudent.Options o = OptimisedStudent.Options.defaults().withPrecision(p).withThreads(2);
                double[] f = new double[3 * n];
                long before = usedAfterGc();
                try (OptimisedStudent ff = new OptimisedStudent(w, o)) {
                    if (saving) {
                        ff.useMemorySavingLayout();
                    }
                    ff.energyAndForces(atoms, f);
                    long retained = usedAfterGc() - before;
                    long estimate = StudentMemory.optimisedBytes(w, o, n, pairs, saving);
                    double ratio = (double) retained / estimate;
                    String what = String.format("%s%s (ND4J %b), %d atoms, %d pairs: retained %.1f KB/atom, estimate %.1f KB/atom",
                            p, saving ? " memory-saving" : "", ff.lastCallUsedNd4j(), n, pairs, retained / 1024.0 / n,
                            estimate / 1024.0 / n);
                    System.out.println("StudentMemoryTest: " + what);
                    assertTrue(ratio > 0.93 && ratio < 1.08, what);
                    double boundKbPerAtom = p == OptimisedStudent.Precision.FLOAT64 ? (saving ? 26 : 86) : (saving ? 14.5 : 45);
                    assertTrue(retained / 1024.0 / n <= boundKbPerAtom, what + ": over " + boundKbPerAtom + " KB/atom");
                }
            }
        }
    }

    /**
     * The memory-saving layout recomputes each block's forward state with the same phases, inputs
     * and thread split: energies, forces and per-atom energies identical bit for bit, with ND4J
     * (a periodic 400-atom water box) and with the Java loops (a 40-atom cluster), float64 and float32.
     */
    @Test
    void theMemorySavingLayoutGivesTheSameBits() throws Exception {
        StudentWeights w = BundledModel.weights();
        for (Atoms atoms : new Atoms[]{WaterBox.forAtomCount(400, 11), StudentFixtures.cluster(new org.molten.core.RandomStream(5), 40, 0.95)}) {
            int n = atoms.size();
            for (OptimisedStudent.Precision p : OptimisedStudent.Precision.values()) {
                OptimisedStudent.Options o = OptimisedStudent.Options.defaults().withPrecision(p).withThreads(2)
                        .withParallelMinAtoms(0);
                double[] f1 = new double[3 * n], f2 = new double[3 * n], e1 = new double[n], e2 = new double[n];
                try (OptimisedStudent fast = new OptimisedStudent(w, o); OptimisedStudent saving = new OptimisedStudent(w, o)) {
                    saving.useMemorySavingLayout();
                    for (int call = 0; call < 2; call++) {   // the second call reuses the buffers
                        double a = fast.energyAndForces(atoms, f1, e1);
                        double b = saving.energyAndForces(atoms, f2, e2);
                        String what = p + ", " + n + " atoms, call " + call;
                        assertEquals(Double.doubleToLongBits(a), Double.doubleToLongBits(b), what + ": energy");
                        assertArrayEquals(f1, f2, 0.0, what + ": forces");
                        assertArrayEquals(e1, e2, 0.0, what + ": per-atom energies");
                    }
                    assertTrue(saving.memorySavingLayout() && !fast.memorySavingLayout());
                }
            }
        }
    }

    @Test
    void aSystemTooLargeForTheHeapIsRefusedWithAtomsEstimateAndXmx() throws Exception {
        StudentWeights w = BundledModel.weights();
        OptimisedStudent.Options o = OptimisedStudent.Options.defaults();
        long atoms = 200_001;
        long estimate = StudentMemory.optimisedBytes(w, o, atoms, StudentMemory.pairsAtDensity(atoms, w.cutoffA(),
                StudentMemory.CONDENSED_ATOMS_PER_A3));
        long gib = 1L << 30;
        HeapBudget.InsufficientHeapException e = assertThrows(HeapBudget.InsufficientHeapException.class,
                () -> HeapBudget.require("student/optimised", atoms, estimate, 6 * gib, gib / 10));
        String m = e.getMessage();
        assertTrue(m.startsWith("student/optimised needs about "), m);
        assertTrue(m.contains(" of Java heap for 200,001 atoms (estimate, "), m);
        assertTrue(m.contains("heap limit is 6.0 GB with 102 MB in use"), m);
        long xmx = (long) Math.ceil((estimate + gib / 10) * 1.25 / gib);
        assertTrue(m.contains("-Xmx" + xmx + "g (for ./molten: MOLTEN_JAVA_OPTS=-Xmx" + xmx + "g ./molten ...)"), m);
        // the same system fits a heap of the size suggested
        assertDoesNotThrow(() -> HeapBudget.require("student/optimised", atoms, estimate, xmx * gib, gib / 10));
        // and a water molecule fits anywhere
        assertDoesNotThrow(() -> HeapBudget.require("student/optimised", 3,
                StudentMemory.optimisedBytes(w, o, 3, StudentMemory.pairsAtDensity(3, w.cutoffA(), 0.1)), 64L << 20, 0));
    }

    /**
     * Issue 19: a 200,000-atom water box fits the default heap of a 24 GB machine (a quarter of the
     * memory, 6 GB, with ~100 MB in use) in the memory-saving float64 layout by the estimate, which
     * is what OptimisedStudent checks before allocating, while the fast layout does not (so it is
     * the memory-saving layout that is chosen). The real run is in docs/benchmarks.md.
     */
    @Test
    void aWaterBoxOf200000AtomsFitsTheDefaultHeapOfA24GbMachine() throws Exception {
        StudentWeights w = BundledModel.weights();
        OptimisedStudent.Options o = OptimisedStudent.Options.defaults().withThreads(4);
        long atoms = 200_000;
        long pairs = StudentMemory.pairsAtDensity(atoms, w.cutoffA(), StudentMemory.CONDENSED_ATOMS_PER_A3);
        long gib = 1L << 30;
        long lean = StudentMemory.optimisedBytes(w, o, atoms, pairs, true);
        long fast = StudentMemory.optimisedBytes(w, o, atoms, pairs, false);
        assertDoesNotThrow(() -> HeapBudget.require("student/optimised", atoms, lean, 6 * gib, gib / 10));
        assertThrows(HeapBudget.InsufficientHeapException.class,
                () -> HeapBudget.require("student/optimised", atoms, fast, 6 * gib, gib / 10));
        System.out.printf("StudentMemoryTest: 200,000 atoms, 4 threads, memory-saving float64 estimate %.1f KB/atom%n",
                lean / 1024.0 / atoms);
        assertTrue(lean / 1024.0 / atoms < 22.0, "memory-saving float64 estimate " + lean / 1024.0 / atoms + " KB/atom");
    }

    @Test
    void pairsAtDensityNeverExceedAllPairs() {
        assertEquals(3, StudentMemory.pairsAtDensity(3, 5.0, StudentMemory.CONDENSED_ATOMS_PER_A3));
        // liquid water, 5 Å: about 26 pairs per atom
        assertEquals(26.3, StudentMemory.pairsAtDensity(100_000, 5.0, StudentMemory.CONDENSED_ATOMS_PER_A3) / 1e5, 0.1);
    }
}
