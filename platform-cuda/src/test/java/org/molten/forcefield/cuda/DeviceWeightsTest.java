package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.molten.forcefield.student.StudentWeights;

/** Packing of the weights for the kernels (no GPU needed). */
class DeviceWeightsTest {
    private final StudentWeights w = StudentWeights.random(7);
    private final DeviceWeights dw = new DeviceWeights(w);

    @Test
    void matricesAreStoredInBothOrientations() {
        int f = w.hidden();
        double[] w2 = w.tensor("interactions.1.phi.2.weight");  // [3F][F]
        for (int o = 0; o < 3 * f; o += 37) {
            for (int k = 0; k < f; k += 11) {
                assertEquals((float) w2[o * f + k], dw.data[(int) dw.w2[1] + o * f + k]);
                assertEquals((float) w2[o * f + k], dw.data[(int) dw.w2t[1] + k * 3 * f + o]);
            }
        }
        double[] u = w.tensor("updates.2.U.weight");
        double[] v = w.tensor("updates.2.V.weight");
        for (int o = 0; o < f; o += 13) {
            for (int k = 0; k < f; k += 7) {
                assertEquals((float) u[o * f + k], dw.data[(int) dw.uv[2] + o * f + k]);
                assertEquals((float) v[o * f + k], dw.data[(int) dw.uv[2] + (f + o) * f + k]);
                // [U^T | V^T]: row k, column o (U) and F + o (V)
                assertEquals((float) u[o * f + k], dw.data[(int) dw.uvt[2] + k * 2 * f + o]);
                assertEquals((float) v[o * f + k], dw.data[(int) dw.uvt[2] + k * 2 * f + f + o]);
            }
        }
        double[] filt = w.tensor("interactions.0.filter.weight");  // [3F][nrbf]
        int nr = w.nRbf();
        assertEquals((float) filt[5 * nr + 3], dw.data[(int) dw.wft[0] + 3 * 3 * f + 5]);
    }

    @Test
    void offsetsAreAlignedAndDisjoint() {
        long[] all = {dw.emb, dw.phi0, dw.atomref, dw.w5, dw.w5t, dw.b5, dw.w6, dw.w1[0], dw.w4t[2], dw.b4[2]};
        for (long o : all) {
            assertEquals(0, o % 16, "offset " + o + " not 64-byte aligned");
        }
        assertTrue(dw.b4[w.layers() - 1] + 3L * w.hidden() <= dw.data.length);
    }

    @Test
    void phi0TableIsTheFirstPhiNetworkOfEachEmbedding() {
        int f = w.hidden();
        double[] emb = w.tensor("embedding.weight");
        double[] w1 = w.tensor("interactions.0.phi.0.weight");
        double[] b1 = w.tensor("interactions.0.phi.0.bias");
        double[] w2 = w.tensor("interactions.0.phi.2.weight");
        double[] b2 = w.tensor("interactions.0.phi.2.bias");
        int s = w.speciesCount() - 1;
        int o = 2 * f + 5;
        double y = b2[o];
        for (int k = 0; k < f; k++) {
            double z = b1[k];
            for (int j = 0; j < f; j++) {
                z += w1[k * f + j] * emb[s * f + j];
            }
            y += w2[o * f + k] * z / (1 + Math.exp(-z));
        }
        assertEquals(y, dw.data[(int) dw.phi0 + s * 3 * f + o], 1e-5 * Math.max(1, Math.abs(y)));
    }

    @Test
    void radialBasisWindowDropsOnlyNegligibleTerms() {
        double step = 5.0 / 19;
        int kw = DeviceWeights.window(20, 16.0, step);
        assertEquals(9, kw);
        int h = kw / 2;
        // the nearest term left out is (h + 1/2) spacings away in the worst case
        double dropped = Math.exp(-16.0 * Math.pow((h + 0.5) * step, 2));
        assertTrue(dropped <= DeviceWeights.RBF_WINDOW_EPS, "dropped term " + dropped);
        // one term fewer would drop a larger one
        double tooMuch = Math.exp(-16.0 * Math.pow((h - 0.5) * step, 2));
        assertTrue(tooMuch > DeviceWeights.RBF_WINDOW_EPS);
        assertEquals(20, DeviceWeights.window(20, 0.5, step), "broad Gaussians: whole basis");
    }

    @Test
    void unsupportedModelsAreNamed() {
        assertNull(DeviceWeights.unsupportedReason(w));
        StudentWeights deep = StudentWeights.random(1, new int[] {1, 8}, 32, 5, 8, 4.0, 10.0);
        assertNotNull(DeviceWeights.unsupportedReason(deep));
        assertTrue(DeviceWeights.unsupportedReason(deep).contains("5 interaction blocks"));
        StudentWeights odd = StudentWeights.random(1, new int[] {1, 8}, 40, 2, 8, 4.0, 10.0);
        assertTrue(DeviceWeights.unsupportedReason(odd).contains("hidden width 40"));
    }

    /**
     * The small-molecule kernel holds up to 24 atoms of the default model (F = 128, T = 3, n_rbf = 20,
     * r_c = 5 Å, gamma = 16 Å⁻², a 9-term radial window) in the H100/H200 limit of 227 KiB of shared
     * memory per block, but not 25; the layout grows with the atoms.
     */
    @Test
    void moleculeKernelHoldsTwentyFourAtomsOfTheDefaultModel() {
        int limit = 227 * 1024;
        int kw = DeviceWeights.window(20, 16.0, 5.0 / 19);
        assertEquals(9, kw);
        assertTrue(DeviceSystem.moleculeSharedMemory(24, 128, 3, 20, kw) <= limit);
        assertTrue(DeviceSystem.moleculeSharedMemory(25, 128, 3, 20, kw) > limit);
        for (int n = 1; n < 24; n++) {
            assertTrue(DeviceSystem.moleculeSharedMemory(n, 128, 3, 20, kw)
                    < DeviceSystem.moleculeSharedMemory(n + 1, 128, 3, 20, kw));
        }
    }

    /**
     * With bond constraints the kernel also holds the drift's start and the pair and water lists
     * (molten_small_constraints.cuh): alanine dipeptide (22 atoms) of the default model still fits with h-bonds (12 pairs)
     * and all-bonds (21), so issue 28's 2 fs benchmark runs in the cluster kernel; without constraints nothing is added.
     */
    @Test
    void constrainedAlanineDipeptideFitsTheMoleculeKernel() {
        int limit = 227 * 1024;
        int kw = DeviceWeights.window(20, 16.0, 5.0 / 19);
        int bare = DeviceSystem.moleculeSharedMemory(22, 128, 3, 20, kw);
        assertEquals(bare, DeviceSystem.moleculeSharedMemory(22, 128, 3, 20, kw, 0, 0));
        int hBonds = DeviceSystem.moleculeSharedMemory(22, 128, 3, 20, kw, 12, 0);
        int allBonds = DeviceSystem.moleculeSharedMemory(22, 128, 3, 20, kw, 21, 0);
        assertTrue(bare < hBonds && hBonds < allBonds, bare + " " + hBonds + " " + allBonds);
        assertTrue(allBonds <= limit, "alanine dipeptide with all-bonds needs " + allBonds + " bytes");
    }
}
