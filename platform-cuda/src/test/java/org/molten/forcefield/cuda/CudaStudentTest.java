package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * The CUDA student against the reference student (float64, all pairs) on fresh random inputs:
 * every execution mode and kernel variant, open and periodic (orthorhombic with the device cell
 * list, triclinic with the 27-image minimum image), graph replay, neighbour-capacity overflow.
 * Forces agree to 1e-5 relative (float32 arithmetic), energies to 1e-6 of sum_i |E_i|.
 */
class CudaStudentTest {
    static final double FORCE_TOL = 1e-5;
    static final double ENERGY_TOL = 1e-6;

    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /**
     * Float32 rounding of an energy is relative to the magnitudes summed, not to the (possibly
     * cancelling) total: the energy tolerance is taken relative to sum_i |E_i|.
     */
    private static void check(StudentWeights w, Atoms atoms, CudaOptions opt, CudaOptions.Mode mode, String what) {
        check(w, atoms, opt, mode, what, false);
    }

    /**
     * {@link #check}, and with {@code repeat} a second evaluation of the same input by the same CudaStudent in stage
     * mode gives the same energy and forces bit for bit (the first is the one checked against the reference).
     */
    private static void check(StudentWeights w, Atoms atoms, CudaOptions opt, CudaOptions.Mode mode, String what,
                              boolean repeat) {
        ReferenceStudent ref = new ReferenceStudent(w);
        double[] fr = new double[3 * atoms.size()];
        double[] ei = new double[atoms.size()];
        double er = ref.energyAndForces(atoms, fr, ei);
        double scale = 0;
        for (double x : ei) {
            scale += Math.abs(x);
        }
        try (CudaStudent gpu = new CudaStudent(w, opt)) {
            double[] fg = new double[3 * atoms.size()];
            double eg = gpu.energyAndForcesInMode(atoms, fg, mode);
            double ferr = CudaTestSupport.relativeError(fg, fr);
            double eerr = Math.abs(eg - er) / scale;
            System.out.printf("%s (%s): force rel err %.3g, energy rel err %.3g%n", what, gpu.mode(), ferr, eerr);
            assertTrue(ferr <= FORCE_TOL, what + " (" + gpu.mode() + "): force relative error " + ferr);
            assertTrue(eerr <= ENERGY_TOL, what + " (" + gpu.mode() + "): energy " + eg + " vs " + er);
            if (repeat) {
                assertEquals(CudaOptions.Mode.STAGES, mode, what + ": the repeat is of the stage kernels");
                double[] f2 = new double[3 * atoms.size()];
                double e2 = gpu.energyAndForcesInMode(atoms, f2, CudaOptions.Mode.STAGES);
                assertEquals(eg, e2, what + ": energy not reproducible");
                assertArrayEquals(fg, f2, what + ": forces not reproducible");
            }
        }
    }

    /**
     * Tiled dense stages with K split over several blocks (the last block of a tile adds the partial tiles in
     * split order): every split count, wide and narrow tiles, against the reference, and bit for bit repeatable
     * (the order of the sum must not depend on which block finishes last). 16 splits are clamped to the chunks.
     * At F = 160 the channels are ragged in a 128-wide tile (160 = 128 + 32) and K runs from 80 to 480; 37 atoms
     * make ragged 32-row tiles (37 and 111 rows).
     */
    @Test
    void denseLayersWithSplitKMatchTheReferenceAndRepeatBitForBit() {
        long seed = 20261102L;   // fixed: a failure names it and reruns the same atoms
        Atoms mol = CudaTestSupport.randomAtoms(seed, 37, Math.cbrt(37 * 12.0), 1.0, null);
        CudaOptions tiled = CudaOptions.defaults().withLargeSystemAtoms(1);
        for (int f : new int[] {128, 160}) {
            StudentWeights w = f == 128 ? StudentWeights.random(19)
                    : StudentWeights.random(22, new int[] {1, 6, 7, 8}, f, 2, 12, 4.5, 12.0);
            for (String[] v : new String[][] {{"1", "wide"}, {"2", "wide"}, {"3", "narrow"}, {"16", "wide"}}) {
                String what = "F = " + f + ", K split " + v[0] + ", " + v[1] + " tiles (seed " + seed + ")";
                withProperties(new String[] {DenseSplit.PROPERTY, v[0], KernelChoices.DENSE_TILES_PROPERTY, v[1]}, () -> {
                    check(w, mol, tiled, CudaOptions.Mode.STAGES, what, true);
                });
            }
        }
    }

    @Test
    void smallMoleculesInEveryModeMatchTheReference() {
        StudentWeights w = StudentWeights.random(11);
        CudaOptions opt = CudaOptions.defaults();
        long seed = 20261104L;   // fixed: a failure names it and reruns the same atoms
        for (int n : new int[] {9, 22}) {
            Atoms mol = CudaTestSupport.randomAtoms(seed + n, n, Math.cbrt(n * 12.0), 1.0, null);
            check(w, mol, opt, CudaOptions.Mode.STAGES, n + " atoms, stage kernels (seed " + seed + ")");
            check(w, mol, opt, CudaOptions.Mode.MOLECULE, n + " atoms, molecule kernel (seed " + seed + ")");
        }
    }

    /**
     * The small-molecule cluster kernel (every activation in shared memory, channel slices per block,
     * reduce-scattered dense layers): gas phase at F = 128, and a periodic triclinic cell at F = 64.
     * It must really run (no silent fallback to another mode).
     */
    @Test
    void moleculeKernelMatchesTheReference() {
        long seed = 20261105L;   // fixed: a failure names it and reruns the same atoms
        StudentWeights w = StudentWeights.random(18);
        for (int n : new int[] {9, 22}) {
            Atoms mol = CudaTestSupport.randomAtoms(seed + n, n, Math.cbrt(n * 12.0), 1.0, null);
            checkMolecule(w, mol, n + " atoms, molecule kernel (seed " + seed + ")");
        }
        StudentWeights w64 = StudentWeights.random(19, new int[] {1, 6, 7, 8}, 64, 2, 12, 4.0, 12.0);
        Cell tri = Cell.of(new double[][] {{11.0, 0, 0}, {2.5, 10.5, 0}, {-1.5, 1.0, 10.8}},
                new boolean[] {true, true, true});
        Atoms box = CudaTestSupport.randomAtoms(seed, 20, 9.0, 1.1, null).withCell(tri);
        checkMolecule(w64, box, "20 atoms, triclinic cell, F = 64, molecule kernel (seed " + seed + ")");
    }

    /**
     * The widest student the engine takes (F = 256, DeviceWeights.MAX_HIDDEN), in the shape of widen.py's copy of the
     * organic preview (three interaction blocks, 20 radial functions, 5 Å): the small-molecule cluster kernel does not
     * fit an H100/H200's 227 KB of shared memory a block at that width, so AUTO gives a single molecule the stage
     * kernels (no error), which match the reference; a replica batch of two molecules (what `molten stability` runs,
     * where the F = 128-only group kernel cannot serve) equals each molecule alone on the stage kernels, bit for bit.
     * No F = 256 file has run on a card yet; the next window's F = 256 arm is surveyed this way.
     */
    @Test
    void theWidestStudentRunsOnTheStageKernelsAndMatchesTheReference() {
        long seed = 20261130L;   // fixed: a failure names it and reruns the same atoms
        StudentWeights w = StudentWeights.random(27, new int[] {1, 6, 7, 8}, 256, 3, 20, 5.0, 16.0);
        Atoms mol = CudaTestSupport.randomAtoms(seed, 9, Math.cbrt(9 * 12.0), 1.0, null);
        check(w, mol, CudaOptions.defaults(), CudaOptions.Mode.STAGES, "9 atoms, F = 256, stage kernels (seed " + seed + ")");
        try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {
            gpu.energyAndForces(mol, new double[3 * mol.size()]);
            assertEquals("stages", gpu.mode(), "F = 256, 9 atoms: AUTO should not pick the cluster kernel, which does not fit");
        }
        batchOnStagesMatchesEachReplicaAlone(w, seed, "F = 256");
    }

    /**
     * A student of four interaction blocks (deepen.py's T = 4 arm of issue 27's depth question; MOLTEN_MAXT is 4): one
     * molecule on the stage kernels and in whatever mode AUTO picks matches the float64 reference, and a water +
     * ethanol replica batch, as the stability survey runs the arm's export, runs on the stage kernels (the group
     * kernel is T = 3 only) and gives each replica what it gets alone, bit for bit.
     */
    @Test
    void aFourBlockStudentMatchesTheReference() {
        long seed = 20261201L;   // fixed: a failure names it and reruns the same atoms
        StudentWeights w = StudentWeights.random(28, new int[] {1, 6, 7, 8}, 128, 4, 20, 5.0, 16.0);
        Atoms mol = CudaTestSupport.randomAtoms(seed, 9, Math.cbrt(9 * 12.0), 1.0, null);
        check(w, mol, CudaOptions.defaults(), CudaOptions.Mode.STAGES, "9 atoms, T = 4, stage kernels (seed " + seed + ")");
        double[] fr = new double[3 * mol.size()];
        new ReferenceStudent(w).energyAndForces(mol, fr, new double[mol.size()]);
        try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {   // the mode AUTO picks, as molten run
            double[] fg = new double[3 * mol.size()];
            gpu.energyAndForces(mol, fg);
            double ferr = CudaTestSupport.relativeError(fg, fr);
            assertTrue(ferr <= FORCE_TOL, "9 atoms, T = 4, AUTO (" + gpu.mode() + "): force relative error " + ferr);
        }
        batchOnStagesMatchesEachReplicaAlone(w, seed, "T = 4");
    }

    private static void checkMolecule(StudentWeights w, Atoms atoms, String what) {
        check(w, atoms, CudaOptions.defaults(), CudaOptions.Mode.MOLECULE, what);
        try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {
            gpu.energyAndForcesInMode(atoms, new double[3 * atoms.size()], CudaOptions.Mode.MOLECULE);
            assertEquals("molecule", gpu.mode(), what + ": the molecule kernel did not run");
        }
    }

    /**
     * Widths whose channel groups do not split into up to four per lane (F = 32: one group; F = 160: five) run the
     * block-per-row message passes with one channel per lane (mg = 1) through the _m4 entries, whose template holds
     * up to four: against the reference on the small-system path.
     */
    @Test
    void oneChannelPerLaneOnTheSmallSystemPathMatchesTheReference() {
        long seed = 20261127L;   // fixed: a failure names it and reruns the same atoms
        Atoms mol = CudaTestSupport.randomAtoms(seed, 12, Math.cbrt(12 * 12.0), 1.0, null);
        for (int f : new int[] {32, 160}) {
            StudentWeights w = StudentWeights.random(26, new int[] {1, 6, 7, 8}, f, 2, 12, 4.5, 12.0);
            check(w, mol, CudaOptions.defaults(), CudaOptions.Mode.STAGES, "F = " + f + ", mg = 1 (seed " + seed + ")");
        }
    }

    @Test
    void tiledKernelsForLargeSystemsMatchTheReference() {
        StudentWeights w = StudentWeights.random(12);
        long seed = 20261107L;   // fixed: a failure names it and reruns the same atoms
        Atoms mol = CudaTestSupport.randomAtoms(seed, 40, Math.cbrt(40 * 12.0), 1.0, null);
        check(w, mol, CudaOptions.defaults().withLargeSystemAtoms(1), CudaOptions.Mode.STAGES,
                "tiled dense layers, one channel per lane (seed " + seed + ")");
    }

    /**
     * Every message-pass and dense-tile variant that remains (DeviceSystem: block-per-row below the large-system
     * size, warp-per-row with one or two warps per row over source edges from it, wide or narrow tiles) against the
     * reference, so that CI covers each whatever the automatic choice picks at the emulator's size; the warp-per-row
     * passes must also be deterministic (two warps per row add their partial sums in a fixed order; the source-edge
     * pass adds each pair's two edges in the force stage in a fixed order, no atomics). The small-system path
     * (block-per-row, untiled dense layers) reads neither property (DeviceSystem.message and dense consult them only
     * on the large-system path), so it is checked once, not once per variant (~4.5 s a check on the emulator here).
     */
    @Test
    void everyMessagePassAndTileVariantMatchesTheReference() {
        StudentWeights w = StudentWeights.random(16);
        long seed = 20261108L;   // fixed: a failure names it and reruns the same atoms
        Atoms mol = CudaTestSupport.randomAtoms(seed, 40, Math.cbrt(40 * 12.0), 1.0, null);
        check(w, mol, CudaOptions.defaults().withLargeSystemAtoms(1 << 30), CudaOptions.Mode.STAGES,
                "small-system path (seed " + seed + ")");
        String split = KernelChoices.ROW_SPLIT_PROPERTY;
        String tiles = KernelChoices.DENSE_TILES_PROPERTY;
        String[][] variants = {
            {split, "1", tiles, "wide"},
            {split, "2", tiles, "wide"},
            {tiles, "narrow", split, "2"},
        };
        for (String[] v : variants) {
            StringBuilder name = new StringBuilder();
            for (int i = 1; i < v.length; i += 2) {
                name.append(i > 1 ? " / " : "").append(v[i]);
            }
            String what = name + " (seed " + seed + ")";
            withProperties(v, () -> {
                check(w, mol, CudaOptions.defaults().withLargeSystemAtoms(1), CudaOptions.Mode.STAGES, what, true);
            });
        }
    }

    /** A misspelt kernel-choice property is refused by name when the system is set up, not ignored. */
    @Test
    void unknownKernelChoicesAreRefusedByName() {
        StudentWeights w = StudentWeights.random(16);
        Atoms mol = CudaTestSupport.randomAtoms(17, 12, 6.0, 1.0, null);
        for (String key : new String[] {KernelChoices.ROW_SPLIT_PROPERTY, KernelChoices.DENSE_TILES_PROPERTY,
            KernelChoices.LAUNCH_PROPERTY}) {
            withProperties(new String[] {key, "sideways"}, () -> {
                try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> gpu.energyAndForcesInMode(mol, new double[3 * mol.size()], CudaOptions.Mode.STAGES));
                    assertTrue(e.getMessage().contains(key) && e.getMessage().contains("sideways"), e.getMessage());
                }
            });
        }
    }


    /** Runs {@code r} with the system properties {@code kv} (key, value, ...) set, restoring them after. */
    private static void withProperties(String[] kv, Runnable r) {
        String[] old = new String[kv.length / 2];
        for (int i = 0; i < kv.length; i += 2) {
            old[i / 2] = System.getProperty(kv[i]);
            System.setProperty(kv[i], kv[i + 1]);
        }
        try {
            r.run();
        } finally {
            for (int i = 0; i < kv.length; i += 2) {
                if (old[i / 2] == null) {
                    System.clearProperty(kv[i]);
                } else {
                    System.setProperty(kv[i], old[i / 2]);
                }
            }
        }
    }

    @Test
    void periodicBoxWithDeviceCellListMatchesTheReferenceAndTheAllPairsSearch() {
        StudentWeights w = StudentWeights.random(13, new int[] {1, 6, 7, 8}, 64, 2, 12, 5.0, 12.0);
        long seed = 20261109L;   // fixed: a failure names it and reruns the same atoms
        Cell cell = Cell.orthorhombic(15.5, 16.0, 15.2);
        Atoms box = CudaTestSupport.randomAtoms(seed, 90, 15.2, 1.1, cell);
        CudaOptions cells = CudaOptions.defaults().withCellListAtoms(1).withLargeSystemAtoms(1);
        check(w, box, cells, CudaOptions.Mode.STAGES, "cell list, 90 atoms (seed " + seed + ")");
        double[] f1 = new double[3 * box.size()];
        double[] f2 = new double[3 * box.size()];
        double e1;
        double e2;
        try (CudaStudent a = new CudaStudent(w, cells);
             CudaStudent b = new CudaStudent(w, cells.withCellListAtoms(1 << 30))) {
            e1 = a.energyAndForcesInMode(box, f1, CudaOptions.Mode.STAGES);
            e2 = b.energyAndForcesInMode(box, f2, CudaOptions.Mode.STAGES);
        }
        // both searches sort each neighbour row by (distance, index): identical arithmetic
        assertEquals(e2, e1);
        assertArrayEquals(f2, f1);
    }

    @Test
    void triclinicAndMixedBoundaryCellsMatchTheReference() {
        StudentWeights w = StudentWeights.random(14, new int[] {1, 6, 7, 8}, 64, 2, 12, 4.0, 12.0);
        long seed = 20261110L;   // fixed: a failure names it and reruns the same atoms
        Cell tri = Cell.of(new double[][] {{11.0, 0, 0}, {2.5, 10.5, 0}, {-1.5, 1.0, 10.8}},
                new boolean[] {true, true, true});
        Atoms a = CudaTestSupport.randomAtoms(seed, 30, 9.0, 1.1, null).withCell(tri);
        check(w, a, CudaOptions.defaults(), CudaOptions.Mode.STAGES, "triclinic (seed " + seed + ")");
        Cell slab = Cell.of(new double[][] {{10.0, 0, 0}, {0, 10.0, 0}, {0, 0, 30.0}}, new boolean[] {true, true, false});
        Atoms s = CudaTestSupport.randomAtoms(seed + 1, 30, 10.0, 1.1, null).withCell(slab);
        check(w, s, CudaOptions.defaults(), CudaOptions.Mode.STAGES, "slab, periodic in x and y (seed " + seed + ")");
        check(w, s, CudaOptions.defaults().withLargeSystemAtoms(1), CudaOptions.Mode.STAGES,
                "slab, periodic in x and y, large-system kernels (seed " + seed + ")");
        check(w, s, CudaOptions.defaults(), CudaOptions.Mode.MOLECULE, "slab, periodic in x and y, molecule kernel (seed "
                + seed + ")");
    }

    @Test
    void secondEvaluationOfASizeIsCapturedAndThenReplayed() {
        StudentWeights w = StudentWeights.random(15);
        Atoms mol = CudaTestSupport.randomAtoms(5, 12, 5.0, 1.0, null);
        try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {
            double[] f0 = new double[36];
            GpuStatus.Snapshot s0 = GpuStatus.snapshot();
            double e0 = gpu.energyAndForces(mol, f0);
            GpuStatus.Snapshot s1 = GpuStatus.snapshot();
            double[] f1 = new double[36];
            double e1 = gpu.energyAndForces(mol, f1);
            GpuStatus.Snapshot s2 = GpuStatus.snapshot();
            double[] f2 = new double[36];
            double e2 = gpu.energyAndForces(mol, f2);
            GpuStatus.Snapshot s3 = GpuStatus.snapshot();
            assertEquals(s0.eagerLaunches() + 1, s1.eagerLaunches(), "first sight runs eagerly");
            assertEquals(s1.captures() + 1, s2.captures(), "second sight is captured");
            assertEquals(s2.captures(), s3.captures(), "third is a replay");
            assertEquals(s2.replays() + 1, s3.replays());
            assertEquals(e0, e1);
            assertEquals(e0, e2);
            assertArrayEquals(f0, f2);
        }
    }

    /**
     * A neighbour row longer than the capacity is grown and redone, not cut: in the automatic mode, and on the
     * warp-per-row path with the source-edge backward pass, where the cut rows also leave slots without their
     * reverse slot (flags[UNPAIRED]), which after an overflow must not be refused.
     */
    @Test
    void outgrownNeighbourCapacityIsGrownNotTruncated() {
        StudentWeights w = StudentWeights.random(16, new int[] {1, 6, 7, 8}, 64, 2, 12, 5.0, 12.0);
        Cell cell = Cell.orthorhombic(24, 24, 24);
        Atoms sparse = CudaTestSupport.randomAtoms(21, 40, 24, 4.0, cell);
        double[] r = sparse.positions().clone();
        Atoms dense = sparse.copy();
        for (int k = 0; k < r.length; k++) {
            dense.positions()[k] = 12 + 0.3 * (r[k] - 12);  // same atoms, squeezed together
        }
        double[] fr = new double[120];
        double er = new ReferenceStudent(w).energyAndForces(dense, fr);
        CudaOptions rows = CudaOptions.defaults().withLargeSystemAtoms(1);
        for (CudaOptions opt : new CudaOptions[] {CudaOptions.defaults(), rows}) {
            CudaOptions.Mode mode = opt == rows ? CudaOptions.Mode.STAGES : null;
            String what = opt == rows ? "warp-per-row stages, source edges" : "automatic mode";
            try (CudaStudent gpu = new CudaStudent(w, opt)) {
                double[] f = new double[120];
                evaluate(gpu, sparse, f, mode);
                long before = GpuStatus.snapshot().overflows();
                double e = evaluate(gpu, dense, f, mode);
                assertTrue(GpuStatus.snapshot().overflows() > before, what + ": the squeezed system must overflow");
                assertTrue(CudaTestSupport.relativeError(f, fr) <= FORCE_TOL, what);
                assertEquals(er, e, ENERGY_TOL * Math.abs(er), what);
            }
        }
    }

    private static double evaluate(CudaStudent gpu, Atoms atoms, double[] f, CudaOptions.Mode mode) {
        return mode == null ? gpu.energyAndForces(atoms, f) : gpu.energyAndForcesInMode(atoms, f, mode);
    }

    @Test
    void perAtomEnergiesSumToTheTotalAndBadInputIsRefused() {
        StudentWeights w = StudentWeights.random(17);
        Atoms mol = CudaTestSupport.randomAtoms(8, 10, 5.0, 1.0, null);
        try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults())) {
            double[] f = new double[30];
            double[] ea = new double[10];
            double e = gpu.energyAndForces(mol, f, ea);
            double sum = 0;
            for (double x : ea) {
                sum += x;
            }
            assertEquals(e, sum, 1e-12 * Math.abs(e));
            Atoms chlorine = Atoms.of(new int[] {17, 1}, new double[] {0, 0, 0, 1.3, 0, 0}, null);
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                    () -> gpu.energyAndForces(chlorine, new double[6]));
            assertTrue(ex.getMessage().contains("Cl"));
        }
    }

    /**
     * A water + ethanol Langevin replica batch of student W (3 steps at 300 K) runs on the stage kernels and gives each
     * replica what it gets alone, bit for bit: the shape the stability survey runs a student of a shape the group
     * kernel does not take (F = 256, T = 4).
     */
    private static void batchOnStagesMatchesEachReplicaAlone(StudentWeights w, long seed, String label) {
        List<ReplicaStart> starts = new ArrayList<>();
        Atoms[] mols = {CudaDynamicsTest.water(), CudaDynamicsTest.ethanol()};
        for (int r = 0; r < mols.length; r++) {
            Atoms a = CudaDynamicsTest.thermalised(mols[r], 300, seed + r);
            starts.add(new ReplicaStart(a, new DynamicsSpec.Langevin(0.5, 300, 0.02, true), seed + 7 * r, 3 * a.size() - 3));
        }
        int steps = 3;
        try (CudaMdEngine md = new CudaMdEngine(w, starts, CudaOptions.defaults())) {
            assertEquals("stages", md.mode(), label + " replica batch");
            md.advance(steps);
            for (int r = 0; r < starts.size(); r++) {
                Atoms together = starts.get(r).atoms().copy();
                md.read(r, together, null);
                MoleculeThermostatTest.Run alone = MoleculeThermostatTest.run(w, starts.get(r), MoleculeThermostatTest.stages(1), steps);
                String what = label + ", replica " + r + " of a water + ethanol batch (seed " + seed + ")";
                assertArrayEquals(alone.atoms().positions(), together.positions(), what + ": positions");
                assertArrayEquals(alone.atoms().velocities(), together.velocities(), what + ": velocities");
            }
        }
    }
}
