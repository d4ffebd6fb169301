package org.molten.forcefield.cuda;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which variant of the stage kernels a device system uses where the choice depends on the system's size or the
 * driver, read from system properties when the system is set up. Every property's default is the automatic
 * choice, measured (docs/benchmarks.md); each exists to time the variants that the automatic choice picks
 * between side by side on one GPU, or to rule out one of them while looking for a fault. A misspelt value is
 * refused with the property's name and the values it takes, never ignored. The K splits of the tiled dense
 * layers are chosen by {@link DenseSplit}. Variants that were measured slower everywhere or never chosen left
 * the code (git history keeps them: docs/benchmarks.md, "Tried and dropped").
 *
 * @param rowSplit   warps per row of the warp-per-row passes, 0 = automatic ({@value #ROW_SPLIT_PROPERTY})
 * @param denseTiles tile width of the tiled dense layers ({@value #DENSE_TILES_PROPERTY})
 * @param launch     how the stage kernels are launched ({@value #LAUNCH_PROPERTY})
 * @param replicaForces the force path of replica batches ({@value #REPLICA_FORCES_PROPERTY})
 * @param groupDense the dense products of the group kernel ({@value #GROUP_DENSE_PROPERTY})
 */
record KernelChoices(int rowSplit, DenseTiles denseTiles, Launch launch, ReplicaForces replicaForces,
                     GroupDense groupDense) {
    /**
     * Warps per row of the warp-per-row message passes of large systems: {@code auto} (the default: 2 where one
     * warp per row would leave warp slots of the GPU empty, else 1), 1 or 2.
     */
    static final String ROW_SPLIT_PROPERTY = "molten.cuda.rowSplit";
    /**
     * Tile width of the tiled dense stages (large systems): {@code auto} (the default: 32-channel tiles where the
     * wide tiles would leave more than half the multiprocessors idle), {@code wide} or {@code narrow}.
     */
    static final String DENSE_TILES_PROPERTY = "molten.cuda.denseTiles";
    /**
     * How the stage kernels are launched ({@link KernelLauncher}): {@code auto} (the default: as programmatic
     * dependents where the GPU is sm_90 or newer and the driver has cuLaunchKernelEx, else plainly),
     * {@code programmatic} (refused where it is not available) or {@code plain}; both give identical results.
     */
    static final String LAUNCH_PROPERTY = "molten.cuda.launch";
    /**
     * The force evaluation of replica batches on the stage path (issue 29 section 3): {@code group} (the default: the
     * group kernel, a block per replica, where the batch is eligible: every replica of one atom count up to 24, no
     * periodic cell, the student's F = 128, T = 3, n_rbf = 20; DeviceSystem.groupKernel; an ineligible batch keeps the
     * stages, the reason in CudaMdEngine.replicaForces()) or {@code stages} (the neighbour search and the ~35 stage
     * kernels of the force evaluation, as before; for timing and fault-finding). Measured side by side on an H200
     * (2026-11-29, scripts/group-engine-run.sh, whole Langevin step): 1,024 ethanols 1,680.9 us on the group kernel
     * against 2,325.7 us on the stages, 256 alanine dipeptides 1,626.8 (group, tc) against 1,879.5
     * (docs/benchmarks.md). The integration, thermostat and constraint kernels are the same on both paths.
     */
    static final String REPLICA_FORCES_PROPERTY = "molten.cuda.replicaForces";
    /**
     * The dense products of the group kernel (where {@value #REPLICA_FORCES_PROPERTY} is {@code group}): {@code auto}
     * (the default, GroupPath.dense: the tensor cores for the 24-atom-slot entry on sm_80 or newer, FP32 FMAs for the
     * 12-slot entry), {@code simt} (FP32 FMAs, a thread per channel; entries k_group_n12 / k_group_n24) or {@code tc}
     * (the tensor cores, 3xTF32 mma.sync m16n8k8, float32-level accuracy; entries k_group_n12_tc, k_group_n22_tc for
     * 13..22 atoms, k_group_n24_tc; sm_80 or newer). Measured on an H200 (2026-11-29, scripts/group-engine-run.sh,
     * whole Langevin step): 1,024 ethanols (k_group_n12) simt 1,680.9 us, tc 2,085.0; 256 alanine dipeptides
     * (k_group_n24) tc 1,626.8 us, simt 1,815.6 (docs/benchmarks.md); tc's pair-loop entry later 1,481 us.
     */
    static final String GROUP_DENSE_PROPERTY = "molten.cuda.groupDense";

    /** Every property read here, with what it selects and why it exists (for {@code molten info}). */
    static final List<String[]> PROPERTIES = List.of(
            new String[] {ROW_SPLIT_PROPERTY, "auto|1|2", "warps per row of the message passes of large systems;"
                    + " auto picks 2 where one warp per row leaves warp slots empty; to time both"},
            new String[] {DENSE_TILES_PROPERTY, "auto|wide|narrow", "tile width of the dense layers of large"
                    + " systems; auto picks narrow where wide tiles leave half the multiprocessors idle; to time both"},
            new String[] {LAUNCH_PROPERTY, "auto|programmatic|plain", "stage kernels as programmatic dependents"
                    + " (sm_90, ~7 us/step less) or plain launches; auto: programmatic where available; to rule it out"},
            new String[] {REPLICA_FORCES_PROPERTY, "group|stages", "forces of replica batches: the group kernel"
                    + " (default: a block per replica where every replica has one atom count <= 24, no cell, F 128,"
                    + " T 3; else the stages, with the reason) or the stage kernels; H200, 1,024 ethanols: 1,681"
                    + " against 2,326 us a step; to time both side by side"},
            new String[] {GROUP_DENSE_PROPERTY, "auto|simt|tc", "dense products of the group kernel: FP32 FMAs or"
                    + " the tensor cores (3xTF32 mma.sync, sm_80+, entries k_group_*_tc); auto (default): tc for 13-24"
                    + " atoms (H200, 256 dipeptides: 1,627 against 1,816 us a step), simt for <= 12 (1,024 ethanols:"
                    + " 1,681 against 2,085 us); to time both side by side"});

    /** How the stage kernels are launched. */
    enum Launch { AUTO, PROGRAMMATIC, PLAIN }

    /** The force path of eligible replica batches. */
    enum ReplicaForces { GROUP, STAGES }

    /**
     * The dense products of the group kernel: the measured choice per entry (GroupPath.dense), FP32 FMAs or the
     * tensor cores (3xTF32).
     */
    enum GroupDense { AUTO, SIMT, TC }

    /** Tile width of the tiled dense layers. */
    enum DenseTiles { AUTO, WIDE, NARROW }

    /** The choices named by the system properties (defaults where unset); refuses a bad value by name. */
    static KernelChoices fromProperties() {
        String split = System.getProperty(ROW_SPLIT_PROPERTY, "auto");
        if (!List.of("auto", "1", "2").contains(split)) {
            throw new IllegalArgumentException(ROW_SPLIT_PROPERTY + " must be auto, 1 or 2, not " + split);
        }
        return new KernelChoices(split.equals("auto") ? 0 : Integer.parseInt(split),
                choice(DENSE_TILES_PROPERTY, DenseTiles.AUTO), choice(LAUNCH_PROPERTY, Launch.AUTO),
                choice(REPLICA_FORCES_PROPERTY, ReplicaForces.GROUP), choice(GROUP_DENSE_PROPERTY, GroupDense.AUTO));
    }

    /** The enum constant named (in lower case) by {@code property}, or {@code fallback} where it is unset. */
    private static <E extends Enum<E>> E choice(String property, E fallback) {
        String v = System.getProperty(property);
        if (v == null) {
            return fallback;
        }
        for (E e : fallback.getDeclaringClass().getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(v)) {
                return e;
            }
        }
        String[] names = Arrays.stream(fallback.getDeclaringClass().getEnumConstants())
                .map(e -> e.name().toLowerCase(Locale.ROOT)).toArray(String[]::new);
        throw new IllegalArgumentException(property + " must be "
                + String.join(", ", Arrays.copyOf(names, names.length - 1)) + " or " + names[names.length - 1]
                + ", not " + v);
    }
}
