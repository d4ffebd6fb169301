package org.molten.cli;

import org.molten.validation.runs.Progress;

/**
 * A validation's progress callback that ends the validation when a stop was requested: it throws
 * {@link StopRequest.Stopped} at the next progress update (every chunk of MD steps, or the start
 * of the next phase). The run in progress closes its simulation on the way out, so its energy log
 * is flushed up to the last chunk.
 */
final class StoppableProgress implements Progress {
    private final Progress inner;
    private final StopRequest stop;
    private volatile String phase = "start-up";

    StoppableProgress(Progress inner, StopRequest stop) {
        this.inner = inner;
        this.stop = stop;
    }

    /** The phase in progress ("water: optimised NVE"). */
    String phase() {
        return phase;
    }

    @Override
    public void phase(String text) {
        checkStop();
        phase = text;
        inner.phase(text);
    }

    @Override
    public void advance(long steps) {
        inner.advance(steps);
        checkStop();
    }

    private void checkStop() {
        if (stop.requested()) {
            throw new StopRequest.Stopped(stop.cause());
        }
    }

    @Override
    public void close() {
        inner.close();
    }
}
