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

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /**
     * A 3000-atom water box (seed 3), float64 and float32, two threads: the retained heap (used
     * after GC with the model evaluated, minus before it was built) within 0.93 to 1.08 of the
     * estimate. The estimate counts every buffer exactly except the neighbour lists' capacity,
     * which grows by doubling (1 to 2 times the ~5 KB per atom of edges; 2 assumed, so that the
     * estimate errs on the safe side): up to -5%, plus a little GC noise and humongous-region slack. Forgetting one F-wide row per atom would move it by 1%; forgetting the
     * per-thread accumulators (12 rows) by 11%.
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
            OptimisedStudent.Options o = OptimisedStudent.Options.defaults().withPrecision(p).withThreads(2);
            double[] f = new double[3 * n];
            long before = usedAfterGc();
            try (OptimisedStudent ff = new OptimisedStudent(w, o)) {
                ff.energyAndForces(atoms, f);
                long retained = usedAfterGc() - before;
                long estimate = StudentMemory.optimisedBytes(w, o, n, pairs);
                double ratio = (double) retained / estimate;
                String what = String.format("%s (ND4J %b), %d atoms, %d pairs: retained %.1f KB/atom, estimate %.1f KB/atom", p, ff.lastCallUsedNd4j(), n,
                        pairs, retained / 1024.0 / n, estimate / 1024.0 / n);
                System.out.println("StudentMemoryTest: " + what);
                assertTrue(ratio > 0.93 && ratio < 1.08, what);
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

    @Test
    void pairsAtDensityNeverExceedAllPairs() {
        assertEquals(3, StudentMemory.pairsAtDensity(3, 5.0, StudentMemory.CONDENSED_ATOMS_PER_A3));
        // liquid water, 5 Å: about 26 pairs per atom
        assertEquals(26.3, StudentMemory.pairsAtDensity(100_000, 5.0, StudentMemory.CONDENSED_ATOMS_PER_A3) / 1e5, 0.1);
    }
}
