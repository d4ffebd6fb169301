package org.molten.integrators.reporters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.molten.core.Checks;
import org.molten.integrators.Reporter;
import org.molten.integrators.Simulation;

/**
 * Writes a {@link org.molten.integrators.Checkpoint} every {@code intervalSteps} steps, atomically
 * over the previous one, after the other reporters of the same step have written and flushed.
 * Only states that passed the blow-up guard are reported, so the file always holds the last good
 * state.
 */
public final class CheckpointReporter implements Reporter {
    private final Path file;
    private final int intervalSteps;

    /** Checkpoints to {@code file} every {@code intervalSteps} steps. */
    public CheckpointReporter(Path file, int intervalSteps) {
        this.file = file.toAbsolutePath().normalize();
        this.intervalSteps = Checks.requirePositive(intervalSteps, "checkpoint interval (steps)");
    }

    /** The checkpoint file. */
    public Path file() {
        return file;
    }

    @Override
    public int intervalSteps() {
        return intervalSteps;
    }

    @Override
    public void report(Simulation sim) throws IOException {
        sim.checkpoint().writeAtomically(file);
    }

    @Override
    public boolean runsLast() {
        return true;
    }

    @Override
    public Optional<Path> outputFile() {
        return Optional.of(file);
    }
}
