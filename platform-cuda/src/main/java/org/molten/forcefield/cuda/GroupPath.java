package org.molten.forcefield.cuda;

import org.molten.core.Cell;

/**
 * Which replica batches the group kernel evaluates (molten_group.cuh: a block per replica computes its energy and
 * forces in one launch, instead of the neighbour search and the stage kernels of a force evaluation), which entry,
 * and the device memory it needs. The rule, checked in this order (the first that fails is {@link #why}):
 * <ol>
 *   <li>{@value KernelChoices#REPLICA_FORCES_PROPERTY} is {@code group} (the default since
 *       scripts/group-engine-run.sh measured both paths side by side on an H200, docs/benchmarks.md);</li>
 *   <li>the system is a replica batch (CudaMdEngine) on the stage path (not the small-molecule cluster kernel);</li>
 *   <li>no periodic cell: the kernel pairs every two atoms of a replica without minimum images (the cosine cutoff
 *       makes pairs beyond r_c contribute nothing);</li>
 *   <li>the student's shape, for which the kernel is compiled: F = 128, T = 3, n_rbf = 20 ({@link GroupWeights});</li>
 *   <li>every replica has the same atom count N (a mixed batch keeps the stages), N &lt;= {@link #MAX_ATOMS};</li>
 *   <li>the block's shared memory fits the device (the N &lt;= 24 entries need up to ~227 KB: sm_90; an A100's 163 KB,
 *       166,912 B, holds N &lt;= 16 on the pair-loop entry, 17 on k_group_n24_tc).</li>
 * </ol>
 * Entries: {@code k_group_n12} (N &lt;= 12, 128 threads, a thread per channel, row tiles of 9, the U|V products' 3N
 * rows in tiles of 14 forward and 27 backward: {@link #uvRowTiles}) and
 * {@code k_group_n24} (13..24, 256 threads, two per channel, row tiles of 11): the probe's best configurations for
 * ethanol (9 atoms) and alanine dipeptide (22): scripts/probes/group_force_probe.cu, in git history (last at commit
 * 8312246). Their tensor-core twins {@code k_group_n12_tc} / {@code k_group_n24_tc} (the dense products as 3xTF32
 * mma.sync, the probe's VTC) have the same launch shape and shared memory (k_group_n12_tc without the U|V tiles'
 * extra rows: 512 B less at 5..7 atoms); {@link #dense} picks between the two
 * ({@value KernelChoices#GROUP_DENSE_PROPERTY}).
 * <p>On the tensor cores, replicas of 13..{@value #N22_ATOMS} atoms run {@code k_group_n22_tc}: k_group_n24_tc's
 * launch shape and row tiles with the pair loops of molten_group_pairs.cuh (d rbf/dd stored once per pair, atom i's
 * sums in registers, the next pair's inputs loaded ahead), measured 1.10x faster on an H200 (256 alanine dipeptides,
 * 1,481 against 1,629 us a step, 2026-11-29; then named k_group_n24_tc_p, a timing variant; n22 names the largest
 * replica it holds, as n12 and n24 do). Its stored d rbf/dd costs 80 B of shared memory a pair, so 23 and 24 atoms
 * keep {@code k_group_n24_tc}, which also runs where a device's shared memory holds it but not k_group_n22_tc
 * ({@link #entry}, the reason in {@link #fallbackWhy}; e.g. 17 atoms on an A100). SIMT 13..24 and the 12-slot entries
 * keep group_force's own pair loops (the 12-slot entries' pair-loop variants measured slower: git history).
 */
final class GroupPath {
    /** Largest atom count of a replica the group kernels hold. */
    static final int MAX_ATOMS = 24;
    /** Largest atom count of a replica the 12-slot entries (k_group_n12, k_group_n12_tc) hold. */
    static final int N12_ATOMS = 12;
    /**
     * Largest atom count of {@code k_group_n22_tc}: its pairs hold d rbf/dd too ({@link #geoFloats}), 228,368 B of
     * shared memory a block at 22 atoms, 241,136 B at 23, above sm_90's 232,448 B.
     */
    static final int N22_ATOMS = 22;
    static final int F = GroupWeights.F;
    /** Floats a pair holds in shared memory (grp::GEO) and scratch floats per atom, layer and channel (grp::NFLD). */
    static final int GEO = 28;
    static final int NFLD = 17;

    private GroupPath() {
    }

    /** The SIMT entry for replicas of {@code atoms} atoms ({@code atoms <= MAX_ATOMS}). */
    static String kernel(int atoms) {
        return kernel(atoms, KernelChoices.GroupDense.SIMT);
    }

    /**
     * The entry for replicas of {@code atoms} atoms ({@code atoms <= MAX_ATOMS}) with the dense products of
     * {@code dense} (SIMT or TC, as {@link #dense} resolves them): the tensor-core twins ({@code _tc}) have the same
     * block size and shared memory; on the tensor cores 13..{@value #N22_ATOMS} atoms take the pair-loop entry
     * {@code k_group_n22_tc} (class comment).
     */
    static String kernel(int atoms, KernelChoices.GroupDense dense) {
        if (dense == KernelChoices.GroupDense.AUTO) {
            throw new IllegalArgumentException("resolve auto first (GroupPath.dense)");
        }
        if (dense == KernelChoices.GroupDense.SIMT) {
            return atoms <= N12_ATOMS ? "k_group_n12" : "k_group_n24";
        }
        return atoms <= N12_ATOMS ? "k_group_n12_tc" : atoms <= N22_ATOMS ? "k_group_n22_tc" : "k_group_n24_tc";
    }

    /**
     * The entry that runs instead of {@code kernel} where its shared memory exceeds the device's: k_group_n24_tc for
     * the pair-loop entry k_group_n22_tc (20 floats a pair fewer, the same launch shape), else {@code kernel}.
     */
    static String fallback(String kernel) {
        return kernel.equals("k_group_n22_tc") ? "k_group_n24_tc" : kernel;
    }

    /**
     * The entry launched for replicas of {@code atoms} atoms with the dense products {@code dense} (resolved) on a
     * device that allows {@code maxShared} bytes of shared memory a block: {@link #kernel(int,
     * KernelChoices.GroupDense)} where it fits, else its {@link #fallback}. {@link #why} checks this entry's shared
     * memory and DeviceSystem launches it: the same one.
     */
    static String entry(int atoms, KernelChoices.GroupDense dense, int maxShared) {
        String k = kernel(atoms, dense);
        return sharedBytes(k, atoms) <= maxShared ? k : fallback(k);
    }

    /**
     * Why {@link #entry} is not {@link #kernel(int, KernelChoices.GroupDense)} (its shared memory exceeds the
     * device's; replicaForces() says it beside the entry that runs), or {@code null}.
     */
    static String fallbackWhy(int atoms, KernelChoices.GroupDense dense, int maxShared) {
        String k = kernel(atoms, dense);
        if (entry(atoms, dense, maxShared).equals(k)) {
            return null;
        }
        return k + " needs " + sharedBytes(k, atoms) + " bytes of shared memory a block, the device allows "
                + maxShared;
    }

    /**
     * The dense products the group kernel runs for replicas of {@code atoms} atoms where {@code choice} is asked for on
     * a device of compute capability {@code computeMajor}.x. {@code auto}, as measured on an H200 (2026-11-29,
     * scripts/group-engine-run.sh, whole Langevin step): the tensor cores for the 24-slot entry (256 alanine dipeptides
     * on k_group_n24_tc 1,626.8 us against 1,815.6 on k_group_n24), FP32 FMAs for the 12-slot entry (1,024 ethanols on
     * k_group_n12 1,680.9 us against 2,085.0 on k_group_n12_tc); SIMT below sm_80, which has no tf32 mma.sync.
     * {@code tc} below sm_80 also runs SIMT ({@link #denseWhyNot} says why).
     */
    static KernelChoices.GroupDense dense(KernelChoices.GroupDense choice, int atoms, int computeMajor) {
        boolean tensorCores = computeMajor >= 8;
        return switch (choice) {
            case AUTO -> atoms > N12_ATOMS && tensorCores ? KernelChoices.GroupDense.TC
                    : KernelChoices.GroupDense.SIMT;
            case TC -> tensorCores ? KernelChoices.GroupDense.TC : KernelChoices.GroupDense.SIMT;
            case SIMT -> KernelChoices.GroupDense.SIMT;
        };
    }

    /**
     * Why the tensor-core entries cannot run where {@code dense} asks for them explicitly ({@code null} where they can,
     * or where SIMT or auto is asked for): tf32 mma.sync needs sm_80 (the fatbin's architectures all have it; the
     * check stays for a device that loads its compute_90 PTX, which cannot be older, and for clarity).
     */
    static String denseWhyNot(KernelChoices.GroupDense dense, int computeMajor) {
        if (dense == KernelChoices.GroupDense.TC && computeMajor < 8) {
            return KernelChoices.GROUP_DENSE_PROPERTY + "=tc needs sm_80 (tf32 mma.sync), the device has compute"
                    + " capability " + computeMajor + ".x: simt";
        }
        return null;
    }

    /** Threads a block of {@code kernel}. */
    static int threads(String kernel) {
        return kernel.startsWith("k_group_n12") ? 128 : 256;
    }

    /** Rows a dense tile of {@code kernel} holds (the template's RT; the _tc twins use the same layout). */
    static int rowTile(String kernel) {
        return kernel.startsWith("k_group_n12") ? 9 : 11;
    }

    /**
     * Rows a tile of the U|V products (the 3M Cartesian rows of v) of {@code kernel} holds, forward and backward (the
     * template's RT3 / RT3B): k_group_n12 14 and 27 (measured 3.1 % faster than tiles of 9 on an H200, 1,024
     * ethanols, 2026-11-29: molten_kernels.cu), else the dense row tile (the _tc twins' products have no row tiles).
     */
    static int[] uvRowTiles(String kernel) {
        int rt = rowTile(kernel);
        return kernel.equals("k_group_n12") ? new int[] {14, 27} : new int[] {rt, rt};
    }

    /**
     * Floats a pair holds in shared memory (grp::GEO; the pair-loop entry {@code k_group_n22_tc} also its n_rbf
     * values of d rbf/dd, grp::GEOP).
     */
    static int geoFloats(String kernel) {
        return kernel.equals("k_group_n22_tc") ? GEO + GroupWeights.N_RBF : GEO;
    }

    /**
     * Bytes of dynamic shared memory of a block of {@code kernel} for {@code m} atoms: grp::GroupLayout of
     * molten_group.cuh (keep the two equal; the kernel traps on a shortfall).
     */
    static int sharedBytes(String kernel, int m) {
        boolean priv = threads(kernel) == 256;
        int rt = rowTile(kernel);
        int[] uv = uvRowTiles(kernel);
        long p = (long) m * (m - 1) / 2;
        long mp = (long) (m + rt - 1) / rt * rt;
        long b = 7L * m * F;                       // S [M][F], V [M][3F], A [M][3F]
        long x = b + 3L * m * F + p * geoFloats(kernel) + 4 * p + ((m + 3) & ~3);
        long total = x + (priv ? 6L * m * F : 0);
        total = Math.max(total, b + mp * 3 * F);   // a partial row tile reads B's rows up to mp - 1 (3F each)
        // the U|V products' partial last tiles read rows as [3M][F] (V forward, A and B backward): b + mp3 F bounds
        // them (grp::GroupLayout; for k_group_n12 one row of F more than the dense tiles' rows at 5..7 atoms)
        long mp3 = Math.max((3L * m + uv[0] - 1) / uv[0] * uv[0], (3L * m + uv[1] - 1) / uv[1] * uv[1]);
        total = Math.max(total, b + mp3 * F);
        return (int) (4 * total);
    }

    /** Floats of backward activations a block keeps in global memory (per layer, atom and channel: 17). */
    static long scratchFloats(int atoms) {
        return (long) GroupWeights.LAYERS * atoms * NFLD * F;
    }

    /**
     * Why the group kernel does not evaluate this batch's forces, or {@code null} where it does.
     *
     * @param groupDense the dense products asked for ({@value KernelChoices#GROUP_DENSE_PROPERTY}, auto included)
     * @param computeMajor the device's compute capability, major
     * @param maxShared the device's opt-in shared memory per block, bytes
     */
    static String why(KernelChoices.ReplicaForces choice, ReplicaBuffers replicas, CudaOptions.Mode mode, Cell cell,
                      DeviceWeights dw, KernelChoices.GroupDense groupDense, int computeMajor, int maxShared) {
        if (choice != KernelChoices.ReplicaForces.GROUP) {
            return KernelChoices.REPLICA_FORCES_PROPERTY + "=" + choice.name().toLowerCase(java.util.Locale.ROOT);
        }
        if (replicas == null || mode != CudaOptions.Mode.STAGES) {
            return "not a replica batch on the stage kernels";
        }
        if (cell != null && (cell.periodic(0) || cell.periodic(1) || cell.periodic(2))) {
            return "periodic cell";
        }
        if (!GroupWeights.supports(dw)) {
            return "model shape F " + dw.f + ", T " + dw.layers + ", n_rbf " + dw.nRbf + " (the group kernel: F 128, T 3,"
                    + " n_rbf 20)";
        }
        int n = replicas.atoms(0);
        for (int r = 1; r < replicas.count; r++) {
            if (replicas.atoms(r) != n) {
                return "replicas of different sizes";
            }
        }
        if (n > MAX_ATOMS) {
            return n + " atoms a replica (the group kernel: <= " + MAX_ATOMS + ")";
        }
        return sharedWhyNot(n, dense(groupDense, n, computeMajor), maxShared);
    }

    /**
     * Why the entry launched for replicas of {@code atoms} atoms ({@link #entry}, its fallback included) does not fit a
     * device of {@code maxShared} bytes of shared memory a block, or {@code null} where it fits.
     */
    static String sharedWhyNot(int atoms, KernelChoices.GroupDense dense, int maxShared) {
        String k = entry(atoms, dense, maxShared);
        int smem = sharedBytes(k, atoms);
        return smem > maxShared ? k + ": " + smem + " bytes of shared memory a block, the device allows " + maxShared
                : null;
    }
}
