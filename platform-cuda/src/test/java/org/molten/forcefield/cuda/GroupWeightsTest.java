package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.molten.forcefield.student.StudentWeights;

/**
 * The group kernel's weight order (GroupWeights = write_weights() of scripts/probes/group_force_probe.py, in git
 * history: last at commit 8312246), its shared-memory arithmetic (GroupPath = grp::GroupLayout) and its choice of
 * entry, without a GPU.
 */
class GroupWeightsTest {
    private static final int F = 128;
    // grp::LO offsets within a layer (molten_group.cuh)
    private static final int PHI0T = 0;
    private static final int PHI0 = PHI0T + F * F;
    private static final int BPHI0 = PHI0 + F * F;
    private static final int PHI2T = BPHI0 + F;
    private static final int PHI2 = PHI2T + F * 3 * F;
    private static final int BPHI2 = PHI2 + 3 * F * F;
    private static final int FILT = BPHI2 + 3 * F;
    private static final int BFILT = FILT + 3 * F * 20;
    private static final int UVT = BFILT + 3 * F;
    private static final int UV = UVT + F * 2 * F;
    private static final int MLP0T = UV + 2 * F * F;
    private static final int MLP0 = MLP0T + 2 * F * F;
    private static final int BMLP0 = MLP0 + F * 2 * F;
    private static final int MLP2T = BMLP0 + F;
    private static final int MLP2 = MLP2T + F * 3 * F;
    private static final int BMLP2 = MLP2 + 3 * F * F;

    @Test
    void everyTensorIsWhereTheKernelReadsIt() {
        StudentWeights w = StudentWeights.random(5);
        GroupWeights g = new GroupWeights(w);
        float[] d = g.data;
        int s = w.speciesCount();
        assertEquals(GroupWeights.LAYER_FLOATS, BMLP2 + 3 * F);
        assertEquals((float) w.cutoffA(), d[0]);
        assertEquals((float) w.gammaPerA2(), d[1]);
        assertEquals((float) w.tensor("scale")[0], d[2]);
        assertEquals((float) w.tensor("embedding.weight")[F + 7], d[4 + F + 7]);
        assertEquals(4 + s * F, g.atomref);
        assertEquals(g.atomref + 4L * ((s + 3) / 4), g.layers);
        assertEquals((float) w.tensor("atomref")[s - 1], d[(int) g.atomref + s - 1]);
        int t = 2;
        int ly = (int) (g.layers + (long) t * GroupWeights.LAYER_FLOATS);
        String it = "interactions." + t + ".";
        String up = "updates." + t + ".";
        int o = 5;
        int i = 77;
        assertEquals((float) w.tensor(it + "phi.0.weight")[o * F + i], d[ly + PHI0T + i * F + o]);   // [in][out]
        assertEquals((float) w.tensor(it + "phi.0.weight")[o * F + i], d[ly + PHI0 + o * F + i]);    // [out][in]
        assertEquals((float) w.tensor(it + "phi.0.bias")[o], d[ly + BPHI0 + o]);
        assertEquals((float) w.tensor(it + "phi.2.weight")[300 * F + i], d[ly + PHI2T + i * 3 * F + 300]);
        assertEquals((float) w.tensor(it + "phi.2.bias")[300], d[ly + BPHI2 + 300]);
        assertEquals((float) w.tensor(it + "filter.weight")[200 * 20 + 13], d[ly + FILT + 200 * 20 + 13]);
        assertEquals((float) w.tensor(it + "filter.bias")[200], d[ly + BFILT + 200]);
        // [U; V] transposed: column F + o is V's row o
        assertEquals((float) w.tensor(up + "V.weight")[o * F + i], d[ly + UVT + i * 2 * F + F + o]);
        assertEquals((float) w.tensor(up + "U.weight")[o * F + i], d[ly + UV + o * F + i]);
        assertEquals((float) w.tensor(up + "V.weight")[o * F + i], d[ly + UV + (F + o) * F + i]);
        assertEquals((float) w.tensor(up + "mlp.0.weight")[o * 2 * F + 200], d[ly + MLP0T + 200 * F + o]);
        assertEquals((float) w.tensor(up + "mlp.0.weight")[o * 2 * F + 200], d[ly + MLP0 + o * 2 * F + 200]);
        assertEquals((float) w.tensor(up + "mlp.0.bias")[o], d[ly + BMLP0 + o]);
        assertEquals((float) w.tensor(up + "mlp.2.weight")[300 * F + i], d[ly + MLP2T + i * 3 * F + 300]);
        assertEquals((float) w.tensor(up + "mlp.2.weight")[300 * F + i], d[ly + MLP2 + 300 * F + i]);
        assertEquals((float) w.tensor(up + "mlp.2.bias")[300], d[ly + BMLP2 + 300]);
        int ro = (int) g.readout;
        assertEquals(g.layers + 3L * GroupWeights.LAYER_FLOATS, ro);
        assertEquals((float) w.tensor("readout.0.weight")[o * F + i], d[ro + i * 64 + o]);
        assertEquals((float) w.tensor("readout.0.weight")[o * F + i], d[ro + F * 64 + o * F + i]);
        assertEquals((float) w.tensor("readout.0.bias")[o], d[ro + 2 * F * 64 + o]);
        assertEquals((float) w.tensor("readout.2.weight")[o], d[ro + 2 * F * 64 + 64 + o]);
        assertEquals((float) w.tensor("readout.2.bias")[0], d[ro + 2 * F * 64 + 128]);
        assertEquals(ro + 2 * F * 64 + 128 + 4, d.length);
    }

    @Test
    void otherShapesAreRefused() {
        StudentWeights small = StudentWeights.random(5, new int[] {1, 6, 7, 8}, 64, 2, 20, 5.0, 16.0);
        assertFalse(GroupWeights.supports(new DeviceWeights(small)));
        assertTrue(GroupWeights.supports(new DeviceWeights(StudentWeights.random(5))));
        assertThrows(IllegalArgumentException.class, () -> new GroupWeights(small));
    }

    /** The probe's shared memory per block (50,704 B ethanol at 128 threads; ~210 KB dipeptide at 256), 24 atoms fit sm_90. */
    @Test
    void sharedMemoryIsTheKernelsLayout() {
        assertEquals("k_group_n12", GroupPath.kernel(12));
        assertEquals("k_group_n24", GroupPath.kernel(13));
        // ethanol: S, V, A, B 10 M F, 36 pairs x (28 + 4), the per-atom energies padded to 12
        assertEquals(4 * (10 * 9 * F + 36 * 32 + 12), GroupPath.sharedBytes("k_group_n12", 9));
        // dipeptide: plus the second half's private sums, 6 M F
        assertEquals(4 * (16 * 22 * F + 231 * 32 + 24), GroupPath.sharedBytes("k_group_n24", 22));
        assertTrue(GroupPath.sharedBytes("k_group_n24", 24) <= 227 * 1024);
        // 10 atoms in tiles of 9: the second tile reads rows 10..17 of B (3F each) past the layout
        assertEquals(4 * (7 * 10 * F + 18 * 3 * F), GroupPath.sharedBytes("k_group_n12", 10));
        assertEquals(4 * (7 * 2 * F + 9 * 3 * F), GroupPath.sharedBytes("k_group_n12", 2));
        // k_group_n12's U|V products: 3M rows in tiles of 14 forward, 27 backward; 5 atoms: the second forward tile
        // reads rows 15..27 of B as [3M][F], one row of F past the 9 rows of 3F the dense tiles keep
        assertArrayEquals(new int[] {14, 27}, GroupPath.uvRowTiles("k_group_n12"));
        assertArrayEquals(new int[] {9, 9}, GroupPath.uvRowTiles("k_group_n12_tc"));
        assertEquals(4 * (7 * 5 * F + 28 * F), GroupPath.sharedBytes("k_group_n12", 5));
        assertEquals(4 * (7 * 5 * F + 27 * F), GroupPath.sharedBytes("k_group_n12_tc", 5));
    }

    /**
     * k_group_n12's shared memory for every size it serves (1..12 atoms), from grp::GroupLayout&lt;14, 27&gt; written
     * out: the largest of the layout's end and the rows the partial tiles read past B (dense tiles of 9: Mp rows of
     * 3F; U|V tiles of 14 / 27: Mp3 rows of F). GroupForcesTest.everySizeOfTheTwelveSlotEntry runs them all (the
     * kernel traps on a shortfall).
     */
    @Test
    void theTwelveSlotEntryHoldsEverySize() {
        int[] mp3 = {0, 27, 27, 27, 27, 28, 28, 28, 28, 28, 54, 54, 54};   // max(ceil(3M / 14) 14, ceil(3M / 27) 27)
        for (int m = 1; m <= 12; m++) {
            int p = m * (m - 1) / 2, b = 7 * m * F;
            int end = b + 3 * m * F + 32 * p + ((m + 3) & ~3);
            int tiles = b + (m <= 9 ? 9 : 18) * 3 * F;
            int expected = 4 * Math.max(end, Math.max(tiles, b + mp3[m] * F));
            assertEquals(expected, GroupPath.sharedBytes("k_group_n12", m), m + " atoms");
            int tc = 4 * Math.max(end, tiles);
            assertEquals(tc, GroupPath.sharedBytes("k_group_n12_tc", m), m + " atoms, k_group_n12_tc");
            // the U|V rows bind at 5..7 atoms only
            assertEquals(m >= 5 && m <= 7, expected > tc, m + " atoms");
        }
    }

    /**
     * The tensor-core twins (molten.cuda.groupDense=tc): k_group_n12_tc / k_group_n24_tc, the same block size and
     * shared memory as the SIMT entries (13..22 atoms take the pair-loop entry k_group_n22_tc: GroupPairLoopTest);
     * tc needs sm_80 (else the SIMT entry, with the reason).
     */
    @Test
    void theTensorCoreEntriesHaveTheSimtLaunchShape() {
        assertEquals("k_group_n12", GroupPath.kernel(9, KernelChoices.GroupDense.SIMT));
        assertEquals("k_group_n12_tc", GroupPath.kernel(12, KernelChoices.GroupDense.TC));
        assertEquals("k_group_n22_tc", GroupPath.kernel(13, KernelChoices.GroupDense.TC));
        assertEquals("k_group_n24_tc", GroupPath.kernel(23, KernelChoices.GroupDense.TC));
        for (int m : new int[] {2, 5, 9, 10, 12}) {
            assertEquals(128, GroupPath.threads("k_group_n12_tc"));
            // the SIMT entry's U|V tiles of 14 read one row of F more at 5..7 atoms (theTwelveSlotEntryHoldsEverySize)
            assertEquals(GroupPath.sharedBytes("k_group_n12", m) - (m == 5 ? 4 * F : 0),
                    GroupPath.sharedBytes("k_group_n12_tc", m));
        }
        for (int m : new int[] {13, 16, 22, 24}) {
            assertEquals(256, GroupPath.threads("k_group_n24_tc"));
            assertEquals(GroupPath.sharedBytes("k_group_n24", m), GroupPath.sharedBytes("k_group_n24_tc", m));
        }
        assertEquals(null, GroupPath.denseWhyNot(KernelChoices.GroupDense.TC, 8));
        assertEquals(null, GroupPath.denseWhyNot(KernelChoices.GroupDense.SIMT, 7));
        assertTrue(GroupPath.denseWhyNot(KernelChoices.GroupDense.TC, 7).contains("needs sm_80"));
    }

    /**
     * molten.cuda.groupDense=auto (the default) takes what measured faster on an H200 (2026-11-29,
     * scripts/group-engine-run.sh): the 12-slot entry on FP32 FMAs (k_group_n12: 1,024 ethanols 1,680.9 against 2,085.0
     * us a step on k_group_n12_tc), the 24-slot entry on the tensor cores where the device has tf32 mma.sync, sm_80 or
     * newer (k_group_n24_tc: 256 dipeptides 1,626.8 against 1,815.6 us on k_group_n24; 13..22 atoms its pair-loop
     * entry k_group_n22_tc, 1,481 us), the SIMT entries below sm_80; explicit simt and tc are kept (tc below sm_80
     * runs SIMT, with the reason).
     */
    @Test
    void autoTakesTheMeasuredDenseProductsPerEntry() {
        KernelChoices.GroupDense auto = KernelChoices.GroupDense.AUTO;
        for (int major : new int[] {8, 9, 10}) {
            for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
                String want = m <= 12 ? "k_group_n12" : m <= 22 ? "k_group_n22_tc" : "k_group_n24_tc";
                String what = m + " atoms, compute capability " + major + ".x";
                assertEquals(want, GroupPath.kernel(m, GroupPath.dense(auto, m, major)), what);
            }
            KernelChoices.GroupDense tc = GroupPath.dense(KernelChoices.GroupDense.TC, 9, major);
            assertEquals("k_group_n12_tc", GroupPath.kernel(9, tc));
            KernelChoices.GroupDense simt = GroupPath.dense(KernelChoices.GroupDense.SIMT, 22, major);
            assertEquals("k_group_n24", GroupPath.kernel(22, simt));
        }
        for (int m : new int[] {9, 22}) {   // below sm_80: no tf32 mma.sync, auto and tc run the SIMT entries
            assertEquals(GroupPath.kernel(m), GroupPath.kernel(m, GroupPath.dense(auto, m, 7)));
            assertEquals(GroupPath.kernel(m), GroupPath.kernel(m, GroupPath.dense(KernelChoices.GroupDense.TC, m, 7)));
        }
        assertNull(GroupPath.denseWhyNot(auto, 7), "auto below sm_80 is no refusal of what was asked for");
        assertThrows(IllegalArgumentException.class, () -> GroupPath.kernel(9, auto));
    }

    /**
     * The fatbin's group entries are exactly those GroupPath launches (every size, SIMT and tc, and the fallbacks):
     * none is missing, and no variant that measured slower stays in the binary users get.
     */
    @Test
    void theFatbinHoldsExactlyTheGroupEntriesGroupPathLaunches() {
        java.util.Set<String> launched = new java.util.TreeSet<>();
        for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
            for (KernelChoices.GroupDense d : new KernelChoices.GroupDense[] {KernelChoices.GroupDense.SIMT,
                    KernelChoices.GroupDense.TC}) {
                launched.add(GroupPath.kernel(m, d));
                launched.add(GroupPath.fallback(GroupPath.kernel(m, d)));
            }
        }
        java.util.Set<String> inFatbin = new java.util.TreeSet<>();
        for (String e : KernelImage.entries()) {
            if (e.startsWith("k_group_")) {
                inFatbin.add(e);
            }
        }
        assertEquals(inFatbin, launched);
        assertEquals(5, launched.size(), launched.toString());
    }
}
