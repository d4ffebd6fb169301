package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;

/**
 * The pair-loop variant k_group_n24_tc_p (molten_group_pairs.cuh), selected for timing by {@value
 * GroupPath#VARIANT_PROPERTY}=p: which entry the property picks, the shared memory it needs and the check of it
 * against the device's (no device), and through the emulator every atom count it takes (13..{@value
 * GroupPath#P_ATOMS}) against the float64 reference student with the default entries' bounds (GroupForcesTest.against:
 * relative force error <= 1e-5, energy <= 1e-6 of the summed per-atom magnitudes), plus two alanine dipeptides, the
 * size it is meant for.
 */
class GroupVariantTest {
    private static final int F = GroupPath.F;

    @AfterEach
    void clear() {
        System.clearProperty(GroupPath.VARIANT_PROPERTY);
        System.clearProperty(KernelChoices.REPLICA_FORCES_PROPERTY);
        System.clearProperty(KernelChoices.GROUP_DENSE_PROPERTY);
    }

    /**
     * Without the property nothing changes; with it, tc replicas of 13..22 take k_group_n24_tc_p; tc 23 and 24 (whose
     * stored d rbf/dd would not fit sm_90's 232,448 B), the 12-slot entries and SIMT 13..24 keep theirs. Any other
     * value: none.
     */
    @Test
    void thePropertyPicksTheVariantOnlyWhereItApplies() {
        KernelChoices.GroupDense tc = KernelChoices.GroupDense.TC;
        KernelChoices.GroupDense simt = KernelChoices.GroupDense.SIMT;
        for (String property : new String[] {null, "p", "q"}) {
            if (property != null) {
                System.setProperty(GroupPath.VARIANT_PROPERTY, property);
            }
            boolean p = "p".equals(property);
            for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
                String what = m + " atoms, property " + property;
                String wantTc = m <= 12 ? "k_group_n12_tc" : "k_group_n24_tc";
                String wantSimt = m <= 12 ? "k_group_n12" : "k_group_n24";
                boolean variant = p && m > GroupPath.N12_ATOMS && m <= GroupPath.P_ATOMS;
                assertEquals(wantTc + (variant ? "_p" : ""), GroupPath.kernel(m, tc), what + ", tc");
                assertEquals(wantSimt, GroupPath.kernel(m, simt), what + ", simt");
                assertEquals(GroupPath.kernel(m, simt), GroupPath.kernel(m), what);
            }
        }
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
        assertEquals("k_group_n12", GroupPath.kernel(9));
        assertEquals("k_group_n12_tc", GroupPath.kernel(12, tc));
        assertEquals("k_group_n24_tc_p", GroupPath.kernel(13, tc));
        assertEquals("k_group_n24_tc_p", GroupPath.kernel(22, tc));
        assertEquals("k_group_n24_tc", GroupPath.kernel(23, tc));
        assertEquals("k_group_n24", GroupPath.kernel(13, simt));
    }

    /**
     * The property passes the GPU path's check of {@code molten.cuda.*} names, as GroupCheck and molten bench read
     * them (CudaOptions.fromSystemProperties): on the card, unregistered, it was refused before any kernel ran.
     */
    @Test
    void thePropertyIsOneTheGpuPathReads() {
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
        assertDoesNotThrow(() -> CudaOptions.fromSystemProperties());
    }

    /**
     * grp::GroupLayout&lt;0, 0, GEOP&gt; written out: k_group_n24_tc's layout with 48 floats a pair instead of 28 (20 of
     * d rbf/dd, 80 B a pair); the 256-thread launch shape.
     */
    @Test
    void theVariantsSharedMemoryHoldsDrbfPerPair() {
        for (int m = 13; m <= GroupPath.P_ATOMS; m++) {
            int p = m * (m - 1) / 2;
            assertEquals(GroupPath.sharedBytes("k_group_n24_tc", m) + 4 * 20 * p,
                    GroupPath.sharedBytes("k_group_n24_tc_p", m), m + " atoms");
        }
        assertEquals(4 * (16 * 22 * F + 231 * 52 + 24), GroupPath.sharedBytes("k_group_n24_tc_p", 22));
        assertEquals(228_368, GroupPath.sharedBytes("k_group_n24_tc_p", 22));
        assertTrue(GroupPath.sharedBytes("k_group_n24_tc_p", 23) > 232_448);
        assertEquals(256, GroupPath.threads("k_group_n24_tc_p"));
        assertEquals(48, GroupPath.geoFloats("k_group_n24_tc_p"));
        assertEquals(28, GroupPath.geoFloats("k_group_n24_tc"));
        assertEquals("k_group_n24_tc", GroupPath.base("k_group_n24_tc_p"));
        assertEquals("k_group_n24_tc", GroupPath.base("k_group_n24_tc"));
    }

    /**
     * The shared memory checked is the launched entry's (GroupPath.entry: the variant where it fits the device, else
     * its default), for every size, SIMT and tc, limits either side of the default's and the variant's bytes: the
     * check refuses exactly where the launched entry exceeds the limit, the variant runs exactly where it fits. Cases
     * the SIMT entry's bytes got wrong (the rule before): a dipeptide on k_group_n24_tc_p where only k_group_n24_tc
     * fits (it would have launched the variant short of 18,480 B), 5 atoms on k_group_n12_tc at its own 31,744 B
     * (k_group_n12 needs 32,256: refused before).
     */
    @Test
    void theSharedMemoryCheckedIsTheLaunchedEntrys() {
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
        for (KernelChoices.GroupDense dense : new KernelChoices.GroupDense[] {KernelChoices.GroupDense.SIMT,
                KernelChoices.GroupDense.TC}) {
            for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
                String k = GroupPath.kernel(m, dense), d = GroupPath.base(k);
                int kb = GroupPath.sharedBytes(k, m), db = GroupPath.sharedBytes(d, m);
                for (int limit : new int[] {db - 1, db, kb - 1, kb, 232_448}) {
                    String what = m + " atoms, " + dense + ", limit " + limit + " B";
                    String e = GroupPath.entry(m, dense, limit);
                    assertEquals(limit >= kb ? k : d, e, what);
                    assertEquals(GroupPath.sharedBytes(e, m) > limit, GroupPath.sharedWhyNot(m, dense, limit) != null,
                            what);
                    assertEquals(!e.equals(k), GroupPath.variantWhyNot(m, dense, limit) != null, what);
                }
            }
        }
        KernelChoices.GroupDense simt = KernelChoices.GroupDense.SIMT, tc = KernelChoices.GroupDense.TC;
        assertEquals("k_group_n24_tc", GroupPath.entry(22, tc, 209_888));
        assertEquals(null, GroupPath.sharedWhyNot(22, tc, 209_888));
        assertEquals(GroupPath.VARIANT_PROPERTY + "=p: k_group_n24_tc_p needs 228368 bytes of shared memory a block,"
                + " the device allows 209888", GroupPath.variantWhyNot(22, tc, 209_888));
        assertEquals("k_group_n24_tc: 209888 bytes of shared memory a block, the device allows 209887",
                GroupPath.sharedWhyNot(22, tc, 209_887));
        assertEquals("k_group_n24_tc_p", GroupPath.entry(22, tc, 228_368));
        assertEquals("k_group_n12", GroupPath.entry(9, simt, 50_736));
        System.clearProperty(GroupPath.VARIANT_PROPERTY);
        assertEquals(null, GroupPath.sharedWhyNot(5, tc, 31_744));
        assertTrue(GroupPath.sharedBytes("k_group_n12", 5) > 31_744);
        assertEquals(null, GroupPath.variantWhyNot(9, simt, 1));
    }

    /**
     * GroupPath.why itself, as DeviceSystem calls it, on emulator batches: two alanine dipeptides (auto: tc) with the
     * property fit a device of k_group_n24_tc_p's 228,368 B and of k_group_n24_tc's 209,888 (the default then runs),
     * one byte less refuses naming k_group_n24_tc; five-atom clusters on the tensor cores without it fit
     * k_group_n12_tc's 31,744 B (the rule before checked k_group_n12's 32,256).
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
            System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
            assertEquals(null, GroupPath.why(group, dipeptides, stages, null, dw, auto, 9, 228_368));
            assertEquals(null, GroupPath.why(group, dipeptides, stages, null, dw, auto, 9, 209_888));
            assertEquals("k_group_n24_tc: 209888 bytes of shared memory a block, the device allows 209887",
                    GroupPath.why(group, dipeptides, stages, null, dw, auto, 9, 209_887));
            System.clearProperty(GroupPath.VARIANT_PROPERTY);
            assertEquals(null, GroupPath.why(group, five, stages, null, dw, tc, 9, 31_744));
            assertEquals("k_group_n12: 32256 bytes of shared memory a block, the device allows 31744",
                    GroupPath.why(group, five, stages, null, dw, tc, 7, 31_744), "tc below sm_80 runs SIMT");
        }
    }

    /** Random clusters of every size the variant takes, two replicas each (partial row tiles of 8 included). */
    @Test
    void everySizeOfTheVariantEqualsTheReferenceStudent() {
        onTheVariant();
        for (int atoms = GroupPath.N12_ATOMS + 1; atoms <= GroupPath.P_ATOMS; atoms++) {
            List<ReplicaStart> starts = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                Atoms a = GroupForcesTest.perturbed(CudaTestSupport.randomAtoms(110 + atoms, atoms, 4.5, 1.1, null),
                        120 + r);
                starts.add(new ReplicaStart(a, new DynamicsSpec.VelocityVerlet(0.5), 120 + r, 3 * atoms - 3));
            }
            GroupForcesTest.against("cluster of " + atoms, starts, "k_group_n24_tc_p");
        }
    }

    @Test
    void alanineDipeptideReplicasOnTheVariantEqualTheReferenceStudent() {
        onTheVariant();
        GroupForcesTest.against("alanine-dipeptide", 2, "k_group_n24_tc_p");
    }

    private static void onTheVariant() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "group");
        System.setProperty(KernelChoices.GROUP_DENSE_PROPERTY, "tc");
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
    }
}
