package org.molten.forcefield.nd4j;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.forcefield.student.Nd4jSupport;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.OptimisedStudent.DenseBackend;
import org.molten.forcefield.student.OptimisedStudent.Precision;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.WaterBox;

import static org.junit.jupiter.api.Assertions.*;

/**
 * With this module on the class path the optimised student finds ND4J through the service loader and its GEMM
 * path gives the Java loops' energies, forces and per-atom energies (the loops are checked against the reference
 * in forcefield): float64 to 1e-10 relative, float32 to 1e-5, on a periodic water box of 300+ atoms. The
 * memory-saving layout, whose GEMMs read and write row references re-pointed at each tile, gives the fast ND4J
 * layout's results bit for bit.
 */
class Nd4jStudentTest {
    @Test
    void theServiceLoaderFindsNd4jAndItsGemmsGiveTheLoopsResults() {
        assertTrue(Nd4jSupport.available(), "ND4J not available: " + Nd4jSupport.status());
        assertEquals("loaded", Nd4jSupport.status());
        StudentWeights w = StudentWeights.random(34, new int[]{1, 6, 7, 8}, 32, 2, 12, 4.0, 8.0);
        Atoms box = WaterBox.forAtomCount(Math.max(300, OptimisedStudent.ND4J_MIN_ATOMS + 50), 20261125L);
        for (Precision p : Precision.values()) {
            double tol = p == Precision.FLOAT64 ? 1e-10 : 1e-5;
            OptimisedStudent.Options base = OptimisedStudent.Options.defaults().withThreads(2).withParallelMinAtoms(0)
                    .withPrecision(p);
            try (OptimisedStudent nd = new OptimisedStudent(w, base.withDense(DenseBackend.ND4J));
                 OptimisedStudent ndSaving = new OptimisedStudent(w, base.withDense(DenseBackend.ND4J));
                 OptimisedStudent loops = new OptimisedStudent(w, base.withDense(DenseBackend.LOOPS))) {
                ndSaving.useMemorySavingLayout();
                int n = box.size();
                double[] fn = new double[3 * n], fl = new double[3 * n], en = new double[n], el = new double[n];
                double[] fs = new double[3 * n], es = new double[n];
                for (int call = 0; call < 2; call++) {   // the second call reuses the slots' buffers
                    double eN = nd.energyAndForces(box, fn, en);
                    double eL = loops.energyAndForces(box, fl, el);
                    double eS = ndSaving.energyAndForces(box, fs, es);
                    assertTrue(ndSaving.lastCallUsedNd4j(), p + ": ND4J path not taken (memory-saving)");
                    assertEquals(Double.doubleToLongBits(eN), Double.doubleToLongBits(eS), p + ": memory-saving energy");
                    assertArrayEquals(fn, fs, 0.0, p + ": memory-saving forces");
                    assertArrayEquals(en, es, 0.0, p + ": memory-saving per-atom energies");
                    assertTrue(nd.lastCallUsedNd4j(), p + ": ND4J path not taken");
                    assertFalse(loops.lastCallUsedNd4j());
                    assertEquals(eL, eN, tol * Math.abs(eL), p + ": energy");
                    double scale = 0;
                    for (double f : fl) {
                        scale = Math.max(scale, Math.abs(f));
                    }
                    assertTrue(scale > 1e-3, "forces too small to compare");
                    for (int k = 0; k < fl.length; k++) {
                        assertEquals(fl[k], fn[k], tol * scale, p + ": force component " + k);
                    }
                    for (int i = 0; i < n; i++) {
                        assertEquals(el[i], en[i], tol * Math.max(1.0, Math.abs(el[i])), p + ": energy of atom " + i);
                    }
                }
            }
        }
    }
}
