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
 * The pair-loop variant k_group_n24_tc_p (molten_group_pairs.cuh), selected for timing by
 * {@value GroupPath#VARIANT_PROPERTY}=p: which entry the property picks and the shared memory it needs (no device), and
 * through the emulator every atom count it takes (13..{@value GroupPath#P_ATOMS}) against the float64 reference student
 * with the default entry's bounds (GroupForcesTest.against: relative force error <= 1e-5, energy <= 1e-6 of the summed
 * per-atom magnitudes), plus two alanine dipeptides, the size it is meant for.
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
     * Without the property nothing changes; with it, tc replicas of 13..22 atoms take the variant, 23 and 24 (whose
     * stored d rbf/dd would not fit sm_90's 232,448 B), the 12-slot entries and SIMT keep their entries.
     */
    @Test
    void thePropertyPicksTheVariantOnlyWhereItApplies() {
        KernelChoices.GroupDense tc = KernelChoices.GroupDense.TC;
        assertEquals("k_group_n24_tc", GroupPath.kernel(22, tc));
        System.setProperty(GroupPath.VARIANT_PROPERTY, "p");
        for (int m = 1; m <= GroupPath.MAX_ATOMS; m++) {
            String want = m <= 12 ? "k_group_n12_tc" : m <= GroupPath.P_ATOMS ? "k_group_n24_tc_p" : "k_group_n24_tc";
            assertEquals(want, GroupPath.kernel(m, tc), m + " atoms");
        }
        assertEquals("k_group_n24", GroupPath.kernel(22, KernelChoices.GroupDense.SIMT));
        assertEquals("k_group_n12", GroupPath.kernel(9));
        System.setProperty(GroupPath.VARIANT_PROPERTY, "q");
        assertEquals("k_group_n24_tc", GroupPath.kernel(22, tc));
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
