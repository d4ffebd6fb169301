package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * The pair-loop variants k_group_n12_p, k_group_n12_tc_p and k_group_n24_tc_p (molten_group_pairs.cuh), selected for
 * timing by {@value GroupPath#VARIANT_PROPERTY}=p: which entry the property picks, the shared memory it needs and the
 * check of it against the device's (no device), and through the emulator every atom count they take (1..{@value
 * GroupPath#N12_ATOMS}, 13..{@value GroupPath#P_ATOMS}) against the float64 reference student with the default entries'
 * bounds (GroupForcesTest.against: relative force error <= 1e-5, energy <= 1e-6 of the summed per-atom magnitudes),
 * plus two ethanols and two alanine dipeptides, the sizes they are meant for.
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
     * Without the property nothing changes; with it, replicas of 1..12 atoms take k_group_n12_p (SIMT, the ethanols'
     * default dense products) or k_group_n12_tc_p (tc), tc replicas of 13..22 k_group_n24_tc_p; tc 23 and 24 (whose
     * stored d rbf/dd would not fit sm_90's 232,448 B) and SIMT 13..24 keep their entries. Any other value: none.
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
                assertEquals(wantTc + (p && m <= GroupPath.P_ATOMS ? "_p" : ""), GroupPath.kernel(m, tc), what + ", tc");
                assertEquals(wantSimt + (p && m <= GroupPath.N12_ATOMS ? "_p" : ""), GroupPath.kernel(m, simt),
                        what + ", simt");
                assertEquals(GroupPath.kernel(m, simt), GroupPath.kernel(m), what);
            }
        }
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
        assertEquals("k_group_n12_p", GroupPath.kernel(9));
        assertEquals("k_group_n12_tc_p", GroupPath.kernel(12, tc));
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
    }

    /**
     * grp::GroupLayout&lt;0, 0, GEOP&gt; at 128 threads, written out: k_group_n12_tc's layout with 48 floats a pair
     * (28 + 20 of d rbf/dd) where the layout's end binds, else the dense tiles' rows (9 or 18 of 3F past B). An
     * ethanol (9 atoms): 53,616 B against 50,736, four blocks still fit sm_90's 228 KB a multiprocessor.
     */
    @Test
    void theTwelveSlotVariantsSharedMemoryHoldsDrbfPerPair() {
        for (int m = 1; m <= GroupPath.N12_ATOMS; m++) {
            int p = m * (m - 1) / 2, b = 7 * m * F;
            int end = b + 3 * m * F + 52 * p + ((m + 3) & ~3);
            int tiles = b + (m <= 9 ? 9 : 18) * 3 * F;
            assertEquals(4 * Math.max(end, tiles), GroupPath.sharedBytes("k_group_n12_tc_p", m), m + " atoms");
            assertTrue(GroupPath.sharedBytes("k_group_n12_tc_p", m) >= GroupPath.sharedBytes("k_group_n12_tc", m));
        }
        assertEquals(53_616, GroupPath.sharedBytes("k_group_n12_tc_p", 9));
        assertEquals(50_736, GroupPath.sharedBytes("k_group_n12_tc", 9));
        assertTrue(4 * (GroupPath.sharedBytes("k_group_n12_tc_p", 9) + 1024) <= 228 * 1024);   // + 1 KB a block reserved
        assertEquals(75_216, GroupPath.sharedBytes("k_group_n12_tc_p", 12));
        assertEquals(128, GroupPath.threads("k_group_n12_tc_p"));
        assertEquals(9, GroupPath.rowTile("k_group_n12_tc_p"));
        assertArrayEquals(new int[] {9, 9}, GroupPath.uvRowTiles("k_group_n12_tc_p"));
        assertEquals(48, GroupPath.geoFloats("k_group_n12_tc_p"));
    }

    /**
     * k_group_n12_p: k_group_n12's layout (U|V row tiles of 14 / 27: grp::GroupLayout&lt;14, 27, GEOP&gt;) with 48
     * floats a pair, written out: the layout's end, the dense tiles' rows (9 or 18 of 3F past B) or the U|V tiles' rows
     * (F each), whichever is last. An ethanol: 53,616 B against k_group_n12's 50,736. Blocks a multiprocessor by shared
     * memory (sm_90: 233,472 B, 1 KB a block reserved) as k_group_n12's at every size: 4 up to 9 atoms (then the
     * registers bind, 128 x 128 x 4 = 64 K), 3 from 10.
     */
    @Test
    void theSimtVariantsSharedMemoryIsK_group_n12sLayoutWithDrbfPerPair() {
        for (int m = 1; m <= GroupPath.N12_ATOMS; m++) {
            int p = m * (m - 1) / 2, b = 7 * m * F;
            int end = b + 3 * m * F + 52 * p + ((m + 3) & ~3);
            int tiles = b + (m <= 9 ? 9 : 18) * 3 * F;
            int uv = b + Math.max((3 * m + 13) / 14 * 14, (3 * m + 26) / 27 * 27) * F;
            int bytes = GroupPath.sharedBytes("k_group_n12_p", m);
            assertEquals(4 * Math.max(end, Math.max(tiles, uv)), bytes, m + " atoms");
            assertTrue(bytes >= GroupPath.sharedBytes("k_group_n12", m));
            int blocks = Math.min(4, 233_472 / (bytes + 1024));
            assertEquals(Math.min(4, 233_472 / (GroupPath.sharedBytes("k_group_n12", m) + 1024)), blocks, m + " atoms");
            assertEquals(m <= 9 ? 4 : 3, blocks, m + " atoms");
        }
        assertEquals(53_616, GroupPath.sharedBytes("k_group_n12_p", 9));
        assertEquals(50_736, GroupPath.sharedBytes("k_group_n12", 9));
        assertEquals(75_216, GroupPath.sharedBytes("k_group_n12_p", 12));
        assertEquals(128, GroupPath.threads("k_group_n12_p"));
        assertEquals(9, GroupPath.rowTile("k_group_n12_p"));
        assertArrayEquals(new int[] {14, 27}, GroupPath.uvRowTiles("k_group_n12_p"));
        assertEquals(48, GroupPath.geoFloats("k_group_n12_p"));
        assertEquals("k_group_n12", GroupPath.base("k_group_n12_p"));
        assertEquals("k_group_n12_tc", GroupPath.base("k_group_n12_tc_p"));
        assertEquals("k_group_n24_tc", GroupPath.base("k_group_n24_tc"));
    }

    /**
     * The shared memory checked is the launched entry's (GroupPath.entry: the variant where it fits the device, else
     * its default), for every size, SIMT and tc, limits either side of the default's and the variant's bytes: the
     * check refuses exactly where the launched entry exceeds the limit, the variant runs exactly where it fits. Cases
     * the SIMT entry's bytes got wrong (the rule before): an ethanol on k_group_n12_p where only k_group_n12 fits (it
     * would have launched the variant short of 2,880 B), 5 atoms on k_group_n12_tc at its own 31,744 B (k_group_n12
     * needs 32,256: refused before).
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
        assertEquals("k_group_n12", GroupPath.entry(9, simt, 50_736));
        assertEquals(null, GroupPath.sharedWhyNot(9, simt, 50_736));
        assertEquals(GroupPath.VARIANT_PROPERTY + "=p: k_group_n12_p needs 53616 bytes of shared memory a block, the"
                + " device allows 50736", GroupPath.variantWhyNot(9, simt, 50_736));
        assertEquals("k_group_n12: 50736 bytes of shared memory a block, the device allows 50735",
                GroupPath.sharedWhyNot(9, simt, 50_735));
        assertEquals("k_group_n12_p", GroupPath.entry(9, simt, 53_616));
        assertEquals("k_group_n24_tc", GroupPath.entry(22, tc, GroupPath.sharedBytes("k_group_n24_tc", 22)));
        System.clearProperty(GroupPath.VARIANT_PROPERTY);
        assertEquals(null, GroupPath.sharedWhyNot(5, tc, 31_744));
        assertTrue(GroupPath.sharedBytes("k_group_n12", 5) > 31_744);
        assertEquals(null, GroupPath.variantWhyNot(9, simt, 1));
    }

    /**
     * GroupPath.why itself, as DeviceSystem calls it, on emulator batches: two ethanols with the property fit a device
     * of k_group_n12_p's 53,616 B and of k_group_n12's 50,736 (the default then runs), one byte less refuses naming
     * k_group_n12; five-atom clusters on the tensor cores without it fit k_group_n12_tc's 31,744 B (the rule before
     * checked k_group_n12's 32,256).
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
            ReplicaBuffers ethanols = new ReplicaBuffers(cx, GroupForcesTest.replicas("ethanol", 2,
                    new DynamicsSpec.VelocityVerlet(0.5), 29));
            ReplicaBuffers five = new ReplicaBuffers(cx, fives);
            System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
            assertEquals(null, GroupPath.why(group, ethanols, stages, null, dw, auto, 9, 53_616));
            assertEquals(null, GroupPath.why(group, ethanols, stages, null, dw, auto, 9, 50_736));
            assertEquals("k_group_n12: 50736 bytes of shared memory a block, the device allows 50735",
                    GroupPath.why(group, ethanols, stages, null, dw, auto, 9, 50_735));
            System.clearProperty(GroupPath.VARIANT_PROPERTY);
            assertEquals(null, GroupPath.why(group, five, stages, null, dw, tc, 9, 31_744));
            assertEquals("k_group_n12: 32256 bytes of shared memory a block, the device allows 31744",
                    GroupPath.why(group, five, stages, null, dw, tc, 7, 31_744), "tc below sm_80 runs SIMT");
        }
    }

    /**
     * Random clusters of every size k_group_n12_tc_p takes, 1..12 atoms (those of
     * GroupForcesTest.everySizeOfTheTwelveSlotEntry), two replicas each; one atom has no pairs: zero force.
     */
    @Test
    void everySizeOfTheTwelveSlotVariantEqualsTheReferenceStudent() {
        onTheVariant();
        everyTwelveSlotSize("k_group_n12_tc_p");
    }

    /** The same for k_group_n12_p, the variant of the ethanols' default k_group_n12 (SIMT, U|V tiles of 14 / 27). */
    @Test
    void everySizeOfTheSimtVariantEqualsTheReferenceStudent() {
        onTheSimtVariant();
        everyTwelveSlotSize("k_group_n12_p");
    }

    @Test
    void ethanolReplicasOnTheSimtVariantEqualTheReferenceStudent() {
        onTheSimtVariant();
        GroupForcesTest.against("ethanol", 2, "k_group_n12_p");
    }

    private static void everyTwelveSlotSize(String kernel) {
        for (int atoms = 1; atoms <= GroupPath.N12_ATOMS; atoms++) {
            List<ReplicaStart> starts = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                Atoms a = GroupForcesTest.perturbed(CudaTestSupport.randomAtoms(80 + atoms, atoms, atoms <= 7 ? 3.0 : 4.0,
                        1.1, null), 90 + r);
                starts.add(new ReplicaStart(a, new DynamicsSpec.VelocityVerlet(0.5), 90 + r, Math.max(3, 3 * atoms - 3)));
            }
            if (atoms > 1) {
                GroupForcesTest.against("cluster of " + atoms, starts, kernel);
                continue;
            }
            StudentWeights w = GroupForcesTest.weights();
            try (CudaMdEngine md = new CudaMdEngine(w, starts, GroupForcesTest.stages(1))) {
                assertEquals("group (" + kernel + ")", md.replicaForces(), md.description());
                for (int r = 0; r < starts.size(); r++) {
                    GroupCheck.ReplicaError e = GroupCheck.ReplicaError.of(md, r, starts.get(r), new ReferenceStudent(w));
                    assertTrue(e.maxAbs() == 0 && e.energy() <= 1e-6, "one atom, replica " + r + ": max |F| "
                            + e.maxAbs() + " eV/A, E rel err " + e.energy());
                }
            }
        }
    }

    @Test
    void ethanolReplicasOnTheVariantEqualTheReferenceStudent() {
        onTheVariant();
        GroupForcesTest.against("ethanol", 2, "k_group_n12_tc_p");
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

    /** The property alone: the 12-slot entries' dense products stay auto's FP32 FMAs (GroupPath.dense). */
    private static void onTheSimtVariant() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "group");
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
    }
}
