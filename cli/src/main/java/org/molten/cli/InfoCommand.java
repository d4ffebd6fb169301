package org.molten.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.cuda.GpuStatus;
import org.molten.forcefield.student.Nd4jSupport;
import org.molten.forcefield.student.StudentWeights;
import picocli.CommandLine.Command;

/** {@code molten info}: what is installed and which acceleration paths are active. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Show the Java runtime, the bundled model and which acceleration paths are active.")
public final class InfoCommand implements Callable<Integer> {
    @picocli.CommandLine.Option(names = "--model", paramLabel = "NAME|FILE", description = "Describe this student instead of "
            + "the bundled default: a bundled version (v5) or a safetensors file.")
    java.nio.file.Path modelFile;

    @Override
    public Integer call() throws IOException {
        System.out.printf("molten 0.1.0%n");
        System.out.printf("java     %s (%s)%n", System.getProperty("java.version"), System.getProperty("java.vendor"));
        System.out.printf("cpu      %d cores available%n", Runtime.getRuntime().availableProcessors());
        StudentWeights w = BundledModel.weights(modelFile);
        System.out.printf("model    %s: %s, species Z=%s, F=%d, T=%d, n_rbf=%d, r_c=%.2f Å, teacher %s%n",
                DomainWarning.modelName(modelFile), w.metadata().getOrDefault("architecture", "painn"),
                w.metadata().getOrDefault("species", "?"), w.hidden(), w.layers(), w.nRbf(), w.cutoffA(),
                w.metadata().getOrDefault("teacher", "unknown"));
        DomainInfo.print(w, DomainWarning.modelName(modelFile), System.out);
        // ND4J (large systems' dense layers): probe the natives, then how often a GEMM fell back to loops
        boolean nd4j = Nd4jSupport.available();
        System.out.printf("nd4j     %s (fallbacks to Java loops %d)%n", nd4j ? "loaded" : "off: " + Nd4jSupport.status(),
                Nd4jSupport.fallbackCount());
        // GPU: probe once (loads the CUDA driver and the kernels), then what this JVM has done on it
        GpuAvailability.Probe gpu = GpuAvailability.probe();
        System.out.printf("cuda     %s%n", gpu.available() ? "available: " + gpu.device()
                : "not used (" + gpu.reason() + "); the student runs on the CPU");
        String status = GpuStatus.snapshot().describe();
        if (!gpu.available()) {
            // "graphs on" is the GPU path's setting; without CUDA nothing is captured or replayed
            status = status.replaceFirst("(?m)^graphs   \\S+ ", "graphs   unavailable (CUDA not in use) ");
        }
        System.out.print(status);
        System.out.printf("cuda properties (what each selects and why it exists):%n%s", GpuAvailability.propertiesReport());
        return 0;
    }
}
