package org.molten.forcefield.cuda;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which variant of each stage kernel a device system uses, read from system properties when the system is set
 * up. Every choice has a measured default (docs/benchmarks.md) and exists so that the variants can be timed side
 * by side on the same GPU in one run; a misspelt value is refused with the property's name and the values it
 * takes, never ignored. The K splits of the tiled dense layers are chosen by {@link DenseSplit}.
 *
 * @param messagePass     message passes of the stage kernels ({@value #MESSAGE_PASS_PROPERTY})
 * @param rowSplit        warps per row of the warp-per-row passes, 0 = automatic ({@value #ROW_SPLIT_PROPERTY})
 * @param denseTiles      tile width of the tiled dense layers ({@value #DENSE_TILES_PROPERTY})
 * @param backwardEdges   directed edges per row of the warp-per-row backward pass ({@value #BACKWARD_EDGES_PROPERTY})
 * @param filterLoads     filter-weight loads of the warp-per-row passes ({@value #FILTER_LOADS_PROPERTY})
 * @param moleculeKernel  entry of the small-molecule kernel ({@value #MOLECULE_KERNEL_PROPERTY})
 * @param launch          how the stage kernels are launched ({@value #LAUNCH_PROPERTY})
 */
record KernelChoices(MessagePass messagePass, int rowSplit, DenseTiles denseTiles, BackwardEdges backwardEdges,
                     FilterLoads filterLoads, String moleculeKernel, Launch launch) {
    /**
     * Message passes of the stage kernels: {@code auto} (the default: warp-per-row kernels, molten_msg_rows.cuh,
     * on the large-system path, i.e. from {@link CudaOptions#largeSystemAtoms()}, block-per-row kernels below),
     * {@code rows} (warp-per-row at every size) or {@code block} (block-per-row at every size).
     */
    static final String MESSAGE_PASS_PROPERTY = "molten.cuda.messagePass";
    /** Warps per row of the warp-per-row message passes: {@code auto} (the default), 1 or 2. */
    static final String ROW_SPLIT_PROPERTY = "molten.cuda.rowSplit";
    /**
     * Tile width of the tiled dense stages (large systems): {@code auto} (the default: 32-channel tiles where the
     * wide tiles would leave more than half the multiprocessors idle), {@code wide} or {@code narrow}.
     */
    static final String DENSE_TILES_PROPERTY = "molten.cuda.denseTiles";
    /**
     * Directed edges the warp-per-row backward message pass computes per row: {@code auto} (the default, =
     * {@code source}), {@code source} (row a computes only the edges whose source is a, k_msg_bwd_rs; the force
     * stage k_forces_rs adds each pair's other edge from the partner's row, found by binary search) or {@code both}
     * (row a computes both edges of each pair, k_msg_bwd_r, twice the edge work). The block-per-row kernels and the
     * megakernels always compute both.
     */
    static final String BACKWARD_EDGES_PROPERTY = "molten.cuda.backwardEdges";
    /**
     * How the warp-per-row message passes (forward, and the source-edge backward) load the radial filter's
     * weights: {@code shared} (the default: once for the union of the windows of a slot batch, forward, or of a
     * pair of slots, backward) or {@code slot} (once per slot and window term); both give identical results.
     */
    static final String FILTER_LOADS_PROPERTY = "molten.cuda.filterLoads";
    /**
     * Entry of the small-molecule kernel: {@code k_small_c16} (exchange through st.async and mbarriers, 256
     * threads per block, the default), {@code k_small_bar_c16} (a cluster barrier per exchange) or
     * {@code k_small_t512_c16} (as the default at 512 threads per block, measured slower); all three give the same
     * results bit for bit.
     */
    static final String MOLECULE_KERNEL_PROPERTY = "molten.cuda.moleculeKernel";

    /**
     * How the stage kernels are launched ({@link KernelLauncher}): {@code auto} (the default: as programmatic
     * dependents where the driver has cuLaunchKernelEx, else plainly), {@code programmatic} (refused where it is
     * not available) or {@code plain}; both give identical results.
     */
    static final String LAUNCH_PROPERTY = "molten.cuda.launch";

    /** How the stage kernels are launched. */
    enum Launch { AUTO, PROGRAMMATIC, PLAIN }

    /** Message passes of the stage kernels. */
    enum MessagePass { AUTO, ROWS, BLOCK }

    /** Tile width of the tiled dense layers. */
    enum DenseTiles { AUTO, WIDE, NARROW }

    /** Directed edges per row of the warp-per-row backward pass. */
    enum BackwardEdges { AUTO, SOURCE, BOTH }

    /** Filter-weight loads of the warp-per-row message passes. */
    enum FilterLoads { SHARED, SLOT }

    private static final List<String> MOLECULE_KERNELS = List.of("k_small_c16", "k_small_bar_c16", "k_small_t512_c16");

    /** The choices named by the system properties (defaults where unset); refuses a bad value by name. */
    static KernelChoices fromProperties() {
        String split = System.getProperty(ROW_SPLIT_PROPERTY, "auto");
        if (!List.of("auto", "1", "2").contains(split)) {
            throw new IllegalArgumentException(ROW_SPLIT_PROPERTY + " must be auto, 1 or 2, not " + split);
        }
        String molecule = System.getProperty(MOLECULE_KERNEL_PROPERTY, MOLECULE_KERNELS.get(0));
        if (!MOLECULE_KERNELS.contains(molecule)) {
            throw new IllegalArgumentException(MOLECULE_KERNEL_PROPERTY + " must be " + String.join(", ",
                    MOLECULE_KERNELS.subList(0, 2)) + " or " + MOLECULE_KERNELS.get(2) + ", not " + molecule);
        }
        return new KernelChoices(choice(MESSAGE_PASS_PROPERTY, MessagePass.AUTO),
                split.equals("auto") ? 0 : Integer.parseInt(split),
                choice(DENSE_TILES_PROPERTY, DenseTiles.AUTO),
                choice(BACKWARD_EDGES_PROPERTY, BackwardEdges.AUTO),
                choice(FILTER_LOADS_PROPERTY, FilterLoads.SHARED), molecule, choice(LAUNCH_PROPERTY, Launch.AUTO));
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
