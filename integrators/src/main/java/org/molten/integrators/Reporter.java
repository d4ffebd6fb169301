package org.molten.integrators;

import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;

/**
 * An observer that a {@link Simulation} calls every {@link #intervalSteps()} steps (and once for
 * the initial state of a fresh run): an energy log, a trajectory, checkpoints, validation
 * metrics. Reporters that write files flush when asked and tell how many bytes they have written,
 * so that a checkpoint can record where each output file stood and a restart can continue the
 * files exactly from there.
 */
public interface Reporter extends Closeable {

    /** Report every this many steps (≥ 1). */
    int intervalSteps();

    /** Reports the current state of {@code simulation}. */
    void report(Simulation simulation) throws IOException;

    /** Pushes buffered output to the file; called before checkpoints, on blow-up and on close. */
    default void flush() throws IOException {
    }

    /** The output file and its flushed length, if this reporter writes one. */
    default Optional<OutputMark> outputMark() throws IOException {
        return Optional.empty();
    }

    /** The file this reporter writes, if any: named when it cannot be written. */
    default Optional<java.nio.file.Path> outputFile() {
        return Optional.empty();
    }

    /**
     * True for checkpoint writers: they run after every other reporter of the same step, so the
     * outputs they record already contain that step.
     */
    default boolean runsLast() {
        return false;
    }

    @Override
    default void close() throws IOException {
        flush();
    }
}
