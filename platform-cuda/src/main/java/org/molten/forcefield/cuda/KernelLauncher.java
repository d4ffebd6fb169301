package org.molten.forcefield.cuda;

import static jcuda.driver.JCudaDriver.cuLaunchKernel;

import java.util.logging.Logger;
import jcuda.driver.CUfunction;

/**
 * How the stage kernels of one device system are launched: as programmatic dependents of the kernel before them
 * ({@link ProgrammaticLaunch}, the default where the driver offers it) or plainly ({@code cuLaunchKernel}). The
 * choice is {@link KernelChoices#LAUNCH_PROPERTY}. Where {@code auto} finds no {@code cuLaunchKernelEx}, one warning
 * per JVM and plain launches; where the driver refuses a programmatic launch, one warning, that launch and every
 * later one of this system plainly. Both counted in {@link GpuStatus}. Not thread-safe (one per device system).
 */
final class KernelLauncher {
    private static final Logger LOG = Logger.getLogger(KernelLauncher.class.getName());
    private static volatile boolean warnedUnavailable;

    private final CudaContext cx;
    private final int threads;
    private ProgrammaticLaunch programmatic;  // null: plain launches

    KernelLauncher(CudaContext cx, KernelChoices.Launch choice, int threads) {
        this.cx = cx;
        this.threads = threads;
        // griddepcontrol.wait, which makes a programmatic dependent wait for the kernel before it, is compiled
        // for sm_90 only (molten_common.cuh): below it launches must be plain
        String why = cx.hopperInstructions() ? ProgrammaticLaunch.unavailableReason()
                : "the GPU (" + cx.architecture() + ") is older than sm_90";
        switch (choice) {
            case PLAIN -> programmatic = null;
            case PROGRAMMATIC -> {
                if (!why.isEmpty()) {
                    throw new IllegalStateException(KernelChoices.LAUNCH_PROPERTY + "=programmatic: " + why);
                }
                programmatic = new ProgrammaticLaunch();
            }
            case AUTO -> {
                if (why.isEmpty()) {
                    programmatic = new ProgrammaticLaunch();
                } else {
                    GpuStatus.programmaticFallback(why);
                    if (!warnedUnavailable) {
                        warnedUnavailable = true;
                        LOG.warning("programmatic dependent launch off, plain kernel launches: " + why);
                    }
                }
            }
        }
    }

    /** Whether launches go out as programmatic dependents. */
    boolean programmatic() {
        return programmatic != null;
    }

    void launch(String kernel, int grid, int smem, KernelArgs args) {
        launch(kernel, grid, threads, smem, args);
    }

    /** A launch with {@code blockThreads} threads a block (the group kernels: 128 or 256). */
    void launch(String kernel, int grid, int blockThreads, int smem, KernelArgs args) {
        CUfunction f = cx.function(kernel);
        if (programmatic != null) {
            int r = programmatic.launch(f, grid, blockThreads, smem, cx.stream(), args);
            if (r == 0) {
                GpuStatus.programmaticLaunch();
                return;
            }
            programmatic = null;
            String why = "cuLaunchKernelEx refused " + kernel + " (CUresult " + r + ")";
            GpuStatus.programmaticFallback(why);
            LOG.warning(why + "; plain kernel launches from now on for this system");
        }
        cuLaunchKernel(f, grid, 1, 1, blockThreads, 1, 1, smem, cx.stream(), args.jcuda(), null);
    }
}
