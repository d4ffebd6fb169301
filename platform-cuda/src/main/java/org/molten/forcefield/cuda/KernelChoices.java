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
     * The force evaluation of replica batches on the stage path (issue 29 section 3): {@code group} (the group
     * kernel, a block per replica, where the batch is eligible: every replica of one atom count up to 24, no periodic
     * cell, the student's F = 128, T = 3, n_rbf = 20; DeviceSystem.groupKernel) or {@code stages} (the default until
     * the group path is measured on a GPU side by side with it, scripts/group-engine-run.sh: the neighbour search and
     * the ~35 stage kernels of the force evaluation, as before). The integration, thermostat and
     * constraint kernels are the same on both paths.
     */
    static final String REPLICA_FORCES_PROPERTY = "molten.cuda.replicaForces";
    /**
     * The dense products of the group kernel (where {@value #REPLICA_FORCES_PROPERTY} is {@code group}): {@code simt}
     * (the default until measured: FP32 FMAs, a thread per channel; entries k_group_n12 / k_group_n24) or {@code tc}
     * (the tensor cores, 3xTF32 mma.sync m16n8k8, float32-level accuracy; entries k_group_n12_tc / k_group_n24_tc,
     * sm_80 or newer; emulator-checked, NOT yet measured on a GPU: scripts/group-engine-run.sh times the two).
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
            new String[] {REPLICA_FORCES_PROPERTY, "group|stages", "forces of replica batches: the group kernel (a"
                    + " block per replica, where every replica has one atom count <= 24, no cell, F 128, T 3) or the"
                    + " stage kernels (default until the group path is measured on a GPU); to time both side by side"},
            new String[] {GROUP_DENSE_PROPERTY, "simt|tc", "dense products of the group kernel: FP32 FMAs (default"
                    + " until measured) or the tensor cores (3xTF32 mma.sync, sm_80+, entries k_group_*_tc); to time"
                    + " both side by side"});

    /** How the stage kernels are launched. */
    enum Launch { AUTO, PROGRAMMATIC, PLAIN }

    /** The force path of eligible replica batches. */
    enum ReplicaForces { GROUP, STAGES }

    /** The dense products of the group kernel: FP32 FMAs or the tensor cores (3xTF32). */
    enum GroupDense { SIMT, TC }

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
                choice(REPLICA_FORCES_PROPERTY, ReplicaForces.STAGES), choice(GROUP_DENSE_PROPERTY, GroupDense.SIMT));
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
