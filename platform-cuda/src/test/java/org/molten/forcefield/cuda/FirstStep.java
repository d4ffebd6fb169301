package org.molten.forcefield.cuda;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.BuiltInMolecules;

/**
 * Device tool (scripts/gpu-startup-run.sh): how long after the JVM's start the first MD step of a molecule on the
 * GPU is done, the driver's loading of the kernels included. Run with {@code CUDA_CACHE_DISABLE=1} it is what a
 * fresh machine sees; with {@code CUDA_FORCE_PTX_JIT=1} as well, the driver ignores the fatbin's machine code and
 * compiles its PTX, as it did for the PTX-only jar before. Prints one line of milliseconds since the process
 * started: JVM in main, context and kernels loaded, first step done, 100 more steps done.
 *
 * <pre>FirstStep [molecule]</pre>
 */
public final class FirstStep {
    private FirstStep() {
    }

    public static void main(String[] args) throws Exception {
        Instant start = ProcessHandle.current().info().startInstant().orElseThrow();
        long inMain = ms(start);
        String name = args.length > 0 ? args[0] : "ethanol";
        StudentWeights w;
        try {
            w = BundledModel.weights();
        } catch (IllegalStateException notInThisBuild) {
            w = StudentWeights.random(20261121L);
        }
        Atoms a = GpuCheck.thermalise(BuiltInMolecules.load(name), 1);
        GpuAvailability.loadDriverLibrary();  // -Dmolten.cuda.driverLibrary (the emulator here); a no-op on a GPU machine
        long loaded;
        long first;
        long more;
        String mode;
        try (CudaMdEngine md = CudaMdEngine.single(w, a, new DynamicsSpec.VelocityVerlet(0.5), 1,
                CudaOptions.defaults())) {
            loaded = ms(start);
            md.runSteps(1);
            md.fetchState(a.copy());
            first = ms(start);
            md.runSteps(100);
            md.fetchState(a.copy());
            more = ms(start);
            mode = md.mode();
        }
        System.out.printf(Locale.ROOT, "first-step %s (%d atoms, %s): in main %d ms, kernels loaded %d ms, first step %d ms,"
                + " 100 more steps %d ms after the process started%n", name, a.size(), mode, inMain, loaded, first, more);
    }

    private static long ms(Instant since) {
        return Duration.between(since, Instant.now()).toMillis();
    }
}
