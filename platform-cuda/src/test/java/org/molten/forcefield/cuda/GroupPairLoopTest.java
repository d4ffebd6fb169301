package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;

/**
 * The pair-loop entry k_group_n22_tc (molten_group_pairs.cuh), the default on the tensor cores for 13..{@value
 * GroupPath#N22_ATOMS} atoms since it measured 1.10x faster than k_group_n24_tc on an H200: which sizes take it, the
 * shared memory it needs and the fallback to k_group_n24_tc where a device lacks it (no device), and through the
 * emulator, with no property set, every atom count it takes against the float64 reference student with the default
 * entries' bounds (GroupForcesTest.against: relative force error <= 1e-5, energy <= 1e-6 of the summed per-atom
 * magnitudes), plus two alanine dipeptides, the size it was measured on.
 */
class GroupPairLoopTest {
    private static final int F = GroupPath.F;

    @AfterEach
    void clear() {
        System.clearProperty("molten.cuda.groupVariant");
    }

    /**
     * Tensor-core replicas of 13..22 atoms take k_group_n22_tc, 23 and 24 (whose stored d rbf/dd would not fit
     * sm_90's 232,448 B) k_group_n24_tc; the 12-slot entries and SIMT 13..24 keep theirs; auto on an sm_90 is tc from
     * 13 atoms, so the pair-loop entry is what a dipeptide batch runs by default.
     */
    @Test
    void tensorCoreReplicasOf13To22AtomsTakeThePairLoopEntry() {
        KernelChoices.GroupDense tc = KernelChoices.GroupDense.TC, simt = KernelChoices.GroupDense.SIMT;
        for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
            String wantTc = m <= 12 ? "k_group_n12_tc" : m <= 22 ? "k_group_n22_tc" : "k_group_n24_tc";
            assertEquals(wantTc, GroupPath.kernel(m, tc), m + " atoms, tc");
            assertEquals(m <= 12 ? "k_group_n12" : "k_group_n24", GroupPath.kernel(m, simt), m + " atoms, simt");
            String wantAuto = m <= 12 ? "k_group_n12" : wantTc;
            assertEquals(wantAuto, GroupPath.kernel(m, GroupPath.dense(KernelChoices.GroupDense.AUTO, m, 9)),
                    m + " atoms, auto on sm_90");
        }
        assertEquals(22, GroupPath.N22_ATOMS);
    }

    /**
     * -Dmolten.cuda.groupVariant, which selected the pair-loop variants for timing, is gone: the GPU path refuses it
     * (CudaOptions.fromSystemProperties) rather than ignore it, so a script that still passes it fails loudly.
     */
    @Test
    void theVariantPropertyIsRefused() {
        System.setProperty("molten.cuda.groupVariant", "p");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaOptions::fromSystemProperties);
        assertTrue(e.getMessage().contains("unknown system property -Dmolten.cuda.groupVariant"), e.getMessage());
    }

    /**
     * grp::GroupLayout&lt;0, 0, GEOP&gt; written out: k_group_n24_tc's layout with 48 floats a pair instead of 28
     * (20 of d rbf/dd, 80 B a pair); the 256-thread launch shape.
     */
    @Test
    void itsSharedMemoryHoldsDrbfPerPair() {
        for (int m = 13; m <= GroupPath.N22_ATOMS; m++) {
            int p = m * (m - 1) / 2;
            assertEquals(GroupPath.sharedBytes("k_group_n24_tc", m) + 4 * 20 * p,
                    GroupPath.sharedBytes("k_group_n22_tc", m), m + " atoms");
        }
        assertEquals(4 * (16 * 22 * F + 231 * 52 + 24), GroupPath.sharedBytes("k_group_n22_tc", 22));
        assertEquals(228_368, GroupPath.sharedBytes("k_group_n22_tc", 22));
        assertTrue(GroupPath.sharedBytes("k_group_n22_tc", 23) > 232_448);
        assertEquals(256, GroupPath.threads("k_group_n22_tc"));
        assertEquals(11, GroupPath.rowTile("k_group_n22_tc"));
        assertEquals(48, GroupPath.geoFloats("k_group_n22_tc"));
        assertEquals(28, GroupPath.geoFloats("k_group_n24_tc"));
        assertEquals("k_group_n24_tc", GroupPath.fallback("k_group_n22_tc"));
        assertEquals("k_group_n24_tc", GroupPath.fallback("k_group_n24_tc"));
        assertEquals("k_group_n12", GroupPath.fallback("k_group_n12"));
    }

    /**
     * The shared memory checked is the launched entry's (GroupPath.entry: the pair-loop entry where it fits the
     * device, else k_group_n24_tc), for every size, SIMT and tc, limits either side of either entry's bytes: the check
     * refuses exactly where the launched entry exceeds the limit, the pair-loop entry runs exactly where it fits, and
     * replicaForces() says why where it does not. An A100 (166,912 B a block) runs it up to 16 atoms, k_group_n24_tc
     * at 17 (the pair-loop entry needs 167,632 B there), the stages from 18.
     */
    @Test
    void theSharedMemoryCheckedIsTheLaunchedEntrys() {
        for (KernelChoices.GroupDense dense : new KernelChoices.GroupDense[] {KernelChoices.GroupDense.SIMT,
                KernelChoices.GroupDense.TC}) {
            for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
                String k = GroupPath.kernel(m, dense), d = GroupPath.fallback(k);
                int kb = GroupPath.sharedBytes(k, m), db = GroupPath.sharedBytes(d, m);
                for (int limit : new int[] {db - 1, db, kb - 1, kb, 232_448}) {
                    String what = m + " atoms, " + dense + ", limit " + limit + " B";
                    String e = GroupPath.entry(m, dense, limit);
                    assertEquals(limit >= kb ? k : d, e, what);
                    assertEquals(GroupPath.sharedBytes(e, m) > limit, GroupPath.sharedWhyNot(m, dense, limit) != null,
                            what);
                    assertEquals(!e.equals(k), GroupPath.fallbackWhy(m, dense, limit) != null, what);
                }
            }
        }
        KernelChoices.GroupDense simt = KernelChoices.GroupDense.SIMT, tc = KernelChoices.GroupDense.TC;
        assertEquals("k_group_n24_tc", GroupPath.entry(22, tc, 209_888));
        assertEquals(null, GroupPath.sharedWhyNot(22, tc, 209_888));
        assertEquals("k_group_n22_tc needs 228368 bytes of shared memory a block, the device allows 209888",
                GroupPath.fallbackWhy(22, tc, 209_888));
        assertEquals("k_group_n24_tc: 209888 bytes of shared memory a block, the device allows 209887",
                GroupPath.sharedWhyNot(22, tc, 209_887));
        assertEquals("k_group_n22_tc", GroupPath.entry(22, tc, 228_368));
        assertEquals(null, GroupPath.fallbackWhy(22, tc, 232_448));
        assertEquals("k_group_n12", GroupPath.entry(9, simt, 50_736));
        assertEquals(null, GroupPath.fallbackWhy(9, simt, 1));
        int a100 = 166_912;
        assertEquals("k_group_n22_tc", GroupPath.entry(16, tc, a100));
        assertEquals("k_group_n24_tc", GroupPath.entry(17, tc, a100));
        assertEquals(167_632, GroupPath.sharedBytes("k_group_n22_tc", 17));
        assertEquals(null, GroupPath.sharedWhyNot(17, tc, a100));
        assertTrue(GroupPath.sharedWhyNot(18, tc, a100).startsWith("k_group_n24_tc: "));
        // the 12-slot tc entry's own bytes, not k_group_n12's (which need 32,256 at 5 atoms)
        assertEquals(null, GroupPath.sharedWhyNot(5, tc, 31_744));
        assertTrue(GroupPath.sharedBytes("k_group_n12", 5) > 31_744);
    }

    /**
     * GroupPath.why itself, as DeviceSystem calls it, on emulator batches: two alanine dipeptides (auto: tc) fit a
     * device of k_group_n22_tc's 228,368 B and of k_group_n24_tc's 209,888 (which then runs), one byte less refuses
     * naming k_group_n24_tc; five-atom clusters on the tensor cores fit k_group_n12_tc's 31,744 B.
     */
    @Test
    void whyChecksTheEntryThatWouldRun() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        KernelChoices.ReplicaForces group = KernelChoices.ReplicaForces.GROUP;
        CudaOptions.Mode stages = CudaOptions.Mode.STAGES;
        KernelChoices.GroupDense auto = KernelChoices.GroupDense.AUTO, tc = KernelChoices.GroupDense.TC;
        DeviceWeights dw = new DeviceWeights(GroupForcesTest.weights());
        List<ReplicaStart> fives = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            fives.add(new ReplicaStart(CudaTestSupport.randomAtoms(85, 5, 3.0, 1.1, null),
                    new DynamicsSpec.VelocityVerlet(0.5), 95 + r, 12));
        }
        try (CudaContext cx = new CudaContext()) {
            ReplicaBuffers dipeptides = new ReplicaBuffers(cx, GroupForcesTest.replicas("alanine-dipeptide", 2,
                    new DynamicsSpec.VelocityVerlet(0.5), 29));
            ReplicaBuffers five = new ReplicaBuffers(cx, fives);
            assertEquals(null, GroupPath.why(group, dipeptides, stages, null, dw, auto, 9, 228_368));
            assertEquals(null, GroupPath.why(group, dipeptides, stages, null, dw, auto, 9, 209_888));
            assertEquals("k_group_n24_tc: 209888 bytes of shared memory a block, the device allows 209887",
                    GroupPath.why(group, dipeptides, stages, null, dw, auto, 9, 209_887));
            assertEquals(null, GroupPath.why(group, five, stages, null, dw, tc, 9, 31_744));
            assertEquals("k_group_n12: 32256 bytes of shared memory a block, the device allows 31744",
                    GroupPath.why(group, five, stages, null, dw, tc, 7, 31_744), "tc below sm_80 runs SIMT");
        }
    }

    /**
     * Random clusters of every size the pair-loop entry takes, two replicas each (partial row tiles of 8 included), on
     * the defaults (no property: the group path, auto's tensor cores).
     */
    @Test
    void everySizeOfThePairLoopEntryEqualsTheReferenceStudent() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        for (int atoms = GroupPath.N12_ATOMS + 1; atoms <= GroupPath.N22_ATOMS; atoms++) {
            GroupForcesTest.against("cluster of " + atoms, GroupForcesTest.twoReplicas(atoms, 110 + atoms, 4.5, 120),
                    "k_group_n22_tc");
        }
    }

    @Test
    void alanineDipeptideReplicasOnTheDefaultsEqualTheReferenceStudent() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        GroupForcesTest.against("alanine-dipeptide", 2, "k_group_n22_tc");
    }
}
