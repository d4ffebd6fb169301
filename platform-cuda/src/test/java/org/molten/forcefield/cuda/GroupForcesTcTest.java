package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.dynamics.DynamicsSpec;

/**
 * The group kernel's tensor-core entries (k_group_n12_tc, k_group_n24_tc: the dense products as 3xTF32 mma.sync,
 * {@value KernelChoices#GROUP_DENSE_PROPERTY}=tc) through the emulator, whose fake driver runs the warp-wide mma by
 * the PTX ISA fragment layout (fake_driver.cpp, emu_mma_tf32): each replica's energy and forces against the float64
 * reference student with GroupForcesTest's bounds (relative force error <= 1e-5, energy <= 1e-6 of the summed
 * per-atom magnitudes) for ethanol x 3, random clusters of 23 and 24 atoms (k_group_n24_tc's sizes since 13..22 take
 * the pair-loop entry: GroupPairLoopTest), random 5- and 13-atom clusters (partial row tiles of 8 on k_group_n12_tc
 * and k_group_n22_tc); and 20 Langevin steps of two ethanols on the tc entry against the stage kernels.
 */
class GroupForcesTcTest {
    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
        System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "group");
        System.setProperty(KernelChoices.GROUP_DENSE_PROPERTY, "tc");
    }

    @AfterEach
    void clear() {
        System.clearProperty(KernelChoices.REPLICA_FORCES_PROPERTY);
        System.clearProperty(KernelChoices.GROUP_DENSE_PROPERTY);
    }

    @Test
    void ethanolReplicasOnTheTensorCoresEqualTheReferenceStudent() {
        GroupForcesTest.against("ethanol", 3, "k_group_n12_tc");
    }

    /** Random clusters of 23 and 24 atoms, two replicas each: k_group_n24_tc's sizes (23: rows 23 -> 24, 69 -> 72). */
    @Test
    void theLargestSizesOnTheTensorCoresEqualTheReferenceStudent() {
        for (int atoms : new int[] {23, 24}) {
            GroupForcesTest.against("cluster of " + atoms, GroupForcesTest.twoReplicas(atoms, 140 + atoms, 4.5, 150),
                    "k_group_n24_tc");
        }
    }

    /**
     * Random clusters of 5 and 13 atoms: row tiles of 8 padded with zero rows (5 -> 8, 3M = 15 -> 16 on
     * k_group_n12_tc; 13 -> 16, 39 -> 40 on k_group_n22_tc), two replicas each.
     */
    @Test
    void partialRowTilesOnTheTensorCoresEqualTheReferenceStudent() {
        for (int atoms : new int[] {5, 13}) {
            GroupForcesTest.against("cluster of " + atoms,
                    GroupForcesTest.twoReplicas(atoms, 60 + atoms, atoms == 5 ? 3.0 : 4.5, 70),
                    GroupPath.kernel(atoms, KernelChoices.GroupDense.TC));
        }
    }

    /**
     * 20 Langevin steps of two ethanols on k_group_n12_tc equal the stage kernels to float32 rounding: the same starts
     * and steps as GroupForcesTest's simt run, so that the stage kernels' run (the slow part on the emulator) is made
     * once for both (GroupForcesTest.stageRun).
     */
    @Test
    void mdOnTheTensorCoresEqualsTheStageKernels() {
        GroupForcesTest.compareMd(GroupForcesTest.weights(),
                GroupForcesTest.replicas("ethanol", 2, new DynamicsSpec.Langevin(0.5, 300, 0.02, true), 41), 20,
                "k_group_n12_tc");
    }
}
