package org.molten.integrators.reporters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.molten.core.Checks;
import org.molten.integrators.OutputMark;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;
import org.molten.structures.io.ExtendedXyzWriter;
import org.molten.structures.io.Frame;
import org.molten.structures.io.VelocityColumn;

/**
 * Extended-XYZ trajectory (readable by ASE and OVITO) written every {@code intervalSteps} steps
 * through the structures module's streaming {@link ExtendedXyzWriter}: positions (Å), velocities
 * (as ASE's momenta, which ASE's {@code get_velocities()} returns), forces (eV/Å), the potential
 * energy (eV), the cell if any, and per-frame info
 * {@code step}, {@code time_fs} and {@code seed}. Each frame is flushed when written, so a run
 * that dies keeps every frame before it.
 *
 * <p>A restarted run continues a plain-text trajectory from the checkpoint's mark; a gzip-compressed
 * one ({@code .gz}) cannot be cut back at a byte position, so it is refused for appending.
 */
public final class TrajectoryReporter implements Reporter {
    private final Path file;
    private final int intervalSteps;
    private final ExtendedXyzWriter writer;

    private TrajectoryReporter(Path file, int intervalSteps, boolean append) throws IOException {
        this.file = file.toAbsolutePath().normalize();
        this.intervalSteps = Checks.requirePositive(intervalSteps, "trajectory interval (steps)");
        Path dir = this.file.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        this.writer = append ? ExtendedXyzWriter.append(this.file, VelocityColumn.ALWAYS)
                : ExtendedXyzWriter.create(this.file, VelocityColumn.ALWAYS);
    }

    /** A new trajectory (an existing file is replaced), a frame every {@code intervalSteps} steps; {@link UncheckedIOException} if it cannot be opened. */
    public static TrajectoryReporter create(Path file, int intervalSteps) {
        return open(file, intervalSteps, false);
    }

    /**
     * Continues {@code file} after a restart (once rewound to the checkpoint's mark).
     *
     * @throws IllegalArgumentException for a gzip-compressed file, which cannot be continued
     */
    public static TrajectoryReporter appending(Path file, int intervalSteps) {
        if (isCompressed(file)) {
            throw new IllegalArgumentException("the compressed trajectory " + file + " cannot be continued after a"
                    + " restart; name a new trajectory file");
        }
        return open(file, intervalSteps, true);
    }

    /** True for a gzip-compressed name ({@code .gz}). */
    public static boolean isCompressed(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz");
    }

    private static TrajectoryReporter open(Path file, int intervalSteps, boolean append) {
        try {
            return new TrajectoryReporter(file, intervalSteps, append);
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
        Map<String, String> info = new LinkedHashMap<>();
        info.put("step", Long.toString(sim.stepCount()));
        info.put("time_fs", Double.toString(sim.timeFs()));
        sim.seed().ifPresent(s -> info.put("seed", Long.toString(s)));
        writer.write(Frame.of(sim.atoms(), sim.potentialEnergyEv(), sim.forces()).withInfo(info));
    }

    @Override
    public Optional<OutputMark> outputMark() throws IOException {
        // Frames are flushed as they are written; a compressed file has no usable byte mark.
        return isCompressed(file) ? Optional.empty() : Optional.of(OutputMark.of(file));
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    @Override
    public Optional<Path> outputFile() {
        return Optional.of(file);
    }
}
