package org.molten.cli;

import java.util.concurrent.Callable;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.cuda.GpuStatus;
import picocli.CommandLine.Command;

/** {@code molten info}: what is installed and which acceleration paths are active. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Show the Java runtime, the bundled model and which acceleration paths are active.")
public final class InfoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.printf("molten 0.1.0%n");
        System.out.printf("java     %s (%s)%n", System.getProperty("java.version"), System.getProperty("java.vendor"));
        System.out.printf("cpu      %d cores available%n", Runtime.getRuntime().availableProcessors());
        // GPU: probe once (loads the CUDA driver and the kernels), then what this JVM has done on it
        GpuAvailability.Probe gpu = GpuAvailability.probe();
        System.out.printf("cuda     %s%n", gpu.available() ? "available: " + gpu.device()
                : "not used (" + gpu.reason() + "); the student runs on the CPU");
        System.out.print(GpuStatus.snapshot().describe());
        return 0;
    }
}
