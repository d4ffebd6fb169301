package org.molten.integrators.reporters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import org.molten.core.Checks;
import org.molten.integrators.OutputMark;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;

/**
 * Energy log as CSV with the columns of ASE's MDLogger: {@value #HEADER}. Time in ps, energies
 * in eV (8 decimals), temperature in K (2 dof convention of the simulation). Buffered; flushed
 * before checkpoints, on blow-up and on close.
 */
public final class EnergyLogReporter implements Reporter {
    /** The header line. */
    public static final String HEADER = "Time[ps],Etot[eV],Epot[eV],Ekin[eV],T[K]";

    private final Path file;
    private final int intervalSteps;
    private final BufferedWriter out;

    private EnergyLogReporter(Path file, int intervalSteps, boolean append) throws IOException {
        this.file = file.toAbsolutePath().normalize();
        this.intervalSteps = Checks.requirePositive(intervalSteps, "report interval (steps)");
        Path dir = this.file.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        boolean hasContent = append && Files.exists(this.file) && Files.size(this.file) > 0;
        this.out = Files.newBufferedWriter(this.file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
        if (!hasContent) {
            out.write(HEADER);
            out.newLine();
        }
    }

    /** A new log (an existing file is replaced) written every {@code intervalSteps} steps; {@link UncheckedIOException} if it cannot be opened. */
    public static EnergyLogReporter create(Path file, int intervalSteps) {
        return open(file, intervalSteps, false);
    }

    /**
     * A log that continues {@code file} (after a restart, once the file was rewound to the
     * checkpoint's mark); a header is written only if the file is empty or missing.
     */
    public static EnergyLogReporter appending(Path file, int intervalSteps) {
        return open(file, intervalSteps, true);
    }

    private static EnergyLogReporter open(Path file, int intervalSteps, boolean append) {
        try {
            return new EnergyLogReporter(file, intervalSteps, append);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int intervalSteps() {
        return intervalSteps;
    }

    @Override
    public void report(Simulation sim) throws IOException {
        double epot = sim.potentialEnergyEv();
        double ekin = sim.kineticEnergyEv();
        out.write(String.format(Locale.ROOT, "%.6f,%.8f,%.8f,%.8f,%.3f", sim.timeFs() / 1000.0, epot + ekin, epot, ekin,
                sim.temperatureK()));
        out.newLine();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public Optional<OutputMark> outputMark() throws IOException {
        out.flush();
        return Optional.of(OutputMark.of(file));
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
